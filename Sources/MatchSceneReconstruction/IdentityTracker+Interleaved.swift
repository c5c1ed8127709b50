import MatchSceneCore

extension IdentityTracker {
  /// One sighting of a tracklet: the frame and the person's centre there.
  struct Sighting {
    var frame: Int
    var tracklet: Int
    var centre: SIMD3<Double>
  }

  /// Joins chains that are one person carried by two tracklets in turn — which happens when a person
  /// seen by only two cameras is re-acquired after a gap under a new id while the old id also picks
  /// them up now and then. `globalChains` cannot join those: their time spans overlap.
  ///
  /// Two chains are one person when they are never seen in the same frame (two people on the scene
  /// are, nearly all the time), their body proportions agree within `maxLimbDifference` or the
  /// chains' own limb scatter when larger (`proportionsAgree`, `limbTolerance`: median over the limbs
  /// both know, for some pair of the chains' tracklets), and at the hand-overs between them (all
  /// but one in ten) the person could have moved from one sighting to the next across the ground
  /// (`trackGateSlack` plus `maxPersonSpeed` for the first half second, `walkingSpeed` after). Heights
  /// are left out: the centre of a partly seen person (a torso joint or two) can sit half a metre lower
  /// than a whole one. Merges are made greedily, largest pair first, until no pair qualifies.
  /// - Parameters:
  ///   - chains: tracklet id → chain root, from `globalChains()`.
  ///   - sightings: every assignment of a person to a tracklet, in any order.
  ///   - up: the world's up axis (unit vector).
  /// - Returns: tracklet id → chain root, with interleaved chains joined.
  func mergedInterleaved(_ chains: [Int: Int], sightings: [Sighting], up: SIMD3<Double>) -> [Int: Int] {
    var root = chains
    // Per chain: frame → centre, and the limb signature of its longest tracklet.
    func members() -> [Int: [Int: SIMD3<Double>]] {
      var out: [Int: [Int: SIMD3<Double>]] = [:]
      for s in sightings { out[root[s.tracklet] ?? s.tracklet, default: [:]][s.frame] = s.centre }
      return out
    }
    func signatureTracklets(_ chain: Int) -> [(limbs: [Double?], spread: Double)] {
      let all = tracks.filter { (root[$0.id] ?? $0.id) == chain }
      let known = all.filter { $0.frames >= 30 }
      let chosen = known.isEmpty ? Array(all.max { $0.frames < $1.frames }.map { [$0] } ?? []) : known
      return chosen.map { ($0.limbs, Self.limbSpread($0)) }
    }
    while true {
      let byChain = members()
      let ids = byChain.keys.sorted()
      let members = Dictionary(uniqueKeysWithValues: ids.map { ($0, signatureTracklets($0)) })
      var best: (size: Int, a: Int, b: Int)?
      for (i, a) in ids.enumerated() {
        for b in ids[(i + 1)...] {
          let fa = byChain[a]!, fb = byChain[b]!
          guard fa.count + fb.count > (best?.size ?? 0) else { continue }
          let (small, large) = fa.count <= fb.count ? (fa, fb) : (fb, fa)
          guard !small.keys.contains(where: { large[$0] != nil }) else { continue }
          guard proportionsAgree(members[a]!, members[b]!) else { continue }
          guard handOversAreReachable(fa, fb, up: up) else { continue }
          best = (fa.count + fb.count, a, b)
        }
      }
      guard let best else { return root }
      for (tracklet, r) in root where r == best.b { root[tracklet] = best.a }
    }
  }

  /// Whether two chains' body proportions agree: some tracklet of one (seen at least 30 times, else
  /// its longest) and some of the other agree on at least 4 limbs within `limbTolerance`. Any pair,
  /// not the longest of each: on a miscalibrated rig a person seen by two cameras measures his limbs
  /// differently on either side of the hall (shoulder width 0.36 m on one side of a bystander's walk,
  /// 0.43 m on the other, hard preset), so his tracklets on the same side agree (within 3 mm there)
  /// where his longest tracklets, on opposite sides, did not.
  func proportionsAgree(_ a: [(limbs: [Double?], spread: Double)], _ b: [(limbs: [Double?], spread: Double)]) -> Bool {
    a.contains { x in
      b.contains { y in
        let (difference, shared) = Self.limbDifference(x.limbs, y.limbs)
        return shared >= 4 && difference <= limbTolerance(x.spread, y.spread)
      }
    }
  }

