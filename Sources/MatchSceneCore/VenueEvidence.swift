/// Evidence on where the table is from outside the ball — its corners clicked or detected in camera
/// images, a survey — given in the calibration's world with its uncertainty, for `VenueLocator` to
/// weigh with the ball's and the players'.
public struct VenueEvidence: Sendable {
  /// Names the source in the locator's report (e.g. "corners").
  public var name: String
  /// The centre of the table's top in the world, metres.
  public var tableCentre: SIMD3<Double>
  /// The table's long axis in the world (either sign; it need not be level).
  public var longAxis: SIMD3<Double>
  /// Standard errors of the centre along and across the table and of its height, metres; of the
  /// long axis's heading about up, degrees.
  public var alongSigma: Double
  public var acrossSigma: Double
  public var heightSigma: Double
  public var headingSigma: Double

  public init(
    name: String, tableCentre: SIMD3<Double>, longAxis: SIMD3<Double>, alongSigma: Double, acrossSigma: Double,
    heightSigma: Double, headingSigma: Double
  ) {
    self.name = name
    self.tableCentre = tableCentre
    self.longAxis = longAxis
    self.alongSigma = alongSigma
    self.acrossSigma = acrossSigma
    self.heightSigma = heightSigma
    self.headingSigma = headingSigma
  }
}

/// One source's part in the located venue: for one parameter, what the source alone says minus the
/// combined value, its standard error, and its share of the combined value's information.
public struct VenueSourceReport: Sendable, Equatable {
  public enum Parameter: String, Sendable {
    case heading
    case along = "centre along"
    case across = "centre across"
    case height
  }
  /// `bounces`, `net contacts`, `players`, or an evidence's name.
  public var source: String
  public var parameter: Parameter
  /// The source's value minus the combined one: degrees for the heading, metres otherwise.
  public var residual: Double
  /// The source's standard error, in the same unit.
  public var sigma: Double
  /// Its inverse variance over the sum of all sources' for this parameter, 0–1.
  public var weight: Double

  public init(source: String, parameter: Parameter, residual: Double, sigma: Double, weight: Double) {
    self.source = source
    self.parameter = parameter
    self.residual = residual
    self.sigma = sigma
    self.weight = weight
  }
}
