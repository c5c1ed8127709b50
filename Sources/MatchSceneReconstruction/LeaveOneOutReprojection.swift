import MatchSceneCore
import MatchSceneGeometry

/// The leave-one-out reprojection error of each camera: for each person track and frame, the camera's
/// detection of that person (the nearest to the projected track, as `AllViewsReprojection` finds it);
/// each joint triangulated again from the OTHER cameras' detections only, projected into the camera
/// left out, and its pixel distance to that camera's keypoint. Unlike the all-views error, the camera
/// under test has no say in the point it is measured against, so the figure is a prediction error: what
/// the rest of the rig says this camera should see (cross-validation, Stone 1974; used for camera rigs as
/// the "reprojection into a held-out view" of multi-view benchmarks).
public struct LeaveOneOutReprojection: Sendable {
  /// Most frames a run samples for it (every 24th frame of a 10-minute match at 60 fps): each sampled
  /// frame triangulates every joint once per camera left out, and the per-camera medians of a 10-minute
  /// match move by less than 0.1 px from 6,000 frames to this many.
  public static let maxFrames = 1_500
  /// How the detections are matched and sampled (gate, confidence floor, most frames).
  public var sampling: AllViewsReprojection
  /// The triangulation from the other cameras.
  public var options: TriangulationOptions
  /// Per camera, the noise scales the other cameras are gated and weighed in (nil: `options`' pixel gate).
  public var noiseScalesPx: [Double]?

  /// `sampling`'s frames are capped at `maxFrames`.
  public init(sampling: AllViewsReprojection, options: TriangulationOptions, noiseScalesPx: [Double]? = nil) {
    var sampling = sampling
    sampling.maxFrames = min(sampling.maxFrames, Self.maxFrames)
    self.sampling = sampling
    self.options = options
    self.noiseScalesPx = noiseScalesPx
  }

  /// Per track id, per camera (in `cameras`' order): the pixel distances.
  /// - Parameter cameras: the rig to measure through (the run's, or the calibration as given), in the
  ///   order of `match.cameras`.
  public func errors(match: Match, cameras: [Camera], motion: MotionModel) throws -> [String: [[Double]]] {
    guard let frames = motion.frames, cameras.count >= 3 else { return [:] }
    let rig = { var rig = match; rig.cameras = cameras; return rig }()
    let triangulator = try Triangulator(cameras: cameras, options: options, noiseScalesPx: noiseScalesPx)
    let step = sampling.step(frames: frames)
    let tracks = motion.personTracks
    let parts = try parallelMap(tracks) { t in
      try self.errors(match: rig, track: motion.tracks[t], frames: Swift.stride(from: frames.lowerBound, through: frames.upperBound, by: step), triangulator: triangulator)
    }
    var out: [String: [[Double]]] = [:]
    for (t, part) in zip(tracks, parts) { out[motion.tracks[t].id] = part }
    return out
  }

  /// One track's distances per camera over `frames`: one batch per frame, every camera left out in turn.
  func errors(match: Match, track: MotionTrack, frames: StrideThrough<Int>, triangulator: Triangulator) throws -> [[Double]] {
    let m = match.cameras.count, k = track.jointCount
    var perCamera = Array(repeating: [Double](), count: m)
    for frame in frames {
      let joints = track.jointPositions(frame: frame)
      guard joints.contains(where: { $0 != nil }) else { continue }
      // Per camera, this person's keypoints there (nil: not found).
      let found = match.cameras.map { camera -> [Keypoint2D]? in
        let detections = match.people(camera: camera.name, frame: frame)
        guard !detections.isEmpty,
          let best = CalibrationEvidence.nearestDetection(
            detections, projected: camera.projectJoints(joints), minConfidence: sampling.minConfidence, gatePx: sampling.gatePx)
        else { return nil }
        return detections[best].keypoints
      }
      let heldOut = (0..<m).filter { found[$0] != nil }
      guard heldOut.count >= 3 else { continue }
      // Point-major: held-out camera h's k joints, each seen by every other camera that found the person.
      var observations = [Keypoint2D](repeating: .missing, count: heldOut.count * k * m)
      for (i, h) in heldOut.enumerated() {
        for j in 0..<k {
          for c in heldOut where c != h {
            guard let keypoints = found[c], j < keypoints.count else { continue }
            observations[(i * k + j) * m + c] = keypoints[j]
          }
        }
      }
      let batch = try triangulator.triangulate(observations)
      for (i, h) in heldOut.enumerated() {
        guard let keypoints = found[h] else { continue }
        for j in 0..<min(k, keypoints.count) {
          let seen = keypoints[j]
          guard seen.isDetected, seen.confidence >= sampling.minConfidence, let point = batch.point(i * k + j),
            let pixel = match.cameras[h].project(point.position)
          else { continue }
          let d = pixel - SIMD2(seen.x, seen.y)
          perCamera[h].append((d * d).sum().squareRoot())
        }
      }
    }
    return perCamera
  }

  /// Adds the figures to `report`: per camera over every person (`leaveOneOutReprojectionPx`), per track
  /// per camera; with `given` (the calibration as the user gave it, when the run corrected it) the
  /// per-camera figure through it as well (`givenCalibrationLeaveOneOutReprojectionPx`).
  public func add(to report: inout ReconstructionReport, match: Match, motion: MotionModel, given: [Camera]? = nil) throws {
    let figures = ReprojectionFigures(try self.errors(match: match, cameras: match.cameras, motion: motion), cameras: match.cameras)
    for c in report.cameras.indices where c < figures.cameras.count { report.cameras[c].leaveOneOutReprojectionPx = figures.cameras[c] }
    for t in report.tracks.indices {
      if let perCamera = figures.tracks[report.tracks[t].id] { report.tracks[t].leaveOneOutReprojectionPx = perCamera }
    }
    guard let given else { return }
    let asGiven = ReprojectionFigures(try self.errors(match: match, cameras: given, motion: motion), cameras: given)
    for c in report.cameras.indices where c < asGiven.cameras.count {
      report.cameras[c].givenCalibrationLeaveOneOutReprojectionPx = asGiven.cameras[c]
    }
  }
}
