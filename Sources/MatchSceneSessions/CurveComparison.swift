import Foundation
import MatchSceneCore

/// A time-normalised curve family: strokes resampled to 0…100 % of their duration.
public struct NormalisedCurves: Sendable, Codable, Equatable {
  /// 101 points, 0…100 % of the stroke (the registered axis's samples).
  public static let points = LandmarkRegistration.sampleCount
  public var mean: [Double]
  /// Standard deviation across strokes at each point.
  public var sd: [Double]
  /// Strokes averaged.
  public var count: Int
  /// Mean share of the stroke at contact, percent.
  public var contactPercent: Double
  /// Share of the stroke where the forward swing starts, percent, when the curves are registered at the
  /// four landmarks (`registered`); nil for curves normalised from backswing start to follow-through end.
  public var forwardSwingPercent: Double?
  /// The single strokes' curves (not written to compare.json): what `CurveSPM` tests.
  public var curves: [[Double]] = []
  /// For each of `curves`, the stroke's index among the session's strokes of its kind, so that a
  /// permutation test moves a stroke's angles together.
  public var strokes: [Int] = []

  enum CodingKeys: String, CodingKey { case mean, sd, count, contactPercent, forwardSwingPercent }

  /// Averages `curves` (each already resampled to `points`); `strokes` numbers them (default 0, 1, …).
  public init?(_ curves: [[Double]], contactPercents: [Double], forwardSwingPercent: Double? = nil, strokes: [Int]? = nil) {
    guard !curves.isEmpty else { return nil }
    count = curves.count
    self.curves = curves
    self.strokes = strokes ?? Array(curves.indices)
    self.forwardSwingPercent = forwardSwingPercent
    mean = (0..<Self.points).map { i in curves.reduce(0) { $0 + $1[i] } / Double(curves.count) }
    sd = (0..<Self.points).map { i in
      guard curves.count > 1 else { return 0 }
      let m = curves.reduce(0) { $0 + $1[i] } / Double(curves.count)
      return (curves.reduce(0) { $0 + ($1[i] - m) * ($1[i] - m) } / Double(curves.count - 1)).squareRoot()
    }
    contactPercent = contactPercents.reduce(0, +) / Double(contactPercents.count)
  }

  /// A series over `frames` resampled linearly to `points` (time normalisation as in gait analysis:
  /// Winter 2009 §1.4); nil when under 80 % of the frames have a value or either end has none nearby.
  public static func resample(_ values: [Int: Double], frames: ClosedRange<Int>) -> [Double]? {
    let known = frames.compactMap { f in values[f].map { (f, $0) } }
    guard frames.count >= 3, Double(known.count) >= 0.8 * Double(frames.count) else { return nil }
    var out: [Double] = []
    var k = 0
    for i in 0..<points {
      let t = Double(frames.lowerBound) + Double(i) / Double(points - 1) * Double(frames.count - 1)
      while k + 1 < known.count && Double(known[k + 1].0) <= t { k += 1 }
      if k + 1 >= known.count || Double(known[k].0) >= t {
        out.append(known[k].1)
      } else {
        let (f0, v0) = known[k], (f1, v1) = known[k + 1]
        out.append(v0 + (v1 - v0) * (t - Double(f0)) / Double(f1 - f0))
      }
    }
    return out
  }
}

/// Where and how much two mean curves differ beyond the stroke-to-stroke noise.
public struct Stretch: Sendable, Codable, Equatable {
  public var fromPercent: Int
  public var toPercent: Int
  /// `backswing`, `forward swing`, `contact` or `follow-through`, by where the stretch's largest
  /// difference lies relative to contact.
  public var phase: String
  /// Mean of (B − A) over the stretch, degrees.
  public var meanDifference: Double
  /// Largest |B − A| in it, signed, degrees.
  public var peakDifference: Double
}

/// Two time-normalised mean curves compared.
public struct CurveComparison: Sendable, Codable, Equatable {
  /// Root mean square of B − A over 0…100 %, degrees.
  public var rmse: Double
  /// Coefficient of multiple correlation of the two mean curves (Kadaba et al. 1989, J Orthop Res 7:849,
  /// in the form of Ferrari et al. 2010, Gait Posture 31:540); 1 for identical shapes, nil when undefined
  /// (between-curve variance exceeding the total).
  public var cmc: Double?
  /// Dynamic time warping distance (Sakoe & Chiba 1978): the least mean |B − A| along a monotone
  /// alignment of the two curves, degrees; small when the shapes match but are shifted in time.
  public var dtw: Double
  /// Stretches of at least `minimumPercent` where |B − A| exceeds the noise (see `init`).
  public var stretches: [Stretch]

