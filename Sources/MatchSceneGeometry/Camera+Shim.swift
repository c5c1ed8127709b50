internal import CTriangulation
import MatchSceneCore

extension Camera {
  /// The camera as the flat record the C kernels take (`MSTRI_CAMERA_STRIDE` doubles).
  var shimRecord: [Double] {
    var r = [Double](repeating: 0, count: Int(MSTRI_CAMERA_STRIDE.rawValue))
    r[Int(MSTRI_CAM_MODEL.rawValue)] = lensModel == .fisheye ? 1 : 0
    r[Int(MSTRI_CAM_FX.rawValue)] = fx
    r[Int(MSTRI_CAM_FY.rawValue)] = fy
    r[Int(MSTRI_CAM_CX.rawValue)] = cx
    r[Int(MSTRI_CAM_CY.rawValue)] = cy
    r[Int(MSTRI_CAM_SKEW.rawValue)] = skew
    for i in 0..<5 { r[Int(MSTRI_CAM_DIST.rawValue) + i] = distortion[i] }
    for i in 0..<9 { r[Int(MSTRI_CAM_R.rawValue) + i] = camFromWorld.rotation.m[i] }
    for i in 0..<3 { r[Int(MSTRI_CAM_T.rawValue) + i] = camFromWorld.translation[i] }
    return r
  }
}
