internal import CTriangulation
import MatchSceneCore

extension Camera {
  /// The camera as the flat record the C kernels take (`MSTRI_CAMERA_STRIDE` doubles).
  var shimRecord: [Double] {
    var r = [Double](repeating: 0, count: Int(MSTRI_CAMERA_STRIDE.rawValue))
    r.withUnsafeMutableBufferPointer { writeShimRecord(into: $0) }
    return r
  }

  /// Calls `body` with the camera's kernel record on the stack (no heap allocation): for kernels called
  /// once per point.
  func withShimRecord<R>(_ body: (UnsafePointer<Double>) -> R) -> R {
    withUnsafeTemporaryAllocation(of: Double.self, capacity: Int(MSTRI_CAMERA_STRIDE.rawValue)) { r in
      r.initialize(repeating: 0)
      writeShimRecord(into: r)
      return body(UnsafePointer(r.baseAddress!))
    }
  }

  /// Writes the record's fields into `r` (`MSTRI_CAMERA_STRIDE` doubles, zeroed by the caller).
  private func writeShimRecord(into r: UnsafeMutableBufferPointer<Double>) {
    r[Int(MSTRI_CAM_MODEL.rawValue)] = lensModel == .fisheye ? 1 : 0
    r[Int(MSTRI_CAM_FX.rawValue)] = fx
    r[Int(MSTRI_CAM_FY.rawValue)] = fy
    r[Int(MSTRI_CAM_CX.rawValue)] = cx
    r[Int(MSTRI_CAM_CY.rawValue)] = cy
    r[Int(MSTRI_CAM_SKEW.rawValue)] = skew
    for i in 0..<5 { r[Int(MSTRI_CAM_DIST.rawValue) + i] = distortion[i] }
    for i in 0..<9 { r[Int(MSTRI_CAM_R.rawValue) + i] = camFromWorld.rotation.m[i] }
    for i in 0..<3 { r[Int(MSTRI_CAM_T.rawValue) + i] = camFromWorld.translation[i] }
  }
}

extension Camera {
  /// This camera with the pose, focal lengths and skew of a kernel record (name, image size, principal
  /// point and lens kept): how the kernels hand refined cameras back.
  func updated(fromShimRecord r: ArraySlice<Double>) -> Camera {
    let base = r.startIndex
    var camera = self
    camera.fx = r[base + Int(MSTRI_CAM_FX.rawValue)]
    camera.fy = r[base + Int(MSTRI_CAM_FY.rawValue)]
    camera.skew = r[base + Int(MSTRI_CAM_SKEW.rawValue)]
    let rotation = (0..<9).map { r[base + Int(MSTRI_CAM_R.rawValue) + $0] }
    let t = Int(MSTRI_CAM_T.rawValue) + base
    camera.camFromWorld = RigidTransform(rotation: Matrix3(rowMajor: rotation), translation: SIMD3(r[t], r[t + 1], r[t + 2]))
    return camera
  }
}
