import Foundation

/// The packed form of the review app's motion (`ReviewMotion`), in chunks of frames that the page decodes
/// one at a time: the chunk holding the first frame shown before the scene is drawn, the rest while the
/// page is idle.
///
/// Positions (Int16 millimetres) are coded per point and axis as the residual of a linear prediction from
/// the two values before (the second difference, `x[k] − (2·x[k−1] − x[k−2])`; the first value against 0,
/// the second against the first), one signed nibble for a residual in −7…7, else nibble 8 and the value
/// itself as four nibbles (UInt16 bits, least significant first). Nibbles fill each byte low half first;
/// a chunk's series follow one another (point by point, x, y, z). Smooth 60 fps motion has 99 % of its
/// second differences within ±7 mm: 600 s of two players, a bystander and the ball take 2.9 MB against
/// 11.2 MB as plain Int16. Visibility is a bit per frame and point (frame-major, bit k of a chunk in
/// byte k/8, least significant bit first).
public enum ReviewMotionCodec {
  /// Frames per chunk (10 s at 60 fps).
  public static let chunkFrames = 600

  /// - Parameters:
  ///   - positions: frame-major, `(f * points + p) * 3 + a`.
  ///   - visible: frame-major, `f * points + p`, 1 where the point has data.
  /// - Returns: per chunk, the positions' and the visibility's bytes.
  public static func encode(positions: [Int16], visible: [UInt8], frames: Int, points: Int, chunkFrames: Int = chunkFrames)
    -> [(positions: Data, visible: Data)]
  {
    precondition(positions.count == frames * points * 3 && visible.count == frames * points && chunkFrames > 0)
    var chunks: [(positions: Data, visible: Data)] = []
    var f0 = 0
    while f0 < frames {
      let count = min(chunkFrames, frames - f0)
      var nibbles = NibbleWriter()
      for p in 0..<points {
        for a in 0..<3 {
          var x1 = 0, x2 = 0
          for k in 0..<count {
            let x = Int(positions[((f0 + k) * points + p) * 3 + a])
            let predicted = k == 0 ? 0 : k == 1 ? x1 : 2 * x1 - x2
            let residual = x - predicted
            if (-7...7).contains(residual) {
              nibbles.put(residual & 15)
            } else {
              nibbles.put(8)
              let bits = Int(UInt16(bitPattern: Int16(x)))
              for shift in stride(from: 0, to: 16, by: 4) { nibbles.put((bits >> shift) & 15) }
            }
            x2 = x1
            x1 = x
          }
        }
      }
      var bits = [UInt8](repeating: 0, count: (count * points + 7) / 8)
      for k in 0..<(count * points) where visible[f0 * points + k] != 0 { bits[k >> 3] |= 1 << UInt8(k & 7) }
      chunks.append((Data(nibbles.bytes), Data(bits)))
      f0 += count
    }
    return chunks
  }

  /// The inverse of `encode` (the page's decoder in Swift): frame-major positions and visibility.
  /// - Throws: `ReviewSceneSplit.Failure` when a chunk is shorter than its frames need.
  public static func decode(_ chunks: [(positions: Data, visible: Data)], frames: Int, points: Int, chunkFrames: Int = chunkFrames) throws
    -> (positions: [Int16], visible: [UInt8])
  {
    var positions = [Int16](repeating: 0, count: frames * points * 3)
    var visible = [UInt8](repeating: 0, count: frames * points)
    for (c, chunk) in chunks.enumerated() {
      let f0 = c * chunkFrames, count = min(chunkFrames, frames - f0)
      guard count > 0 else { break }
      let bytes = [UInt8](chunk.positions)
      var q = 0
      func nibble() throws -> Int {
        guard q >> 1 < bytes.count else { throw ReviewSceneSplit.Failure(description: "motion chunk \(c) ends early") }
        let b = Int(bytes[q >> 1])
        defer { q += 1 }
        return q & 1 == 1 ? b >> 4 : b & 15
      }
      for p in 0..<points {
        for a in 0..<3 {
          var x1 = 0, x2 = 0
          for k in 0..<count {
            let predicted = k == 0 ? 0 : k == 1 ? x1 : 2 * x1 - x2
            let v = try nibble()
            var x: Int
            if v == 8 {
              x = 0
              for shift in stride(from: 0, to: 16, by: 4) { x |= try nibble() << shift }
              x = Int(Int16(bitPattern: UInt16(x)))
            } else {
              x = predicted + (v >= 8 ? v - 16 : v)
            }
            positions[((f0 + k) * points + p) * 3 + a] = Int16(x)
            x2 = x1
            x1 = x
          }
        }
      }
      let bits = [UInt8](chunk.visible)
      guard bits.count >= (count * points + 7) / 8 else { throw ReviewSceneSplit.Failure(description: "visibility chunk \(c) ends early") }
      for k in 0..<(count * points) { visible[f0 * points + k] = (bits[k >> 3] >> UInt8(k & 7)) & 1 }
    }
    return (positions, visible)
  }
}

/// Half-bytes, packed low half first.
private struct NibbleWriter {
  var bytes: [UInt8] = []
  private var half = false
  mutating func put(_ v: Int) {
    if half { bytes[bytes.count - 1] |= UInt8(v & 15) << 4 } else { bytes.append(UInt8(v & 15)) }
    half.toggle()
  }
}
