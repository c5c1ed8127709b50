/// A digital low-pass Butterworth filter as cascaded second-order sections, designed by the bilinear
/// transform with frequency pre-warping (Butterworth 1930; Oppenheim & Schafer, Discrete-Time Signal
/// Processing, 3rd ed., §7.1), and applied forward and backward for zero phase.
///
/// `order` is the order of the whole zero-phase filter, as biomechanics software counts it (Pose2Sim,
/// Winter): each pass uses order/2. The cutoff is corrected for the double pass (Winter, Biomechanics
/// and Motor Control of Human Movement, 4th ed., §3.4.4.4) so the zero-phase gain at `cutoff` is
/// 1/√2 (−3 dB), as a user who asks for "6 Hz" expects.
public struct Butterworth: Sendable {
  /// One biquad in direct form II transposed: y = b0 x + s1; s1 = b1 x − a1 y + s2; s2 = b2 x − a2 y.
  public struct Section: Sendable, Equatable {
    public var b0, b1, b2, a1, a2: Double
  }

  public let sections: [Section]
  public let order: Int
  public let cutoff: Double
  /// The lowest cutoff accepted, as a fraction of the sample rate. Below it the sections' DC gain
  /// 1 + a1 + a2 (≈ 4(ω/2fs)², divided by in the steady-state start) loses its precision in Double and
  /// then underflows to 0, which made every output NaN (a cutoff of 1e-300 Hz).
  public static let minimumRelativeCutoff = 1e-6
  public let sampleRate: Double

  /// - Parameters:
  ///   - order: even, ≥ 2 (the zero-phase order; one pass is order/2).
  ///   - cutoff: Hz, in [`minimumRelativeCutoff` · sampleRate, sampleRate/2).
  /// - Returns: nil for an invalid order or cutoff.
  public init?(order: Int, cutoff: Double, sampleRate: Double) {
    guard order >= 2, order % 2 == 0, sampleRate.isFinite, sampleRate > 0,
      cutoff >= Self.minimumRelativeCutoff * sampleRate, cutoff < sampleRate / 2
    else { return nil }
    self.order = order
    self.cutoff = cutoff
    self.sampleRate = sampleRate
    let n = order / 2
    // Double-pass correction: one pass must have |H|² = 2^(−1/2) at `cutoff`. Applied to the
    // pre-warped frequency, so it holds exactly for the digital filter.
    let correction = pow(pow(2, 1 / 2.0) - 1, 1 / (2 * Double(n)))
    let k = 2 * sampleRate
    let omega = k * tan(Double.pi * cutoff / sampleRate) / correction  // analog cutoff of one pass, rad/s
    var sections: [Section] = []
    for i in 0..<(n / 2) {
      // Conjugate pole pair of the analog prototype: s = ω·exp(iπ(2i + n + 1)/(2n)).
      let angle = Double.pi * Double(2 * i + n + 1) / Double(2 * n)
      let a1Analog = -2 * cos(angle) * omega, a0Analog = omega * omega
      let d = k * k + a1Analog * k + a0Analog
      sections.append(
        Section(
          b0: a0Analog / d, b1: 2 * a0Analog / d, b2: a0Analog / d, a1: 2 * (a0Analog - k * k) / d,
          a2: (k * k - a1Analog * k + a0Analog) / d))
    }
    if n % 2 == 1 {
      // The real pole s = −ω: a first-order section.
      let d = k + omega
      sections.append(Section(b0: omega / d, b1: omega / d, b2: 0, a1: (omega - k) / d, a2: 0))
    }
    self.sections = sections
  }

  /// Zero-phase filtering of a gap-free signal. Ends are padded by odd reflection (as scipy's
  /// filtfilt) and each section starts in its steady state, so constant and linear signals pass
  /// unchanged. Signals shorter than 2 samples are returned as they are.
  public func filtfilt(_ x: [Double]) -> [Double] {
    guard x.count >= 2 else { return x }
    // Compared as Doubles: a tiny cutoff makes 3·rate/cutoff larger than any Int.
    let pad = Int(min(Double(x.count - 1), (3 * sampleRate / cutoff).rounded(.up)))
    var extended = [Double]()
    extended.reserveCapacity(x.count + 2 * pad)
    for i in stride(from: pad, through: 1, by: -1) { extended.append(2 * x[0] - x[i]) }
    extended += x
    for i in 1...pad { extended.append(2 * x[x.count - 1] - x[x.count - 1 - i]) }
    var y = run(extended)
    y.reverse()
    y = run(y)
    y.reverse()
    return Array(y[pad..<(pad + x.count)])
  }

  /// One causal pass through every section, each starting in steady state for the first sample.
  public func run(_ x: [Double]) -> [Double] {
    var y = x
    for s in sections {
      let gain = (s.b0 + s.b1 + s.b2) / (1 + s.a1 + s.a2)
      var s2 = (s.b2 - s.a2 * gain) * y[0]
      var s1 = (s.b1 - s.a1 * gain) * y[0] + s2
      for i in 0..<y.count {
        let input = y[i]
        let output = s.b0 * input + s1
        s1 = s.b1 * input - s.a1 * output + s2
        s2 = s.b2 * input - s.a2 * output
        y[i] = output
      }
    }
    return y
  }

  /// Magnitude of one pass's frequency response at `frequency` Hz (the zero-phase response is its square).
  public func magnitude(at frequency: Double) -> Double {
    let w = 2 * Double.pi * frequency / sampleRate
    var gain = 1.0
    for s in sections {
      // H(e^{iw}) = (b0 + b1 e^{−iw} + b2 e^{−2iw}) / (1 + a1 e^{−iw} + a2 e^{−2iw})
      let nr = s.b0 + s.b1 * cos(w) + s.b2 * cos(2 * w), ni = -(s.b1 * sin(w) + s.b2 * sin(2 * w))
      let dr = 1 + s.a1 * cos(w) + s.a2 * cos(2 * w), di = -(s.a1 * sin(w) + s.a2 * sin(2 * w))
      gain *= ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
    }
    return gain
  }
}

#if canImport(Glibc)
  import Glibc
#endif
