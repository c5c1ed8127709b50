internal import CTriangulation
import MatchSceneCore

extension Camera {
  /// Pixel of a world point, lens distortion included; nil when the point is behind the camera
  /// (or the camera record is invalid).
  public func project(_ pointWorld: SIMD3<Double>) -> SIMD2<Double>? {
    project([pointWorld])[0]
  }

  /// Pixels of many world points in one kernel call; nil entries for points behind the camera.
  public func project(_ pointsWorld: [SIMD3<Double>]) -> [SIMD2<Double>?] {
    let n = pointsWorld.count
    if n == 0 { return [] }
    var flat = [Double](repeating: 0, count: 3 * n)
    for (i, p) in pointsWorld.enumerated() {
      flat[3 * i] = p.x
      flat[3 * i + 1] = p.y
      flat[3 * i + 2] = p.z
    }
    var pixels = [Double](repeating: 0, count: 2 * n)
    var status = [Int32](repeating: 0, count: n)
    let record = shimRecord
    let call = mstri_project_points(record, flat, n, &pixels, &status)
    guard call == MSTRI_OK else { return [SIMD2<Double>?](repeating: nil, count: n) }
    return (0..<n).map { status[$0] == MSTRI_OK.rawValue ? SIMD2(pixels[2 * $0], pixels[2 * $0 + 1]) : nil }
  }

  /// Whether a pixel lies inside the image, at least `margin` pixels from its border.
  public func contains(_ pixel: SIMD2<Double>, margin: Double = 0) -> Bool {
    pixel.x >= -0.5 + margin && pixel.y >= -0.5 + margin
      && pixel.x <= Double(imageSize.width) - 0.5 - margin
      && pixel.y <= Double(imageSize.height) - 0.5 - margin
  }

  /// Applies the lens model: normalised undistorted coordinates (z = 1 plane) → pixels.
  public func distort(_ normalised: [SIMD2<Double>]) throws -> [SIMD2<Double>] {
    let n = normalised.count
    if n == 0 { return [] }
    var flat = normalised.flatMap { [$0.x, $0.y] }
    try Shim.check(mstri_distort_points(shimRecord, flat, n, &flat), "distort points of camera \(name)")
    return (0..<n).map { SIMD2(flat[2 * $0], flat[2 * $0 + 1]) }
  }

  /// Inverts the lens model: pixels → normalised undistorted coordinates; nil where the solver does
  /// not converge (a pixel beyond the region where the distortion polynomial is invertible).
  public func undistort(_ pixels: [SIMD2<Double>]) throws -> [SIMD2<Double>?] {
    let n = pixels.count
    if n == 0 { return [] }
    let flat = pixels.flatMap { [$0.x, $0.y] }
    var out = [Double](repeating: 0, count: 2 * n)
    var status = [Int32](repeating: 0, count: n)
    try Shim.check(mstri_undistort_points(shimRecord, flat, n, &out, &status), "undistort points of camera \(name)")
    return (0..<n).map { status[$0] == MSTRI_OK.rawValue ? SIMD2(out[2 * $0], out[2 * $0 + 1]) : nil }
  }
}
