import MatchSceneCore

extension FlightFit {
  /// The largest lag-one autocorrelation `varianceInflation` takes: beyond it the residuals are a
  /// smooth curve, not noise, and the factor (19 at 0.9) says the flight shows no term it cannot
  /// also explain by that curve.
  public static let maximumResidualCorrelation = 0.9

  /// The lag-one autocorrelation of the residuals of `flight` at `samples`, pooled over the three
  /// axes: ρ = Σ_k Σ_i r_{k,i} r_{k,i+1} / Σ_k Σ_i r_{k,i}², samples taken in time order (the
  /// moment estimator of an AR(1) process's coefficient; Box, Jenkins & Reinsel, Time Series
  /// Analysis, 4th ed., §3.2.5, §7.1). 0 with fewer than 3 samples or no residual.
  public static func residualAutocorrelation(
    _ flight: BallFlight, samples: [(time: Double, position: SIMD3<Double>)]
  ) -> Double {
    guard samples.count >= 3 else { return 0 }
    let ordered = samples.sorted { $0.time < $1.time }
    let fitted = flight.positions(at: ordered.map(\.time))
    let residuals = zip(fitted, ordered).map { $0 - $1.position }
    var lagged = 0.0, total = 0.0
    for i in residuals.indices {
      total += dot(residuals[i], residuals[i])
      if i > 0 { lagged += dot(residuals[i], residuals[i - 1]) }
    }
    return total > 0 ? lagged / total : 0
  }

  /// The factor by which correlated residuals inflate the variance of a smooth term's least-squares
  /// estimate over what white noise of the same variance would give: (1 + ρ) / (1 − ρ) for residuals
  /// following an AR(1) process with lag-one autocorrelation ρ, the regressor varying slowly from
  /// sample to sample — the inverse of the effective number of independent samples' share,
  /// n_eff / n = (1 − ρ) / (1 + ρ) (Bayley & Hammersley, "The 'effective' number of independent
  /// observations in an autocorrelated time series", J. R. Stat. Soc. Suppl. 8, 1946; the AR(1)
  /// plug-in long-run variance of Andrews, "Heteroskedasticity and autocorrelation consistent
  /// covariance matrix estimation", Econometrica 59, 1991, §6). ρ is clamped to
  /// [0, `maximumResidualCorrelation`]: negatively correlated residuals are not taken to make a
  /// fit more certain than white noise would.
  public static func varianceInflation(residualCorrelation rho: Double) -> Double {
    guard rho.isFinite else { return 1 }
    let r = min(maximumResidualCorrelation, max(0, rho))
    return (1 + r) / (1 - r)
  }
}
