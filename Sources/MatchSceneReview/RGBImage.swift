import Foundation

/// An 8-bit RGB image (rows top to bottom, `rgb24` in ffmpeg's terms) with the few shapes the video
/// overlay draws: filled discs, thick line segments, rings. Coordinates are pixels, x right, y down,
/// the centre of pixel (i, j) at (i + 0.5, j + 0.5) as in SVG; shapes are clipped to the image.
public struct RGBImage: Sendable, Equatable {
  public var width: Int
  public var height: Int
  /// `3 · width · height` bytes.
  public var bytes: [UInt8]

  public init(width: Int, height: Int, bytes: [UInt8]) {
    precondition(bytes.count == 3 * width * height, "an RGB image of \(width) × \(height) needs \(3 * width * height) bytes")
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// The pixel (r, g, b) at column `x`, row `y`.
  public subscript(x: Int, y: Int) -> SIMD3<UInt8> {
    let i = 3 * (y * width + x)
    return SIMD3(bytes[i], bytes[i + 1], bytes[i + 2])
  }

  /// Paints the pixels whose centres lie within `radius` of `center`.
  public mutating func fillDisc(center: SIMD2<Double>, radius: Double, color: SIMD3<UInt8>) {
    paint(from: center, to: center, radius: radius, color: color)
  }

  /// Paints the pixels whose centres lie within `width / 2` of the segment `a`–`b` (round caps).
  public mutating func drawLine(from a: SIMD2<Double>, to b: SIMD2<Double>, width: Double, color: SIMD3<UInt8>) {
    paint(from: a, to: b, radius: width / 2, color: color)
  }

  /// Paints the pixels whose centres lie between `radius − thickness / 2` and `radius + thickness / 2`
  /// of `center`.
  public mutating func drawRing(center: SIMD2<Double>, radius: Double, thickness: Double, color: SIMD3<UInt8>) {
    let outer = radius + thickness / 2, inner = max(0, radius - thickness / 2)
    guard let box = box(near: center, center, margin: outer) else { return }
    for y in box.rows {
      for x in box.columns {
        let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
        let d = ((p - center) * (p - center)).sum().squareRoot()
        if d >= inner && d <= outer { set(x, y, color) }
      }
    }
  }

  /// Pixels within `radius` of the segment `a`–`b`.
  private mutating func paint(from a: SIMD2<Double>, to b: SIMD2<Double>, radius: Double, color: SIMD3<UInt8>) {
    let ab = b - a, length2 = (ab * ab).sum()
    guard let box = box(near: a, b, margin: radius) else { return }
    for y in box.rows {
      for x in box.columns {
        let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
        let t = length2 > 0 ? min(1, max(0, ((p - a) * ab).sum() / length2)) : 0
        let q = a + t * ab - p
        if (q * q).sum() <= radius * radius { set(x, y, color) }
      }
    }
  }

  /// The pixels of the bounding box of `a`, `b` widened by `margin`, clipped to the image; nil when empty.
  private func box(near a: SIMD2<Double>, _ b: SIMD2<Double>, margin: Double) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
    guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, margin.isFinite else { return nil }
    // Clamped before converting, so that a far-off (but finite) point cannot overflow Int.
    func clamp(_ v: Double, _ limit: Int) -> Int { Int(min(max(v, -1), Double(limit + 1)).rounded(.down)) }
    let x0 = max(0, clamp(min(a.x, b.x) - margin, width)), x1 = min(width - 1, clamp(max(a.x, b.x) + margin, width))
    let y0 = max(0, clamp(min(a.y, b.y) - margin, height)), y1 = min(height - 1, clamp(max(a.y, b.y) + margin, height))
    guard x0 <= x1, y0 <= y1 else { return nil }
    return (y0...y1, x0...x1)
  }

  private mutating func set(_ x: Int, _ y: Int, _ color: SIMD3<UInt8>) {
    let i = 3 * (y * width + x)
    bytes[i] = color.x
    bytes[i + 1] = color.y
    bytes[i + 2] = color.z
  }
}
