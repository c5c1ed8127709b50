import MatchSceneCore

extension IdentityTracker {
  /// Links tracklets into people over the whole match at once: each tracklet gets at most one
  /// successor that starts after it ends and at most one predecessor, and the set of links is the one
  /// of least total cost — the optimum over the whole match, not the greedy choice in time order.
  ///
  /// This is the network-flow formulation of global data association (Zhang, Li & Nevatia, "Global
  /// data association for multi-object tracking using network flows", CVPR 2008): with tracklets as
  /// nodes, each flow unit is one person, and a min-cost flow in this DAG with unit capacities is
  /// solved exactly as an assignment of tracklet ends to tracklet starts, with "the person leaves" and
  /// "a person appears" as dummy entries (Huang, Wu & Nevatia, "Robust object tracking by hierarchical
  /// association of detection responses", ECCV 2008, §3) — by the Hungarian method (`Assignment`).
  ///
  /// A link from tracklet a to a later tracklet b is allowed when
  /// - the person could have moved from a's end to b's start in the time between: the gap between
  ///   a's end extrapolated forward (its last velocity, for at most half a second) and b's start
  ///   extrapolated backward (its early velocity) — the mean of both, across the ground — is within the
  ///   tracker's gate for that time (`gate(after:)`: sprinting speed, then walking speed);
  /// - their body proportions (running medians of limb lengths, estimated per tracklet) agree within
  ///   half of `maxLimbDifference` on at least 4 shared limbs;
  /// - b starts within `maxLinkGap` seconds.
  /// Its cost, in units of "one open end", adds the position miss as a share of the gate, the limb
  /// difference as a share of `maxLimbDifference`, and the gap as a share of `maxLinkGap`; every
  /// allowed link costs less than leaving both ends open (1 + 1), so the optimum links as many
  /// tracklets as it consistently can.
  /// - Returns: tracklet id → the id of the chain it belongs to (the chain's first tracklet).
  func globalChains(maxLinkGap: Double = 60) -> [Int: Int] {
    let n = tracks.count
    guard n > 0 else { return [:] }
    // Rows: tracklet ends, then "a person appears" for each start; columns: tracklet starts, then
    // "the person leaves" for each end.
    var cost = [[Double]](repeating: [Double](repeating: 0, count: 2 * n), count: 2 * n)
    for a in 0..<n {
      for b in 0..<n { cost[a][b] = linkCost(from: tracks[a], to: tracks[b], maxLinkGap: maxLinkGap) ?? Assignment.forbidden }
      for k in 0..<n { cost[a][n + k] = k == a ? 1 : Assignment.forbidden }
    }
    for b in 0..<n {
      for k in 0..<n { cost[n + b][k] = k == b ? 1 : Assignment.forbidden }
      // Bottom right: dummies pair freely at no cost.
    }
    let column = Assignment.solve(cost)
    var successor: [Int: Int] = [:], hasPredecessor = Set<Int>()
    for a in 0..<n where column[a] < n && cost[a][column[a]] < Assignment.forbidden {
      successor[a] = column[a]
      hasPredecessor.insert(column[a])
    }
    var owner: [Int: Int] = [:]
    for start in 0..<n where !hasPredecessor.contains(start) {
      var t: Int? = start
      while let k = t, owner[tracks[k].id] == nil {
        owner[tracks[k].id] = tracks[start].id
        t = successor[k]
      }
    }
    // Every tracklet has a chain (a cycle cannot form: links go forward in time).
    for track in tracks where owner[track.id] == nil { owner[track.id] = track.id }
    return owner
  }

