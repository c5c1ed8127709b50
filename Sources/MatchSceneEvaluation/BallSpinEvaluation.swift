import Foundation
import MatchSceneCore

/// The reconstructed spin of the ball's flights against the simulator's truth (`truth/ball.json`).
///
/// Each true flight (from a stroke or contact to the next) lasting at least `minimumDuration` and
/// starting at least `minimumHorizontalSpeed` fast horizontally (slower, the Magnus force k_M ω × v is
/// too weak to show the spin, and the topspin axis, across the direction of travel, ill-defined) is
/// matched to the detected `hit` or `bounce` event at its start (within `timeTolerance`); the event's
/// `spin` (none: no spin) is compared with the truth's topspin and sidespin. The spin error is the
/// distance between the (topspin, sidespin) pairs, rev/s; the axis error the angle between them, for
/// flights whose true spin is at least `axisMinimumSpin`. Flights without a matched event are counted.
/// Given the frames the cameras saw the ball in, a flight the cameras saw on fewer than
/// `minimumSeenFrames` frames of its first `minimumDuration` (the ball flew out of their views after a
/// rally's last bounce) is not evaluated: no method can measure its spin.
public struct BallSpinEvaluation: Encodable, Sendable {
  /// The truth's flight (as `truth/ball.json` has it), read without depending on the simulator.
  public struct TrueFlight: Decodable, Sendable {
    public var start: Double
    public var end: Double
    public var topspin: Double
    public var sidespin: Double
    public var horizontalSpeed: Double?

    enum CodingKeys: String, CodingKey {
      case start, end, topspin, sidespin
      case horizontalSpeed = "horizontal_speed"
    }
  }
  struct TruthFile: Decodable {
    var drag: Double
    var flights: [TrueFlight]
  }

  public static let minimumDuration = 0.3
  public static let minimumHorizontalSpeed = 2.0
  public static let timeTolerance = 0.04
  public static let axisMinimumSpin = 20.0
  /// The fewest frames seen in a flight's first `minimumDuration` for it to be evaluated: the fewest
  /// observations a spin fit takes (`FlightFit.fitTestingSpin`).
  public static let minimumSeenFrames = 8

  /// True flights long enough and fast enough, and those matched to a detected event.
  public var flights: Int
  /// True flights long enough but too slow to show their spin (not evaluated).
  public var slowFlights: Int
  /// True flights long and fast enough that the cameras did not see (`minimumSeenFrames`; not evaluated).
  public var unseenFlights = 0
  public var matched: Int
  /// Spin error, rev/s, over the matched flights.
  public var spinErrorMedian: Double
  public var spinErrorP95: Double
  public var spinErrorMax: Double
  /// Share of matched flights within 10 rev/s.
  public var within10: Double
  /// Axis error, degrees, over matched flights with true spin ≥ `axisMinimumSpin`.
  public var axisErrorMedian: Double
  public var axisErrorP95: Double
  public var axisErrorMax: Double
  /// Share of those within 15°.
  public var axisWithin15: Double
  /// Detected events reporting spin on a true flight whose spin is zero, and of those, how many exceed
  /// their reported uncertainty.
  public var spinOnSpinless: Int
  public var spinOnSpinlessAboveUncertainty: Int
  /// The true drag constant, 1/m.
  public var trueDrag: Double
  /// The evaluated flights whose spin error exceeds 10 rev/s (or that no event matched), for finding
  /// why.
  public var misses: [Miss] = []

  /// One evaluated flight outside 10 rev/s: the truth, what was reported, and how well it was seen.
  public struct Miss: Encodable, Sendable {
    /// Start and end, seconds of match time.
    public var start: Double
    public var end: Double
    /// Frames of the flight where at least two cameras saw the ball (nil: not known).
    public var seenFrames: Int?
    public var horizontalSpeed: Double?
    /// True and reported topspin and sidespin, rev/s (reported nil: no event matched).
    public var trueTopspin: Double
    public var trueSidespin: Double
    public var topspin: Double?
    public var sidespin: Double?
    public var uncertainty: Double?
    /// The matched event's type and its time minus the flight's start, s.
    public var event: String?
    public var eventOffset: Double?
    /// Spin error, rev/s (nil: no event matched).
    public var error: Double?
  }

  /// Reads `truth/ball.json` from `truthFolder`; nil when absent.
  public static func readTruth(_ truthFolder: URL) throws -> (drag: Double, flights: [TrueFlight])? {
    let url = truthFolder.appendingPathComponent("ball.json")
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    let file = try JSONDecoder().decode(TruthFile.self, from: Data(contentsOf: url))
    return (file.drag, file.flights)
  }

