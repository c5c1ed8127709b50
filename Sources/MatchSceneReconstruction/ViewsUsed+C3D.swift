import MatchSceneIO

extension ViewsUsed {
  /// The rows as C3D camera masks (`C3DCameraMasks`: cameras 0–6 of `cameras`, the rest dropped), for
  /// `C3DWriter`; rows of joints beyond `jointCount` are left out.
  public func c3dCameraMasks(jointCount: Int) -> C3DCameraMasks {
    var masks = C3DCameraMasks(cameras: cameras)
    for row in rows {
      masks.set(track: row.track, joint: row.joint, frame: row.frame, cameraBits: row.mask, jointCount: jointCount)
    }
    return masks
  }
}
