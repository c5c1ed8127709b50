import Foundation
import MatchSceneCore
import MatchSceneForm
import MatchSceneSimulation
import TestSupport

/// Simulated matches whose players play every stroke of a kind alike (`Technique.repeatable`), with
/// known technique errors injected at contact (`StrokeDeviation`), analysed from the true motion with
/// Gaussian keypoint noise standing in for a reconstruction's (the same noise for the same seed, so a
/// match with an injected error differs from the one without only by the error).
enum TechniqueTruth {
  /// Per-axis keypoint noise, metres (a 4-camera reconstruction's smoothed keypoints: a few mm).
  static let noise = 0.005
  /// The reprojection error that `AngleUncertainty` (4 mm/px, 4 views) turns into `noise`.
  static let reprojectionPx = noise / (0.004 * (2.0 / 5).squareRoot())

  static func config(deviations: [StrokeDeviation] = [], seed: UInt64 = 31, duration: Double = 120) -> SimulationConfig {
    var p1 = Technique(), p2 = Technique()
    p1.repeatable = true
    p2.repeatable = true
    p1.deviations = deviations
    var config = SimulationConfig(
      seed: seed, duration: duration, players: [PlayerConfig(height: 1.72, technique: p1), PlayerConfig(height: 1.80, technique: p2)],
      noise: .none, shotsPerRally: 10...16, pause: 1...1.5)
    config.rig.cameras = Array(config.rig.cameras.prefix(1))
    return config
  }

  /// The form analysis of the match's true motion with `noise` added (`noiseSeed`).
  static func form(_ simulated: SimulatedMatch, noise: Double = noise, noiseSeed: UInt64 = 77) throws -> FormResult {
    var motion = simulated.truth
    var rng = SeededGenerator(seed: noiseSeed)
    for k in motion.playerTracks {
      let track = motion.tracks[k]
      for frame in track.frames {
        for j in 0..<track.jointCount {
          var s = track[joint: j, frame: frame]
          guard s.isPresent else { continue }
          s.position += noise * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
          s.reprojectionPx = reprojectionPx
          s.views = 4
          motion.tracks[k][joint: j, frame: frame] = s
        }
      }
    }
    return try FormAnalysis.run(motion: motion, venue: .assumed(worldUp: SIMD3(0, 0, 1)), events: simulated.events)
  }

  static func simulate(_ config: SimulationConfig) throws -> SimulatedMatch {
    try MatchSimulator.simulate(config, sport: tableTennis)
  }
}
