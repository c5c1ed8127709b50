import MatchSceneCore

extension FlightSegmentation {
  /// `members` (indices into `obs`, time-ordered) as one flight when its fitted path agrees with the
  /// surfaces (`disagrees`), else split into the fewest consecutive parts whose fitted paths all agree — among
  /// those, the split with the least squared residual. Each part is fitted with a drag-free parabola
  /// p(t) = a + b t + ½ g t² (linear least squares per axis; drag changes a part of ≤ 0.3 s at the
  /// speeds of a settling ball by well under a millimetre) and needs two observations. Dynamic
  /// programming over the split points (optimal partitioning, Jackson et al., "An algorithm for optimal
  /// partitioning of data on an interval", IEEE Signal Processing Letters 12(2), 2005), with the number
  /// of parts as the first criterion instead of a penalty.
  /// - Returns: the parts; `[members]` when nothing goes through a surface or no split clears them.
  /// `fitted` is the flight already fitted to `members`.
  func splitAtSurfaces(
    _ members: [Int], _ obs: [(frame: Int, position: SIMD3<Double>)], fps: Double, fitted flight: BallFlight
  ) -> [[Int]] {
    guard surfaces != nil, members.count >= 4, goesThrough(flight, members, obs, fps: fps)
    else { return [members] }
    let n = members.count
    // best[j]: fewest parts (then least cost) covering members[0..<j], and where its last part starts.
    var best = [(parts: Int, cost: Double, from: Int)?](repeating: nil, count: n + 1)
    best[0] = (0, 0, 0)
    for j in 2...n {
      for i in stride(from: j - 2, through: 0, by: -1) {
        guard let before = best[i], let cost = clearParabolaCost(members[i..<j], obs, fps: fps) else { continue }
        let candidate = (parts: before.parts + 1, cost: before.cost + cost, from: i)
        if let current = best[j], (current.parts, current.cost) <= (candidate.parts, candidate.cost) { continue }
        best[j] = candidate
      }
    }
    guard best[n] != nil else { return [members] }
    var parts: [[Int]] = []
    var j = n
    while j > 0 {
      let i = best[j]!.from
      parts.append(Array(members[i..<j]))
      j = i
    }
    return parts.reversed()
  }

  /// Sum of squared residuals of the least-squares drag-free parabola through the observations
  /// `members`, or nil when that parabola disagrees with the surfaces at one of them.
  func clearParabolaCost(_ members: ArraySlice<Int>, _ obs: [(frame: Int, position: SIMD3<Double>)], fps: Double) -> Double? {
    let t0 = Double(obs[members.first!].frame) / fps
    let times = members.map { Double(obs[$0].frame) / fps - t0 }
    let n = Double(times.count)
    let st = times.reduce(0, +), stt = times.map { $0 * $0 }.reduce(0, +)
    let det = n * stt - st * st
    guard abs(det) > 1e-15 else { return nil }
    var fitted = [SIMD3<Double>](repeating: .zero, count: times.count)
    var cost = 0.0
    for axis in 0..<3 {
      let g = model.gravity[axis]
      let y = zip(members, times).map { obs[$0].position[axis] - 0.5 * g * $1 * $1 }
      let sy = y.reduce(0, +), sty = zip(times, y).map(*).reduce(0, +)
      let a = (stt * sy - st * sty) / det, b = (n * sty - st * sy) / det
      for (k, t) in times.enumerated() {
        fitted[k][axis] = a + b * t + 0.5 * g * t * t
        cost += (fitted[k][axis] - obs[members[members.startIndex + k]].position[axis]) * (fitted[k][axis] - obs[members[members.startIndex + k]].position[axis])
      }
    }
    guard !zip(fitted, members).contains(where: { disagrees(fitted: $0, observed: obs[$1].position) }) else { return nil }
    return cost
  }
}
