internal import CTriangulation
import MatchSceneCore

extension Camera {
  /// Pixel of a world point, lens distortion included; nil when the point is behind the camera
  /// (or the camera record is invalid).
  public func project(_ pointWorld: SIMD3<Double>) -> SIMD2<Double>? {
    // The same kernel call as for many points, without the arrays (this is called per joint and view).
    let point = (pointWorld.x, pointWorld.y, pointWorld.z)
    var pixel = (0.0, 0.0)
    var status: Int32 = 0
    let call = withShimRecord { record in
      withUnsafeBytes(of: point) { p in
        withUnsafeMutableBytes(of: &pixel) { out in
          mstri_project_points(
            record, p.baseAddress!.assumingMemoryBound(to: Double.self), 1,
            out.baseAddress!.assumingMemoryBound(to: Double.self), &status)
        }
      }
    }
    guard call == MSTRI_OK, status == MSTRI_OK.rawValue else { return nil }
    return SIMD2(pixel.0, pixel.1)
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

  /// Pixels of a pose's joints (nil joints, and joints behind the camera, give nil) in one kernel
  /// call with the buffers on the stack: the same pixels as `project(_:)` joint by joint.
  public func projectJoints(_ jointsWorld: [SIMD3<Double>?]) -> [SIMD2<Double>?] {
    let n = jointsWorld.count
    if n == 0 { return [] }
    return withUnsafeTemporaryAllocation(of: Double.self, capacity: 5 * n) { buffer in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: n) { status in
        let flat = buffer.baseAddress!, pixels = buffer.baseAddress! + 3 * n
        var m = 0
        for joint in jointsWorld {
          guard let p = joint else { continue }
          flat[3 * m] = p.x
          flat[3 * m + 1] = p.y
          flat[3 * m + 2] = p.z
          m += 1
        }
        if m == 0 { return [SIMD2<Double>?](repeating: nil, count: n) }
        let call = withShimRecord { record in mstri_project_points(record, flat, m, pixels, status.baseAddress!) }
        guard call == MSTRI_OK else { return [SIMD2<Double>?](repeating: nil, count: n) }
        var out = [SIMD2<Double>?](repeating: nil, count: n)
        var k = 0
        for (j, joint) in jointsWorld.enumerated() where joint != nil {
          if status[k] == MSTRI_OK.rawValue { out[j] = SIMD2(pixels[2 * k], pixels[2 * k + 1]) }
          k += 1
        }
        return out
      }
    }
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