  /// The noise at each point is twice the standard error of the difference of the means,
  /// √(sd_A²/n_A + sd_B²/n_B), at least `floorDegrees` (what angles from triangulated keypoints vary by
  /// when nothing changed).
  public init(_ a: NormalisedCurves, _ b: NormalisedCurves, floorDegrees: Double = 1, minimumPercent: Int = 5) {
    let n = NormalisedCurves.points
    let d = (0..<n).map { b.mean[$0] - a.mean[$0] }
    rmse = (d.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
    cmc = Self.cmc([a.mean, b.mean])
    dtw = Self.dtw(a.mean, b.mean)
    var out: [Stretch] = []
    var start: Int?
    let contact = (a.contactPercent + b.contactPercent) / 2
    for i in 0...n {
      let exceeds: Bool
      if i < n {
        let se = (a.sd[i] * a.sd[i] / Double(a.count) + b.sd[i] * b.sd[i] / Double(b.count)).squareRoot()
        exceeds = abs(d[i]) > max(2 * se, floorDegrees)
      } else {
        exceeds = false
      }
      if exceeds, start == nil { start = i }
      if !exceeds, let s = start {
        if i - s >= minimumPercent {
          let part = d[s..<i]
          let peak = part.max { abs($0) < abs($1) }!
          let at = s + part.firstIndex(of: peak)! - part.startIndex
          out.append(
            Stretch(
              fromPercent: s, toPercent: i - 1,
              phase: Self.phase(percent: Double(at), contact: contact, forwardSwing: a.forwardSwingPercent),
              meanDifference: part.reduce(0, +) / Double(part.count), peakDifference: peak))
        }
        start = nil
      }
    }
    stretches = out
  }

  /// The phase at `percent` of the stroke: within 3 % of contact `contact`, after it `follow-through`,
  /// before it `forward swing` from `forwardSwing` on (half-way to contact when unknown), else `backswing`.
  static func phase(percent: Double, contact: Double, forwardSwing: Double? = nil) -> String {
    if abs(percent - contact) <= 3 { return "contact" }
    if percent > contact { return "follow-through" }
    return percent < (forwardSwing ?? contact / 2) ? "backswing" : "forward swing"
  }

  /// CMC = √(1 − [Σ_g Σ_f (Y_gf − Ȳ_f)² / (F(G − 1))] / [Σ_g Σ_f (Y_gf − Ȳ)² / (FG − 1)]).
  static func cmc(_ curves: [[Double]]) -> Double? {
    let g = Double(curves.count), f = curves[0].count
    let grand = curves.reduce(0) { $0 + $1.reduce(0, +) } / (g * Double(f))
    var within = 0.0, total = 0.0
    for i in 0..<f {
      let m = curves.reduce(0) { $0 + $1[i] } / g
      for c in curves {
        within += (c[i] - m) * (c[i] - m)
        total += (c[i] - grand) * (c[i] - grand)
      }
    }
    within /= Double(f) * (g - 1)
    total /= g * Double(f) - 1
    if total == 0 { return within == 0 ? 1 : nil }
    let ratio = within / total
    return ratio <= 1 ? (1 - ratio).squareRoot() : nil
  }

  /// Classic DTW with |a_i − b_j| as the cost, divided by the path length.
  static func dtw(_ a: [Double], _ b: [Double]) -> Double {
    let n = a.count, m = b.count
    var cost = [Double](repeating: .infinity, count: (n + 1) * (m + 1))
    var steps = [Int](repeating: 0, count: (n + 1) * (m + 1))
    cost[0] = 0
    for i in 1...n {
      for j in 1...m {
        let here = abs(a[i - 1] - b[j - 1])
        let candidates = [(i - 1) * (m + 1) + j - 1, (i - 1) * (m + 1) + j, i * (m + 1) + j - 1]
        let best = candidates.min { cost[$0] < cost[$1] }!
        cost[i * (m + 1) + j] = cost[best] + here
        steps[i * (m + 1) + j] = steps[best] + 1
      }
    }
    return cost[n * (m + 1) + m] / Double(max(1, steps[n * (m + 1) + m]))
  }
}
