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
  ///   `maxLimbDifference` when both are known (at least 6 shared limbs, 30 frames each), else within
  ///   half of it on at least 4 shared limbs;
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
    let known = shared >= 6 && a.frames >= 30 && b.frames >= 30
    // Well-known proportions agree within `maxLimbDifference`; fewer samples must agree twice as well.
    guard known ? difference <= options.maxLimbDifference : shared >= 4 && difference <= options.maxLimbDifference / 2
    else { return nil }
    let limbTerm = difference / options.maxLimbDifference
    return 0.6 * miss / gate + 0.3 * limbTerm + 0.1 * dt / maxLinkGap
  }
}
