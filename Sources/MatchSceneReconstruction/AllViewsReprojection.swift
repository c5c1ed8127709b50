import MatchSceneCore
import MatchSceneGeometry

/// The reprojection error of the final reconstruction over every view where the detector found the
/// person, whether or not the triangulation used that view: for each person track, camera and frame,
/// the camera's detection of that person (the nearest by projection, `CalibrationEvidence.nearestDetection`)
/// and, for each joint the track holds at that frame, the pixel distance between the projected joint and
/// the detected keypoint. Rejected views count too, so a reconstruction cannot look good by discarding
/// the views that disagree with it (the "all views" error, measured as Pose2Sim reports it).
public struct AllViewsReprojection: Sendable {
  /// Largest median distance between a detection and the projected person, pixels (a camera whose
  /// calibration is off by tens of pixels still finds its detection).
  public var gatePx = 120.0
  /// Keypoints below this confidence are not counts of "the detector found it".
  public var minConfidence = 0.1
  /// Most frames looked at: a longer match is sampled every k-th frame, evenly (its medians do not
  /// need every frame of a 10-minute match, which would cost seconds).
  public var maxFrames = 6000

  public init(gatePx: Double = 120.0, minConfidence: Double = 0.1, maxFrames: Int = 6000) {
    self.gatePx = gatePx
    self.minConfidence = minConfidence
    self.maxFrames = maxFrames
  }

  /// Every how many frames of `frames` the distances are taken (1 up to `maxFrames` frames).
  public func step(frames: ClosedRange<Int>) -> Int { max(1, (frames.count + maxFrames - 1) / maxFrames) }

  /// `match`'s people detections on the frames `errors` looks at for a motion over `frames` (every
  /// `step`-th from the first), the others and the balls left out: what the all-views error needs, in
  /// a fraction of the memory. `errors` on the result gives the same distances as on `match`.
  public func sampledDetections(_ match: Match, frames: ClosedRange<Int>) -> [String: CameraDetections] {
    let step = self.step(frames: frames)
    var kept: [String: CameraDetections] = [:]
    for (name, detections) in match.detections {
      let offset = match.frameOffsets[name] ?? 0
      let people = detections.people.filter { key, _ in
        let frame = key - offset
        return frames.contains(frame) && (frame - frames.lowerBound) % step == 0
      }
      kept[name] = CameraDetections(people: people)
    }
    return kept
  }

  /// Per track id, per camera: the pixel distances, on every frame of a match of at most `maxFrames`
  /// frames, else on every k-th. Tracks × blocks of frames run in parallel; the distances come out in
  /// the same order as one pass would give.
  public func errors(match: Match, motion: MotionModel) -> [String: [[Double]]] {
    var out: [String: [[Double]]] = [:]
    guard let frames = motion.frames else { return out }
    let step = self.step(frames: frames)
    let block = 600 * step
    let starts = Array(Swift.stride(from: frames.lowerBound, through: frames.upperBound, by: block))
    let jobs = motion.personTracks.flatMap { t in starts.map { (t, $0...min($0 + block - 1, frames.upperBound)) } }
    let parts = (try? parallelMap(jobs) { job in
      self.errors(match: match, track: motion.tracks[job.0], frames: Swift.stride(from: job.1.lowerBound, through: job.1.upperBound, by: step))
    }) ?? []
    for (job, part) in zip(jobs, parts) {
      let id = motion.tracks[job.0].id
      var perCamera = out[id] ?? Array(repeating: [Double](), count: match.cameras.count)
      for c in perCamera.indices { perCamera[c] += part[c] }
      out[id] = perCamera
    }
    return out
  }

  /// One track's distances per camera over `frames`.
  public func errors(match: Match, track: MotionTrack, frames: StrideThrough<Int>) -> [[Double]] {
    var perCamera = Array(repeating: [Double](), count: match.cameras.count)
    for frame in frames {
      let joints = track.jointPositions(frame: frame)
      guard joints.contains(where: { $0 != nil }) else { continue }
      for (c, camera) in match.cameras.enumerated() {
        let detections = match.people(camera: camera.name, frame: frame)
        guard !detections.isEmpty else { continue }
        let projected = camera.projectJoints(joints)
        guard let best = CalibrationEvidence.nearestDetection(
          detections, projected: projected, minConfidence: minConfidence, gatePx: gatePx)
        else { continue }
        for (j, k) in detections[best].keypoints.enumerated() where j < projected.count {
          guard let p = projected[j], k.isDetected, k.confidence >= minConfidence else { continue }
          perCamera[c].append(((SIMD2(k.x, k.y) - p) * (SIMD2(k.x, k.y) - p)).sum().squareRoot())
        }
      }
    }
    return perCamera
  }

  /// Adds the figures to `report`: per camera over every person, per track per camera.
  public func add(to report: inout ReconstructionReport, match: Match, motion: MotionModel) {
    let figures = ReprojectionFigures(self.errors(match: match, motion: motion), cameras: match.cameras)
    for c in report.cameras.indices where c < figures.cameras.count { report.cameras[c].allViewsReprojectionPx = figures.cameras[c] }
    for t in report.tracks.indices {
      if let perCamera = figures.tracks[report.tracks[t].id] { report.tracks[t].allViewsReprojectionPx = perCamera }
    }
  }

  /// Adds, per camera, the error over every person through the camera as `given` (the calibration the user
  /// gave, when the run corrected some cameras) as `givenCalibrationAllViewsReprojectionPx`: computed for
  /// the cameras that differ from `match`'s, copied from `allViewsReprojectionPx` (`add`) for the others.
  public func addGivenCalibration(to report: inout ReconstructionReport, match: Match, given: [Camera], motion: MotionModel) {
    let changed = given.indices.filter { given[$0] != match.cameras[$0] }
    var asGiven = match
    asGiven.cameras = changed.map { given[$0] }
    let errors = changed.isEmpty ? [:] : self.errors(match: asGiven, motion: motion)
    for c in report.cameras.indices {
      guard let k = changed.firstIndex(of: c) else {
        report.cameras[c].givenCalibrationAllViewsReprojectionPx = report.cameras[c].allViewsReprojectionPx
        continue
      }
      report.cameras[c].givenCalibrationAllViewsReprojectionPx = ErrorStatistics(errors.values.flatMap { k < $0.count ? $0[k] : [] })
    }
  }
}
