import MatchSceneCore
import MatchSceneGeometry

/// Every camera's pose from the people (and ball) of a match alone, with no board and no known point:
///
/// 1. For each camera and a reference camera (the first), the keypoints of every pair of people seen by
///    both at the same frame are candidate correspondences (which person is which is not known without a
///    calibration); the five-point essential matrix in RANSAC (`RelativePose`) keeps those that agree
///    with one epipolar geometry, and a pair of people whose keypoints mostly agree is taken as one
///    person seen twice. The pose is then fitted again on those people only.
/// 2. Each relative pose gives the baseline's direction only: the baselines are chained to one scale by
///    the depths, in the reference camera, of the keypoints the reference shares with the scale camera
///    and with each other camera (the median ratio).
/// 3. The shared keypoints are triangulated from every camera (robust DLT) and the poses and points are
///    refined together by the robust bundle adjustment (`CalibrationRefinement`, Huber loss: Triggs et
///    al., "Bundle adjustment — a modern synthesis", 2000), the reference camera fixed and its distance to
///    the scale camera kept.
///
/// Gauge of the outcome: world = the reference camera's frame, the distance from it to the scale camera
/// = 1. `StatureScale` or table clicks (`PlayerPoseRefinement.adjust`) then give the metric frame.
public enum PlayerRig {
  /// Settings; the defaults suit a detector's keypoints on HD footage.
  public struct Options: Sendable {
    /// Keypoints and ball detections below this confidence are left out.
    public var minConfidence = 0.5
    /// Frames used at most, spread evenly over the match.
    public var maxFrames = 240
    /// Largest distance from the epipolar line of an inlier, pixels.
    public var thresholdPx = 3.0
    /// RANSAC iterations at most (the candidates hold every pairing of people: a low share of inliers).
    public var maxIterations = 8000
    /// A pair of detections is one person when at least this many of its shared keypoints, and this
    /// share of them, are inliers.
    public var minPersonInliers = 6
    public var minPersonInlierShare = 0.6
    /// A camera needs at least this many keypoints shared with the reference camera.
    public var minSharedKeypoints = 60
    /// Triangulate-and-adjust rounds.
    public var rounds = 2
    public var adjustment = CalibrationRefinementOptions()
    public init() {}
  }

  /// One keypoint of one person (the reference camera's detection `person` at `frame`), or the ball
  /// (`person` = −1, `joint` = 0).
  public struct Key: Sendable, Hashable {
    public var frame: Int
    public var person: Int
    public var joint: Int
  }

  /// How one camera was linked to the reference camera.
  public struct Link: Sendable {
    public var camera: Int
    /// Keypoints of the people taken as the same in both cameras, and how many fit the relative pose.
    public var sharedKeypoints: Int
    public var inliers: Int
    /// The baseline's length in units of the reference-to-scale-camera distance, before the adjustment.
    public var chainedScale: Double
  }

  public struct Outcome: Sendable {
    /// The match's cameras, in its order, in the reference camera's frame (scale: see `PlayerRig`).
    public var cameras: [Camera]
    /// The adjusted points, their keys, and the observations of the last round.
    public var points: [SIMD3<Double>]
    public var keys: [Key]
    public var observations: [CalibrationObservation]
    public var reference: Int
    public var scaleCamera: Int
    public var links: [Link]
    public var adjustment: CalibrationRefinementResult
  }

