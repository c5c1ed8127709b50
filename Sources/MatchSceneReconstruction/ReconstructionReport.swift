import MatchSceneCore

/// Quality figures of a reconstruction, written as `report.json`.
public struct ReconstructionReport: Sendable, Codable {
  public struct CameraFigures: Sendable, Codable {
    public var name: String
    /// Player keypoints this camera observed (above the confidence floor) in reconstructed joints.
    public var observations: Int
    /// Of those, how many the robust triangulation used.
    public var used: Int
    /// Reprojection error of the used views, pixels.
    public var reprojectionPx: ErrorStatistics
    /// Reprojection error of the rejected views (outliers, swaps, other people), pixels.
    public var rejectedReprojectionPx: ErrorStatistics
    /// Error of the final reconstruction (after the analysis) over every view where the detector found
    /// a reconstructed person, used or not, pixels; set by `MatchPipeline`.
    public var allViewsReprojectionPx: ErrorStatistics? = nil
    /// The camera's estimated noise scale the view selection gated in, pixels (nil with a fixed gate).
    public var noiseScalePx: Double? = nil
    /// When the run corrected the calibration: the same all-views error through the camera as the
    /// calibration gave it, pixels (the tracks are in that calibration's world).
    public var givenCalibrationAllViewsReprojectionPx: ErrorStatistics? = nil
    /// Leave-one-out error over every person (`LeaveOneOutReprojection`): each joint triangulated from
    /// the other cameras' detections, projected into this one, against its detection, pixels.
    public var leaveOneOutReprojectionPx: ErrorStatistics? = nil
    /// When the run corrected the calibration: the same leave-one-out error through the calibration as
    /// given, pixels.
    public var givenCalibrationLeaveOneOutReprojectionPx: ErrorStatistics? = nil
  }
  public struct JointFigures: Sendable, Codable {
    public var joint: String
    /// Frames with this joint reconstructed, over all player tracks, divided by the track frames.
    public var coverage: Double
    public var reprojectionPx: ErrorStatistics
    public var meanViews: Double
  }
  public struct TrackFigures: Sendable, Codable {
    public var id: String
    public var kind: String
    public var firstFrame: Int
    public var lastFrame: Int
    /// Frames in which the track has at least one point.
    public var frames: Int
    /// People: views used per triangulated joint, on average.
    public var meanViews: Double? = nil
    /// People: per camera name, the error of the final track over every view where the detector found
    /// this person (used or not), pixels; set by `MatchPipeline`.
    public var allViewsReprojectionPx: [String: ErrorStatistics]? = nil
    /// People: per camera name, the leave-one-out error of this person (`LeaveOneOutReprojection`), pixels.
    public var leaveOneOutReprojectionPx: [String: ErrorStatistics]? = nil
  }

  public var fps: Double
  public var firstFrame: Int
  public var lastFrame: Int
  /// A sparse match (detections over a span mostly empty): the runs of real frames processed, each
  /// `[first, last]`, the empty stretches between them skipped (`FrameAxis`); nil for a dense match.
  public var frameRuns: [[Int]]? = nil
  public var seconds: Double
  public var cameras: [CameraFigures]
  public var joints: [JointFigures]
  public var tracks: [TrackFigures]
  /// Share of processed frames with a ball.
  public var ballCoverage: Double
  public var ballReprojectionPx: ErrorStatistics
  /// Views used per triangulated person joint, on average over every person and frame.
  public var meanViewsPerPoint: Double? = nil
  /// The view-selection gate, in units of each camera's noise scale (nil with a fixed pixel gate).
  public var viewGateSigmas: Double? = nil
  /// Ids of the people found, longest track first.
  public var ids: [String]
  /// Warnings met while reading the input (and the analysis's notes).
  public var warnings: [String]
  /// The sport analysed (its venue and ball).
  public var sport: String? = nil
  /// The venue frame the analysis used: where it came from (`assumed`, `given`, `estimated`), and its
  /// up direction, origin and long axis in world coordinates.
  public var venue: VenueFigures? = nil
  /// Names of the player tracks (`match.toml`'s `[players]`).
  public var playerNames: [String: String]? = nil
  /// Per camera: how its calibration agrees with the others (residuals of every detection of the
  /// reconstructed people, used or not), and the correction `--refine-calibration` made.
  public var calibration: [CameraCalibrationFigures]? = nil
  /// The world frame of every coordinate written.
  public var worldFrame: WorldFrame? = nil

  public enum WorldFrame: String, Sendable, Codable {
    /// The world of the calibration given (the default).
    case calibration
    /// That world levelled on where standing people's feet rest (`reconstruct --level-on-floor`).
    case levelledOnFloor = "levelled-on-floor"
  }
  /// Where standing people's feet rest, against the world's z = 0, when measured (after a refinement of
  /// every camera).
  public var floor: FloorFigures? = nil

