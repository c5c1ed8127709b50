import Foundation
import MatchSceneCore
import MatchSceneGeometry

/// What a reconstruction produced, with figures for the report.
public struct ReconstructionResult: Sendable {
  /// Every track over the frames processed: people named `P1`, `P2`… by how long they were seen
  /// (longest first; `MatchPipeline` then tells players from other people), and the ball.
  public var motion: MotionModel
  /// Frames processed.
  public var frames: ClosedRange<Int>?
  /// Wall-clock seconds spent.
  public var seconds: Double
  /// Quality figures (per camera, per joint, per track).
  public var report: ReconstructionReport?
  /// Per camera, the noise scale (pixels) the views were gated and weighed in; nil with the fixed gate.
  public var noiseScalesPx: [Double]? = nil
  /// Which cameras each person joint was triangulated from.
  public var viewsUsed = ViewsUsed(cameras: [])
}

/// Reconstructs a match: per frame, associates people across cameras, triangulates their joints
/// (robustly, with left/right repair) and finds the ball; then links people into tracks over time.
public struct Reconstructor: Sendable {
  public let match: Match
  public let options: ReconstructionOptions

  /// The skeleton's torso joints, found once (by joint roles, which parse names) rather than per frame.
  let torso: [Int]
  /// The limbs whose lengths sign a person (`Pose3D.signatureLimbs`), found once for the same reason.
  let signatureLimbs: [(Int, Int)]

  public init(match: Match, options: ReconstructionOptions = .init()) {
    self.match = match
    self.options = options
    self.torso = match.skeleton.torso
    self.signatureLimbs = Pose3D.signatureLimbs(match.skeleton)
  }

  /// Per-frame result before tracking.
  struct FrameResult: Sendable {
    var poses: [Pose3D] = []
    /// Each pose's centre (`Pose3D.centre(torso:)`), found with the frame (on all cores) for the
    /// tracking that follows one frame at a time.
    var centres: [SIMD3<Double>?] = []
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
    let ballTriangulator = try Triangulator(cameras: match.cameras, options: options.triangulation)
    let (triangulator, noise) = try viewSelection(range: range, fixed: ballTriangulator)
    let done = Counter()
    let work: @Sendable (Int) throws -> FrameResult = { frame in
      let result = try self.frame(frame, triangulator: triangulator, ballTriangulator: ballTriangulator)
      progress?(done.increment())
      return result
    }
    var results: [FrameResult]
    if options.parallel {
      results = try parallelMap(Array(range), work)
    } else {
      results = try range.map(work)
    }
    var report = ReportBuilder(cameras: match.cameras, skeleton: match.skeleton)
    var viewsUsed = ViewsUsed(cameras: match.cameras.map(\.name))
    let motion = try link(&results, range: range, report: &report, viewsUsed: &viewsUsed)
    let seconds = Date().timeIntervalSince(start)
    var built = report.build(range: range, fps: match.fps, seconds: seconds)
    if let noise {
      built.viewGateSigmas = options.viewGateSigmas
      for c in built.cameras.indices { built.cameras[c].noiseScalePx = noise[c] }
    }
    return ReconstructionResult(
      motion: motion, frames: range, seconds: seconds, report: built, noiseScalesPx: noise, viewsUsed: viewsUsed)
  }

  /// The triangulator for people: with `viewGateSigmas` (and robust triangulation), one that gates and
  /// weighs each view in units of its camera's noise scale, estimated (`CameraNoise`) on up to
  /// `noiseSampleFrames` frames spread over `range` — first on the fixed-gate triangulation, then
  /// twice more on the noise-gated one (the weights, hence the leverages, change with the scales).
  /// Otherwise `fixed`, and no scales.
  func viewSelection(range: ClosedRange<Int>, fixed: Triangulator) throws -> (Triangulator, [Double]?) {
    guard let scaled = options.noiseGatedTriangulation else { return (fixed, nil) }
    let step = max(1, range.count / max(1, options.noiseSampleFrames))
    let sample = Array(Swift.stride(from: range.lowerBound, through: range.upperBound, by: step))
    var triangulator = fixed
    var noise: [Double]?
    for _ in 0..<3 {
      let current = triangulator
      let perFrame = try parallelMap(sample) { try self.correctedSquaredErrors(frame: $0, triangulator: current) }
      var errors = Array(repeating: [CameraNoise.ViewError](), count: match.cameras.count)
      for frameErrors in perFrame { for c in errors.indices { errors[c] += frameErrors[c] } }
      guard let scales = CameraNoise.scales(views: errors) else { break }
      noise = scales
      triangulator = try Triangulator(cameras: match.cameras, options: scaled, noiseScalesPx: scales)
    }
    return noise == nil ? (fixed, nil) : (triangulator, noise)
  }