  /// Poses `match.cameras` (intrinsics known; poses ignored) from its people and ball at `frames`
  /// (default: every frame of the match).
  /// - Parameter file: named in errors (the match folder).
  /// - Throws: `InputError` naming the two cameras whose shared keypoints are too few or fit no relative
  ///   pose; `GeometryError` from the adjustment.
  public static func solve(match: Match, frames: [Int]? = nil, file: String, options: Options = .init()) throws -> Outcome {
    let m = match.cameras.count
    guard m >= 2 else { throw InputError(file: file, "posing cameras from the players needs two or more cameras, found \(m)") }
    let all = frames ?? match.frameRange.map { Array($0) } ?? []
    let step = max(1, (all.count + options.maxFrames - 1) / max(1, options.maxFrames))
    let sampled = stride(from: 0, to: all.count, by: step).map { all[$0] }
    let r = 0
    var poses = [RigidTransform](repeating: .identity, count: m)
    var associations = [[FramePerson: Int]](repeating: [:], count: m)
    var links: [Link] = []
    var inlierKeys = [Set<Key>](repeating: [], count: m)
    for k in 0..<m where k != r {
      let pair = try linkWidening(match: match, reference: r, camera: k, frames: sampled, file: file, options: options)
      poses[k] = pair.pose
      associations[k] = pair.association
      inlierKeys[k] = pair.inlierKeys
      links.append(Link(camera: k, sharedKeypoints: pair.shared, inliers: pair.inlierKeys.count, chainedScale: 1))
    }
    // The scale: the baseline to the camera with the most inliers is 1; every other is chained to it.
    let s = links.max { $0.inliers < $1.inliers }!.camera
    let reference = match.cameras[r].posed(.identity)
    let depthsS = try depths(reference: reference, other: match.cameras[s].posed(poses[s]), keys: inlierKeys[s], match: match, association: associations[s])
    for (l, link) in links.enumerated() where link.camera != s {
      let k = link.camera
      let depthsK = try depths(reference: reference, other: match.cameras[k].posed(poses[k]), keys: inlierKeys[k], match: match, association: associations[k])
      let ratios = depthsK.compactMap { key, z in depthsS[key].map { $0 / z } }.filter { $0.isFinite && $0 > 0 }
      guard ratios.count >= 10 else {
        throw InputError(
          file: file,
          "too few keypoints seen by cameras \(match.cameras[r].name), \(match.cameras[s].name) and \(match.cameras[k].name) together (\(ratios.count), need 10) to carry the scale from one camera pair to the next")
      }
      let scale = median(ratios)
      poses[k].translation *= scale
      links[l].chainedScale = scale
    }
    var cameras = (0..<m).map { match.cameras[$0].posed(poses[$0]) }
    var options = options
    options.adjustment.referenceCamera = r
    options.adjustment.scaleCamera = s
    var last: Outcome?
    for _ in 0..<max(1, options.rounds) {
      let (points, keys, observations) = try evidence(match: match, cameras: cameras, frames: sampled, associations: associations, options: options)
      let adjusted = try CalibrationRefinement.refine(cameras: cameras, points: points, observations: observations, options: options.adjustment)
      cameras = adjusted.cameras
      last = Outcome(
        cameras: cameras, points: adjusted.points, keys: keys, observations: observations, reference: r, scaleCamera: s,
        links: links, adjustment: adjusted)
    }
    return last!
  }

  struct FramePerson: Hashable {
    var frame: Int
    var person: Int
  }

  struct Candidate {
    var key: Key
    /// The other camera's detection (−1: the ball).
    var other: Int
    var a: SIMD2<Double>
    var b: SIMD2<Double>
  }

