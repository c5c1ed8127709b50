import MatchSceneCore

extension SimulatedMatch {
  /// The same match described in another world: every camera (the calibration's and the true ones),
  /// every true position and every event position mapped by `worldFromVenue`
  /// (`x_world = R · x_venue + t`, the simulator's own world being the venue frame), so that the
  /// detections, which depend only on the cameras' view of the scene, are unchanged. The world's up
  /// becomes `R · ẑ`; the match states no `[venue]` (finding it is `locate-venue`'s job).
  ///
  /// A camera's extrinsics compose as `camFromWorld' = camFromVenue · venueFromWorld'`.
  public func reexpressed(worldFromVenue: RigidTransform) -> SimulatedMatch {
    let venueFromWorld = worldFromVenue.inverse
    func moved(_ cameras: [Camera]) -> [Camera] {
      cameras.map { camera in
        var c = camera
        c.camFromWorld = camera.camFromWorld * venueFromWorld
        return c
      }
    }
    var out = self
    out.match.cameras = moved(match.cameras)
    out.match.worldUp = worldFromVenue.rotation * SIMD3(0, 0, 1)
    out.match.venue = nil
    out.trueCameras = moved(trueCameras)
    out.truth = truth.transformed(by: worldFromVenue)
    out.events = events.map { $0.transformed(by: worldFromVenue) }
    return out
  }
}
