import MatchSceneBallPlay
import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A simulated touch drill with its truth: a player (`SyntheticPerson`) standing and slowly turning
/// reaches for three pads — two carried by the body (in front of the chest, right and left) and one
/// fixed in the venue — with the hand on the pad's side, sometimes out of turn, sometimes short of the
/// pad. The truth counts each reach that ends inside a pad, by the drill's rules.
public struct SimulatedTouchDrill: Sendable {
  /// The player `P1` without noise, venue frame (= world).
  public var truth: MotionModel
  public var drill: Drill
  /// The drill's result from the script (which reaches ended inside a pad, and when they arrived).
  public var truthResult: DrillResult

  /// The truth with `sigma` metres of Gaussian noise per axis on every joint.
  public func measured(sigma: Double, seed: UInt64) -> MotionModel { SyntheticPerson.addingNoise(truth, sigma: sigma, seed: seed) }
}

public enum TouchDrillSimulator {
  /// One drill of `seconds` (the time limit; the recording runs 1.5 s longer) at `fps`.
  /// - Parameters:
  ///   - order: the drill's order rule.
  ///   - missRate: share of reaches that stop 10–14 cm short of the pad's surface.
  ///   - outOfTurnRate: share of reaches (with `sequence`) to another pad than the next.
  public static func simulate(
    seed: UInt64, order: Drill.Order = .sequence, seconds: Double = 20, fps: Double = 60, missRate: Double = 0.15,
    outOfTurnRate: Double = 0.15
  ) -> SimulatedTouchDrill {
    var rng = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 7)
    let person = SyntheticPerson(height: rng.uniform(1.6...1.9))
    let pelvis = SIMD3(0, 0, person.pelvisHeight)
    let sway = rng.uniform(0.2...0.4), period = rng.uniform(5...9)
    let pose = { (t: Double) in SyntheticPerson.Pose(pelvis: pelvis, heading: sway * sin(2 * .pi * t / period)) }
    let radius = 0.12
    let startChest = person.chest(pose(0))
    let pads = [
      Zone(name: "right pad", shape: .sphere(radius: radius), center: SIMD3(0.15, 0.42, 0.05),
           attachment: .body(origin: .chest, track: nil), triggers: [.role(.leftWrist), .role(.rightWrist)]),
      Zone(name: "left pad", shape: .sphere(radius: radius), center: SIMD3(-0.15, 0.40, 0.0),
           attachment: .body(origin: .chest, track: nil), triggers: [.role(.leftWrist), .role(.rightWrist)]),
      Zone(name: "wall pad", shape: .sphere(radius: radius), center: startChest.venuePoint(SIMD3(0.45, 0.05, -0.1)),
           triggers: [.role(.leftWrist), .role(.rightWrist)]),
    ]
    let drill = Drill(name: "touch drill", targets: pads, points: [1, 1, 2], order: order, start: 0, timeLimit: seconds)

    // The script: reaches, each (pad, hand, aim in the pad's frame offset from its centre, times).
    struct Reach { var pad: Int; var right: Bool; var offset: SIMD3<Double>; var gap: Double; var start, arrive, leave, back: Double; var hit: Bool }
    var reaches: [Reach] = []
    var t = rng.uniform(0.3...0.6), next = 0
    while t < seconds + 0.5 {
      let reachTime = rng.uniform(0.35...0.5), holdTime = rng.uniform(0.3...0.5)
      // Keep arrivals away from the time limit, where the truth's time and a detection's could fall
      // on either side of it.
      if abs(t + reachTime - seconds) < 0.4 {
        t += 0.8
        continue
      }
      var pad = next
      if order == .any || rng.chance(outOfTurnRate) { pad = Int(rng.next() % 3) }
      let hit = !rng.chance(missRate)
      // A hit ends within 4 cm of the centre (8 cm inside); a miss 10–14 cm short of the surface.
      let offset = 0.04 * SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)) / 1.8
      let gap = rng.uniform(0.10...0.14)
      let right = pad != 1
      reaches.append(Reach(pad: pad, right: right, offset: offset, gap: gap, start: t, arrive: t + reachTime,
        leave: t + reachTime + holdTime, back: t + 2 * reachTime + holdTime, hit: hit))
      if hit && pad == next { next = (next + 1) % 3 }
      t += 2 * reachTime + holdTime + rng.uniform(0.2...0.5)
    }

    /// Where the reach ends, chest frame: near the pad's centre, or short of it on the line to the shoulder.
    func aim(_ r: Reach, t: Double, chest: BodyFrame) -> SIMD3<Double> {
      let pad = pads[r.pad]
      var centre = pad.center
      if case .venue = pad.attachment { centre = chest.bodyPoint(pad.center) }
      if r.hit { return centre + r.offset }
      let towards = chest.bodyPoint(person.shoulder(pose(t), right: r.right)) - centre
      return centre + towards / (towards * towards).sum().squareRoot() * (radius + r.gap)
    }
    let ease = { (x: Double) in x <= 0 ? 0 : x >= 1 ? 1 : (1 - cos(.pi * x)) / 2 }
    let truth = person.motion(fps: fps, frames: 0...Int((seconds + 1.5) * fps), pose: pose) { t, chest in
      var hands = [chest.venuePoint(person.restingHand(right: false)), chest.venuePoint(person.restingHand(right: true))]
      if let r = reaches.first(where: { $0.start <= t && t < $0.back }) {
        let rest = person.restingHand(right: r.right), target = aim(r, t: t, chest: chest)
        let w = t < r.arrive ? ease((t - r.start) / (r.arrive - r.start)) : t < r.leave ? 1 : 1 - ease((t - r.leave) / (r.back - r.leave))
        hands[r.right ? 1 : 0] = chest.venuePoint(rest + (target - rest) * w)
      }
      return (hands[0], hands[1])
    }
    // The truth as zone events at the arrivals and departures of the reaches that end inside a pad.
    var events: [MatchEvent] = []
    for r in reaches where r.hit {
      for (kind, time) in [(MatchEvent.Kind.zoneEnter, r.arrive), (.zoneExit, r.leave)] {
        var e = MatchEvent(type: kind, frame: Int((time * fps).rounded()), time: time, track: "P1")
        e.zone = pads[r.pad].name
        e.joint = r.right ? "right_wrist" : "left_wrist"
        events.append(e)
      }
    }
    events.sort { $0.time < $1.time }
    let result = DrillScorer.score(drill, zoneEvents: events, recording: 0...(seconds + 1.5))
    return SimulatedTouchDrill(truth: truth, drill: drill, truthResult: result)
  }
}
