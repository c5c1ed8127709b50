import MatchSceneCore

/// How fast the people of this match move, measured on their own tracks: the ground distance each
/// track's centre covers over about half a second of continuous tracking (long enough that the
/// centre's frame-to-frame scatter, centimetres to decimetres for a person seen by two cameras, adds
/// little to the speed), each rounded up to a 0.05 m/s step (at most 20 m/s).
///
/// Its bound — twice the largest speed seen (room for what the match has not shown yet: a lunge
/// faster than any before it), between `walkingSpeed` and `maxPersonSpeed` — replaces the fixed sprinting speed in the tracker's
/// gate for short gaps (`IdentityTracker.gate(after:)`): players at a table or a walking bystander never
/// move at the 8 m/s the fixed bound allows, and a spurious pose 3.7 m from where a bystander's
/// tracklet was last seen, half a second earlier, was within that (7.7 m/s) and continued it (`--faults
/// hard` seed 4: three identity switches). Until `minimumSamples` speeds are known, `maxPersonSpeed`.
/// The tracker is online: the bound at a frame is the one measured up to it.
struct PersonSpeeds {
  static let binWidth = 0.05
  /// The baseline a speed is measured over, seconds.
  static let baseline = 0.5
  static let minimumSamples = 20
  /// Steps of `binWidth` a recorded speed may take.
  static let bins = 400
  private(set) var count = 0
  /// The largest speed recorded, m/s (rounded up to a `binWidth` step, at most `bins` steps).
  private(set) var largest = 0.0

  mutating func record(_ speed: Double) {
    guard speed.isFinite, speed >= 0 else { return }
    let bin = min(Self.bins - 1, Int(speed / Self.binWidth))
    count += 1
    largest = max(largest, Double(bin + 1) * Self.binWidth)
  }

  /// The speed bound for the gate, m/s (see the type's documentation).
  func bound(walkingSpeed: Double, maxPersonSpeed: Double) -> Double {
    guard count >= Self.minimumSamples else { return maxPersonSpeed }
    return min(maxPersonSpeed, max(walkingSpeed, 2 * largest))
  }
}
