import MatchSceneBallFlight
import MatchSceneCore

/// Settings of `VenueLocator`.
public struct VenueLocatorOptions: Sendable {
  /// The ball's drag constant k (1/m) of `a = g − k |v| v`; table tennis: ρ C_d A / 2m ≈ 0.126.
  public var ballDrag = 0.126
  /// The ball's Magnus constant k_M of `k_M ω × v` (`BallModel.magnusConstant`; 0: flights are fitted
  /// spinless). With it, the flights the contacts are found between are fitted with their spin free
  /// where a spinless path cannot follow them (`FlightSegmentation`), so a spinning ball's bounces
  /// are placed where its spinning paths meet.
  public var ballMagnus = 0.0
  /// Fewer table bounces than this is not enough evidence.
  public var minTableBounces = 6
  /// A contact within this of the table plane's height is a table bounce, metres.
  public var heightTolerance = 0.025
  /// A table bounce followed by another within this many seconds, this far away, is taken to lie on
  /// the other half (the next stroke's bounce, or the serve's second), seconds and metres.
  public var oppositeWithin = 2.5
  public var oppositeDistance = 0.4
  /// Bootstrap resamples of the bounces for the uncertainties (0: none).
  public var bootstrapRounds = 200
  /// How well one contact with the net places the net along the table, metres (the ball's position
  /// noise and the contact's timing).
  public var netContactSigma = 0.01
  /// Players' positions are averaged over blocks this long for the long axis from where they stand,
  /// seconds; and how far a player's average stance may sit off the table's axis (a favoured side),
  /// metres, as a standard deviation.
  public var playerBlockSeconds = 2.0
  public var playerStanceSigma = 0.15
  public var seed: UInt64 = 1
  /// Report the bootstrap mean instead of the estimate on all bounces (bagging, Breiman, "Bagging
  /// predictors", Machine Learning 24, 1996): over seeds 1–5, 30 and 60 s, reconstructed, the centre's
  /// RMS error 9.6 → 8.2 cm, the heading's unchanged (3.5°).
  public var bagging = true
  /// Re-estimate up from the flights' gravity (else keep the hint).
  public var estimateUp = true
  /// Keep the up hint when the flights' gravity agrees with it within twice its standard error (or
  /// 0.05°).
  public var keepConfirmedUp = true
  public var segmentation = FlightSegmentationOptions()
  public init() {}

  /// Checks the settings before work starts.
  func validate() throws {
    guard ballDrag >= 0, ballDrag.isFinite else { throw VenueLocatorError.badOptions("ballDrag must be ≥ 0") }
    guard ballMagnus >= 0, ballMagnus.isFinite else { throw VenueLocatorError.badOptions("ballMagnus must be ≥ 0") }
    guard minTableBounces >= 3 else { throw VenueLocatorError.badOptions("minTableBounces must be ≥ 3") }
    guard heightTolerance > 0 else { throw VenueLocatorError.badOptions("heightTolerance must be > 0") }
    guard bootstrapRounds >= 0 else { throw VenueLocatorError.badOptions("bootstrapRounds must be ≥ 0") }
  }
}

/// Why the venue could not be located.
public enum VenueLocatorError: Error, Equatable, CustomStringConvertible {
  case badOptions(String)
  case badUpHint
  /// Too few ball observations to fit any flight.
  case tooFewObservations(found: Int, needed: Int)
  /// No free flight long enough to measure gravity (a ball lying still, or one seen in short bits).
  case noFlights(observations: Int)
  /// Too few bounces at one height: the table's plane is not found.
  case tooFewTableBounces(found: Int, needed: Int, contacts: Int)

  public var description: String {
    switch self {
    case .badOptions(let message): "venue locator options: \(message)"
    case .badUpHint: "the up hint is a zero or non-finite vector"
    case .tooFewObservations(let found, let needed):
      "the ball was seen in \(found) frame(s); at least \(needed) are needed to fit its flights"
    case .noFlights(let observations):
      "no free flight of the ball long enough to measure gravity among \(observations) observations "
        + "(the ball lies still, or is seen only in short pieces)"
    case .tooFewTableBounces(let found, let needed, let contacts):
      "only \(found) bounce(s) at one height among \(contacts) contact(s) between flights; at least \(needed) table "
        + "bounces are needed to find the table (a longer stretch of play, or more cameras on the ball)"
    }
  }
}

