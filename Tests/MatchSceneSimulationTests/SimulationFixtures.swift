import MatchSceneAssets
import MatchSceneCore
import MatchSceneSimulation
import XCTest

/// The built-in table-tennis sport (asset constants).
let tableTennis: SportSpec = try! SportSpec.builtIn("table-tennis")

/// `config` in the world these fixtures' rallies were chosen in: no spin, the sport's drag.
func spinless(_ config: SimulationConfig) -> SimulationConfig {
  var c = config
  c.ballSpin = 0
  c.ballDragVariation = 0
  return c
}

/// A default-noise 20 s match shared by the tests that only read it (seed 7).
let sharedMatch: SimulatedMatch = try! MatchSimulator.simulate(
  spinless(SimulationConfig(seed: 7, duration: 20)), sport: tableTennis)

/// Truth positions by track and frame.
func truthIndex(_ truth: MotionModel) -> [String: [Int: [String: SIMD3<Double>]]] {
  var index: [String: [Int: [String: SIMD3<Double>]]] = [:]
  for track in truth.tracks {
    for j in 0..<track.jointCount {
      let joint = track.kind == .ball ? "ball" : truth.skeleton.keypoints[j]
      for frame in track.frames {
        if let p = track.position(joint: j, frame: frame) { index[track.id, default: [:]][frame, default: [:]][joint] = p }
      }
    }
  }
  return index
}

/// Euclidean length of a pixel offset.
func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
