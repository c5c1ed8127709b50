import MatchSceneAnalysis
import MatchSceneCore
import TestSupport
import XCTest

final class FilterTests: XCTestCase {
  let fs = 120.0

  func sine(_ f: Double, count: Int = 1200, amplitude: Double = 1) -> [Double] {
    (0..<count).map { (i: Int) -> Double in amplitude * sin(2 * Double.pi * f * Double(i) / fs) }
  }

  /// A cutoff so low that 3·rate/cutoff exceeds Int.max trapped in the padding, and one whose squared
  /// pre-warped frequency underflows gave NaN everywhere (`--cutoff 1e-300`): such cutoffs
  /// are refused; the lowest one accepted pads with the whole signal and keeps a constant within 1e-4
  /// (measured 6e-6; 5e-14 at 1e-2 · fs).
  func testButterworthWithATinyCutoffIsRefusedAndTheLowestAcceptedWorks() throws {
    XCTAssertNil(Butterworth(order: 4, cutoff: 1e-300, sampleRate: fs))
    XCTAssertNil(Butterworth(order: 4, cutoff: 0.99e-6 * fs, sampleRate: fs))
    let filter = try XCTUnwrap(Butterworth(order: 4, cutoff: Butterworth.minimumRelativeCutoff * fs, sampleRate: fs))
    let out = filter.filtfilt(Array(repeating: 0.7, count: 50))
    XCTAssertEqual(out.count, 50)
    for value in out { XCTAssertEqual(value, 0.7, accuracy: 1e-4) }
  }

  func testButterworthZeroPhaseGainAtCutoffIsMinus3dB() {
    for order in [2, 4, 6] {
      let filter = Butterworth(order: order, cutoff: 8, sampleRate: fs)!
      // The zero-phase response is one pass squared.
      assertClose(pow(filter.magnitude(at: 8), 2), 1 / 2.0.squareRoot(), absolute: 1e-12, "order \(order)")
      assertClose(filter.magnitude(at: 0), 1, absolute: 1e-12)
      XCTAssertLessThan(pow(filter.magnitude(at: 40), 2), order == 2 ? 0.05 : 0.005)
    }
    XCTAssertNil(Butterworth(order: 3, cutoff: 8, sampleRate: fs))
    XCTAssertNil(Butterworth(order: 4, cutoff: 70, sampleRate: fs))
  }

  func testButterworthFiltfiltHasNoLagAndMeasuredGainMatches() {
    let filter = Butterworth(order: 4, cutoff: 8, sampleRate: fs)!
    let slow = filter.filtfilt(sine(1))
    // Interior samples: a 1 Hz sine passes with gain ≈ 1 and no phase shift.
    for i in 200..<1000 { XCTAssertEqual(slow[i], sine(1)[i], accuracy: 2e-3) }
    // At the cutoff the measured zero-phase gain is 1/√2, still in phase.
    let atCutoff = filter.filtfilt(sine(8))
    let input = sine(8)
    var cross = 0.0, power = 0.0
    for i in 400..<800 {
      cross += atCutoff[i] * input[i]
      power += input[i] * input[i]
    }
    let gain = cross / power
    XCTAssertEqual(gain, 1 / 2.0.squareRoot(), accuracy: 0.01)
    // Straight lines pass unchanged, ends included.
    let line: [Double] = (0..<300).map { (i: Int) -> Double in 0.3 + 0.01 * Double(i) }
    for (a, b) in zip(filter.filtfilt(line), line) { XCTAssertEqual(a, b, accuracy: 1e-9) }
  }

  func testSavitzkyGolayKeepsPolynomialsAndSmoothsNoise() {
    let sg = SavitzkyGolay(halfWindow: 4, degree: 2)!
    let parabola: [Double] = (0..<50).map { (i: Int) -> Double in
      let t = Double(i)
      return 1 + 0.5 * t - 0.02 * t * t
    }
    for (a, b) in zip(sg.smooth(parabola), parabola) { XCTAssertEqual(a, b, accuracy: 1e-9) }
    var rng = SeededGenerator(seed: 3)
    let noisy = (0..<500).map { _ in rng.gaussian() }
    let smoothed = sg.smooth(noisy)
    let variance = smoothed[10..<490].map { $0 * $0 }.reduce(0, +) / 480
    XCTAssertLessThan(variance, 0.5)
    XCTAssertNil(SavitzkyGolay(halfWindow: 2, degree: 5))
  }

  func testOneEuroConvergesAndFollowsSteps() {
    let filter = OneEuroFilter(minCutoff: 1, beta: 0.1)
    let step = [Double](repeating: 0, count: 10) + [Double](repeating: 1, count: 400)
    let y = filter.filter(step, sampleRate: fs)
    XCTAssertEqual(y.last!, 1, accuracy: 1e-3)
    XCTAssertLessThan(y[11], 1)  // causal smoothing lags a step
  }

