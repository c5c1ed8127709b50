import Foundation

/// The bytes of a glTF buffer (`buffers[0]`, the GLB BIN chunk) kept as the pieces it was built from,
/// one after another, rather than copied into one block: a Float32 or Int16 accessor's piece is the
/// array of its values itself (on a little-endian machine its memory is the little-endian bytes glTF
/// stores, §3.6.2.2), so building a 10-minute match's scene does not hold its 67 MB of animation data
/// twice (the samples and a copy), and the writers write the pieces in order without joining them
/// (`GLTFWriter.writeGLB`).
///
/// Two values are equal when their bytes are, however they are split.
public struct GLTFBinary: Sendable, Equatable {
  /// One piece of the buffer.
  enum Piece: Sendable {
    case data(Data)
    /// Float32 values, stored as their little-endian bit patterns.
    case floats([Float])
    /// Int16 values, little-endian.
    case shorts([Int16])
    /// This many zero bytes (alignment padding).
    case zeros(Int)
  }

  private(set) var pieces: [Piece] = []
  /// Length in bytes.
  public private(set) var count = 0

  /// No bytes.
  public init() {}

  /// The bytes of `data`.
  public init(_ data: Data) {
    if !data.isEmpty { append(data) }
  }

  /// Appends `data`.
  public mutating func append(_ data: Data) { append(.data(data), bytes: data.count) }

  /// Appends the little-endian Float32 bytes of `values`, keeping the array itself where the machine is
  /// little-endian (no copy).
  public mutating func append(_ values: [Float]) {
    #if _endian(little)
      append(.floats(values), bytes: 4 * values.count)
    #else
      append(Self.littleEndian(values.map(\.bitPattern)))
    #endif
  }

  /// Appends the little-endian bytes of `values`, keeping the array itself where the machine is
  /// little-endian (no copy).
  public mutating func append(_ values: [Int16]) {
    #if _endian(little)
      append(.shorts(values), bytes: 2 * values.count)
    #else
      append(Self.littleEndian(values))
    #endif
  }

  /// The little-endian bytes of `values` (for big-endian machines).
  static func littleEndian<T: FixedWidthInteger>(_ values: [T]) -> Data {
    var out = Data(capacity: values.count * MemoryLayout<T>.size)
    for v in values { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
    return out
  }

  /// Appends zero bytes until the length is a multiple of `alignment`.
  public mutating func pad(toMultipleOf alignment: Int) {
    let extra = (alignment - count % alignment) % alignment
    if extra > 0 { append(.zeros(extra), bytes: extra) }
  }

  private mutating func append(_ piece: Piece, bytes: Int) {
    guard bytes > 0 else { return }
    pieces.append(piece)
    count += bytes
  }

  /// Calls `body` with each piece's bytes in order (zero padding in blocks of at most 4 KB).
  public func forEachPiece(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
    for piece in pieces {
      switch piece {
      case .data(let d): try d.withUnsafeBytes(body)
      case .floats(let v): try v.withUnsafeBytes(body)
      case .shorts(let v): try v.withUnsafeBytes(body)
      case .zeros(var n):
        try withUnsafeTemporaryAllocation(byteCount: min(n, 4096), alignment: 1) { zeros in
          zeros.initializeMemory(as: UInt8.self, repeating: 0)
          while n > 0 {
            try body(UnsafeRawBufferPointer(rebasing: zeros[..<min(n, zeros.count)]))
            n -= min(n, zeros.count)
          }
        }
      }
    }
  }

  /// The bytes joined into one `Data` (a copy).
  public var data: Data {
    var out = Data(capacity: count)
    forEachPiece { out.append(contentsOf: $0) }
    return out
  }

  public static func == (a: GLTFBinary, b: GLTFBinary) -> Bool { a.count == b.count && a.data == b.data }
}