  /// The cost of tracklet `b` continuing tracklet `a` (see `globalChains`), or nil when not allowed.
  func linkCost(from a: Track, to b: Track, maxLinkGap: Double) -> Double? {
    guard b.firstFrame > a.lastFrame else { return nil }
    let dt = Double(b.firstFrame - a.lastFrame) / fps
    guard dt <= maxLinkGap else { return nil }
    let horizon = min(dt, 0.5)
    let forward = a.lastCentre + a.velocity * horizon
    let backward = b.firstCentre - (b.startVelocity ?? b.velocity) * horizon
    let miss = 0.5 * (Self.groundDistance(forward, b.firstCentre, up: up) + Self.groundDistance(a.lastCentre, backward, up: up))
    let gate = gate(after: dt)
    guard miss <= gate else { return nil }
    let (difference, shared) = Self.limbDifference(a.limbs, b.limbs)
    // Proportions agree within half of `maxLimbDifference` on at least 4 shared limbs (a looser
    // bound let a bystander's tracklets at 2× keypoint noise link to false people).
    guard shared >= 4, difference <= options.maxLimbDifference / 2 else { return nil }
    let limbTerm = difference / options.maxLimbDifference
    return 0.6 * miss / gate + 0.3 * limbTerm + 0.1 * dt / maxLinkGap
  }
}

extension IdentityTracker {
  /// Joins whole chains of `globalChains` one after the other, greedily in time order, comparing each
  /// chain's proportions by its longest tracklet: a person seen in many short, noisy tracklets (a
  /// bystander seen by two cameras at 2× keypoint noise) has pairwise tracklet proportions too noisy
  /// to link, while the chain's best-seen tracklet still tells them. A later chain continues an
  /// earlier one that ended before it started, no farther away than the person could have run
  /// (`trackGateSlack + maxPersonSpeed · Δt`), with proportions within `maxLimbDifference / 2` on at
  /// least 4 limbs; among several, the lowest position + proportion cost wins.
  /// With no chains (`[:]`) every tracklet is its own chain: the offline joining of tracklets in time
  /// order (the default; `ReconstructionOptions.globalTrackletLinking` runs `globalChains` first).
  /// - Parameter chains: tracklet id → chain root (tracklets left out are their own chain).
  /// - Returns: tracklet id → chain root, with chains joined.
  func joinedChains(_ chains: [Int: Int]) -> [Int: Int] {
    struct Span { var root: Int; var first: Int; var last: Int; var firstCentre: SIMD3<Double>; var lastCentre: SIMD3<Double>; var limbs: [Double?]; var longest: Int }
    var spans: [Int: Span] = [:]
    for t in tracks {
      let r = chains[t.id] ?? t.id
      var s = spans[r] ?? Span(root: r, first: t.firstFrame, last: t.lastFrame, firstCentre: t.firstCentre, lastCentre: t.lastCentre, limbs: t.limbs, longest: t.frames)
      if t.firstFrame < s.first { (s.first, s.firstCentre) = (t.firstFrame, t.firstCentre) }
      if t.lastFrame > s.last { (s.last, s.lastCentre) = (t.lastFrame, t.lastCentre) }
      if t.frames > s.longest { (s.limbs, s.longest) = (t.limbs, t.frames) }
      spans[r] = s
    }
    var open: [Span] = []
    var joined: [Int: Int] = [:]
    for span in spans.values.sorted(by: { ($0.first, $0.root) < ($1.first, $1.root) }) {
      var best: (cost: Double, index: Int)?
      for (k, o) in open.enumerated() where o.last < span.first {
        let dt = Double(span.first - o.last) / fps
        let d = length(span.firstCentre - o.lastCentre)
        guard d <= options.trackGateSlack + options.maxPersonSpeed * dt else { continue }
        let (difference, shared) = Self.limbDifference(o.limbs, span.limbs)
        guard shared >= 4, difference <= options.maxLimbDifference / 2 else { continue }
        let cost = d + options.limbDifferenceWeight * difference
        if best == nil || cost < best!.cost { best = (cost, k) }
      }
      if let best {
        joined[span.root] = open[best.index].root
        open[best.index].last = span.last
        open[best.index].lastCentre = span.lastCentre
      } else {
        joined[span.root] = span.root
        open.append(span)
      }
    }
    return Dictionary(uniqueKeysWithValues: tracks.map { t in
      let r = chains[t.id] ?? t.id
      return (t.id, joined[r] ?? r)
    })
  }
}
