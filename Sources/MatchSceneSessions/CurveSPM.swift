import Foundation
import MatchSceneCore

/// A stretch of the stroke where a joint's curves differ beyond chance, family-wise (`CurveSPM`).
public struct SPMCluster: Sendable, Codable, Equatable {
  public var strokeKind: String
  public var angle: String
  /// The supra-threshold nodes, percent of the stroke (registered axis when the strokes had landmarks).
  public var fromPercent: Int
  public var toPercent: Int
  /// The phase holding most of the cluster: `backswing`, `forward swing`, `contact` or `follow-through`.
  public var phase: String
  /// Every phase the cluster touches, in stroke order.
  public var phases: [String]
  /// Mean of (B − A) of the mean curves over the cluster, degrees.
  public var meanDifference: Double
  /// Largest |B − A| in it, signed, degrees.
  public var peakDifference: Double
  /// Largest |t| in it, signed.
  public var peakT: Double
  /// Family-wise p of the cluster's peak: the share of permutations whose maximum |t| over all nodes,
  /// angles and stroke kinds reaches it.
  public var p: Double
  /// Mean |B − A| over the pooled stroke-to-stroke SD across the cluster (Cohen's d).
  public var effectSize: Double
  /// Strokes of the baseline and of the later session.
  public var strokesA: Int
  public var strokesB: Int
}

/// Statistical parametric mapping of two sessions' stroke curves (SPM{t}: Pataky 2012, Comput Methods
/// Biomech Biomed Engin 15:295; Pataky, Robinson & Vanrenterghem 2013, J Biomech 46:2394): per stroke kind
/// and angle, the two-sample t statistic (pooled variance) at every node of the time-normalised stroke.
/// The threshold is non-parametric (Nichols & Holmes 2002, Hum Brain Mapp 15:1): the (1 − α) quantile of
/// the maximum |t| over ALL nodes, angles and stroke kinds under random relabelling of strokes between the
/// two sessions, so the family-wise error over everything compared is α. A stroke's angles move together
/// (its label is permuted once per stroke, not once per angle), which keeps the joints' correlation. The
/// generator is seeded: the same sessions give the same threshold every run.
public struct CurveSPM: Sendable, Codable, Equatable {
  public var session: Int64
  public var baseline: Int64
  public var alpha: Double
  public var permutations: Int
  public var seed: UInt64
  /// The critical |t|; nil when nothing could be tested (under 2 strokes on a side everywhere).
  public var threshold: Double?
  /// Curves (stroke kind × angle) tested together.
  public var curvesTested: Int
  /// Supra-threshold clusters, largest effect first.
  public var clusters: [SPMCluster]

  public static let defaultPermutations = 1000
  public static let defaultSeed: UInt64 = 20_120_101

  /// SPM of session `b` against `a` over every stroke kind and angle both have with 2 strokes or more.
  public init(
    _ a: SessionMetrics, _ b: SessionMetrics, alpha: Double = 0.05, permutations: Int = defaultPermutations,
    seed: UInt64 = defaultSeed
  ) {
    self.init(a.technique, b.technique, baseline: a.session, session: b.session, alpha: alpha, permutations: permutations, seed: seed)
  }

