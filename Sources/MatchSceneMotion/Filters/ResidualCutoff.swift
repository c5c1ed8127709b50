/// The Butterworth cutoff of a noisy trajectory chosen from the data by residual analysis (Winter,
/// "Biomechanics and Motor Control of Human Movement", 4th ed. 2009, §3.4.4.3; Yu et al., "Estimate
/// of the optimum cutoff frequency for the Butterworth low-pass digital filter", J. Appl. Biomech. 15,
/// 1999).
///
/// The RMS residual R(f) between the signal and its filtered copy falls as the cutoff f rises. Above
/// the frequencies the motion has, the residual is noise only and falls on a straight line in f; that
/// line's intercept at f = 0 estimates the noise's RMS. The cutoff chosen is the lowest f whose
/// residual is no larger than that noise: below it, filtering would remove signal as well as noise.
/// A noisier trajectory (a person seen by two cameras, or 2× keypoint noise) thus gets a lower
/// cutoff, a clean one a higher cutoff — instead of one cutoff for every person and joint.
public enum ResidualCutoff {
  /// The cutoff for the gap-free runs `runs` (each a list of series — e.g. the x, y and z of one joint
  /// — sampled at `sampleRate`), searched in `step`-Hz steps from `step` up to `maxCutoff`; the noise
  /// line is fitted over cutoffs from 0.2 to 0.4 of the sample rate. Runs shorter than the filter's
  /// padding needs are left out.
  /// - Returns: the cutoff, Hz, or nil when there is too little data (under `minSamples` samples) or
  ///   the filter cannot be built.
  public static func cutoff(
    runs: [[[Double]]], sampleRate: Double, order: Int = 4, maxCutoff: Double, step: Double = 0.5, minSamples: Int = 120
  ) -> Double? {
    let usable = runs.filter { $0.allSatisfy { $0.count >= 8 } }
    let samples = usable.reduce(0) { $0 + ($1.first?.count ?? 0) }
    guard samples >= minSamples, sampleRate > 0, maxCutoff >= step else { return nil }
    func residual(_ f: Double) -> Double? {
      guard let filter = Butterworth(order: order, cutoff: f, sampleRate: sampleRate) else { return nil }
      var sum = 0.0, n = 0
      for run in usable {
        for series in run {
          for (a, b) in zip(series, filter.filtfilt(series)) { sum += (a - b) * (a - b) }
          n += series.count
        }
      }
      return (sum / Double(max(n, 1))).squareRoot()
    }
    // The noise line: least squares over the upper cutoffs.
    let upper = Array(stride(from: 0.2 * sampleRate, through: 0.4 * sampleRate, by: max(step, 0.02 * sampleRate)))
    let fitted = upper.compactMap { f in residual(f).map { (f, $0) } }
    guard fitted.count >= 3 else { return nil }
    let mf = fitted.map(\.0).reduce(0, +) / Double(fitted.count), mr = fitted.map(\.1).reduce(0, +) / Double(fitted.count)
    let sxy = fitted.reduce(0) { $0 + ($1.0 - mf) * ($1.1 - mr) }, sxx = fitted.reduce(0) { $0 + ($1.0 - mf) * ($1.0 - mf) }
    let noise = mr - (sxx > 0 ? sxy / sxx : 0) * mf
    for f in stride(from: step, through: maxCutoff, by: step) {
      guard let r = residual(f) else { continue }
      if r <= noise { return f }
    }
    return maxCutoff
  }
}