  /// With beta = 0 the 1€ filter is a first-order low-pass at `minCutoff`: its step response is
  /// 1 − (1 − α)ⁿ with α = 1 / (1 + τ/T), τ = 1 / (2π f_c) (Casiez et al. 2012, eq. 1–2).
  func testOneEuroWithoutSpeedTermIsTheExponentialStepResponse() {
    let fc = 2.0
    let y = OneEuroFilter(minCutoff: fc, beta: 0).filter([0] + [Double](repeating: 1, count: 120), sampleRate: fs)
    let alpha = 1 / (1 + 1 / (2 * Double.pi * fc) * fs)
    for n in 0...120 { XCTAssertEqual(y[n], 1 - pow(1 - alpha, Double(n)), accuracy: 1e-12, "sample \(n)") }
    // At the cutoff a sine keeps 1/√2 of its amplitude, as through the analogue first-order low-pass
    // (the discrete smoother matches it while f ≪ fs).
    let sine = self.sine(fc, count: 2400)
    let out = OneEuroFilter(minCutoff: fc, beta: 0).filter(sine, sampleRate: fs)
    let amplitude = out[1200...].map(abs).max()!
    XCTAssertEqual(amplitude, 1 / 2.0.squareRoot(), accuracy: 0.02)
  }

  func testKalmanRTSSmoothsNoiseAndBridgesGaps() {
    var rng = SeededGenerator(seed: 5)
    let truth: [Double] = (0..<600).map { (i: Int) -> Double in 0.5 * sin(2 * Double.pi * 0.8 * Double(i) / fs) }
    var measured: [Double?] = truth.map { $0 + 0.01 * rng.gaussian() }
    for i in 300..<320 { measured[i] = nil }
    let smoothed = KalmanSmoother(measurementSigma: 0.01, jerkDensity: 50).smooth(measured, sampleRate: fs)
    var rawError = 0.0, smoothError = 0.0, n = 0.0
    for i in 20..<580 where measured[i] != nil {
      rawError += abs(measured[i]! - truth[i])
      smoothError += abs(smoothed[i]! - truth[i])
      n += 1
    }
    XCTAssertLessThan(smoothError / n, 0.6 * rawError / n)
    for i in 300..<320 { XCTAssertEqual(smoothed[i]!, truth[i], accuracy: 0.01) }
  }

  func testHampelFindsSpikesOnly() {
    var x: [Double?] = (0..<100).map { (i: Int) -> Double? in sin(Double(i) / 10) }
    x[40] = 5
    x[70] = nil
    XCTAssertEqual(HampelFilter(halfWindow: 5, threshold: 3).outliers(x), [40])
  }

  func testGapFillingIsExactForLinesAndLeavesLongGaps() {
    var x: [Double?] = (0..<40).map { (i: Int) -> Double? in 2 + 0.1 * Double(i) }
    for i in 10..<14 { x[i] = nil }
    for i in 20..<35 { x[i] = nil }
    let y = GapFilling.fill(x, maxGap: 5)
    for i in 10..<14 { XCTAssertEqual(y[i]!, 2 + 0.1 * Double(i), accuracy: 1e-12) }
    for i in 20..<35 { XCTAssertNil(y[i]) }
  }
}

final class BoneLengthTests: XCTestCase {
  func testNoisyLimbsGetConstantLengths() {
    let skeleton = Skeleton(name: "arm", keypoints: ["shoulder", "elbow", "wrist"], bones: [("shoulder", "elbow"), ("elbow", "wrist")])
    var rng = SeededGenerator(seed: 9)
    var frames: [[SIMD3<Double>?]] = []
    for f in 0..<200 {
      let a = Double(f) / 30
      let shoulder = SIMD3<Double>(0, 0, 1.4), elbow = shoulder + 0.3 * SIMD3(cos(a), sin(a), 0)
      let wrist = elbow + 0.25 * SIMD3(0, cos(a), sin(a))
      frames.append([shoulder, elbow, wrist].map { $0 + 0.01 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()) })
    }
    let lengths = BoneLengthConstraint.lengths(of: frames, skeleton: skeleton)
    XCTAssertEqual(lengths[0]!, 0.3, accuracy: 0.01)
    XCTAssertEqual(lengths[1]!, 0.25, accuracy: 0.01)
    let constraint = BoneLengthConstraint()
    for var joints in frames {
      let before = joints
      constraint.apply(&joints, lengths: lengths, skeleton: skeleton)
      XCTAssertEqual(length(joints[0]! - joints[1]!), lengths[0]!, accuracy: 2e-4)
      XCTAssertEqual(length(joints[1]! - joints[2]!), lengths[1]!, accuracy: 2e-4)
      for j in 0..<3 { XCTAssertLessThan(length(joints[j]! - before[j]!), 0.06, "moves stay near the evidence") }
    }
  }
}