  /// SPM of technique `b` (stroke kind → angle → curves) against `a`.
  public init(
    _ a: [String: [String: NormalisedCurves]], _ b: [String: [String: NormalisedCurves]], baseline: Int64, session: Int64,
    alpha: Double = 0.05, permutations: Int = defaultPermutations, seed: UInt64 = defaultSeed
  ) {
    self.session = session
    self.baseline = baseline
    self.alpha = alpha
    self.permutations = permutations
    self.seed = seed

    // The tests, grouped by stroke kind so that a permutation relabels a kind's strokes once.
    struct Test {
      var angle: String
      var a: NormalisedCurves
      var b: NormalisedCurves
      var units: [Int]  // each curve's stroke unit: A's strokes first, then B's
      var x: [[Double]]
      var sum: [Double]
      var sumSquares: [Double]
    }
    var kinds: [(kind: String, units: Int, unitsA: Int, tests: [Test])] = []
    for kind in Set(a.keys).intersection(b.keys).sorted() {
      let ca = a[kind]!, cb = b[kind]!
      let unitsA = (ca.values.flatMap(\.strokes).max() ?? -1) + 1
      let unitsB = (cb.values.flatMap(\.strokes).max() ?? -1) + 1
      var tests: [Test] = []
      for angle in Set(ca.keys).intersection(cb.keys).sorted() {
        let x = ca[angle]!, y = cb[angle]!
        guard x.curves.count >= 2, y.curves.count >= 2, x.curves.count == x.strokes.count,
          y.curves.count == y.strokes.count
        else { continue }
        let all = x.curves + y.curves
        let n = NormalisedCurves.points
        var sum = [Double](repeating: 0, count: n), squares = sum
        for c in all {
          for i in 0..<n {
            sum[i] += c[i]
            squares[i] += c[i] * c[i]
          }
        }
        tests.append(
          Test(
            angle: angle, a: x, b: y, units: x.strokes + y.strokes.map { $0 + unitsA }, x: all, sum: sum,
            sumSquares: squares))
      }
      if !tests.isEmpty { kinds.append((kind, unitsA + unitsB, unitsA, tests)) }
    }
    curvesTested = kinds.reduce(0) { $0 + $1.tests.count }
    guard curvesTested > 0 else {
      threshold = nil
      clusters = []
      return
    }

    /// t at every node of one test with `isB` labelling its strokes' units.
    func tCurve(_ test: Test, isB: [Bool]) -> [Double] {
      let n = NormalisedCurves.points
      var sB = [Double](repeating: 0, count: n), qB = sB
      var nB = 0
      for (k, c) in test.x.enumerated() where isB[test.units[k]] {
        nB += 1
        for i in 0..<n {
          sB[i] += c[i]
          qB[i] += c[i] * c[i]
        }
      }
      let nA = test.x.count - nB
      guard nA >= 2, nB >= 2 else { return [Double](repeating: 0, count: n) }
      let fa = Double(nA), fb = Double(nB)
      return (0..<n).map { i in
        let sA = test.sum[i] - sB[i], qA = test.sumSquares[i] - qB[i]
        let mA = sA / fa, mB = sB[i] / fb
        let ss = max(0, qA - fa * mA * mA) + max(0, qB[i] - fb * mB * mB)
        let sp = (ss / (fa + fb - 2)).squareRoot()
        let se = sp * (1 / fa + 1 / fb).squareRoot()
        return se > 1e-9 * max(1, abs(mA), abs(mB)) ? (mB - mA) / se : 0
      }
    }
    func maximum(_ labels: [[Bool]]) -> Double {
      var m = 0.0
      for (k, kind) in kinds.enumerated() {
        for test in kind.tests { m = max(m, tCurve(test, isB: labels[k]).map(abs).max() ?? 0) }
      }
      return m
    }

    let observedLabels = kinds.map { kind in (0..<kind.units).map { $0 >= kind.unitsA } }
    var generator = SeededGenerator(seed: seed)
    var maxima = [maximum(observedLabels)]
    var labels = observedLabels
    for _ in 1..<max(2, permutations) {
      for k in labels.indices { labels[k].shuffle(using: &generator) }
      maxima.append(maximum(labels))
    }
    maxima.sort()
    let critical = maxima[min(maxima.count - 1, Int((Double(maxima.count) * (1 - alpha)).rounded(.up)) - 1)]
    threshold = critical

    var found: [SPMCluster] = []
    for (k, kind) in kinds.enumerated() {
      for test in kind.tests {
        let t = tCurve(test, isB: observedLabels[k])
        let n = NormalisedCurves.points
        let contact = (test.a.contactPercent + test.b.contactPercent) / 2
        var s = 0
        while s < n {
          guard abs(t[s]) > critical else {
            s += 1
            continue
          }
          var e = s
          while e + 1 < n && abs(t[e + 1]) > critical && t[e + 1].sign == t[s].sign { e += 1 }
          let range = s..<(e + 1)
          let d = range.map { test.b.mean[$0] - test.a.mean[$0] }
          let peak = d.max { abs($0) < abs($1) }!
          let peakT = range.map { t[$0] }.max { abs($0) < abs($1) }!
          let p = Double(maxima.filter { $0 >= abs(peakT) }.count) / Double(maxima.count)
          let pooled = range.map { i -> Double in
            let na = Double(test.a.count), nb = Double(test.b.count)
            let v = ((na - 1) * test.a.sd[i] * test.a.sd[i] + (nb - 1) * test.b.sd[i] * test.b.sd[i]) / (na + nb - 2)
            return v.squareRoot()
          }
          let effect = zip(d, pooled).reduce(0) { $0 + abs($1.0) / max($1.1, 1e-9) } / Double(d.count)
          var phases: [String] = []
          var counts: [String: Int] = [:]
          for i in range {
            let name = CurveComparison.phase(
              percent: Double(i), contact: contact, forwardSwing: test.a.forwardSwingPercent)
            if phases.last != name { phases.append(name) }
            counts[name, default: 0] += 1
          }
          let main = phases.max { counts[$0]! < counts[$1]! }!
          found.append(
            SPMCluster(
              strokeKind: kind.kind, angle: test.angle, fromPercent: s, toPercent: e, phase: main,
              phases: phases, meanDifference: d.reduce(0, +) / Double(d.count), peakDifference: peak,
              peakT: peakT, p: p, effectSize: effect, strokesA: test.a.count, strokesB: test.b.count))
          s = e + 1
        }
      }
    }
    clusters = found.sorted { $0.effectSize > $1.effectSize }
  }
}
