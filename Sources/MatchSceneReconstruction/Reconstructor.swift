import Foundation
import MatchSceneCore
import MatchSceneGeometry

/// What a reconstruction produced, with figures for the report.
public struct ReconstructionResult: Sendable {
  public var reconstruction: Reconstruction
  /// Frames processed.
  public var frames: ClosedRange<Int>?
  /// Wall-clock seconds spent.
  public var seconds: Double
  /// Quality figures (per camera, per joint, per track).
  public var report: ReconstructionReport?
}

/// Reconstructs a match: per frame, associates people across cameras, triangulates their joints
/// (robustly, with left/right repair) and finds the ball; then links people into tracks over time.
public struct Reconstructor: Sendable {
  public let match: Match
  public let options: ReconstructionOptions

  public init(match: Match, options: ReconstructionOptions = .init()) {
    self.match = match
    self.options = options
  }

  /// Per-frame result before tracking.
  struct FrameResult: Sendable {
    var poses: [Pose3D] = []
    var ball: BallEstimate?
  }

  /// Runs the whole reconstruction.
  /// - Parameters:
  ///   - frames: the match frames to process (default: every frame with detections).
  ///   - progress: told how many frames are done, from any thread.
  /// - Throws: `GeometryError` when a camera is unusable.
  public func run(frames: ClosedRange<Int>? = nil, progress: (@Sendable (Int) -> Void)? = nil) throws -> ReconstructionResult {
    let start = Date()
    guard let range = frames ?? match.frameRange else {
      return ReconstructionResult(reconstruction: Reconstruction(fps: match.fps, skeleton: match.skeleton, points: []), frames: nil, seconds: 0)
    }
    let triangulator = try Triangulator(cameras: match.cameras, options: options.triangulation)
    let done = Counter()
    let work: @Sendable (Int) throws -> FrameResult = { frame in
      let result = try self.frame(frame, triangulator: triangulator)
      progress?(done.increment())
      return result
    }
    let results: [FrameResult]
    if options.parallel {
      results = try parallelMap(Array(range), work)
    } else {
      results = try range.map(work)
    }
    var report = ReportBuilder(cameras: match.cameras, skeleton: match.skeleton)
    let points = link(results, range: range, report: &report)
    let seconds = Date().timeIntervalSince(start)
    return ReconstructionResult(
      reconstruction: Reconstruction(fps: match.fps, skeleton: match.skeleton, points: points), frames: range,
      seconds: seconds, report: report.build(range: range, fps: match.fps, seconds: seconds))
  }

  /// Association, triangulation and ball finding for one frame.
  func frame(_ frame: Int, triangulator: Triangulator) throws -> FrameResult {
    let cameras = match.cameras
    let people = cameras.map { match.people(camera: $0.name, frame: frame) }
    var result = FrameResult()
    let rays = try cameras.indices.map { c -> ViewRays? in
      people[c].isEmpty ? nil
        : try ViewRays(camera: cameras[c], people: people[c], minConfidence: options.triangulation.minConfidence)
    }
    let clusters = PeopleAssociation.associate(rays: rays, options: options)
    result.poses = try PoseTriangulation.triangulate(
      clusters: clusters, people: people, cameras: cameras, skeleton: match.skeleton, triangulator: triangulator)
    let balls = cameras.map { match.balls(camera: $0.name, frame: frame) }
    result.ball = try BallLocator.locate(candidates: balls, cameras: cameras, triangulator: triangulator, options: options)
    return result
  }

  /// Links per-frame poses into tracks and emits track points.
  func link(_ frames: [FrameResult], range: ClosedRange<Int>, report: inout ReportBuilder) -> [TrackPoint] {
    let skeleton = match.skeleton
    let torso = ["left_shoulder", "right_shoulder", "left_hip", "right_hip"].compactMap(skeleton.index(of:))
    var tracker = IdentityTracker(fps: match.fps, options: options)
    var assigned: [[(Int, Pose3D)]] = []
    for (i, result) in frames.enumerated() {
      let poses = result.poses
      let ids = tracker.assign(frame: range.lowerBound + i, centres: poses.map { $0.centre(torso: torso) })
      assigned.append(zip(ids, poses).compactMap { id, pose in id.map { ($0, pose) } })
    }
    // Keep tracks long enough to be real; name them P1, P2, … by length, longest first.
    let minFrames = Int((options.minTrackDuration * match.fps).rounded())
    let kept = tracker.tracks.filter { $0.frames >= minFrames }
      .sorted { $0.frames != $1.frames ? $0.frames > $1.frames : $0.id < $1.id }
    var name: [Int: String] = [:]
    for (n, track) in kept.enumerated() { name[track.id] = "P\(n + 1)" }

    var points: [TrackPoint] = []
    let ball = BallFilter.plausible(frames.map { $0.ball?.point }, fps: match.fps, options: options)
    for (i, people) in assigned.enumerated() {
      let frame = range.lowerBound + i
      let time = Double(frame) / match.fps
      for (id, pose) in people.sorted(by: { (name[$0.0] ?? "") < (name[$1.0] ?? "") }) {
        guard let track = name[id] else { continue }
        report.add(track: track, frame: frame, pose: pose)
        for (j, joint) in pose.joints.enumerated() {
          guard let joint else { continue }
          points.append(
            TrackPoint(
              frame: frame, time: time, track: track, kind: .player, joint: skeleton.keypoints[j],
              position: joint.position, reprojectionPx: joint.meanReprojectionPx, views: joint.viewCount))
        }
      }
      if let b = ball[i] {
        let point = TrackPoint(
          frame: frame, time: time, track: "ball", kind: .ball, joint: "ball", position: b.position,
          reprojectionPx: b.meanReprojectionPx, views: b.viewCount)
        points.append(point)
        report.add(ball: point)
      }
    }
    return points
  }
}

/// A counter shared by worker threads.
final class Counter: @unchecked Sendable {
  private var value = 0
  private let lock = NSLock()
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value
  }
}