  /// How far two chains' body proportions may differ and still be one person: `maxLimbDifference`, or
  /// the per-frame spread of the two chains' limb lengths combined (root sum of squares) when larger.
  /// A person seen by two cameras on a badly calibrated rig measures limbs that scatter by centimetres
  /// from frame to frame and shift with where he stands (a camera's calibration error biases them
  /// differently across the hall): on the hard preset a bystander's two tracklets, one per side of his
  /// walk, differed by 1.6 cm and stayed two ids. A difference within the measurements' own scatter is
  /// no evidence of two bodies; well-seen people keep the tight tolerance.
  func limbTolerance(_ a: Double, _ b: Double) -> Double {
    max(options.maxLimbDifference, (a * a + b * b).squareRoot())
  }

  /// The per-frame spread of a tracklet's limb lengths: per limb with at least 10 recent samples, the
  /// median absolute deviation from their median scaled to a standard deviation (× 1.4826); the median
  /// over limbs. 0 with no such limb.
  static func limbSpread(_ track: Track) -> Double {
    let median = MatchSceneCore.median
    let spreads = track.limbSamples.filter { $0.count >= 10 }.map { samples in
      let m = median(samples)
      return 1.4826 * median(samples.map { abs($0 - m) })
    }
    return spreads.isEmpty ? 0 : median(spreads)
  }

  /// Whether the switches between the two chains' sightings, in time order, are distances the person
  /// could cover in the time between — all but one in ten: over many hand-overs a tracklet may grab a
  /// badly placed partial pose or a ghost for a frame and hand back (two unreachable hand-overs), while
  /// two different people who are never seen together hand over once or twice, where none may fail.
  /// A sighting out of reach of both its neighbours while they are in reach of each other is one
  /// misplaced pose (a glitch), not a hand-over: it is left out before counting (at 2× keypoint noise
  /// one such pose made the two unreachable hand-overs that kept a bystander's two chains apart).
  /// Each hand-over compares the median places of up to `handOverWindow` sightings either side
  /// (`localMedian`), not the two single centres at the switch.
  private func handOversAreReachable(_ a: [Int: SIMD3<Double>], _ b: [Int: SIMD3<Double>], up: SIMD3<Double>) -> Bool {
    let all = (a.map { ($0.key, $0.value, true) } + b.map { ($0.key, $0.value, false) }).sorted { $0.0 < $1.0 }
    func reachable(_ x: (Int, SIMD3<Double>, Bool), _ y: (Int, SIMD3<Double>, Bool)) -> Bool {
      Self.groundDistance(y.1, x.1, up: up) <= gate(after: Double(y.0 - x.0) / fps)
    }
    let timeline = all.indices.filter { k in
      guard k > 0, k + 1 < all.count else { return true }
      return reachable(all[k - 1], all[k]) || reachable(all[k], all[k + 1]) || !reachable(all[k - 1], all[k + 1])
    }.map { all[$0] }
    var handOvers = 0, unreachable = 0
    for k in timeline.indices.dropLast() where timeline[k].2 != timeline[k + 1].2 {
      handOvers += 1
      if !reachable(Self.localMedian(timeline, through: k), Self.localMedian(timeline, from: k + 1)) { unreachable += 1 }
    }
    return unreachable <= handOvers / 10
  }

  /// How many sightings on each side of a hand-over are summarised by their median (`localMedian`).
  static let handOverWindow = 5

  /// The coordinate-wise median place and median frame of the last `handOverWindow` sightings up to
  /// index `k` of the same chain as `timeline[k]` (a run of one chain ends at a hand-over). One centre
  /// of a person seen by two cameras at 2× keypoint noise is off by a decimetre or more, which made a
  /// bystander's hand-over between his own two tracklets miss the one-frame reach by 3 cm; the median of
  /// a few sightings is the person's place, and the gate then spans the frames between the medians.
  static func localMedian(_ timeline: [(Int, SIMD3<Double>, Bool)], through k: Int) -> (Int, SIMD3<Double>, Bool) {
    var run: [(Int, SIMD3<Double>, Bool)] = []
    var i = k
    while i >= 0, timeline[i].2 == timeline[k].2, run.count < handOverWindow { run.append(timeline[i]); i -= 1 }
    return median(run)
  }

  /// As `localMedian(_:through:)`, over the first sightings from index `k` on.
  static func localMedian(_ timeline: [(Int, SIMD3<Double>, Bool)], from k: Int) -> (Int, SIMD3<Double>, Bool) {
    var run: [(Int, SIMD3<Double>, Bool)] = []
    var i = k
    while i < timeline.count, timeline[i].2 == timeline[k].2, run.count < handOverWindow { run.append(timeline[i]); i += 1 }
    return median(run)
  }

  private static func median(_ run: [(Int, SIMD3<Double>, Bool)]) -> (Int, SIMD3<Double>, Bool) {
    let mid = MatchSceneCore.median
    let frame = Int(mid(run.map { Double($0.0) }).rounded())
    return (frame, SIMD3(mid(run.map(\.1.x)), mid(run.map(\.1.y)), mid(run.map(\.1.z))), run[0].2)
  }

}
