import Foundation
import MatchSceneCore
import MatchSceneGeometry

/// What a reconstruction produced, with figures for the report.
public struct ReconstructionResult: Sendable {
  /// Every track over the frames processed: people named `P1`, `P2`… by how long they were seen
  /// (longest first; `MatchPipeline` then tells players from other people), and the ball.
  public var motion: MotionModel
  /// The row view of `motion`.
  public var reconstruction: Reconstruction {
    get { motion.reconstruction }
    set { motion = MotionModel(newValue) }
  }
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
      return ReconstructionResult(
        motion: MotionModel(fps: match.fps, skeleton: match.skeleton, frames: nil), frames: nil, seconds: 0)
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
    let motion = try link(results, range: range, report: &report)
    let seconds = Date().timeIntervalSince(start)
    return ReconstructionResult(
      motion: motion, frames: range, seconds: seconds, report: report.build(range: range, fps: match.fps, seconds: seconds))
  }

  var torso: [Int] { match.skeleton.torso }

  /// Clusters whose poses stand within `duplicateDistance` of each other across the ground (heights
  /// left out: a person seen only from the waist up in some cameras and the waist down in others
  /// gives two partial poses with centres half a metre apart vertically — two people cannot stand that
  /// close) and use different cameras are one person: their members are joined. Of two overlapping in
  /// cameras, the smaller is dropped.
  static func mergeDuplicates(
    _ clusters: [PersonCluster], poses: [Pose3D], torso: [Int], up: SIMD3<Double>, duplicateDistance: Double = 0.3
  ) -> [PersonCluster] {
    var clusters = clusters
    var alive = Array(repeating: true, count: clusters.count)
    let centres = poses.map { $0.centre(torso: torso) }
    for i in clusters.indices {
      for j in clusters.indices where j > i && alive[i] && alive[j] {
        guard let a = centres[i], let b = centres[j], IdentityTracker.groundDistance(a, b, up: up) < duplicateDistance else { continue }
        if Set(clusters[i].members.keys).isDisjoint(with: clusters[j].members.keys) {
          clusters[i].members.merge(clusters[j].members) { x, _ in x }
          alive[j] = false
        } else if clusters[i].members.count >= clusters[j].members.count {
          alive[j] = false
        } else {
          alive[i] = false
        }
      }
    }
    return clusters.indices.filter { alive[$0] }.map { clusters[$0] }
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
    var poses = try PoseTriangulation.triangulate(
      clusters: clusters, people: people, cameras: cameras, skeleton: match.skeleton, triangulator: triangulator)
    // One person split into two clusters (their views never paired up directly) shows as two poses
    // at one place: merge such clusters and triangulate again.
    let merged = Self.mergeDuplicates(clusters, poses: poses, torso: torso, up: match.worldUp)
    if merged.count < clusters.count {
      poses = try PoseTriangulation.triangulate(
        clusters: merged, people: people, cameras: cameras, skeleton: match.skeleton, triangulator: triangulator)
    }
    result.poses = poses
    let balls = cameras.map { match.balls(camera: $0.name, frame: frame) }
    result.ball = try BallLocator.locate(candidates: balls, cameras: cameras, triangulator: triangulator, options: options)
    return result
  }

  /// Links per-frame poses into tracks: the motion of every person and the ball over `range`.
  func link(_ frames: [FrameResult], range: ClosedRange<Int>, report: inout ReportBuilder) throws -> MotionModel {
    let skeleton = match.skeleton
    let torso = self.torso
    let limbs = Pose3D.signatureLimbs(skeleton)
    var tracker = IdentityTracker(fps: match.fps, options: options, up: match.worldUp)
    var assigned: [[(Int, Pose3D)]] = []
    var sightings: [IdentityTracker.Sighting] = []
    for (i, result) in frames.enumerated() {
      let poses = result.poses
      let centres = poses.map { $0.centre(torso: torso) }
      let ids = tracker.assign(
        frame: range.lowerBound + i, centres: centres, limbs: poses.map { $0.limbLengths(limbs) },
        canStartTrack: poses.map { $0.joints.compactMap { $0 }.count >= options.minJointsForNewTrack })
      assigned.append(zip(ids, poses).compactMap { id, pose in id.map { ($0, pose) } })
      for (id, centre) in zip(ids, centres) {
        if let id, let centre { sightings.append(.init(frame: range.lowerBound + i, tracklet: id, centre: centre)) }
      }
    }
    // Join tracklets of one person (one after the other, then in turn), keep chains long enough to be
    // real, and name them P1, P2, … by length, longest first.
    let chainOf = tracker.mergedInterleaved(
      tracker.joinedChains(options.globalTrackletLinking ? tracker.globalChains() : [:]), sightings: sightings, up: match.worldUp)
    if ProcessInfo.processInfo.environment["MATCHSCENE_DEBUG_TRACKS"] != nil {
      for t in tracker.tracks {
        let limbs = t.limbs.map { $0.map { String(format: "%.3f", $0) } ?? "-" }.joined(separator: " ")
        print("tracklet \(t.id) frames \(t.firstFrame)-\(t.lastFrame) n=\(t.frames) from \(t.firstCentre) to \(t.lastCentre) chain \(chainOf[t.id]!) limbs \(limbs)")
      }
    }
    var chainFrames: [Int: Int] = [:]
    for track in tracker.tracks { chainFrames[chainOf[track.id] ?? track.id, default: 0] += track.frames }
    let minFrames = Int((options.minTrackDuration * match.fps).rounded())
    let kept = chainFrames.filter { $0.value >= minFrames }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    var chainName: [Int: String] = [:]
    for (n, chain) in kept.enumerated() { chainName[chain.key] = "P\(n + 1)" }
    var name: [Int: String] = [:]
    for track in tracker.tracks { name[track.id] = chainName[chainOf[track.id] ?? track.id] }

    var motion = MotionModel(fps: match.fps, skeleton: skeleton, frames: range)
    var trackIndex: [String: Int] = [:]
    for chain in kept.indices {
      trackIndex["P\(chain + 1)"] = motion.tracks.count
      motion.tracks.append(motion.makeTrack(id: "P\(chain + 1)", kind: .player))
    }
    let ball = try BallCompletion.fill(
      BallFilter.plausible(frames.map { $0.ball?.point }, fps: match.fps, options: options),
      candidates: { i in self.match.cameras.map { self.match.balls(camera: $0.name, frame: range.lowerBound + i) } },
      cameras: match.cameras, inlierPx: options.ballInlierPx)
    var ballTrack = motion.makeTrack(id: "ball", kind: .ball)
    for (i, people) in assigned.enumerated() {
      let frame = range.lowerBound + i
      for (id, pose) in people.sorted(by: { (name[$0.0] ?? "") < (name[$1.0] ?? "") }) {
        guard let track = name[id], let t = trackIndex[track] else { continue }
        report.add(track: track, frame: frame, pose: pose)
        for (j, joint) in pose.joints.enumerated() {
          guard let joint else { continue }
          motion.tracks[t][joint: j, frame: frame] = MotionSample(
            position: joint.position, reprojectionPx: joint.meanReprojectionPx, views: joint.viewCount, state: .measured)
        }
      }
      if let b = ball[i] {
        ballTrack[joint: 0, frame: frame] = MotionSample(
          position: b.position, reprojectionPx: b.meanReprojectionPx, views: b.viewCount, state: .measured)
        report.add(ball: TrackPoint(
          frame: frame, time: Double(frame) / match.fps, track: "ball", kind: .ball, joint: "ball", position: b.position,
          reprojectionPx: b.meanReprojectionPx, views: b.viewCount))
      }
    }
    if ballTrack.presentFrameCount > 0 { motion.tracks.append(ballTrack) }
    motion.sortTracks()
    return motion
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
