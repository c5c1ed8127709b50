import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A racket-arm joint whose angle the simulator can change at a stroke's contact; raw values as
/// `FormJoint`'s.
public enum RacketArmJoint: String, Sendable, Codable, CaseIterable {
  case elbow, shoulderElevation = "shoulder_elevation", shoulderPlane = "shoulder_plane"
}

/// A known technique error put into one simulated stroke: the racket arm's `joint` angle changed by
/// `degrees` at contact, fading in and out over ±`halfWidth` seconds (a raised cosine), so that the
/// form analysis can be checked against a truth. The angles are those of `FormAngle` (elbow flexion,
/// shoulder elevation and plane of elevation in the thorax frame): the arm is rotated rigidly so that
/// exactly that angle changes by `degrees` at contact and the bone lengths stay.
public struct StrokeDeviation: Sendable, Equatable, Codable {
  /// 1-based number of the stroke among the player's strokes, in time order (as in `truth/strokes.json`);
  /// `everyStroke` (0) for all of them (a changed technique rather than one stroke's error).
  public var stroke: Int
  public static let everyStroke = 0

  /// Whether it changes the player's `number`th stroke (1-based).
  func changes(stroke number: Int) -> Bool { stroke == Self.everyStroke || stroke == number }
  public var joint: RacketArmJoint
  /// Positive: more elbow flexion, higher upper arm, upper arm further forward.
  public var degrees: Double
  /// Seconds either side of contact over which the change fades in and out.
  public var halfWidth: Double

  public init(stroke: Int, joint: RacketArmJoint, degrees: Double, halfWidth: Double = 0.08) {
    self.stroke = stroke
    self.joint = joint
    self.degrees = degrees
    self.halfWidth = halfWidth
  }

  /// The share of the change at `seconds` from contact: 1 at contact, 0 beyond `halfWidth`.
  func weight(secondsFromContact s: Double) -> Double {
    abs(s) >= halfWidth ? 0 : 0.5 * (1 + cos(Double.pi * s / halfWidth))
  }

  /// COCO-17 `joints` with the racket arm rotated by `degrees · share` (`racketRight`: the right arm).
  static func apply(
    _ joint: RacketArmJoint, degrees: Double, to joints: inout [SIMD3<Double>], racketRight: Bool
  ) {
    guard degrees != 0 else { return }
    let s = racketRight ? 6 : 5, e = racketRight ? 8 : 7, w = racketRight ? 10 : 9
    let shoulder = joints[s], elbow = joints[e], wrist = joints[w]
    // Thorax Y as `AngleKinematics`: hip centre → shoulder centre.
    let ty = normalize(0.5 * (joints[5] + joints[6]) - 0.5 * (joints[11] + joints[12]))
    let angle = degrees * Double.pi / 180
    switch joint {
    case .elbow:
      // Turn the forearm towards the upper arm in the arm's plane: the inner angle shrinks.
      let axis = cross(wrist - elbow, shoulder - elbow)
      guard length(axis) > 1e-9 else { return }
      joints[w] = elbow + rotate(wrist - elbow, about: normalize(axis), by: angle)
    case .shoulderElevation:
      // Turn the humerus away from the thorax's down.
      let axis = cross(-ty, elbow - shoulder)
      guard length(axis) > 1e-9 else { return }
      let n = normalize(axis)
      joints[e] = shoulder + rotate(elbow - shoulder, about: n, by: angle)
      joints[w] = shoulder + rotate(wrist - shoulder, about: n, by: angle)
    case .shoulderPlane:
      // About thorax Y; the left arm's plane is mirrored (`FormAngle`), so it turns the other way.
      let turn = racketRight ? angle : -angle
      joints[e] = shoulder + rotate(elbow - shoulder, about: ty, by: turn)
      joints[w] = shoulder + rotate(wrist - shoulder, about: ty, by: turn)
    }
  }

  /// Rodrigues' rotation of `v` about the unit `axis` by `angle` radians (right-handed).
  static func rotate(_ v: SIMD3<Double>, about axis: SIMD3<Double>, by angle: Double) -> SIMD3<Double> {
    let c = cos(angle), s = sin(angle)
    return c * v + s * cross(axis, v) + (1 - c) * dot(axis, v) * axis
  }
}

/// The stroke deviations of one animated player, at their contact times.
struct DeviationSchedule {
  var items: [(time: Double, deviation: StrokeDeviation)] = []

  /// `deviations` placed on the player's hits (in time order); numbers beyond the hits are ignored.
  init(_ deviations: [StrokeDeviation], hitTimes: [Double]) {
    for d in deviations {
      for (k, time) in hitTimes.enumerated() where d.changes(stroke: k + 1) { items.append((time, d)) }
    }
  }

  /// `joints` at time `t` with every deviation active then applied.
  func apply(to joints: inout [SIMD3<Double>], at t: Double, racketRight: Bool) {
    for (time, d) in items {
      let share = d.weight(secondsFromContact: t - time)
      if share > 0 { StrokeDeviation.apply(d.joint, degrees: d.degrees * share, to: &joints, racketRight: racketRight) }
    }
  }
}

extension SimulatedStroke {
  /// `strokes` (time order) with each player's deviations written on the strokes they change.
  static func marking(_ strokes: [SimulatedStroke], players: [PlayerConfig]) -> [SimulatedStroke] {
    var out = strokes
    for (p, config) in players.enumerated() where !config.technique.deviations.isEmpty {
      let mine = out.indices.filter { out[$0].track == "P\(p + 1)" }
      for d in config.technique.deviations {
        for (k, index) in mine.enumerated() where d.changes(stroke: k + 1) { out[index].deviation = d }
      }
    }
    return out
  }
}
