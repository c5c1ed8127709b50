import MatchSceneCore

/// Independent random streams derived from one seed, so that changing one part of a simulation (the
/// detector noise, the number of cameras, the bystander) leaves the others bit for bit the same.
enum RandomStream: UInt64 {
  case rallies = 1
  case players = 2
  case bystander = 3
  /// Arm gestures between rallies (claims, decoys).
  case gestures = 4
  /// Errors of the written calibration (`CalibrationError`).
  case calibrationFaults = 5
  /// Unsynchronised cameras' offsets and phases (`CameraUnsync`).
  case unsync = 6
  /// Each stroke's spin and the match's drag (`SimulationConfig.ballSpin`, `ballDragVariation`).
  case ballSpin = 7
  case ballDrag = 8
  /// Detection noise of camera `i` uses `detection + i`.
  case detection = 1000
  /// The harder detector faults of camera `i` (bias, correlated noise, occlusion) use `detectionFaults + i`.
  case detectionFaults = 2000

  /// A generator for this stream (`index` distinguishes cameras or players).
  func generator(seed: UInt64, index: Int = 0) -> SeededGenerator {
    // Mix seed and stream id with the SplitMix64 finaliser (Steele, Lea & Flood 2014) so that nearby
    // seeds and ids give unrelated streams.
    var z = seed &+ (rawValue &+ UInt64(index)) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return SeededGenerator(seed: z ^ (z >> 31))
  }
}

extension SeededGenerator {
  /// Uniform integer in `range`.
  mutating func integer(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }
}
