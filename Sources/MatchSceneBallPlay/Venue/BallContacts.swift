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
  /// the model's gravity and drag, so what its observations still curve away from the fitted path is
  /// what the model's gravity lacks — or the flight's spin (the Magnus force k_M ω × v). One
  /// least-squares fit of the correction shared by all flights, with each flight's state and, where
  /// the F-test shows it, its spin free (`FlightGravity`), separates the two; drag is in the model.
  /// Returns g, its standard error per axis (m/s², from the fit's covariance, scaled by the Birge ratio
  /// when the flights disagree more than their noise says) and the number of flights used; nil when no
  /// flight has `minObservations` over `minDuration` seconds.
  static func gravity(
    _ flights: [BallFlight], observations: [Int: SIMD3<Double>], fps: Double, minObservations: Int = 8,
    minDuration: Double = 0.15
  ) -> (g: SIMD3<Double>, standardError: SIMD3<Double>, flights: Int)? {
    var shares: [FlightGravity.Flight] = []
    var model: BallModel? = nil
    for flight in flights {
      let samples = flight.frames.compactMap { f in observations[f].map { (Double(f) / fps, $0) } }
      guard samples.count >= minObservations, samples.last!.0 - samples.first!.0 >= minDuration,
        let share = FlightGravity.flight(flight, samples: samples)
      else { continue }
      model = flight.model
      shares.append(share)
    }
    guard let model, let fit = FlightGravity.estimate(shares) else { return nil }
    return (model.gravity + fit.dg, fit.standardError, fit.flights)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