  /// - Parameters:
  ///   - seen: the frames where at least two cameras saw the ball, and the frame rate; nil: every
  ///     flight counts as seen.
  public init(detected: [MatchEvent], truth: (drag: Double, flights: [TrueFlight]), seen: (frames: Set<Int>, fps: Double)? = nil) {
    trueDrag = truth.drag
    let starts = detected.filter { $0.type == .hit || $0.type == .bounce }.sorted { $0.time < $1.time }
    let lasting = truth.flights.filter { $0.end - $0.start >= Self.minimumDuration }
    let fast = lasting.filter { ($0.horizontalSpeed ?? .infinity) >= Self.minimumHorizontalSpeed }
    slowFlights = lasting.count - fast.count
    let long = fast.filter { flight in
      guard let seen else { return true }
      let first = Int((flight.start * seen.fps).rounded(.up)), last = Int(((flight.start + Self.minimumDuration) * seen.fps).rounded(.down))
      return first <= last && (first...last).filter(seen.frames.contains).count >= Self.minimumSeenFrames
    }
    unseenFlights = fast.count - long.count
    var spinErrors: [Double] = [], axisErrors: [Double] = []
    var matched = 0, onSpinless = 0, onSpinlessAbove = 0
    var misses: [Miss] = []
    for flight in long {
      var miss = Miss(
        start: flight.start, end: flight.end,
        seenFrames: seen.map { seen in
          let first = Int((flight.start * seen.fps).rounded(.up)), last = Int((flight.end * seen.fps).rounded(.down))
          return first <= last ? (first...last).filter(seen.frames.contains).count : 0
        }, horizontalSpeed: flight.horizontalSpeed, trueTopspin: flight.topspin, trueSidespin: flight.sidespin)
      guard let event = starts.min(by: { abs($0.time - flight.start) < abs($1.time - flight.start) }),
        abs(event.time - flight.start) <= Self.timeTolerance
      else {
        misses.append(miss)
        continue
      }
      matched += 1
      let estimate = SIMD2(event.spin?.topspin ?? 0, event.spin?.sidespin ?? 0)
      let truthSpin = SIMD2(flight.topspin, flight.sidespin)
      let difference = estimate - truthSpin
      spinErrors.append((difference * difference).sum().squareRoot())
      if spinErrors.last! > 10 {
        miss.topspin = estimate.x
        miss.sidespin = estimate.y
        miss.uncertainty = event.spin?.uncertainty
        miss.event = event.type.rawValue
        miss.eventOffset = event.time - flight.start
        miss.error = spinErrors.last!
        misses.append(miss)
      }
      let trueSize = (truthSpin * truthSpin).sum().squareRoot(), size = (estimate * estimate).sum().squareRoot()
      if trueSize == 0, let spin = event.spin {
        onSpinless += 1
        if size > spin.uncertainty { onSpinlessAbove += 1 }
      }
      if trueSize >= Self.axisMinimumSpin {
        let cosine = size > 0 ? (estimate * truthSpin).sum() / (size * trueSize) : -1
        axisErrors.append(acos(max(-1, min(1, cosine))) * 180 / Double.pi)
      }
    }
    func quantile(_ values: [Double], _ q: Double) -> Double {
      guard !values.isEmpty else { return 0 }
      let sorted = values.sorted()
      return sorted[min(sorted.count - 1, Int((q * Double(sorted.count - 1)).rounded()))]
    }
    flights = long.count
    self.matched = matched
    spinErrorMedian = quantile(spinErrors, 0.5)
    spinErrorP95 = quantile(spinErrors, 0.95)
    spinErrorMax = spinErrors.max() ?? 0
    within10 = spinErrors.isEmpty ? 1 : Double(spinErrors.filter { $0 <= 10 }.count) / Double(spinErrors.count)
    axisErrorMedian = quantile(axisErrors, 0.5)
    axisErrorP95 = quantile(axisErrors, 0.95)
    axisErrorMax = axisErrors.max() ?? 0
    axisWithin15 = axisErrors.isEmpty ? 1 : Double(axisErrors.filter { $0 <= 15 }.count) / Double(axisErrors.count)
    spinOnSpinless = onSpinless
    spinOnSpinlessAboveUncertainty = onSpinlessAbove
    self.misses = misses
  }

  public var summary: String {
    func f(_ x: Double) -> String { String(format: "%.1f", x) }
    return """
      ball spin: \(matched)/\(flights) flights ≥ \(f(Self.minimumDuration)) s, ≥ \(f(Self.minimumHorizontalSpeed)) m/s matched \
      (\(slowFlights) slower, \(unseenFlights) unseen not evaluated); spin error median \(f(spinErrorMedian)), \
      p95 \(f(spinErrorP95)), max \(f(spinErrorMax)) rev/s, \(f(100 * within10)) % within 10; axis error median \
      \(f(axisErrorMedian))°, p95 \(f(axisErrorP95))°, max \(f(axisErrorMax))°, \(f(100 * axisWithin15)) % within 15°; \
      spin reported on spinless flights \(spinOnSpinless) (above its uncertainty \(spinOnSpinlessAboveUncertainty))
      """
  }
}
