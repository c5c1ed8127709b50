import Foundation
import MatchSceneCore

/// The ball's spin from one moment on (a stroke or a contact), as the simulator played it.
struct SimulatedSpinSegment: Sendable {
  var time: Double
  /// Angular velocity, rad/s, venue frame.
  var spin: SIMD3<Double>
  /// The ball's velocity then.
  var velocity: SIMD3<Double>
}

/// The ball's true flight constants and spins: the match's drag, the Magnus constant, and the spin of
/// every flight between two strokes or contacts. Written by `matchscene simulate` as `truth/ball.json`.
public struct SimulatedBallTruth: Sendable, Equatable, Codable {
  /// One flight's spin: from `start` to `end` (seconds; the next stroke or contact), topspin (negative:
  /// backspin) and sidespin (positive: counter-clockwise seen from above) in rev/s relative to the
  /// flight's horizontal direction at its start, the angular velocity vector, rev/s, venue frame, and
  /// the ball's horizontal speed at the start, m/s.
  public struct Flight: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var topspin: Double
    public var sidespin: Double
    public var angularVelocity: [Double]
    public var horizontalSpeed: Double

    enum CodingKeys: String, CodingKey {
      case start, end, topspin, sidespin
      case angularVelocity = "angular_velocity"
      case horizontalSpeed = "horizontal_speed"
    }
  }
  /// Drag constant k_D of the match's ball, 1/m, and its ratio to the sport file's.
  public var drag: Double
  public var dragFactor: Double
  /// Magnus constant k_M.
  public var magnus: Double
  public var flights: [Flight]

  enum CodingKeys: String, CodingKey {
    case drag, magnus, flights
    case dragFactor = "drag_factor"
  }

  /// `truth/ball.json`, pretty-printed with sorted keys.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }

  /// Reads `truth/ball.json`. - Throws: when the file cannot be read or parsed.
  public static func read(from url: URL) throws -> SimulatedBallTruth {
    try JSONDecoder().decode(SimulatedBallTruth.self, from: Data(contentsOf: url))
  }

  init(drag: Double, dragFactor: Double, magnus: Double, segments: [SimulatedSpinSegment]) {
    self.drag = drag
    self.dragFactor = dragFactor
    self.magnus = magnus
    let revolution = 2 * Double.pi
    flights = segments.indices.map { i in
      let s = segments[i]
      let h = SIMD3(s.velocity.x, s.velocity.y, 0)
      let speed = length(h)
      let topAxis = speed > 0 ? SIMD3(-h.y, h.x, 0) / speed : SIMD3<Double>.zero
      return Flight(
        start: s.time, end: i + 1 < segments.count ? segments[i + 1].time : s.time,
        topspin: dot(s.spin, topAxis) / revolution, sidespin: s.spin.z / revolution,
        angularVelocity: [s.spin.x / revolution, s.spin.y / revolution, s.spin.z / revolution], horizontalSpeed: speed)
    }
  }
}

extension RallySimulator {
  /// The spin a stroke gives the ball: topspin and sidespin, rad/s, drawn by the stroke's kind — serves
  /// mostly backspin and sidespin, forehands topspin, backhands anything from a push's backspin to a
  /// topspin drive — scaled so that no spin exceeds `SimulationConfig.ballSpin` rev/s.
  mutating func strokeSpin(_ stroke: Stroke) -> SIMD2<Double> {
    let most = config.ballSpin
    guard most > 0 else { return .zero }
    let revolutions: SIMD2<Double> =
      switch stroke {
      case .serve: SIMD2(spinRNG.uniform(-150...60), spinRNG.uniform(-100...100))
      case .forehand: SIMD2(spinRNG.uniform(20...150), spinRNG.uniform(-50...50))
      case .backhand: SIMD2(spinRNG.uniform(-80...120), spinRNG.uniform(-50...50))
      }
    var spin = revolutions * (most / 150)
    let size = (spin * spin).sum().squareRoot()
    if size > most { spin *= most / size }
    return spin * 2 * Double.pi
  }
}
