/// UTF-8 text built byte by byte, for writers of large tables (a million-row `tracks.csv`) where
/// `String(format:)` and string interpolation per field dominate the run time.
///
/// Fixed-point numbers are exact: `appendFixed(x, decimals: n)` writes the decimal digits of
/// `(x · 10ⁿ).rounded()` (ties away from zero), so the text reads back within 0.5 · 10⁻ⁿ (plus the
/// rounding of `x · 10ⁿ`, below 1e-16 relative).
public struct TextBuffer {
  public private(set) var bytes: [UInt8] = []

  public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  /// The text as a `String`.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  /// Empties the buffer, keeping its capacity (for rendering a large file in pieces).
  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  public mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }
  public mutating func append(_ s: Substring) { bytes.append(contentsOf: s.utf8) }
  public mutating func append(byte: UInt8) { bytes.append(byte) }

  /// A decimal integer.
  public mutating func append(_ i: Int) {
    if i < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(UInt64(i.magnitude), minimumCount: 1)
  }

  /// `x` with exactly `decimals` digits after the point (`-0.500000`), or with trailing zeros and a
  /// bare point removed when `trimZeros` (`-0.5`, `3`). Non-finite values and magnitudes at or above
  /// 1e15 fall back to Swift's shortest round-trip form (`inf`, `1e+20`).
  public mutating func appendFixed(_ x: Double, decimals: Int, trimZeros: Bool = false) {
    precondition((0...9).contains(decimals), "0 to 9 decimals")
    let scaled = (x * Self.powersOfTen[decimals]).rounded()
    guard x.isFinite, abs(x) < 1e15, abs(scaled) < 9e15 else {
      append("\(x)")
      return
    }
    var magnitude = UInt64(abs(scaled))
    if scaled < 0 { bytes.append(UInt8(ascii: "-")) }  // `-0.000000` is never written: scaled is ±0 then
    var decimals = decimals
    if trimZeros {
      while decimals > 0 && magnitude % 10 == 0 {
        magnitude /= 10
        decimals -= 1
      }
    }
    let divisor = Self.integerPowersOfTen[decimals]
    appendDigits(magnitude / divisor, minimumCount: 1)
    if decimals > 0 {
      bytes.append(UInt8(ascii: "."))
      appendDigits(magnitude % divisor, minimumCount: decimals)
    }
  }

  /// The decimal digits of `value`, left-padded with zeros to `minimumCount` (at most 24 characters).
  mutating func appendDigits(_ value: UInt64, minimumCount: Int) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, no heap; 2⁶⁴ has 20 digits
    withUnsafeMutableBytes(of: &digits) { raw in
      // Written from the end, so that the digits are appended in one copy, not byte by byte.
      let scratch = raw.bindMemory(to: UInt8.self)
      var start = scratch.count
      var v = value
      repeat {
        start -= 1
        scratch[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
        v /= 10
      } while v > 0
      while scratch.count - start < minimumCount && start > 0 {
        start -= 1
        scratch[start] = UInt8(ascii: "0")
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[start...]))
    }
  }

  static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
  static let integerPowersOfTen: [UInt64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]
}

extension TextBuffer {
  /// `x` as fixed-point text (see `appendFixed`).
  static func fixed(_ x: Double, decimals: Int, trimZeros: Bool = false) -> String {
    var buffer = TextBuffer(capacity: 24)
    buffer.appendFixed(x, decimals: decimals, trimZeros: trimZeros)
    return buffer.string
  }
}
