import MatchSceneBallFlight
import MatchSceneCore

/// Where one fitted flight of the ball ends and the next begins, in a frame whose z is up.
struct BallContact: Sendable {
  enum Kind: Sendable { case bounce, net, other }
  var kind: Kind
  /// Match time of the contact (where the two fitted paths come closest), seconds.
  var time: Double
  /// The ball's centre there (midpoint of the two paths).
  var position: SIMD3<Double>
  var velocityBefore: SIMD3<Double>
  var velocityAfter: SIMD3<Double>
  /// The flights before and after (indices into the flights the contacts were found in).
  var flights: (before: Int, after: Int)
}

/// Flights and contacts of a ball track in a levelled frame (z up, gravity along −z), with no surface
/// known: the first step of locating the venue, and of checking an assumed one.
struct BallContactFinder: Sendable {
  var model: BallModel
  var segmentation = FlightSegmentationOptions()
  /// Flights further apart than this in time do not meet at a contact, seconds.
  var maxContactGap = 0.3
  /// A bounce reverses the vertical velocity, down at least this fast before and up after, m/s.
  var minVerticalSpeed = 0.3
  /// A bounce keeps the horizontal direction: the angle between the horizontal velocities before and
  /// after is below this, degrees (a stroke sends the ball back).
  var maxBounceTurn = 60.0
  /// A bounce carries the ball on at least this fast horizontally, m/s (a ball bounced on the palm
  /// before a serve moves up and down only).
  var minHorizontalSpeed = 0.5

  /// Flights of `observations` (already levelled), fitted with gravity along −z and no surfaces.
  func flights(_ observations: [(frame: Int, position: SIMD3<Double>)], fps: Double) -> [BallFlight] {
    FlightSegmentation(model: model, surfaces: nil, options: segmentation).flights(observations, fps: fps)
  }

  /// The contacts between consecutive flights, classified by their velocities alone: a bounce
  /// (vertical velocity down → up, horizontal direction kept) or other (strokes, the net, a settling
  /// ball). `net` is set later, by the locator, once the table's height and axis are known.
  func contacts(_ flights: [BallFlight], fps: Double) -> [BallContact] {
    var out: [BallContact] = []
    let maxGapFrames = Int((maxContactGap * fps).rounded()) + 1
    for i in flights.indices.dropLast() {
      let a = flights[i], b = flights[i + 1]
      guard b.frames.lowerBound - a.frames.upperBound <= maxGapFrames else { continue }
      let (t, p) = Self.meetingPoint(a, b, fps: fps)
      let vBefore = a.velocity(at: t), vAfter = b.velocity(at: t)
      let hBefore = SIMD2(vBefore.x, vBefore.y), hAfter = SIMD2(vAfter.x, vAfter.y)
      let turnCos = (hBefore * hAfter).sum() / max(1e-9, ((hBefore * hBefore).sum() * (hAfter * hAfter).sum()).squareRoot())
      let horizontalSpeed = min((hBefore * hBefore).sum(), (hAfter * hAfter).sum()).squareRoot()
      let isBounce = vBefore.z < -minVerticalSpeed && vAfter.z > minVerticalSpeed && horizontalSpeed >= minHorizontalSpeed
        && turnCos > cos(maxBounceTurn * Double.pi / 180) && vAfter.z < -1.2 * vBefore.z
      out.append(
        BallContact(kind: isBounce ? .bounce : .other, time: t, position: p, velocityBefore: vBefore, velocityAfter: vAfter,
                    flights: (i, i + 1)))
    }
    return out
  }

  /// The time (between the end of `a` and the start of `b`, widened by a frame) where the two fitted
  /// paths come closest, and the midpoint there (as `EventDetector` finds contacts).
  static func meetingPoint(_ a: BallFlight, _ b: BallFlight, fps: Double) -> (Double, SIMD3<Double>) {
    let table = TableGeometry(length: 0, width: 0, surfaceHeight: 0, netHeight: 0, ballRadius: 0)
    return EventDetector(table: table).meetingPoint(a, b, fps: fps)
  }

