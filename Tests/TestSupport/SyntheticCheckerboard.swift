import Foundation

/// Checkerboard images rendered for calibration tests: a board of `columns` × `rows` inner corners,
/// `square` metres apart, with a one-square white margin, seen by a distortion-free pinhole camera (fx, fy,
/// cx, cy; pixel centres at integer coordinates as in OpenCV) from a given pose, on a grey background;
/// anti-aliased by 4 × 4 supersampling of the pixels an edge crosses. Written as binary PGM (P5), which
/// OpenCV reads.
public struct SyntheticCheckerboard: Sendable {
  public var columns = 7
  public var rows = 4
  public var square = 0.06
  public var width = 640
  public var height = 480
  public var fx = 600.0, fy = 600.0, cx = 317.5, cy = 243.0

  public init() {}

  /// A board pose: rotation about the board's x then y axis (degrees) and the board's origin (its first
  /// inner corner) in the camera frame (metres).
  public struct Pose: Sendable {
    public var tiltX: Double, tiltY: Double, spin: Double
    public var origin: SIMD3<Double>
    public init(tiltX: Double, tiltY: Double, spin: Double = 0, origin: SIMD3<Double>) {
      self.tiltX = tiltX
      self.tiltY = tiltY
      self.spin = spin
      self.origin = origin
    }
  }

  /// Eight varied views of the default board at about 0.8–1 m.
  public static let views: [Pose] = [
    Pose(tiltX: 20, tiltY: 0, origin: SIMD3(-0.22, -0.12, 0.85)),
    Pose(tiltX: -20, tiltY: 10, origin: SIMD3(-0.25, -0.15, 0.9)),
    Pose(tiltX: 0, tiltY: 30, origin: SIMD3(-0.2, -0.1, 0.8)),
    Pose(tiltX: 10, tiltY: -30, origin: SIMD3(-0.15, -0.12, 0.95)),
    Pose(tiltX: 25, tiltY: 20, spin: 10, origin: SIMD3(-0.28, -0.18, 1.0)),
    Pose(tiltX: -25, tiltY: -15, spin: -8, origin: SIMD3(-0.18, -0.05, 0.9)),
    Pose(tiltX: 15, tiltY: -20, spin: 5, origin: SIMD3(-0.3, -0.2, 1.05)),
    Pose(tiltX: -10, tiltY: 25, spin: -12, origin: SIMD3(-0.1, -0.15, 0.85)),
  ]

