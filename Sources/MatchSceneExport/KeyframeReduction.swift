import Foundation
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
/// - STEP channels go through the same search with the error of holding key i's value at sample k: a
///   key is kept wherever the value moves further than the tolerance from the last kept value (with
///   tolerance 0: wherever it changes), so the held value never strays further than that.
enum KeyframeReduction {
  /// Indices of the keys to keep of a channel of `count` samples: `error(i, j, k)` is the error at
  /// sample k (i < k < j) of the channel interpolated between samples i and j (LINEAR), or holding
  /// sample i (STEP).
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

  // MARK: - Errors of glTF's interpolation (§3.11: LINEAR is lerp for translation and scale, slerp for rotation)

  /// The LINEAR error of vec3 samples `v` at times `t`: the distance between sample k and the straight
  /// interpolation between samples i and j.
  static func vec3Error(_ v: [SIMD3<Double>], times t: [Double]) -> (Int, Int, Int) -> Double {
    { i, j, k in
      let u = (t[k] - t[i]) / (t[j] - t[i])
      return length(v[i] + (v[j] - v[i]) * u - v[k])
    }
  }

  /// The LINEAR error of rotations at times `t`: `shownError` of the spherical linear interpolation
  /// between `keys[i]` and `keys[j]` (the values a reader takes keys i and j for: `samples` themselves,
  /// or their decoded quantised form, unit to within rounding) against `samples[k]`.
  static func rotationError(keys: [SIMD4<Double>], samples: [SIMD4<Double>], times t: [Double]) -> (Int, Int, Int)
    -> Double
  {
    { i, j, k in
      let u = (t[k] - t[i]) / (t[j] - t[i])
      return shownError(slerp(keys[i], keys[j], u), samples[k])
    }
  }

  /// How far quaternion `shown`, used as it is, turns things from where unit quaternion `sample` puts
  /// them, radians: the angle between the two plus 2 |‖shown‖² − 1|. Viewers build the rotation matrix
  /// of a quaternion q without normalising it, M(q) = I + ‖q‖² (M(q/‖q‖) − I), so a unit vector v
  /// moves by at most |M(q/‖q‖) v − M(sample) v| + |‖q‖² − 1| · |M(q/‖q‖) v − v| ≤ angle + 2 |‖q‖² − 1|.
  /// The second term is below 1.3e-4 for decoded normalised SHORTs and 1e-6 for Float32.
  static func shownError(_ shown: SIMD4<Double>, _ sample: SIMD4<Double>) -> Double {
    angle(shown, sample) + 2 * abs((shown * shown).sum() - 1)
  }

  /// Spherical linear interpolation from `a` (u = 0) to `b` (u = 1) along the shorter arc, computed as
  /// viewers compute it from the values stored (Three.js r111 `Quaternion.slerpFlat`): the inputs are not
  /// normalised first, and only when sin² of their angle is below machine epsilon does it fall back to
  /// a normalised linear interpolation.
  static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ u: Double) -> SIMD4<Double> {
    guard a != b else { return a }
    let cos = (a * b).sum()
    let direction: Double = cos >= 0 ? 1 : -1
    let sin2 = 1 - cos * cos
    var s = 1 - u, t = u
    if sin2 > Double.ulpOfOne {
      let sin = sin2.squareRoot()
      let length = atan2(sin, cos * direction)
      s = Foundation.sin(s * length) / sin
      t = Foundation.sin(t * length) / sin
    }
    let r = a * s + b * (t * direction)
    return s == 1 - t ? Quaternion.normalized(r) : r
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