  /// Gravity estimated from the flights, as a correction of the model's: each flight was fitted with
  /// the model's gravity and drag, so what its observations still curve away from the fitted path —
  /// the acceleration c of a least-squares `r = a + b t + ½ c t²` through the residuals, per axis — is
  /// what the model's gravity lacks (drag is in the model, so it does not bias the estimate).
  /// Corrections are combined by their inverse variances (from each fit's residual scatter) after
  /// dropping those more than 3 m/s² off their median (a "flight" of a ball carried in the hand).
  /// Returns g, its standard error (m/s², the same on each axis) and the number of flights used; nil when no flight
  /// has `minObservations` over `minDuration` seconds.
  static func gravity(
    _ flights: [BallFlight], observations: [Int: SIMD3<Double>], fps: Double, minObservations: Int = 8,
    minDuration: Double = 0.15
  ) -> (g: SIMD3<Double>, standardError: SIMD3<Double>, flights: Int)? {
    var estimates: [(dg: SIMD3<Double>, variance: Double)] = []
    var model: BallModel? = nil
    for flight in flights {
      let samples = flight.frames.compactMap { f in observations[f].map { (Double(f) / fps, $0) } }
      guard samples.count >= minObservations, samples.last!.0 - samples.first!.0 >= minDuration else { continue }
      let residuals = samples.map { ($0.0, $0.1 - flight.position(at: $0.0)) }
      guard let fit = constantAcceleration(residuals) else { continue }
      model = flight.model
      estimates.append((fit.c, max(fit.variance, 1e-12)))
    }
    guard let model, !estimates.isEmpty else { return nil }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let center = SIMD3(median(estimates.map(\.dg.x)), median(estimates.map(\.dg.y)), median(estimates.map(\.dg.z)))
    let kept = estimates.filter { length($0.dg - center) <= 3 }
    guard !kept.isEmpty else { return nil }
    let total = kept.map { 1 / $0.variance }.reduce(0, +)
    let mean = kept.reduce(SIMD3<Double>.zero) { $0 + $1.dg / $1.variance } / total
    // The standard error from the fits' own variances, scaled up when the corrections scatter more.
    let chi2 = kept.map { (($0.dg - mean) * ($0.dg - mean)).sum() / 3 / $0.variance }.reduce(0, +)
    let scale = max(1, chi2 / max(1, Double(kept.count - 1)))
    let standardError = SIMD3(repeating: (scale / total).squareRoot())
    return (model.gravity + mean, standardError, kept.count)
  }

  /// Least-squares acceleration c of `x(t) = a + b t + ½ c t²` per axis, and the variance of each of
  /// its components (from the residual scatter, pooled over the axes); nil when the times are degenerate.
  static func constantAcceleration(_ samples: [(Double, SIMD3<Double>)]) -> (c: SIMD3<Double>, variance: Double)? {
    guard samples.count > 3 else { return nil }
    let t0 = samples.map(\.0).reduce(0, +) / Double(samples.count)
    // Normal equations of the basis (1, t, t²/2), shared by the three axes.
    var a = [[Double]](repeating: [0, 0, 0], count: 3)
    var rhs = [SIMD3<Double>](repeating: .zero, count: 3)
    for (time, p) in samples {
      let t = time - t0
      let basis = [1, t, 0.5 * t * t]
      for i in 0..<3 {
        for j in 0..<3 { a[i][j] += basis[i] * basis[j] }
        rhs[i] += basis[i] * p
      }
    }
    var coefficients = [SIMD3<Double>](repeating: .zero, count: 3)
    for axis in 0..<3 {
      guard let x = FlightFit.solve(a, rhs.map { $0[axis] }) else { return nil }
      for k in 0..<3 { coefficients[k][axis] = x[k] }
    }
    // (AᵀA)⁻¹ at (2, 2): the c coefficient's variance per unit residual variance.
    guard let unitC = FlightFit.solve(a, [0, 0, 1]) else { return nil }
    var squares = 0.0
    for (time, p) in samples {
      let t = time - t0
      let r = p - (coefficients[0] + t * coefficients[1] + 0.5 * t * t * coefficients[2])
      squares += (r * r).sum()
    }
    let residualVariance = squares / Double(3 * (samples.count - 3))
    return (coefficients[2], residualVariance * unitC[2])
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
