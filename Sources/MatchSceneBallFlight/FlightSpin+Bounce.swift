import MatchSceneCore

extension FlightSpin {
  /// Critical value of the consistency test of `sharedSidespin`: the sidespins of n flights are one
  /// when their weighted squared deviations from the common value sum to at most this much per degree
  /// of freedom beyond its χ² mean — χ²_{n−1} at 0.1 % for n = 2 is 10.8; this bound, 10.8 + 3 (n − 2),
  /// stays above the 0.1 % quantile for the few flights of one stroke's bounces.
  static func sidespinConsistencyLimit(flights n: Int) -> Double { 10.8 + 3 * Double(max(0, n - 2)) }

  /// The sidespins of flights joined only by bounces on a horizontal surface (table top or floor), in
  /// time order, replaced by their common inverse-variance weighted mean.
  ///
  /// A bounce changes the ball's spin through the friction impulse J at the contact point, one radius
  /// below the centre: Δω = (−r ẑ) × J / I = −(3 / 2mr) ẑ × J for a thin shell (I = ⅔ m r²), which is
  /// horizontal, so the spin about the vertical — the sidespin — leaves the bounce unchanged while the
  /// topspin changes (Nakashima et al., "Modeling of rebound phenomenon of a rigid ball with friction
  /// and elastic effects", ACC 2010). Each flight measures the one sidespin with its own uncertainty
  /// (its `uncertainty`, the larger of its two components', stands for the sidespin's); a short flight
  /// after a bounce measures it poorly, its neighbours well.
  /// - Returns: `spins` with the sidespin (and ω's vertical component) of each replaced; `spins`
  ///   unchanged when fewer than two, or when they disagree beyond `sidespinConsistencyLimit` (the
  ///   flights are not one chain of bounces: a contact between them was something else).
  public static func sharedSidespin(_ spins: [FlightSpin]) -> [FlightSpin] {
    guard spins.count >= 2, spins.allSatisfy({ $0.uncertainty > 0 && $0.uncertainty.isFinite }) else { return spins }
    let weights = spins.map { 1 / ($0.uncertainty * $0.uncertainty) }
    let total = weights.reduce(0, +)
    let mean = zip(spins, weights).map { $0.sidespin * $1 }.reduce(0, +) / total
    let deviation = zip(spins, weights).map { ($0.sidespin - mean) * ($0.sidespin - mean) * $1 }.reduce(0, +)
    guard deviation <= sidespinConsistencyLimit(flights: spins.count) else { return spins }
    return spins.map { spin in
      var shared = spin
      shared.sidespin = mean
      shared.angularVelocity.z = mean
      return shared
    }
  }
}
