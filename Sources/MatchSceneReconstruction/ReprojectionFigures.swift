import MatchSceneCore
import MatchSceneGeometry

/// Pixel distances per track and camera (track id → per camera, in the rig's order), as
/// `AllViewsReprojection` and `LeaveOneOutReprojection` measure them, summed up for `report.json`.
struct ReprojectionFigures {
  /// Per camera (index), the statistics over every track.
  var cameras: [ErrorStatistics]
  /// Per track id, per camera name with any distance, the statistics.
  var tracks: [String: [String: ErrorStatistics]]

  init(_ errors: [String: [[Double]]], cameras: [Camera]) {
    self.cameras = cameras.indices.map { c in ErrorStatistics(errors.values.flatMap { c < $0.count ? $0[c] : [] }) }
    tracks = errors.mapValues { perCamera in
      var figures: [String: ErrorStatistics] = [:]
      for (c, camera) in cameras.enumerated() where c < perCamera.count && !perCamera[c].isEmpty {
        figures[camera.name] = ErrorStatistics(perCamera[c])
      }
      return figures
    }
  }
}

extension MotionTrack {
  /// Each joint's position at `frame`, nil where the track has none.
  func jointPositions(frame: Int) -> [SIMD3<Double>?] {
    (0..<jointCount).map { j in
      let s = self[joint: j, frame: frame]
      return s.isPresent ? s.position : nil
    }
  }
}