  public struct FloorFigures: Sendable, Codable {
    /// The floor's tilt against z = 0, degrees.
    public var tiltDegrees: Double
    /// How far levelling on it moves (or moved) the world as a whole, metres; `liftMetres` its vertical part.
    public var moveMetres: Double
    public var liftMetres: Double
    /// People whose resting feet were measured.
    public var contacts: Int
    /// Whether the world was levelled on it (`--level-on-floor`).
    public var levelled: Bool
    public init(_ floor: FloorMeasure, levelled: Bool) {
      tiltDegrees = floor.tiltDegrees
      moveMetres = floor.moveMetres
      liftMetres = floor.liftMetres
      contacts = floor.contacts.count
      self.levelled = levelled
    }
  }

  /// Per camera other than the reference: its clock estimated from the detections (`CameraSync`) and
  /// whether it was applied; nil when not estimated (`match.toml` gives `[frame_offsets]`, or switched off).
  public var sync: [CameraSyncFigures]? = nil

  public struct CameraSyncFigures: Sendable, Codable {
    public var estimate: CameraSyncEstimate
    /// Whether the whole-frame offset was used.
    public var appliedFrames: Bool
    /// Whether the detections were resampled at the phase.
    public var appliedPhase: Bool
    /// The correction the ball's flights made to this camera's sub-frame clock after the phase was
    /// applied (`AsynchronousFlightFit.refineClocks`), frames: its instants later by this much; nil when
    /// not refined (a synchronised or whole-frame camera, or too few flights).
    public var clockRefinementFrames: Double? = nil
    /// `estimate.offset − clockRefinementFrames`: the camera's offset the ball was fitted with, frames
    /// (camera frame minus match frame); nil when not refined.
    public var refinedOffset: Double? = nil
    public init(estimate: CameraSyncEstimate, appliedFrames: Bool, appliedPhase: Bool) {
      self.estimate = estimate
      self.appliedFrames = appliedFrames
      self.appliedPhase = appliedPhase
    }
  }

  public struct CameraCalibrationFigures: Sendable, Codable {
    public var name: String
    public var observations: Int
    /// Median and RMS distance between detections and reprojected joints, pixels.
    public var medianPx: Double
    public var rmsPx: Double
    /// 1.4826 × the median absolute deviation of the residual lengths, pixels.
    public var noiseScalePx: Double
    /// The median residual vector (x, y), pixels: a systematic offset.
    public var biasPx: [Double]
    /// Whether the camera disagrees with the others.
    public var flagged: Bool
    /// With `--refine-calibration`: the correction and the median residual after it.
    public var rotationChangeDegrees: Double? = nil
    public var positionChangeMetres: Double? = nil
    public var focalChangePx: Double? = nil
    public var refinedMedianPx: Double? = nil

    public init(name: String, observations: Int, medianPx: Double, rmsPx: Double, noiseScalePx: Double, biasPx: [Double], flagged: Bool) {
      self.name = name
      self.observations = observations
      self.medianPx = medianPx
      self.rmsPx = rmsPx
      self.noiseScalePx = noiseScalePx
      self.biasPx = biasPx
      self.flagged = flagged
    }
  }

  public struct VenueFigures: Sendable, Codable {
    public var source: String
    public var up: [Double]
    public var origin: [Double]
    public var longAxis: [Double]

    public init(_ venue: VenueFrame) {
      source = venue.source.rawValue
      up = [venue.up.x, venue.up.y, venue.up.z]
      origin = [venue.origin.x, venue.origin.y, venue.origin.z]
      longAxis = [venue.longAxis.x, venue.longAxis.y, venue.longAxis.z]
    }
  }

  /// The report with its tracks renamed and re-kinded by `roles` (old id → new id and kind).
  public func renamingTracks(_ roles: [String: (id: String, kind: TrackKind)]) -> ReconstructionReport {
    var out = self
    for i in out.tracks.indices {
      guard let role = roles[out.tracks[i].id] else { continue }
      out.tracks[i].id = role.id
      out.tracks[i].kind = role.kind.rawValue
    }
    out.ids = out.tracks.filter { $0.kind != TrackKind.ball.rawValue }.map(\.id)
    return out
  }
}

