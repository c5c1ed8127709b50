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
public struct CalibrationEvidence: Sendable {
  /// Largest median distance between a detection and the projected person, pixels.
  public var gatePx = 120.0
  /// Detections below this confidence are left out.
  public var minConfidence = 0.3
  /// People-frames sampled at most (spread evenly over the match).
  public var maxPoses = 1500
  /// A joint is used when at least this many cameras saw it.
  public var minViews = 2
  /// Largest distance between a ball candidate and the projected ball, pixels.
  public var ballGatePx = 60.0

  public init() {}

  /// Calls `body` with the frame and the measured joints (nil where not measured) of up to `maxPoses`
  /// people-frames of `motion`, spread evenly over the match; people-frames with no measured joint are
  /// skipped.
  public static func forEachSampledPose(
    _ motion: MotionModel, maxPoses: Int, _ body: (_ frame: Int, _ joints: [SIMD3<Double>?]) -> Void
  ) {
    let people = motion.personTracks
    guard let frames = motion.frames, !people.isEmpty else { return }
    let stride = max(1, frames.count * people.count / maxPoses)
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
        if joints.contains(where: { $0 != nil }) { body(frame, joints) }
      }
    }
  }

  /// One keypoint a camera detected for a sampled person (`forEachMatchedPose`).
  public struct MatchedKeypoint: Sendable {
    public var camera: Int
    public var joint: Int
    public var keypoint: Keypoint2D
    /// The joint projected into the camera; nil when it falls behind it.
    public var projected: SIMD2<Double>?
  }

  /// Calls `body` for each people-frame `forEachSampledPose` samples, with its measured joints and, for
  /// every camera whose detection nearest the projected person lies within `gatePx`
  /// (`nearestDetection`), that detection's keypoints at measured joints that are detected at
  /// `minConfidence` or more, in camera then joint order.
  public static func forEachMatchedPose(
    match: Match, motion: MotionModel, maxPoses: Int, minConfidence: Double, gatePx: Double,
    _ body: (_ frame: Int, _ joints: [SIMD3<Double>?], _ matched: [MatchedKeypoint]) -> Void
  ) {
    forEachSampledPose(motion, maxPoses: maxPoses) { frame, joints in
      var matched: [MatchedKeypoint] = []
      for (c, camera) in match.cameras.enumerated() {
        let detections = match.people(camera: camera.name, frame: frame)
        guard !detections.isEmpty else { continue }
        let projected = camera.projectJoints(joints)
        guard
          let best = nearestDetection(
            detections, projected: projected, minConfidence: minConfidence, gatePx: gatePx)
        else { continue }
        for (j, k) in detections[best].keypoints.enumerated() where j < joints.count {
          if joints[j] != nil, k.isDetected, k.confidence >= minConfidence {
            matched.append(MatchedKeypoint(camera: c, joint: j, keypoint: k, projected: projected[j]))
          }
        }
      }
      body(frame, joints, matched)
    }
  }

  public func sample(match: Match, motion: MotionModel) -> (
    points: [SIMD3<Double>], observations: [CalibrationObservation]
  ) {
    var sample: (points: [SIMD3<Double>], observations: [CalibrationObservation]) = ([], [])
    Self.forEachMatchedPose(
      match: match, motion: motion, maxPoses: maxPoses, minConfidence: minConfidence, gatePx: gatePx
    ) { _, joints, matched in
      var seen: [[(camera: Int, keypoint: Keypoint2D)]] = Array(repeating: [], count: joints.count)
      for m in matched { seen[m.joint].append((m.camera, m.keypoint)) }
      for (j, position) in joints.enumerated() {
        guard let position, seen[j].count >= minViews else { continue }
        for (c, k) in seen[j] {
          sample.observations.append(
            CalibrationObservation(
              camera: c, point: sample.points.count, pixel: SIMD2(k.x, k.y), weight: k.confidence))
        }
        sample.points.append(position)
      }
    }
    return sample
  }

  /// `sample` plus the ball: every frame where the reconstruction measured it, each camera's ball
  /// candidate nearest its projection within `ballGatePx`, when at least `minViews` cameras have one.
  /// The ball crosses the whole volume between the players, at depths the people never reach, so it
  /// separates a camera's focal length from its distance to the scene (both scale a small scene's
  /// image alike), and a ball detector has no per-joint offset of its own.
  public func sampleWithBall(match: Match, motion: MotionModel) -> (
    points: [SIMD3<Double>], observations: [CalibrationObservation]
  ) {
    var sample = sample(match: match, motion: motion)
    guard let b = motion.ballTrack, let frames = motion.frames else { return sample }
    let track = motion.tracks[b]
    for frame in frames {
      let s = track[joint: 0, frame: frame]
      guard s.state == .measured else { continue }
      var seen: [CalibrationObservation] = []
      for (c, camera) in match.cameras.enumerated() {
        guard let p = camera.project(s.position) else { continue }
        let nearest = match.balls(camera: camera.name, frame: frame)
          .filter { $0.confidence >= minConfidence && $0.x.isFinite && $0.y.isFinite }
          .map {
            (
              d: $0,
              distance: ((SIMD2($0.x, $0.y) - p) * (SIMD2($0.x, $0.y) - p)).sum().squareRoot()
            )
          }
          .min { $0.distance < $1.distance }
        guard let nearest, nearest.distance < ballGatePx else { continue }
        seen.append(
          CalibrationObservation(
            camera: c, point: sample.points.count, pixel: SIMD2(nearest.d.x, nearest.d.y),
            weight: nearest.d.confidence))
      }
      guard seen.count >= minViews else { continue }
      sample.observations += seen
      sample.points.append(s.position)
    }
    return sample
  }

  /// The detection whose keypoints lie nearest `projected` (median pixel distance over at least three
  /// keypoints at or above `minConfidence`), when that median is below `gatePx`; nil otherwise.
  public static func nearestDetection(
    _ detections: [PersonDetection2D], projected: [SIMD2<Double>?], minConfidence: Double,
    gatePx: Double
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
