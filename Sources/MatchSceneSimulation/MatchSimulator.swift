import MatchSceneAssets
import MatchSceneCore
import MatchSceneGeometry

/// Generates seeded synthetic table-tennis matches: true 3D motion of two players, a bystander and
/// the ball, the true events, and what a rig of cameras with imperfect 2D detectors would report.
///
/// Randomness comes from independent streams of the seed (`RandomStream`): rallies, players' bodies,
/// the bystander, and each camera's detector, so changing the noise or the rig leaves the motion
/// untouched.
public enum MatchSimulator {
  /// Simulates a match.
  ///
  /// - Parameters:
  ///   - config: checked first (`SimulationConfig.validate()`).
  ///   - sport: a table sport (venue kind `table`), e.g. `try SportSpec.builtIn("table-tennis")`; every
  ///     physical constant and dimension comes from it.
  /// - Throws: `InputError` for a bad configuration or a sport that is not played on a table.
  public static func simulate(_ config: SimulationConfig, sport: SportSpec) throws -> SimulatedMatch {
    try config.validate()
    guard sport.venue.kind == "table" else {
      throw InputError(
        file: sport.id, location: .key("venue.kind"),
        "the simulator plays table tennis only (venue kind 'table'), got '\(sport.venue.kind)'")
    }
    var physics = try BallPhysics(sport: sport)
    var dragRNG = RandomStream.ballDrag.generator(seed: config.seed)
    let dragFactor = config.ballDragVariation > 0 ? 1 + dragRNG.uniform(-config.ballDragVariation...config.ballDragVariation) : 1
    physics.drag *= dragFactor
    let fps = config.fps ?? sport.defaultFPS
    let frameCount = max(1, Int((config.duration * fps).rounded(.down)))
    let players = config.players.enumerated().map { PlayerGeometry(index: $0.offset, config: $0.element) }

    var rallies = RallySimulator(
      config: config, physics: physics, players: players, fps: fps, frameCount: frameCount)
    let script = rallies.run()
    let ballTruth = SimulatedBallTruth(drag: physics.drag, dragFactor: dragFactor, magnus: physics.magnus, segments: script.spins)

    var bodyRNG = RandomStream.players.generator(seed: config.seed)
    let animators = players.map {
      PlayerAnimator(player: $0, script: script, tableHalfLength: physics.tableLength / 2, rng: &bodyRNG)
    }
    var bystanderRNG = RandomStream.bystander.generator(seed: config.seed)
    let bystander = config.noise.bystander ? BystanderAnimator(rng: &bystanderRNG, crossing: config.crossing, tableHalfLength: physics.tableLength / 2)
      : nil

    // True points of every frame in one flat array (see FrameLayout).
    let layout = FrameLayout(people: players.count + (bystander == nil ? 0 : 1))
    /// The truth at match times (frame − shift)/fps; shift 0 gives the match's own frames.
    func truthPoints(shift: Double) -> (positions: [SIMD3<Double>], ballPresent: [Bool]) {
      var positions = [SIMD3<Double>](repeating: SIMD3(0, 0, -100), count: frameCount * layout.slots)
      var ballPresent = [Bool](repeating: false, count: frameCount)
      for frame in 0..<frameCount {
        let t = (Double(frame) - shift) / fps
        let ball = shift == 0 ? script.ball[frame] : Self.ball(script.ball, at: Double(frame) - shift)
        for (k, animator) in animators.enumerated() {
          let joints = animator.joints(at: t, ball: ball)
          let base = layout.person(frame, k)
          for j in 0..<17 { positions[base + j] = joints[j] }
        }
        if let bystander {
          let joints = bystander.joints(at: t)
          let base = layout.person(frame, players.count)
          for j in 0..<17 { positions[base + j] = joints[j] }
        }
        if let ball {
          positions[layout.ball(frame)] = ball
          ballPresent[frame] = true
        }
      }
      return (positions, ballPresent)
    }
    let (positions, ballPresent) = truthPoints(shift: 0)

    // Project into every camera: the truth's view counts, and the detections.
    let cameras = config.rig.cameras.map(\.camera)
    let clocks = zip(cameras, config.unsync.offsets(cameras: cameras.count, seed: config.seed)).map {
      SimulatedCameraClock(camera: $0.0.name, offset: $0.1)
    }
    var views = [Int](repeating: 0, count: positions.count)
    var detections: [String: CameraDetections] = [:]
    var offsets: [String: Int] = [:]
    for (index, camera) in cameras.enumerated() {
      let pixels = camera.project(positions)
      for i in 0..<pixels.count where pixels[i].map({ camera.contains($0) }) == true { views[i] += 1 }
      var rng = RandomStream.detection.generator(seed: config.seed, index: index)
      let offset = config.rig.cameras[index].frameOffset
      offsets[camera.name] = offset
      let clock = clocks[index]
      let seen = clock.phase == 0 ? (positions: positions, ballPresent: ballPresent) : truthPoints(shift: clock.phase)
      let faults = config.noise.hasHarderFaults
        ? DetectorFaultState(
          noise: config.noise, people: layout.people,
          rng: RandomStream.detectionFaults.generator(seed: config.seed, index: index)) : nil
      detections[camera.name] = DetectionSynthesizer(camera: camera, noise: config.noise, layout: layout)
        .synthesize(
          pixels: clock.phase == 0 ? pixels : camera.project(seen.positions), ballPresent: seen.ballPresent,
          offset: offset + clock.frames, rng: &rng, positions: seen.positions, faults: faults)
    }
    var calibrationRNG = RandomStream.calibrationFaults.generator(seed: config.seed)
    let written = cameras.enumerated().map {
      config.rig.calibrationError.written($0.element, index: $0.offset, rng: &calibrationRNG)
    }

    let skeleton = Skeleton.coco17
    let trackIDs = players.map(\.id) + (bystander == nil ? [] : ["B1"])
    var truth = MotionModel(fps: fps, skeleton: skeleton, frames: frameCount > 0 ? 0...(frameCount - 1) : nil)
    truth.tracks = trackIDs.enumerated().map { k, id in truth.makeTrack(id: id, kind: k < players.count ? .player : .person) }
    if ballPresent.contains(true) { truth.tracks.append(truth.makeTrack(id: "ball", kind: .ball)) }
    for frame in 0..<frameCount {
      for k in trackIDs.indices {
        let base = layout.person(frame, k)
        for j in 0..<17 {
          truth.tracks[k][joint: j, frame: frame] = MotionSample(
            position: positions[base + j], reprojectionPx: 0, views: views[base + j], state: .measured)
        }
      }
      if ballPresent[frame] {
        let i = layout.ball(frame)
        truth.tracks[trackIDs.count][joint: 0, frame: frame] = MotionSample(
          position: positions[i], reprojectionPx: 0, views: views[i], state: .measured)
      }
    }
    truth.sortTracks()
    let match = Match(
      sport: sport.id, fps: fps, skeleton: skeleton, cameras: written, frameOffsets: offsets, detections: detections)
    var simulated = SimulatedMatch(
      match: match, truth: truth, events: script.events,
      config: config,
      strokes: SimulatedStroke.marking(
        script.hits.sorted { $0.time < $1.time }.map { SimulatedStroke($0, players: players, fps: fps) },
        players: config.players
      ).filter { $0.contactFrame < frameCount })
    simulated.trueCameras = cameras
    simulated.clocks = clocks
    simulated.ball = ballTruth
    simulated.gestures = script.gestures.filter { $0.end * fps < Double(frameCount) }.sorted { $0.start < $1.start }
    return simulated
  }

  /// The ball at fractional frame `x` by Catmull–Rom interpolation of the frames around it (a cubic
  /// that is exact for the ball's parabolic flight between contacts); nil when the nearest frame has no
  /// ball; the nearest frame's ball when a neighbour is missing.
  static func ball(_ track: [SIMD3<Double>?], at x: Double) -> SIMD3<Double>? {
    let nearest = Int(x.rounded())
    guard track.indices.contains(nearest), let near = track[nearest] else { return nil }
    let i = Int(x.rounded(.down)), u = x - Double(i)
    func at(_ k: Int) -> SIMD3<Double>? { track.indices.contains(k) ? track[k] : nil }
    guard let p0 = at(i - 1), let p1 = at(i), let p2 = at(i + 1), let p3 = at(i + 2) else { return near }
    let u2 = u * u, u3 = u2 * u
    let a = -0.5 * u3 + u2 - 0.5 * u, b = 1.5 * u3 - 2.5 * u2 + 1
    let c = -1.5 * u3 + 2 * u2 + 0.5 * u, d = 0.5 * u3 - 0.5 * u2
    return a * p0 + b * p1 + c * p2 + d * p3
  }
}
