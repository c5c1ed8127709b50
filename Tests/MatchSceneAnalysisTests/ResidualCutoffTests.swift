import MatchSceneCore
@testable import MatchSceneMotion
import XCTest

/// Each joint's cutoff chosen from its own data by residual analysis (Winter 2009 §3.4.4.3): a noisier
/// trajectory is filtered harder, and the result is nearer the truth than one cutoff for all
/// (at 2× keypoint noise a bystander seen by two cameras, filtered at 10 Hz like the players, was
/// the larger half of the players' mean joint error).
final class ResidualCutoffTests: XCTestCase {
  let fps = 60.0

  /// A walking person's joint over 20 s (metres): a stride swing at 1.8 Hz and its harmonic, a slow
  /// drift, at 60 frames per second.
  func truth(_ n: Int = 1200) -> [SIMD3<Double>] {
    (0..<n).map { i in
      let t = Double(i) / fps
      return SIMD3(
        0.9 * t + 0.15 * sin(2 * .pi * 1.8 * t), 0.05 * sin(2 * .pi * 0.9 * t + 1),
        0.9 + 0.04 * sin(2 * .pi * 3.6 * t) + 0.02 * sin(2 * .pi * 5.4 * t))
    }
  }

  func noisy(_ x: [SIMD3<Double>], sigma: Double, seed: UInt64) -> [SIMD3<Double>?] {
    var rng = SeededGenerator(seed: seed)
    return x.map { $0 + sigma * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()) }
  }

  func rms(_ a: [SIMD3<Double>?], _ b: [SIMD3<Double>]) -> Double {
    let d = zip(a, b).map { (p: SIMD3<Double>?, q: SIMD3<Double>) -> Double in let e = p! - q; return (e * e).sum() }
    return (d.reduce(0, +) / Double(d.count)).squareRoot()
  }

  func runs(_ x: [SIMD3<Double>?]) -> [[[Double]]] { [(0..<3).map { a in x.map { $0![a] } }] }

  /// Noise of 2, 8 and 20 mm: the cutoff falls as the noise grows, stays above the motion's 5.4 Hz
  /// harmonic at low noise, and within the search range.
  func testTheCutoffFallsAsTheNoiseGrows() throws {
    let x = truth()
    let cutoffs = try [0.002, 0.008, 0.02].map { sigma in
      try XCTUnwrap(ResidualCutoff.cutoff(runs: runs(noisy(x, sigma: sigma, seed: 3)), sampleRate: fps, maxCutoff: 20))
    }
    XCTAssertGreaterThan(cutoffs[0], cutoffs[1], "\(cutoffs)")
    XCTAssertGreaterThan(cutoffs[1], cutoffs[2], "\(cutoffs)")
    XCTAssertGreaterThanOrEqual(cutoffs[0], 5.5, "\(cutoffs)")
    XCTAssertTrue(cutoffs.allSatisfy { (0.5...20).contains($0) }, "\(cutoffs)")
  }

  /// With the cutoff from the residuals, the default smoother brings a 20 mm-noisy trajectory nearer
  /// the truth than the fixed 10 Hz (measured: 17.1 mm RMS against 20.7 mm); on a 2 mm-noisy one with
  /// a strong 5.4 Hz harmonic it gives up a little (measured 2.5 mm against 2.1 mm: the criterion lets
  /// the filter take signal up to a share of the noise; bounded here at 25 %).
  func testResidualCutoffSmoothsNearerTheTruth() {
    let x = truth()
    for (sigma, slack) in [(0.02, 0.9), (0.002, 1.25)] {
      let data = noisy(x, sigma: sigma, seed: 11)
      var fixed = SmoothingOptions()
      fixed.cutoffFromResiduals = false
      let auto = rms(TrackSmoother().smoothSeries(data, fps: fps), x)
      let ten = rms(TrackSmoother(options: fixed).smoothSeries(data, fps: fps), x)
      XCTAssertLessThan(auto, slack * ten, "noise \(sigma) m: residual cutoff \(auto) m, 10 Hz \(ten) m")
    }
  }

  /// Too little data (under 120 samples) or no usable run: no cutoff, the smoother's own is used.
  func testDegenerateInputs() {
    XCTAssertNil(ResidualCutoff.cutoff(runs: [], sampleRate: fps, maxCutoff: 10))
    XCTAssertNil(ResidualCutoff.cutoff(runs: [[[1, 2, 3]]], sampleRate: fps, maxCutoff: 10))
    XCTAssertNil(ResidualCutoff.cutoff(runs: runs(noisy(truth(100), sigma: 0.01, seed: 1)), sampleRate: fps, maxCutoff: 10))
    // A constant: no noise, no motion; any cutoff in the range leaves it as it is.
    let constant = [[[Double]](repeating: [Double](repeating: 1, count: 300), count: 3)]
    let f = ResidualCutoff.cutoff(runs: constant, sampleRate: fps, maxCutoff: 10) ?? -1
    XCTAssertTrue((0.5...10).contains(f), "\(f)")
  }
}