/// Estimates where a table tennis table stands in the calibration's world — its plane, heading and
/// centre, hence the venue frame — from the ball alone.
///
/// 1. Up: the ball's free flights fall along gravity. Flights are segmented and fitted (with
///    `FlightSegmentation`, gravity along the current guess of down) in a frame levelled by the hint;
///    one least-squares fit over the long flights, with each flight's spin and drag free where it
///    shows them (`FlightGravity`: the Magnus force would otherwise pass for a tilt of gravity),
///    measures the correction of g; down follows, and the segmentation is redone until it settles.
/// 2. Contacts: where one fitted flight ends and the next begins with the vertical velocity turning
///    from down to up and the horizontal direction kept, the ball bounced (a stroke sends it back).
/// 3. The table's plane: the densest height of the bounces (the floor's bounces, the lowest cluster,
///    lie the table's height below it and are used as a check).
/// 4. Heading and centre from the bounces on the plane: `TableOutlineFit` — the smallest bounding box
///    of the bounces gives the heading, its middle the centre; consecutive bounces within a rally lie
///    on opposite halves; contacts with the net (the ball stopped above the table near net height with
///    no bounce) fix the net's place.
/// 5. Uncertainties: bootstrap over the bounces (Efron & Tibshirani, "An Introduction to the
///    Bootstrap", 1993, ch. 6); the estimate is their mean (bagging).
/// 6. Every source weighed by its uncertainty (`VenueFusion`): the bounces (plane, heading, centre),
///    the contacts with the net (points on the net line), where the players stand (the long axis,
///    `playersClue`) and any `VenueEvidence` (the table's corners in camera images); the estimate
///    reports each source's residual and weight (`VenueEstimate.sources`).
///
/// Accuracy is that of the bounces nearest the table's edges, not of the ball's positions: up comes
/// within 0.1° (within 1°, σ 0.5–0.7°, when the ball spins up to 150 rev/s in 20 s of play) and the table's height within millimetres, but the simulated matches' bounces stay
/// 5–25 cm inside the edges, which leaves the centre free by centimetres and the heading by degrees.
/// Measured on the simulator's matches (seeds 1–5, reconstructed, re-expressed turned 30° and moved
/// 3 m, and y up): 30 s, centre 1–16 cm and heading 1.9–8.3°; 60 s, centre 1–5 cm and heading
/// 0.2–2.9°. Ball noise up to 1 cm changes little. The same estimators on the simulator's true
/// bounce positions do no better, so the ball alone cannot place the table to a centimetre in a
/// 30 s match. The errors stay within 3 σ of the reported uncertainties.
public struct VenueLocator: Sendable {
  public var table: TableGeometry
  public var options: VenueLocatorOptions

  public init(table: TableGeometry, options: VenueLocatorOptions = .init()) {
    self.table = table
    self.options = options
  }

