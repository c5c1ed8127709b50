/// Dynamic time warping of two strokes' racket-hand speed profiles, phase by phase with the contact
/// samples matched (Sakoe & Chiba, "Dynamic programming algorithm optimization for spoken word
/// recognition", IEEE Trans. ASSP 26 (1978) 43–49: symmetric steps, an adjustment window).
///
/// Only the timing signal (the racket hand's speed, each profile divided by its peak) is warped, never
/// the joint angles compared, so a deviation in one joint cannot shift the comparison of another. A
/// horizontal or vertical step costs `stepPenalty` more than a diagonal one, so identical profiles align
/// on the diagonal.
public struct StrokeAlignment: Sendable {
  /// Largest |i − j| in samples (10 % of the stroke).
  public var window = 10
  public var stepPenalty = 0.02

  public init() {}

  /// Pairs (sample of the stroke, sample of the reference), from (0, 0) through the contact pair to the
  /// last samples.
  public func path(_ a: [Double], _ b: [Double]) -> [(Int, Int)] {
    let c = StrokeCurves.contactSample, n = StrokeCurves.sampleCount
    let peakA = max(a.max() ?? 1, 1e-9), peakB = max(b.max() ?? 1, 1e-9)
    let na = a.map { $0 / peakA }, nb = b.map { $0 / peakB }
    let first = phase(na, nb, 0, c)
    let second = phase(na, nb, c, n - 1)
    return first + second.dropFirst()
  }

  /// Warping path over samples lo…hi of both profiles, (lo, lo) to (hi, hi).
  func phase(_ a: [Double], _ b: [Double], _ lo: Int, _ hi: Int) -> [(Int, Int)] {
    let m = hi - lo + 1
    var cost = [Double](repeating: .infinity, count: m * m)
    func at(_ i: Int, _ j: Int) -> Double { i < 0 || j < 0 ? .infinity : cost[i * m + j] }
    for i in 0..<m {
      for j in max(0, i - window)...min(m - 1, i + window) {
        let d = abs(a[lo + i] - b[lo + j])
        if i == 0 && j == 0 {
          cost[0] = d
          continue
        }
        cost[i * m + j] = d + min(at(i - 1, j - 1), at(i - 1, j) + stepPenalty, at(i, j - 1) + stepPenalty)
      }
    }
    var path = [(lo + m - 1, lo + m - 1)]
    var i = m - 1, j = m - 1
    while i > 0 || j > 0 {
      let diagonal = at(i - 1, j - 1), up = at(i - 1, j) + stepPenalty, left = at(i, j - 1) + stepPenalty
      if diagonal <= up && diagonal <= left {
        i -= 1
        j -= 1
      } else if up <= left {
        i -= 1
      } else {
        j -= 1
      }
      path.append((lo + i, lo + j))
    }
    return path.reversed()
  }
}
