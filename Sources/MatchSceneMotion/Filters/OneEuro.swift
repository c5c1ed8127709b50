/// The 1€ filter (Casiez, Roussel & Vogel, "1€ Filter: A Simple Speed-based Low-pass Filter for Noisy
/// Input in Interactive Systems", CHI 2012): an exponential smoother whose cutoff rises with speed,
/// so slow motion is smoothed hard and fast motion lags little. Causal (it has lag); for offline
/// analysis the zero-phase Butterworth is the default.
public struct OneEuroFilter: Sendable {
  /// Cutoff at rest, Hz.
  public var minCutoff: Double
  /// How fast the cutoff rises with speed, per (unit/s).
  public var beta: Double
  /// Cutoff of the speed estimate, Hz.
  public var derivativeCutoff: Double

  public init(minCutoff: Double = 1, beta: Double = 0.5, derivativeCutoff: Double = 1) {
    self.minCutoff = minCutoff
    self.beta = beta
    self.derivativeCutoff = derivativeCutoff
  }

  static func alpha(cutoff: Double, dt: Double) -> Double {
    let tau = 1 / (2 * Double.pi * cutoff)
    return 1 / (1 + tau / dt)
  }

  /// Filters samples taken every `1/sampleRate` seconds.
  public func filter(_ x: [Double], sampleRate: Double) -> [Double] {
    guard var previous = x.first else { return [] }
    let dt = 1 / sampleRate
    var derivative = 0.0
    var out = [previous]
    for value in x.dropFirst() {
      let rawDerivative = (value - previous) / dt
      derivative += Self.alpha(cutoff: derivativeCutoff, dt: dt) * (rawDerivative - derivative)
      let cutoff = minCutoff + beta * abs(derivative)
      previous += Self.alpha(cutoff: cutoff, dt: dt) * (value - previous)
      out.append(previous)
    }
    return out
  }
}