  /// Locates the venue.
  ///
  /// - Parameters:
  ///   - ball: the ball's positions by frame in the world (as in `tracks.csv`: noisy, with gaps; frames
  ///     out of play may be absent).
  ///   - fps: frames per second.
  ///   - upHint: the world's up as far as known (`match.toml` `up`), not necessarily unit.
  ///   - players: each person's position by frame in the world (`people(in:)`): the line between
  ///     where the two players stand on average gives the long axis (`playersClue`); empty: not used.
  ///   - evidence: other sources (the table's corners in camera images), weighed with the rest.
  /// - Throws: `VenueLocatorError` when the ball does not show enough of the table.
  public func locate(
    ball: [Int: SIMD3<Double>], fps: Double, upHint: SIMD3<Double> = SIMD3(0, 0, 1), players: [[Int: SIMD3<Double>]] = [],
    evidence: [VenueEvidence] = []
  ) throws -> VenueEstimate {
    try options.validate()
    guard length(upHint) > 0, upHint.x.isFinite, upHint.y.isFinite, upHint.z.isFinite else { throw VenueLocatorError.badUpHint }
    let hint = normalize(upHint)
    let needed = 2 * options.segmentation.minObservations
    guard ball.count >= needed else { throw VenueLocatorError.tooFewObservations(found: ball.count, needed: needed) }
    let finder = BallContactFinder(model: BallModel(gravity: SIMD3(0, 0, -9.81), drag: options.ballDrag), segmentation: options.segmentation)

    // 1. Up from gravity, re-levelling until the direction settles (the flights are then fitted in a
    // frame levelled within 0.02° of the gravity they show). A hint far off (a z-down world given as z
    // up) leaves no flight long enough to measure gravity: the world's axes are tried next, nearest
    // the hint first.
    var up = hint
    var flights: [BallFlight] = []
    var gravity: (g: SIMD3<Double>, standardError: SIMD3<Double>, flights: Int)? = nil
    let axes: [SIMD3<Double>] = [SIMD3(0, 0, 1), SIMD3(0, 0, -1), SIMD3(0, 1, 0), SIMD3(0, -1, 0), SIMD3(1, 0, 0), SIMD3(-1, 0, 0)]
    var fallbacks = axes.filter { Self.angle($0, hint) > 0.1 }.sorted { Self.angle($0, hint) < Self.angle($1, hint) }
    for _ in 0..<(5 + axes.count) {
      let levelling = VenueFrame.levelling(up: up)
      let levelled = ball.mapValues { levelling * $0 }
      let found = finder.flights(levelled.map { (frame: $0.key, position: $0.value) }, fps: fps)
      guard let g = BallContactFinder.gravity(found, observations: levelled, fps: fps) else {
        if gravity == nil, !fallbacks.isEmpty {
          up = fallbacks.removeFirst()
          continue
        }
        break
      }
      (flights, gravity) = (found, g)
      guard options.estimateUp else { break }
      let newUp = -normalize(levelling.transposed * g.g)
      if Self.angle(newUp, up) < 0.02 * Double.pi / 180 { break }
      up = newUp
    }
    guard let gravity else { throw VenueLocatorError.noFlights(observations: ball.count) }
    let gLength = length(gravity.g)
    // Up's direction error: gravity's error across it, over its length.
    let upSigma = gLength > 0 ? (gravity.standardError.x * gravity.standardError.x + gravity.standardError.y * gravity.standardError.y).squareRoot() / gLength * 180 / Double.pi : 0
    // A stated up that gravity confirms is kept: a levelled calibration's up is exact, where gravity's
    // carries the flights' noise (a tenth of a degree), which would tilt the venue for nothing.
    let hintAngle = Self.angle(up, hint) * 180 / Double.pi
    if options.keepConfirmedUp, hintAngle > 0, hintAngle <= max(2 * upSigma, 0.05) {
      up = hint
      let levelled = ball.mapValues { VenueFrame.levelling(up: hint) * $0 }
      flights = finder.flights(levelled.map { (frame: $0.key, position: $0.value) }, fps: fps)
    }
    let levelling = VenueFrame.levelling(up: up)
    // The flights again with their spin free where a spinless path cannot follow them, for the
    // contacts: a spinning ball's spinless paths meet millimetres off its bounce. (Gravity comes from
    // the spinless flights above: a spin fitted with the wrong gravity takes up part of its error.)
    if options.ballMagnus > 0 {
      var spinning = finder
      spinning.model.magnus = options.ballMagnus
      flights = spinning.flights(ball.map { (frame: $0.key, position: levelling * $0.value) }, fps: fps)
    }

    // 2–3. Contacts, and the table's plane among the bounces' heights.
    let contacts = finder.contacts(flights, fps: fps)
    let bounces = contacts.filter { $0.kind == .bounce }
    guard let plane = tablePlane(bounces.map(\.position.z)) else {
      throw VenueLocatorError.tooFewTableBounces(found: 0, needed: options.minTableBounces, contacts: contacts.count)
    }
    let onTable = bounces.filter { abs($0.position.z - plane.height) <= options.heightTolerance }
    guard onTable.count >= options.minTableBounces else {
      throw VenueLocatorError.tooFewTableBounces(found: onTable.count, needed: options.minTableBounces, contacts: contacts.count)
    }
    let heights = onTable.map(\.position.z)
    let planeHeight = heights.reduce(0, +) / Double(heights.count)
    let planeSigma = Self.standardDeviation(heights) / Double(heights.count).squareRoot()
    let floorContacts = bounces.filter { abs($0.position.z - (planeHeight - table.surfaceHeight)) <= 2 * options.heightTolerance }
    let floorOffset = floorContacts.isEmpty
      ? nil : floorContacts.map { $0.position.z - (planeHeight - table.surfaceHeight) }.reduce(0, +) / Double(floorContacts.count)

    // 4. Heading and centre.
    let fit = TableOutlineFit(length: table.length, width: table.width, ballRadius: table.ballRadius)
    let points = onTable.map { SIMD2($0.position.x, $0.position.y) }
    let opposite = oppositePairs(onTable)
    guard var result = fit.fit(points, opposite: opposite) else {
      throw VenueLocatorError.tooFewTableBounces(found: onTable.count, needed: options.minTableBounces, contacts: contacts.count)
    }

    // 5. Bootstrap over the bounces.
    var rng = SeededGenerator(seed: options.seed)
    var headings: [Double] = [], centres: [SIMD2<Double>] = []
    for _ in 0..<options.bootstrapRounds {
      let draw = Set((0..<points.count).map { _ in Int(rng.next() % UInt64(points.count)) }).sorted()
      guard draw.count >= 3 else { continue }
      let position = Dictionary(uniqueKeysWithValues: draw.enumerated().map { ($0.element, $0.offset) })
      let pairs = opposite.compactMap { a, b in position[a].flatMap { i in position[b].map { (i, $0) } } }
      guard let r = fit.fit(draw.map { points[$0] }, opposite: pairs) else { continue }
      var dh = r.heading - result.heading
      while dh > Double.pi / 2 { dh -= Double.pi }
      while dh <= -Double.pi / 2 { dh += Double.pi }
      headings.append(dh)
      centres.append(r.centre)
    }
    if options.bagging, !headings.isEmpty {
      // The bootstrap mean (bagging, Breiman 1996): smooths the extreme-value estimates.
      result.heading += headings.reduce(0, +) / Double(headings.count)
      result.centre = centres.reduce(SIMD2<Double>.zero, +) / Double(centres.count)
      // Back within (−90°, 90°]: the long axis up to its sign.
      if result.heading > Double.pi / 2 { result.heading -= Double.pi }
      if result.heading <= -Double.pi / 2 { result.heading += Double.pi }
    }
    let headingSigma = Self.standardDeviation(headings)
    let axis0 = SIMD2(cos(result.heading), sin(result.heading))
    let normal0 = SIMD2(-axis0.y, axis0.x)
    let alongSigma = Self.standardDeviation(centres.map { (($0 - result.centre) * axis0).sum() })
    let acrossSigma = Self.standardDeviation(centres.map { (($0 - result.centre) * normal0).sum() })
    // Contacts with the net put the net line through a point: a contact's place is good to
    // `netContactSigma`, plus what the heading's uncertainty makes of its distance across the table
    // from the centre.
    let midAlong = (result.centre * axis0).sum()
    let net = netContacts(contacts, planeHeight: planeHeight, near: result).map { p, v in
      let across = ((p - result.centre) * normal0).sum()
      let place = fit.netPlace(p, velocity: v, heading: result.heading)
      return (point: p + (place - (p * axis0).sum()) * axis0,
              sigma: (options.netContactSigma * options.netContactSigma + across * across * headingSigma * headingSigma).squareRoot())
    }.filter { abs(($0.point * axis0).sum() - midAlong) <= table.length / 2 - result.extent.x / 2 + 0.05 }

    // 6. Every source weighed by its stated uncertainty (`VenueFusion`). Without the bootstrap the
    // bounces' uncertainty is unknown: they are then taken as exact.
    var clues = [
      VenueFusion.Clue(
        source: "bounces", heading: (result.heading, max(headingSigma, 1e-9)),
        centre: (result.centre, max(alongSigma, 1e-9), max(acrossSigma, 1e-9)),
        height: (planeHeight - table.ballRadius, max(planeSigma, 1e-9)))
    ]
    if !net.isEmpty { clues.append(VenueFusion.Clue(source: "net contacts", netPoints: net)) }
    if let standing = playersClue(players.map { $0.mapValues { levelling * $0 } }, fps: fps, near: result) {
      clues.append(standing)
    }
    clues += evidence.map { clue($0, levelling: levelling) }
    guard let fused = VenueFusion.combine(clues) else {
      throw VenueLocatorError.tooFewTableBounces(found: onTable.count, needed: options.minTableBounces, contacts: contacts.count)
    }
    let axis2 = SIMD2(cos(fused.heading), sin(fused.heading))

    // The frame, back in the world.
    let worldFromLevel = levelling.transposed
    let surfaceCentre = worldFromLevel * SIMD3(fused.centre.x, fused.centre.y, fused.height)
    let longAxis = worldFromLevel * SIMD3(axis2.x, axis2.y, 0)
    let origin = surfaceCentre - table.surfaceHeight * up
    let venueFromWorld = VenueFrame.venueFromWorld(up: up, origin: origin, longAxis: longAxis)!
    return VenueEstimate(
      venueFromWorld: venueFromWorld, tableCentre: surfaceCentre, up: up, upHintAngle: Self.angle(up, hint) * 180 / Double.pi,
      upSigma: upSigma, longAxis: longAxis, heading: fused.heading * 180 / Double.pi,
      centreSigma: SIMD3(fused.alongSigma, fused.acrossSigma, fused.heightSigma), headingSigma: fused.headingSigma * 180 / Double.pi,
      planeHeightSigma: fused.heightSigma, tableBounces: onTable.count, netContacts: net.count, gravityFlights: gravity.flights,
      floorBounces: floorContacts.count, floorHeightOffset: floorOffset, sources: fused.reports)
  }

