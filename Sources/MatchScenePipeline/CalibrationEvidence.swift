import MatchSceneCore
import MatchSceneGeometry

/// The evidence a calibration is checked and refined on: reconstructed joints and, for each, the
/// keypoint every camera detected for that person — whether or not the triangulation used that view.
///
/// A camera's detections are matched to a reconstructed person by projection: the detected person whose
/// keypoints lie nearest the projected joints (median distance) is that person's detection, within a
/// wide gate (`gatePx`), so that a camera whose calibration is off by tens of pixels still contributes
/// its evidence (the same nearest-projection assignment as the oracle baseline, run on our own
/// reconstruction instead of the truth).
struct CalibrationEvidence {
  /// Largest median distance between a detection and the projected person, pixels.
  var gatePx = 120.0
  /// Detections below this confidence are left out.
  var minConfidence = 0.3
  /// People-frames sampled at most (spread evenly over the match).
  var maxPoses = 1500
  /// A joint is used when at least this many cameras saw it.
  var minViews = 2

  func sample(match: Match, motion: MotionModel) -> (points: [SIMD3<Double>], observations: [CalibrationObservation]) {
    var sample: (points: [SIMD3<Double>], observations: [CalibrationObservation]) = ([], [])
    let people = motion.personTracks
    guard let frames = motion.frames, !people.isEmpty else { return sample }
    let total = frames.count * people.count
    let stride = max(1, total / maxPoses)
    var k = 0
    for frame in frames {
      for t in people {
        k += 1
        guard k % stride == 0 else { continue }
        let track = motion.tracks[t]
        let joints = (0..<track.jointCount).map { j -> SIMD3<Double>? in
          let s = track[joint: j, frame: frame]
          return s.state == .measured ? s.position : nil
        }
        guard joints.contains(where: { $0 != nil }) else { continue }
        var seen: [[(camera: Int, keypoint: Keypoint2D)]] = Array(repeating: [], count: joints.count)
        for (c, camera) in match.cameras.enumerated() {
          let detections = match.people(camera: camera.name, frame: frame)
          guard !detections.isEmpty else { continue }
          let projected = joints.map { $0.flatMap { camera.project($0) } }
          guard let best = Self.nearestDetection(detections, projected: projected, minConfidence: minConfidence, gatePx: gatePx)
          else { continue }
          for (j, k) in detections[best].keypoints.enumerated() where j < joints.count {
            if joints[j] != nil, k.isDetected, k.confidence >= minConfidence { seen[j].append((c, k)) }
          }
        }
        for (j, position) in joints.enumerated() {
          guard let position, seen[j].count >= minViews else { continue }
          for (c, k) in seen[j] {
            sample.observations.append(
              CalibrationObservation(camera: c, point: sample.points.count, pixel: SIMD2(k.x, k.y), weight: k.confidence))
          }
          sample.points.append(position)
        }
      }
    }
    return sample
  }

  /// The detection whose keypoints lie nearest `projected` (median pixel distance over at least three
  /// keypoints at or above `minConfidence`), when that median is below `gatePx`; nil otherwise.
  static func nearestDetection(
    _ detections: [PersonDetection2D], projected: [SIMD2<Double>?], minConfidence: Double, gatePx: Double
  ) -> Int? {
    var best: (index: Int, median: Double)?
    for (d, detection) in detections.enumerated() {
      var distances: [Double] = []
      for (j, p) in projected.enumerated() where j < detection.keypoints.count {
        let k = detection.keypoints[j]
        guard let p, k.isDetected, k.confidence >= minConfidence else { continue }
        distances.append(((SIMD2(k.x, k.y) - p) * (SIMD2(k.x, k.y) - p)).sum().squareRoot())
      }
      guard distances.count >= 3 else { continue }
      distances.sort()
      let median = distances[distances.count / 2]
      if median < (best?.median ?? gatePx) { best = (d, median) }
    }
    return best?.index
  }
}