  /// Rows of the rotation camFromBoard for a pose.
  public func rotation(_ pose: Pose) -> [[Double]] {
    func rx(_ a: Double) -> [[Double]] { [[1, 0, 0], [0, cos(a), -sin(a)], [0, sin(a), cos(a)]] }
    func ry(_ a: Double) -> [[Double]] { [[cos(a), 0, sin(a)], [0, 1, 0], [-sin(a), 0, cos(a)]] }
    func rz(_ a: Double) -> [[Double]] { [[cos(a), -sin(a), 0], [sin(a), cos(a), 0], [0, 0, 1]] }
    func mul(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
      (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }
    let d = Double.pi / 180
    return mul(mul(rx(pose.tiltX * d), ry(pose.tiltY * d)), rz(pose.spin * d))
  }

  /// The pixel of board point (x, y, 0) seen from `pose`.
  public func project(_ x: Double, _ y: Double, pose: Pose) -> SIMD2<Double> {
    let r = rotation(pose)
    let p = (0..<3).map { r[$0][0] * x + r[$0][1] * y + pose.origin[$0] }
    return SIMD2(fx * p[0] / p[2] + cx, fy * p[1] / p[2] + cy)
  }

  /// The image of the board from `pose`: width × height grey levels, row-major.
  /// - Parameter blur: box-blur radius in pixels applied afterwards (0: none).
  public func render(_ pose: Pose, blur: Int = 0) -> [UInt8] {
    let r = rotation(pose)
    // Pixel (u, v) → board plane: solve the ray through the normalised point against z_board = 0.
    // The plane's normal in the camera frame is the board's z axis (third column of r).
    let n = SIMD3(r[0][2], r[1][2], r[2][2])
    let o = pose.origin
    let ex = SIMD3(r[0][0], r[1][0], r[2][0]), ey = SIMD3(r[0][1], r[1][1], r[2][1])
    func shade(_ u: Double, _ v: Double) -> Double {
      let ray = SIMD3((u - cx) / fx, (v - cy) / fy, 1)
      let s = (n * o).sum() / (n * ray).sum()
      guard s > 0 else { return 100 }
      let q = ray * s - o
      let (x, y) = ((q * ex).sum() / square, (q * ey).sum() / square)
      // Squares i in 0…columns, j in 0…rows; a one-square white margin; grey beyond.
      guard x >= -2, y >= -2, x < Double(columns) + 1, y < Double(rows) + 1 else { return 100 }
      let i = Int((x + 1).rounded(.down)), j = Int((y + 1).rounded(.down))
      guard i >= 0, j >= 0, i <= columns, j <= rows else { return 245 }
      return (i + j) % 2 == 0 ? 20 : 235
    }
    // Shades at the pixels' corners (u ± ½, v ± ½) decide which pixels need supersampling.
    let w1 = width + 1
    var corners = [Double](repeating: 0, count: w1 * (height + 1))
    for v in 0...height { for u in 0...width { corners[v * w1 + u] = shade(Double(u) - 0.5, Double(v) - 0.5) } }
    var image = [Double](repeating: 0, count: width * height)
    for v in 0..<height {
      for u in 0..<width {
        let c = [corners[v * w1 + u], corners[v * w1 + u + 1], corners[(v + 1) * w1 + u], corners[(v + 1) * w1 + u + 1]]
        if c.allSatisfy({ $0 == c[0] }) {
          image[v * width + u] = c[0]
          continue
        }
        var sum = 0.0
        for a in 0..<4 { for b in 0..<4 { sum += shade(Double(u) - 0.5 + (Double(a) + 0.5) / 4, Double(v) - 0.5 + (Double(b) + 0.5) / 4) } }
        image[v * width + u] = sum / 16
      }
    }
    if blur > 0 { image = boxBlur(image, radius: blur) }
    return image.map { UInt8(max(0, min(255, $0.rounded()))) }
  }

  func boxBlur(_ image: [Double], radius: Int) -> [Double] {
    var out = image
    for _ in 0..<2 {
      let src = out
      for v in 0..<height {
        for u in 0..<width {
          var sum = 0.0, count = 0.0
          for d in -radius...radius {
            let x = min(width - 1, max(0, u + d))
            sum += src[v * width + x]
            count += 1
          }
          out[v * width + u] = sum / count
        }
      }
      let src2 = out
      for v in 0..<height {
        for u in 0..<width {
          var sum = 0.0, count = 0.0
          for d in -radius...radius {
            let y = min(height - 1, max(0, v + d))
            sum += src2[y * width + u]
            count += 1
          }
          out[v * width + u] = sum / count
        }
      }
    }
    return out
  }

  /// Writes `pixels` (from `render`) as a binary PGM file.
  public func writePGM(_ pixels: [UInt8], to url: URL) throws {
    var data = Data("P5\n\(width) \(height)\n255\n".utf8)
    data.append(contentsOf: pixels)
    try data.write(to: url)
  }

  /// A folder of camera subfolders (`int_<name>_img`) each with the eight views; `blurred` lists
  /// (camera, view index) pairs rendered blurred.
  public func writeIntrinsicsFolder(_ folder: URL, cameras: [String], blurred: Set<String> = [], views: Int = 8) throws {
    for name in cameras {
      let sub = folder.appendingPathComponent("int_\(name)_img")
      try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
      for (k, pose) in Self.views.prefix(views).enumerated() {
        let file = "\(name)_" + String(format: "%02d.pgm", k + 1)
        let pixels = render(pose, blur: blurred.contains("\(name)/\(k + 1)") ? 30 : 0)
        try writePGM(pixels, to: sub.appendingPathComponent(file))
      }
    }
  }
}