  /// The table's plane among bounce heights: the height with the most bounces within the tolerance;
  /// when another cluster, at least a third as dense, lies the table's height above it, that one (the
  /// densest was the floor).
  func tablePlane(_ heights: [Double]) -> (height: Double, count: Int)? {
    guard !heights.isEmpty else { return nil }
    func support(_ h: Double) -> [Double] { heights.filter { abs($0 - h) <= options.heightTolerance } }
    func densest(_ candidates: [Double]) -> (height: Double, count: Int)? {
      candidates.map { h -> (height: Double, count: Int) in
        let s = support(h)
        return (s.reduce(0, +) / Double(s.count), s.count)
      }.max { ($0.count, $0.height) < ($1.count, $1.height) }
    }
    guard let first = densest(heights) else { return nil }
    let above = heights.filter { abs($0 - (first.height + table.surfaceHeight)) <= 2 * options.heightTolerance }
    if let table = densest(above), 3 * table.count >= first.count { return table }
    return first
  }

  /// Index pairs of consecutive table bounces expected on opposite halves: close in time, far apart.
  func oppositePairs(_ bounces: [BallContact]) -> [(Int, Int)] {
    bounces.indices.dropLast().compactMap { i in
      let a = bounces[i], b = bounces[i + 1]
      let d = SIMD2(b.position.x - a.position.x, b.position.y - a.position.y)
      return b.time - a.time <= options.oppositeWithin && (d * d).sum().squareRoot() >= options.oppositeDistance ? (i, i + 1) : nil
    }
  }

