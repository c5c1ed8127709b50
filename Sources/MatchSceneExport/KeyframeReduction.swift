import MatchSceneCore

/// Error-bounded keyframe reduction of sampled animation channels.
///
/// Given a channel sampled at times t₀ < t₁ < … < tₙ₋₁ and a tolerance, it keeps a subset of the keys,
/// always the first and the last, such that the channel a viewer interpolates between the kept keys
/// reproduces every dropped sample within the tolerance. Every dropped sample is checked exactly: a
/// candidate segment is accepted only after measuring the error at each sample it would drop.
///
/// - LINEAR channels are reduced greedily (the "sliding window" segmentation of E. Keogh, S. Chu,
///   D. Hart & M. Pazzani, "An online algorithm for segmenting time series", ICDM 2001, with the
///   vertical-distance test of U. Ramer, "An iterative procedure for the polygonal approximation of
///   plane curves", CGIP 1(3), 1972, and D. Douglas & T. Peucker, Canadian Cartographer 10(2), 1973, in
///   its time-synchronous form): from the last kept key, the segment is extended as far as it stays
///   within the tolerance, found by doubling its length and then bisecting between the last length that
///   fits and the first that does not. The result is exact (every dropped sample is checked) and close
///   to the fewest keys; when the error is not monotone in the segment length the bisection may stop
///   short of the longest segment that fits, which costs keys, never accuracy.
/// - STEP channels keep a key wherever the value moves further than the tolerance from the last kept
///   value (with tolerance 0: wherever it changes), so the held value never strays further than that.
enum KeyframeReduction {
  /// Indices of the keys to keep of a LINEAR channel of `count` samples: `error(i, j, k)` is the error at
  /// sample k (i < k < j) of the channel interpolated between samples i and j.
  /// - Returns: ascending indices starting with 0 and ending with `count − 1` (all of them when
  ///   `count ≤ 2`).
  static func linear(count n: Int, tolerance: Double, error: (Int, Int, Int) -> Double) -> [Int] {
    guard n > 2 else { return Array(0..<n) }
    var kept = [0]
    var i = 0
    func fits(_ j: Int) -> Bool {
      var k = i + 1
      while k < j {
        if !(error(i, j, k) <= tolerance) { return false }
        k += 1
      }
      return true
    }
    while i < n - 1 {
      var good = i + 1  // a segment to the next sample drops nothing
      var bad: Int?
      var probe = i + 2
      while probe < n {
        if fits(probe) {
          good = probe
          probe = i + 2 * (probe - i)
        } else {
          bad = probe
          break
        }
      }
      if bad == nil, good < n - 1 {
        if fits(n - 1) { good = n - 1 } else { bad = n - 1 }
      }
      if var hi = bad {
        var lo = good
        while hi - lo > 1 {
          let mid = (lo + hi) / 2
          if fits(mid) { lo = mid } else { hi = mid }
        }
        good = lo
      }
      kept.append(good)
      i = good
    }
    return kept
  }

  /// Indices of the keys to keep of a STEP channel of `count` samples: 0, every k whose value is further
  /// than `tolerance` from the last kept value (`distance(k, last)`), and `count − 1`.
  static func step(count n: Int, tolerance: Double, distance: (Int, Int) -> Double) -> [Int] {
    guard n > 2 else { return Array(0..<n) }
    var kept = [0]
    for k in 1..<(n - 1) where distance(k, kept[kept.count - 1]) > tolerance { kept.append(k) }
    kept.append(n - 1)
    return kept
  }

  // MARK: - Errors of glTF's interpolation (§3.11: LINEAR is lerp for translation and scale, slerp for rotation)

  /// The LINEAR error of vec3 samples `v` at times `t`: the distance between sample k and the straight
  /// interpolation between samples i and j.
  static func vec3Error(_ v: [SIMD3<Double>], times t: [Double]) -> (Int, Int, Int) -> Double {
    { i, j, k in
      let u = (t[k] - t[i]) / (t[j] - t[i])
      return length(v[i] + (v[j] - v[i]) * u - v[k])
    }
  }

  /// The LINEAR error of unit quaternions `q` (x, y, z, w) at times `t`: the rotation angle, radians,
  /// between sample k and the spherical linear interpolation between samples i and j.
  static func rotationError(_ q: [SIMD4<Double>], times t: [Double]) -> (Int, Int, Int) -> Double {
    { i, j, k in
      let u = (t[k] - t[i]) / (t[j] - t[i])
      return angle(slerp(q[i], q[j], u), q[k])
    }
  }

  /// Spherical linear interpolation from `a` (u = 0) to `b` (u = 1) along the shorter arc (`b` is negated
  /// when a · b < 0, as Three.js and other viewers do); normalised linear interpolation when the two are
  /// within 0.05° of each other, where slerp's division loses precision.
  static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ u: Double) -> SIMD4<Double> {
    var b = b
    var d = (a * b).sum()
    if d < 0 {
      b = -b
      d = -d
    }
    if d > 1 - 1e-7 { return Quaternion.normalized(a + (b - a) * u) }
    let theta = acos(min(1, d))
    let s = sin(theta)
    return Quaternion.normalized(a * (sin((1 - u) * theta) / s) + b * (sin(u * theta) / s))
  }

  /// The angle, radians, of the rotation from unit quaternion `a` to `b`: 4 atan2(|a − b|, |a + b|) with
  /// `b` on `a`'s side, accurate for small angles where 2 acos(a · b) is not.
  static func angle(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Double {
    let a = Quaternion.normalized(a)
    var b = Quaternion.normalized(b)
    if (a * b).sum() < 0 { b = -b }
    let minus = ((a - b) * (a - b)).sum().squareRoot()
    let plus = ((a + b) * (a + b)).sum().squareRoot()
    return 4 * atan2(minus, plus)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
