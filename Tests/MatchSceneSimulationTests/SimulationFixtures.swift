import MatchSceneAssets
import MatchSceneCore
import MatchSceneSimulation
import XCTest

/// The built-in table-tennis sport (asset constants).
let tableTennis: SportSpec = try! SportSpec.builtIn("table-tennis")

/// A default-noise 20 s match shared by the tests that only read it (seed 7).
let sharedMatch: SimulatedMatch = try! MatchSimulator.simulate(
  SimulationConfig(seed: 7, duration: 20), sport: tableTennis)

/// Truth positions by track and frame.
func truthIndex(_ truth: Reconstruction) -> [String: [Int: [String: SIMD3<Double>]]] {
  var index: [String: [Int: [String: SIMD3<Double>]]] = [:]
  for p in truth.points { index[p.track, default: [:]][p.frame, default: [:]][p.joint] = p.position }
  return index
}

/// Euclidean length of a pixel offset.
func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