  /// Contacts with the net: not bounces, above the table plane and below the net's top (with the
  /// ball's radius and a little slack), near the first fit's net line and within the net's width, the
  /// ball moving towards the net before and stopped or sent back after (a net absorbs nearly all of
  /// the ball's speed).
  func netContacts(_ contacts: [BallContact], planeHeight: Double, near first: TableOutlineFit.Result?) -> [(SIMD2<Double>, SIMD2<Double>)] {
    guard let first else { return [] }
    let axis = SIMD2(cos(first.heading), sin(first.heading)), normal = SIMD2(-axis.y, axis.x)
    let centreAlong = (first.centre * axis).sum(), centreAcross = (first.centre * normal).sum()
    return contacts.compactMap { c in
      guard c.kind != .bounce else { return nil }
      let p = SIMD2(c.position.x, c.position.y)
      let along = (p * axis).sum() - centreAlong, across = (p * normal).sum() - centreAcross
      let height = c.position.z - planeHeight
      let before = (SIMD2(c.velocityBefore.x, c.velocityBefore.y) * axis).sum()
      let after = (SIMD2(c.velocityAfter.x, c.velocityAfter.y) * axis).sum()
      guard height >= -0.01, height <= table.netHeight + 0.02, abs(along) <= 0.3, abs(across) <= table.width / 2 + 0.1525,
        before * along < 0, abs(before) >= 1, after * before < 0.3 * before * before
      else { return nil }
      return (p, SIMD2(c.velocityBefore.x, c.velocityBefore.y))
    }
  }
}

extension VenueLocator {
/// Angle between two non-zero vectors, radians.
static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
  atan2(length(cross(a, b)), dot(a, b))
}

/// Sample standard deviation; 0 for fewer than two values.
static func standardDeviation(_ values: [Double]) -> Double {
  guard values.count > 1 else { return 0 }
  let mean = values.reduce(0, +) / Double(values.count)
  return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
}
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