/// Gathers the figures of `ReconstructionReport` while tracks are emitted.
struct ReportBuilder {
  let cameras: [Camera]
  let skeleton: Skeleton
  var used: [[Double]]
  var rejected: [[Double]]
  var observations: [Int]
  var jointErrors: [[Double]]
  var jointViews: [Int]
  var jointCount: [Int]
  var trackFrames: [String: (first: Int, last: Int, frames: Int, kind: TrackKind)] = [:]
  /// Per track: views used and joints triangulated.
  var trackViews: [String: (views: Int, joints: Int)] = [:]
  var ballErrors: [Double] = []
  var ballFrames = 0

  init(cameras: [Camera], skeleton: Skeleton) {
    self.cameras = cameras
    self.skeleton = skeleton
    used = Array(repeating: [], count: cameras.count)
    rejected = Array(repeating: [], count: cameras.count)
    observations = Array(repeating: 0, count: cameras.count)
    jointErrors = Array(repeating: [], count: skeleton.count)
    jointViews = Array(repeating: 0, count: skeleton.count)
    jointCount = Array(repeating: 0, count: skeleton.count)
  }

  mutating func add(track: String, frame: Int, pose: Pose3D) {
    note(track: track, frame: frame, kind: .player)
    for (j, joint) in pose.joints.enumerated() {
      guard let joint else { continue }
      jointErrors[j].append(joint.meanReprojectionPx)
      jointViews[j] += joint.viewCount
      jointCount[j] += 1
      trackViews[track, default: (0, 0)].views += joint.viewCount
      trackViews[track, default: (0, 0)].joints += 1
      guard (j + 1) * pose.cameraCount <= pose.viewErrors.count else { continue }
      for c in 0..<pose.cameraCount {
        guard let view = pose.viewErrors[j * pose.cameraCount + c] else { continue }
        observations[c] += 1
        if view.used { used[c].append(view.error) } else { rejected[c].append(view.error) }
      }
    }
  }

  /// Counts the ball's sample at `frame` (track `ball`).
  mutating func add(ball: MotionSample, frame: Int) {
    note(track: "ball", frame: frame, kind: .ball)
    ballErrors.append(ball.reprojectionPx)
    ballFrames += 1
  }

  mutating func note(track: String, frame: Int, kind: TrackKind) {
    if let t = trackFrames[track] {
      if t.last != frame { trackFrames[track] = (min(t.first, frame), max(t.last, frame), t.frames + 1, kind) }
    } else {
      trackFrames[track] = (frame, frame, 1, kind)
    }
  }

  func build(range: ClosedRange<Int>, fps: Double, seconds: Double) -> ReconstructionReport {
    let playerFrames = trackFrames.values.filter { $0.kind == .player }.map(\.frames).reduce(0, +)
    let tracks = trackFrames.map { id, t -> ReconstructionReport.TrackFigures in
      var figures = ReconstructionReport.TrackFigures(
        id: id, kind: t.kind.rawValue, firstFrame: t.first, lastFrame: t.last, frames: t.frames)
      if let v = trackViews[id], v.joints > 0 { figures.meanViews = Double(v.views) / Double(v.joints) }
      return figures
    }.sorted { $0.frames != $1.frames ? $0.frames > $1.frames : $0.id < $1.id }
    let points: Int = jointCount.reduce(0, +), views: Int = jointViews.reduce(0, +)
    let meanViews: Double? = points > 0 ? Double(views) / Double(points) : nil
    // The error lists' statistics (each a sort of up to millions of errors) on all cores: the cameras'
    // used, then their rejected, the joints', the ball's.
    let m = cameras.count, lists = used + rejected + jointErrors + [ballErrors]
    // `try!`: the body throws nothing, so neither does `parallelMap`.
    let statistics = try! parallelMap(Array(lists.indices)) { ErrorStatistics(lists[$0]) }
    return ReconstructionReport(
      fps: fps, firstFrame: range.lowerBound, lastFrame: range.upperBound, seconds: seconds,
      cameras: cameras.indices.map { c in
        .init(
          name: cameras[c].name, observations: observations[c], used: used[c].count,
          reprojectionPx: statistics[c], rejectedReprojectionPx: statistics[m + c])
      },
      joints: skeleton.keypoints.indices.map { j in
        .init(
          joint: skeleton.keypoints[j], coverage: playerFrames > 0 ? Double(jointCount[j]) / Double(playerFrames) : 0,
          reprojectionPx: statistics[2 * m + j],
          meanViews: jointCount[j] > 0 ? Double(jointViews[j]) / Double(jointCount[j]) : 0)
      },
      tracks: tracks, ballCoverage: Double(ballFrames) / Double(max(1, range.count)),
      ballReprojectionPx: statistics[2 * m + jointErrors.count], meanViewsPerPoint: meanViews,
      ids: tracks.filter { $0.kind == "player" }.map(\.id), warnings: [])
  }
}