  /// Clusters whose poses stand within `duplicateDistance` of each other across the ground (heights
  /// left out: a person seen only from the waist up in some cameras and the waist down in others
  /// gives two partial poses with centres half a metre apart vertically — two people cannot stand that
  /// close) and use different cameras are one person: their members are joined. Of two overlapping in
  /// cameras, the smaller is dropped. With `limbs` (the skeleton's signature limbs), so are poses whose
  /// joints mostly coincide within half a body scale (`DuplicatePeople.overlap`), however far apart
  /// their centres (a partial pose's centre is that of the part seen).
  static func mergeDuplicates(
    _ clusters: [PersonCluster], poses: [Pose3D], torso: [Int], up: SIMD3<Double>, duplicateDistance: Double = 0.3,
    limbs: [(Int, Int)] = []
  ) -> [PersonCluster] {
    var clusters = clusters
    var alive = Array(repeating: true, count: clusters.count)
    let centres = poses.map { $0.centre(torso: torso) }
    for i in clusters.indices {
      for j in clusters.indices where j > i && alive[i] && alive[j] {
        guard let a = centres[i], let b = centres[j] else { continue }
        guard IdentityTracker.groundDistance(a, b, up: up) < duplicateDistance
          || (!limbs.isEmpty && DuplicatePeople.overlap(poses[i], poses[j], limbs: limbs))
        else { continue }
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

  /// The leverage-corrected squared reprojection errors of one frame's people, per camera
  /// (`PoseTriangulation.correctedSquaredErrors`).
  func correctedSquaredErrors(frame: Int, triangulator: Triangulator) throws -> [[CameraNoise.ViewError]] {
    let cameras = match.cameras
    let people = cameras.map { match.people(camera: $0.name, frame: frame) }
    let rays = try cameras.indices.map { c -> ViewRays? in
      people[c].isEmpty ? nil
        : try ViewRays(camera: cameras[c], people: people[c], minConfidence: options.triangulation.minConfidence)
    }
    let clusters = PeopleAssociation.associate(rays: rays, options: options)
    return try PoseTriangulation.correctedSquaredErrors(
      clusters: clusters, people: people, cameras: cameras, keypoints: match.skeleton.count, triangulator: triangulator)
  }

  /// Association, triangulation and ball finding for one frame.
  /// - Parameters:
  ///   - triangulator: for people's joints.
  ///   - ballTriangulator: for the ball (pixel gate); nil skips the ball.
  func frame(_ frame: Int, triangulator: Triangulator, ballTriangulator: Triangulator?) throws -> FrameResult {
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
    var merged = Self.mergeDuplicates(clusters, poses: poses, torso: torso, up: match.worldUp, limbs: signatureLimbs)
    if merged.count < clusters.count {
      poses = try PoseTriangulation.triangulate(
        clusters: merged, people: people, cameras: cameras, skeleton: match.skeleton, triangulator: triangulator)
    }
    // Two people close together can swap halves in the pairwise association: re-assign every camera's
    // detections to the poses by projection (twice at most) and merge what then stands at one place.
    for _ in 0..<2 {
      guard let again = try PeopleAssociation.reassigned(merged, poses: poses, people: people, cameras: cameras, options: options)
      else { break }
      poses = try PoseTriangulation.triangulate(
        clusters: again, people: people, cameras: cameras, skeleton: match.skeleton, triangulator: triangulator)
      merged = Self.mergeDuplicates(again, poses: poses, torso: torso, up: match.worldUp, limbs: signatureLimbs)
      if merged.count < again.count {
        poses = try PoseTriangulation.triangulate(
          clusters: merged, people: people, cameras: cameras, skeleton: match.skeleton, triangulator: triangulator)
      }
    }
    result.poses = poses
    result.centres = poses.map { $0.centre(torso: torso) }
    guard let ballTriangulator else { return result }
    let balls = cameras.map { match.balls(camera: $0.name, frame: frame) }
    result.ball = try BallLocator.locate(candidates: balls, cameras: cameras, triangulator: ballTriangulator, options: options)
    return result
  }

  /// Links per-frame poses into tracks: the motion of every person and the ball over `range`.
  /// `frames` is emptied on the way, and each frame's poses let go once in the motion, so that a long
  /// match does not hold its poses and its motion at once.
  func link(
    _ frames: inout [FrameResult], range: ClosedRange<Int>, report: inout ReportBuilder, viewsUsed: inout ViewsUsed
  ) throws -> MotionModel {
    let skeleton = match.skeleton
    let limbs = Pose3D.signatureLimbs(skeleton)
    var tracker = IdentityTracker(fps: match.fps, options: options, up: match.worldUp)
    var assigned: [[(Int, Pose3D)]] = []
    var sightings: [IdentityTracker.Sighting] = []
    for (i, result) in frames.enumerated() {
      let poses = result.poses
      let centres = result.centres
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
      print("speed bound \(tracker.speedBound) m/s from \(tracker.speeds.count) speeds, largest \(tracker.speeds.largest)")
      for t in tracker.tracks {
        let limbs = t.limbs.map { $0.map { String(format: "%.3f", $0) } ?? "-" }.joined(separator: " ")
        print("tracklet \(t.id) frames \(t.firstFrame)-\(t.lastFrame) n=\(t.frames) from \(t.firstCentre) to \(t.lastCentre) chain \(chainOf[t.id]!) limbs \(limbs)")
        // Its runs of sightings (split where it went unseen for more than half a second).
        var runs: [String] = [], start: (Int, SIMD3<Double>)?, last: (Int, SIMD3<Double>)?
        for s in sightings where s.tracklet == t.id {
          if let l = last, Double(s.frame - l.0) / match.fps > 0.5, let f = start {
            runs.append(String(format: "%d-%d (%.2f,%.2f)->(%.2f,%.2f)", f.0, l.0, f.1.x, f.1.y, l.1.x, l.1.y))
            start = nil
          }
          if start == nil { start = (s.frame, s.centre) }
          last = (s.frame, s.centre)
        }
        if let f = start, let l = last { runs.append(String(format: "%d-%d (%.2f,%.2f)->(%.2f,%.2f)", f.0, l.0, f.1.x, f.1.y, l.1.x, l.1.y)) }
        print("  runs " + runs.joined(separator: " | "))
        if let window = ProcessInfo.processInfo.environment["MATCHSCENE_DEBUG_SIGHTINGS"]?.split(separator: "-").compactMap({ Int($0) }), window.count == 2 {
          for s in sightings where s.tracklet == t.id && s.frame >= window[0] && s.frame <= window[1] {
            print(String(format: "    %d (%.2f,%.2f,%.2f)", s.frame, s.centre.x, s.centre.y, s.centre.z))
          }
        }
      }
    }
    var chainFrames: [Int: Int] = [:]
    for track in tracker.tracks { chainFrames[chainOf[track.id] ?? track.id, default: 0] += track.frames }
    // A clip shorter than twice the minimum (a static trial for scaling is a fraction of a second)
    // keeps the people seen in at least half of it.
    let minFrames = min(Int((options.minTrackDuration * match.fps).rounded()), max(2, range.count / 2))
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
    let ballPoints = frames.map { $0.ball?.point }
    frames = []
    let ball = try BallCompletion.fill(
      BallFilter.plausible(ballPoints, fps: match.fps, options: options),
      candidates: { i in self.match.cameras.map { self.match.balls(camera: $0.name, frame: range.lowerBound + i) } },
      cameras: match.cameras, inlierPx: options.ballInlierPx)
    var ballTrack = motion.makeTrack(id: "ball", kind: .ball)
    // The poses are let go frame by frame as they go into the motion; glibc keeps what is freed for
    // reuse, so each eighth of the frames it is given back to the system (`returnFreedMemory`):
    // otherwise a 10-minute match holds its ~250 MB of poses and the motion, `views.csv`'s rows and
    // the report's lists at once, the peak of the whole run.
    let trimEvery = max(1, assigned.count / 8)
    // `views.csv`'s rows sized once, for every joint of every kept pose (an upper bound): grown by
    // doubling they were copied (48 MB for a 10-minute match) while the poses were held, the peak of
    // the run. The pages of the overshoot are never written, so they take address space, not memory.
    var rowBound = 0
    for people in assigned { for (id, pose) in people where name[id] != nil { rowBound += pose.joints.count } }
    viewsUsed.rows.reserveCapacity(viewsUsed.rows.count + rowBound)
    for i in assigned.indices {
      if i > 0 && i % trimEvery == 0 { returnFreedMemory() }
      let people = assigned[i]
      assigned[i] = []
      let frame = range.lowerBound + i
      for (id, pose) in people.sorted(by: { (name[$0.0] ?? "") < (name[$1.0] ?? "") }) {
        guard let track = name[id], let t = trackIndex[track] else { continue }
        report.add(track: track, frame: frame, pose: pose)
        for (j, joint) in pose.joints.enumerated() {
          guard let joint else { continue }
          let views = (j + 1) * pose.cameraCount <= pose.viewErrors.count
            ? pose.viewErrors[(j * pose.cameraCount)..<((j + 1) * pose.cameraCount)] : []
          viewsUsed.append(frame: frame, track: track, joint: j, views: views)
          motion.tracks[t][joint: j, frame: frame] = MotionSample(
            position: joint.position, reprojectionPx: joint.meanReprojectionPx, views: joint.viewCount, state: .measured)
        }
      }
      if let b = ball[i] {
        let sample = MotionSample(
          position: b.position, reprojectionPx: b.meanReprojectionPx, views: b.viewCount, state: .measured)
        ballTrack[joint: 0, frame: frame] = sample
        report.add(ball: sample, frame: frame)
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
