import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a ball is struck.
enum Stroke: Sendable, Equatable {
  case serve, forehand, backhand
}

/// Where a player's body must be to strike a ball: the pose keys at the moment of contact.
struct ContactPlacement: Sendable, Equatable {
  var pelvis: SIMD2<Double>
  var height: Double
  var lean: Double
  /// Wrist of the racket arm at contact (the racket, not modelled, reaches the ball).
  var wrist: SIMD3<Double>
}

/// One player's body and stance: which end they play from, which hand holds the racket, and the
/// pose rules that place the body for a stroke.
struct PlayerGeometry: Sendable {
  let index: Int
  let id: String
  /// −1 for the player at negative x (`P1`), +1 at positive x (`P2`).
  let side: Double
  /// Azimuth faced: towards the table.
  let heading: Double
  let dims: BodyDimensions
  let handedness: Handedness
  let technique: Technique

  /// Distance from the wrist to the ball at contact, metres: the hand holds the racket handle and the
  /// blade meets the ball about this far out.
  static let racketReach = 0.10
  /// Lean of the spine in the ready stance, radians.
  static let readyLean = 0.15

  init(index: Int, config: PlayerConfig) {
    self.index = index
    id = "P\(index + 1)"
    side = index == 0 ? -1 : 1
    heading = index == 0 ? 0 : Double.pi
    dims = BodyDimensions(height: config.height)
    handedness = config.handedness
    technique = config.technique
  }

  var forward: SIMD3<Double> { SIMD3(cos(heading), sin(heading), 0) }
  var left: SIMD3<Double> { SIMD3(-sin(heading), cos(heading), 0) }
  /// +1 when the racket arm is on the body's left (left-handed), −1 on the right.
  var racketLeftSign: Double { handedness == .right ? -1 : 1 }
  /// Unit horizontal vector towards the racket side.
  var racketSide: SIMD3<Double> { racketLeftSign * left }

  /// Feet: lateral half distance and fore-aft stagger (racket-side foot back), metres.
  var stanceHalfWidth: Double { 0.15 * dims.height }
  var stagger: Double { 0.035 * dims.height }

  /// Ankle targets for a pelvis at `pelvisXY` (feet flat, ankles at ankle height).
  func ankles(pelvisXY p: SIMD2<Double>) -> (left: SIMD3<Double>, right: SIMD3<Double>) {
    let base = SIMD3(p.x, p.y, dims.ankleHeight)
    let racketBack = -stagger / 2 * forward
    let leftFoot = base + stanceHalfWidth * left + (racketLeftSign > 0 ? racketBack : -racketBack)
    let rightFoot = base - stanceHalfWidth * left + (racketLeftSign < 0 ? racketBack : -racketBack)
    return (leftFoot, rightFoot)
  }

  /// Highest pelvis for which both feet stay flat on the floor (legs at 99.5 % of full extension),
  /// for the untwisted stance.
  var maxPelvisHeight: Double {
    let lateral = stanceHalfWidth - dims.hipHalfWidth
    let horizontal2 = lateral * lateral + stagger * stagger / 4
    let leg = 0.995 * dims.legLength
    return dims.ankleHeight + (leg * leg - horizontal2).squareRoot()
  }

  /// Pelvis height of the athletic ready stance (knees bent).
  var readyHeight: Double {
    dims.ankleHeight + 0.93 * (maxPelvisHeight - dims.ankleHeight)
  }

  func racketShoulder(_ t: Torso) -> SIMD3<Double> { handedness == .right ? t.rightShoulder : t.leftShoulder }
  func freeShoulder(_ t: Torso) -> SIMD3<Double> { handedness == .right ? t.leftShoulder : t.rightShoulder }

  /// Pelvis height and lean for a crouch `c` ∈ [0, 1] (0: ready stance, 1: deepest).
  func crouch(_ c: Double) -> (height: Double, lean: Double) {
    (readyHeight - 0.085 * dims.height * c, Self.readyLean + 0.30 * c)
  }

  /// Body placement that strikes a ball at `ball` with `stroke` (forehand or backhand): the racket
  /// arm reaches out at 80 % of its length with the shoulder above the ball, the knees bend and the
  /// spine leans for low balls. Nil when the ball is out of reach or the body would stand inside the
  /// table's footprint (`minimumBackOffset` beyond the end line).
  func placement(
    ball: SIMD3<Double>, stroke: Stroke, tableHalfLength: Double, minimumBackOffset: Double = 0.3
  ) -> ContactPlacement? {
    let reach = dims.armReach
    let nominal = 0.8 * reach
    func shoulderHeight(_ c: Double) -> Double {
      let (h, lean) = crouch(c)
      return h + dims.spine * cos(lean)
    }
    // Crouch so that the shoulder is about 0.55 · nominal above the ball.
    let wanted = ball.z + 0.55 * nominal
    var lo = 0.0, hi = 1.0
    if shoulderHeight(0) <= wanted {
      hi = 0
    } else if shoulderHeight(1) >= wanted {
      lo = 1
    } else {
      for _ in 0..<40 {
        let mid = 0.5 * (lo + hi)
        if shoulderHeight(mid) > wanted { lo = mid } else { hi = mid }
      }
    }
    let c = 0.5 * (lo + hi)
    let (height, lean) = crouch(c)
    let dz = shoulderHeight(c) - ball.z
    guard abs(dz) <= 0.93 * reach else { return nil }
    let armLength = min(0.93 * reach, max(nominal, abs(dz) + 0.05))
    let horizontal = (armLength * armLength - dz * dz).squareRoot()
    let local: (forward: Double, out: Double) = stroke == .backhand ? (0.8, -0.6) : (0.45, 0.89)
    let dirH = normalize(local.forward * forward + local.out * racketSide)
    let wrist = ball - Self.racketReach * dirH
    let shoulder = wrist - horizontal * dirH + SIMD3(0, 0, dz)
    let torso = BodyKinematics.torso(dims, pelvis: SIMD3(0, 0, height), heading: heading, rotation: 0, lean: lean)
    let offset = racketShoulder(torso) - SIMD3(0, 0, height)
    let pelvis = SIMD2(shoulder.x - offset.x, shoulder.y - offset.y)
    guard side * pelvis.x >= tableHalfLength + minimumBackOffset, abs(pelvis.y) <= 2.5 else { return nil }
    return ContactPlacement(pelvis: pelvis, height: height, lean: lean, wrist: wrist)
  }
}
