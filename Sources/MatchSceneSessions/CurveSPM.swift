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
/// The pooled SD is held at `floorDegrees` at least. The threshold is non-parametric (Nichols & Holmes
/// 2002, Hum Brain Mapp 15:1): the (1 − α) quantile of
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

  /// Strokes each session needs of a kind for its angles to be tested: with fewer, a permutation test
  /// has too few distinct relabellings, and near-constant curves give |t| without bound.
  public static let minimumStrokes = 3
  /// The least pooled stroke-to-stroke SD the t statistic divides by, degrees: what angles from
  /// triangulated keypoints vary by when nothing changed (a variance floor, so that a joint that barely
  /// moves between strokes cannot give an unbounded t; the permutation test stays exact for any statistic).
  public static let floorDegrees = 1.0
  public static let defaultPermutations = 1000
  public static let defaultSeed: UInt64 = 20_120_101

  /// SPM of session `b` against `a` over every stroke kind and angle both have with `minimumStrokes` or more.
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
      /// The curves less the pooled mean at each node (for precision), row after row, and their squares.
      var x: [Double]
      var x2: [Double]
      var sum: [Double]
      var sumSquares: [Double]
      var count: Int { units.count }
    }
    var kinds: [(kind: String, units: Int, unitsA: Int, tests: [Test])] = []
    for kind in Set(a.keys).intersection(b.keys).sorted() {
      let ca = a[kind]!, cb = b[kind]!
      let unitsA = (ca.values.flatMap(\.strokes).max() ?? -1) + 1
      let unitsB = (cb.values.flatMap(\.strokes).max() ?? -1) + 1
      var tests: [Test] = []
      for angle in Set(ca.keys).intersection(cb.keys).sorted() {
        let x = ca[angle]!, y = cb[angle]!
        guard x.curves.count >= Self.minimumStrokes, y.curves.count >= Self.minimumStrokes, x.curves.count == x.strokes.count,
          y.curves.count == y.strokes.count
        else { continue }
        let all = x.curves + y.curves
        let n = NormalisedCurves.points
        let centre = (0..<n).map { i in all.reduce(0) { $0 + $1[i] } / Double(all.count) }
        let flat = all.flatMap { c in (0..<n).map { c[$0] - centre[$0] } }
        let squares = flat.map { $0 * $0 }
        var sum = [Double](repeating: 0, count: n), sumSquares = sum
        for k in 0..<all.count {
          for i in 0..<n {
            sum[i] += flat[k * n + i]
            sumSquares[i] += squares[k * n + i]
          }
        }
        tests.append(
          Test(
            angle: angle, a: x, b: y, units: x.strokes + y.strokes.map { $0 + unitsA }, x: flat, x2: squares, sum: sum,
            sumSquares: sumSquares))
      }
      if !tests.isEmpty { kinds.append((kind, unitsA + unitsB, unitsA, tests)) }
    }
    curvesTested = kinds.reduce(0) { $0 + $1.tests.count }
    guard curvesTested > 0 else {
      threshold = nil
      clusters = []
      return
    }

    let floorSquared = Self.floorDegrees * Self.floorDegrees
    /// t at every node of one test with `isB` labelling its strokes' units (pooled-variance two-sample t,
    /// the SD at least `floorDegrees`), into `t`; `sB`, `qB` are scratch of `points` values.
    func tCurve(_ test: Test, isB: [Bool], into t: inout [Double], _ sB: inout [Double], _ qB: inout [Double]) {
      let n = NormalisedCurves.points
      for i in 0..<n {
        sB[i] = 0
        qB[i] = 0
      }
      var nB = 0
      test.x.withUnsafeBufferPointer { x in
        test.x2.withUnsafeBufferPointer { x2 in
          for k in 0..<test.count where isB[test.units[k]] {
            nB += 1
            let row = k * n
            for i in 0..<n {
              sB[i] += x[row + i]
              qB[i] += x2[row + i]
            }
          }
        }
      }
      let nA = test.count - nB
      guard nA >= 2, nB >= 2 else {
        for i in 0..<n { t[i] = 0 }
        return
      }
      let fa = Double(nA), fb = Double(nB)
      for i in 0..<n {
        let sA = test.sum[i] - sB[i], qA = test.sumSquares[i] - qB[i]
        let mA = sA / fa, mB = sB[i] / fb
        let ss = max(0, qA - sA * mA) + max(0, qB[i] - sB[i] * mB)
        let se = max(ss / (fa + fb - 2), floorSquared).squareRoot() * (1 / fa + 1 / fb).squareRoot()
        t[i] = (mB - mA) / se
      }
    }
    var t = [Double](repeating: 0, count: NormalisedCurves.points), sB = t, qB = t
    func maximum(_ labels: [[Bool]]) -> Double {
      var m = 0.0
      for (k, kind) in kinds.enumerated() {
        for test in kind.tests {
          tCurve(test, isB: labels[k], into: &t, &sB, &qB)
          for v in t { m = max(m, abs(v)) }
        }
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
        tCurve(test, isB: observedLabels[k], into: &t, &sB, &qB)
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
