/// A key of an animation curve: a value at a time, optionally with zero velocity there.
struct Key<Value> {
  var time: Double
  var value: Value
  /// Zero tangent at this key (the motion comes to rest, e.g. a held pose).
  var stop: Bool
}

/// Piecewise cubic Hermite interpolation through keys, with finite-difference (Catmull–Rom style)
/// tangents `(v[i+1] − v[i−1]) / (t[i+1] − t[i−1])` for non-uniform spacing (Catmull & Rom, 1974;
/// Fritsch & Carlson, SIAM J. Numer. Anal. 17, 1980, for the Hermite form) and zero tangents at stop
/// keys and at both ends. It passes through every key exactly. Before the first key the first value
/// holds, after the last the last.
enum Hermite {
  /// Index of the segment containing `t` (keys[i].time ≤ t < keys[i+1].time), -1 before the first key,
  /// `count - 1` at or after the last.
  static func segment(_ times: [Double], _ t: Double) -> Int {
    if times.isEmpty || t < times[0] { return -1 }
    var lo = 0, hi = times.count - 1
    if t >= times[hi] { return hi }
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if times[mid] <= t { lo = mid } else { hi = mid }
    }
    return lo
  }

  /// Interpolates at `t` with values supplied by `value(i)` (evaluated lazily for the ≤ 4 keys needed).
  static func evaluate(
    times: [Double], stops: [Bool], at t: Double, value: (Int) -> SIMD3<Double>
  ) -> SIMD3<Double> {
    let n = times.count
    precondition(n > 0, "an empty track has no value")
    let i = segment(times, t)
    if i < 0 { return value(0) }
    if i >= n - 1 { return value(n - 1) }
    let v0 = value(i), v1 = value(i + 1)
    func tangent(_ k: Int, _ vk: SIMD3<Double>) -> SIMD3<Double> {
      if stops[k] || k == 0 || k == n - 1 { return .zero }
      let prev = k == i ? (k > 0 ? value(k - 1) : vk) : v0
      let next = k == i + 1 ? (k + 1 < n ? value(k + 1) : vk) : v1
      return (next - prev) / (times[k + 1] - times[k - 1])
    }
    let m0 = tangent(i, v0), m1 = tangent(i + 1, v1)
    let h = times[i + 1] - times[i]
    let s = (t - times[i]) / h
    let s2 = s * s, s3 = s2 * s
    let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s
    let h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
    return h00 * v0 + h10 * h * m0 + h01 * v1 + h11 * h * m1
  }
}

/// A curve of 3-vectors (or scalars in `.x`) through keys; see `Hermite`.
struct HermiteTrack {
  private(set) var times: [Double] = []
  private(set) var stops: [Bool] = []
  private(set) var values: [SIMD3<Double>] = []

  init(_ keys: [Key<SIMD3<Double>>]) {
    let sorted = keys.sorted { $0.time < $1.time }
    for k in sorted {
      if let last = times.last, k.time - last < 1e-9 { continue }
      times.append(k.time)
      stops.append(k.stop)
      values.append(k.value)
    }
  }

  var isEmpty: Bool { times.isEmpty }

  func callAsFunction(_ t: Double) -> SIMD3<Double> {
    Hermite.evaluate(times: times, stops: stops, at: t) { values[$0] }
  }
}