  /// The relative pose of camera `k` from the reference camera, which of its detections is which of
  /// the reference's, and the keys that fit.
  static func link(
    match: Match, reference r: Int, camera k: Int, frames: [Int], file: String, options: Options
  ) throws -> (pose: RigidTransform, association: [FramePerson: Int], inlierKeys: Set<Key>, shared: Int) {
    let (ca, cb) = (match.cameras[r], match.cameras[k])
    var candidates: [Candidate] = []
    for frame in frames {
      let pa = match.people(camera: ca.name, frame: frame), pb = match.people(camera: cb.name, frame: frame)
      for (i, da) in pa.enumerated() {
        for (j, db) in pb.enumerated() {
          for (joint, (ka, kb)) in zip(da.keypoints, db.keypoints).enumerated()
          where confident(ka, options) && confident(kb, options) {
            candidates.append(Candidate(key: Key(frame: frame, person: i, joint: joint), other: j, a: SIMD2(ka.x, ka.y), b: SIMD2(kb.x, kb.y)))
          }
        }
      }
      if let ba = singleBall(match, ca, frame, options), let bb = singleBall(match, cb, frame, options) {
        candidates.append(Candidate(key: Key(frame: frame, person: -1, joint: 0), other: -1, a: ba, b: bb))
      }
    }
    func tooFew(_ n: Int, _ why: String) -> InputError {
      InputError(
        file: file,
        "too few shared keypoints between cameras \(ca.name) and \(cb.name): \(n) \(why) (need \(options.minSharedKeypoints)); do both cameras see the players at the same frames?")
    }
    guard candidates.count >= options.minSharedKeypoints else { throw tooFew(candidates.count, "confident keypoints at frames where both see people") }
    guard
      let first = RelativePose.solve(
        a: ca, b: cb, pixelsA: candidates.map(\.a), pixelsB: candidates.map(\.b), thresholdPx: options.thresholdPx,
        maxIterations: options.maxIterations)
    else { throw tooFew(candidates.count, "candidate keypoints fit no relative pose") }
    // Per pair of detections, its inliers and candidates; each reference person is the other camera's
    // detection with the most inliers, each detection taken once.
    var tally: [FramePerson: [Int: (inliers: Int, total: Int)]] = [:]
    for (c, candidate) in candidates.enumerated() {
      let fp = FramePerson(frame: candidate.key.frame, person: candidate.key.person)
      var t = tally[fp, default: [:]][candidate.other, default: (0, 0)]
      t.total += 1
      if first.inliers[c] { t.inliers += 1 }
      tally[fp, default: [:]][candidate.other] = t
    }
    var association: [FramePerson: Int] = [:]
    var taken: Set<FramePerson> = []
    let ranked = tally.flatMap { fp, others in others.map { (fp: fp, other: $0.key, inliers: $0.value.inliers, total: $0.value.total) } }
      .sorted { ($0.inliers, $0.fp.frame, $0.fp.person) > ($1.inliers, $1.fp.frame, $1.fp.person) }
    for p in ranked {
      let isBall = p.fp.person < 0
      let enough = isBall ? p.inliers == 1 : p.inliers >= options.minPersonInliers && Double(p.inliers) >= options.minPersonInlierShare * Double(p.total)
      guard enough, association[p.fp] == nil, !taken.contains(FramePerson(frame: p.fp.frame, person: p.other)) || isBall else { continue }
      association[p.fp] = p.other
      if !isBall { taken.insert(FramePerson(frame: p.fp.frame, person: p.other)) }
    }
    let kept = candidates.filter { association[FramePerson(frame: $0.key.frame, person: $0.key.person)] == $0.other }
    guard kept.count >= options.minSharedKeypoints else { throw tooFew(kept.count, "keypoints of people matched between them") }
    guard
      let second = RelativePose.solve(
        a: ca, b: cb, pixelsA: kept.map(\.a), pixelsB: kept.map(\.b), thresholdPx: options.thresholdPx,
        maxIterations: options.maxIterations)
    else { throw tooFew(kept.count, "keypoints of people matched between them fit no relative pose") }
    let keys = Set(kept.indices.filter { second.inliers[$0] }.map { kept[$0].key })
    return (second.bFromA, association, keys, kept.count)
  }

  /// `link` at `thresholdPx`, then at 2 × and 4 × it while too few keypoints fit: a detector's keypoints
  /// on real footage disagree between views by more than a few pixels (their anatomical points differ
  /// with the view), so the epipolar gate widens until the people can be matched. The error of the
  /// widest attempt is the one thrown.
  static func linkWidening(
    match: Match, reference r: Int, camera k: Int, frames: [Int], file: String, options: Options
  ) throws -> (pose: RigidTransform, association: [FramePerson: Int], inlierKeys: Set<Key>, shared: Int) {
    var wider = options
    for factor in [1.0, 2.0, 4.0] {
      wider.thresholdPx = options.thresholdPx * factor
      do { return try link(match: match, reference: r, camera: k, frames: frames, file: file, options: wider) } catch let error as InputError {
        if factor == 4 { throw error }
      }
    }
    preconditionFailure("the last attempt returns or throws")
  }

  static func confident(_ k: Keypoint2D, _ options: Options) -> Bool { k.isDetected && k.confidence >= options.minConfidence }

  /// The camera's ball detection at `frame` when it has exactly one confident candidate.
  static func singleBall(_ match: Match, _ camera: Camera, _ frame: Int, _ options: Options) -> SIMD2<Double>? {
    let balls = match.balls(camera: camera.name, frame: frame).filter { $0.confidence >= options.minConfidence && $0.x.isFinite && $0.y.isFinite }
    return balls.count == 1 ? SIMD2(balls[0].x, balls[0].y) : nil
  }

  /// The pixel of `key` in `camera` given the association of its detections to the reference's.
  static func pixel(_ match: Match, _ camera: Camera, _ key: Key, other: Int?, options: Options) -> Keypoint2D? {
    guard let other else { return nil }
    if key.person < 0 {
      return singleBall(match, camera, key.frame, options).map { Keypoint2D(x: $0.x, y: $0.y, confidence: 1) }
    }
    let people = match.people(camera: camera.name, frame: key.frame)
    guard people.indices.contains(other), people[other].keypoints.indices.contains(key.joint) else { return nil }
    let k = people[other].keypoints[key.joint]
    return confident(k, options) ? k : nil
  }

  /// Each key's depth in the reference camera (at the identity), triangulated from it and `other`.
  static func depths(
    reference: Camera, other: Camera, keys: Set<Key>, match: Match, association: [FramePerson: Int]
  ) throws -> [Key: Double] {
    let options = Options()
    let ordered = Array(keys)
    var observations: [Keypoint2D] = []
    var used: [Key] = []
    for key in ordered {
      let fp = FramePerson(frame: key.frame, person: key.person)
      guard let a = pixel(match, reference, key, other: key.person < 0 ? -1 : key.person, options: options),
        let b = pixel(match, other, key, other: association[fp], options: options)
      else { continue }
      observations += [a, b]
      used.append(key)
    }
    let batch = try Triangulator(cameras: [reference, other]).triangulate(observations)
    var out: [Key: Double] = [:]
    for (i, key) in used.enumerated() where batch.status(i) == .ok {
      let z = batch.position(i).z
      if z > 0 { out[key] = z }
    }
    return out
  }

  /// Every key seen by two or more cameras, triangulated robustly with `cameras`, and the observations
  /// of the views the triangulation kept.
  static func evidence(
    match: Match, cameras: [Camera], frames: [Int], associations: [[FramePerson: Int]], options: Options
  ) throws -> (points: [SIMD3<Double>], keys: [Key], observations: [CalibrationObservation]) {
    let m = cameras.count
    var keys: [Key] = []
    var observations: [Keypoint2D] = []
    for frame in frames {
      var persons = (0..<match.people(camera: cameras[0].name, frame: frame).count).map { $0 }
      persons.append(-1)
      for person in persons {
        let jointCount = person < 0 ? 1 : match.skeleton.count
        for joint in 0..<jointCount {
          let key = Key(frame: frame, person: person, joint: joint)
          let fp = FramePerson(frame: frame, person: person)
          let views = (0..<m).map { c -> Keypoint2D in
            let other = c == 0 ? (person < 0 ? -1 : person) : associations[c][fp]
            return pixel(match, cameras[c], key, other: other, options: options) ?? .missing
          }
          guard views.filter(\.isDetected).count >= 2 else { continue }
          keys.append(key)
          observations += views
        }
      }
    }
    var triangulation = TriangulationOptions()
    triangulation.robust = true
    triangulation.maxReprojectionPx = 4 * options.thresholdPx
    let batch = try Triangulator(cameras: cameras, options: triangulation).triangulate(observations)
    var points: [SIMD3<Double>] = [], kept: [Key] = [], calibration: [CalibrationObservation] = []
    for (i, key) in keys.enumerated() where batch.status(i) == .ok {
      let used = (0..<m).filter { batch.isUsed(point: i, camera: $0) }
      guard used.count >= 2 else { continue }
      for c in used {
        let o = observations[i * m + c]
        calibration.append(CalibrationObservation(camera: c, point: points.count, pixel: SIMD2(o.x, o.y), weight: o.confidence))
      }
      points.append(batch.position(i))
      kept.append(key)
    }
    return (points, kept, calibration)
  }
}

extension Camera {
  /// The camera with its pose replaced.
  func posed(_ camFromWorld: RigidTransform) -> Camera {
    var c = self
    c.camFromWorld = camFromWorld
    return c
  }
}
