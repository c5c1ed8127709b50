import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneIO
import MatchSceneSimulation

/// The built-in table-tennis sport.
let tableTennis: SportSpec = try! SportSpec.builtIn("table-tennis")

/// Simulated truth of a short match: two players of the given heights.
func simulatedMatch(seed: UInt64, duration: Double = 8, heights: [Double] = [1.75, 1.68]) throws -> SimulatedMatch {
  try MatchSimulator.simulate(
    SimulationConfig(seed: seed, duration: duration, players: heights.map { PlayerConfig(height: $0) }, noise: .none),
    sport: tableTennis)
}

/// Writes an output folder as `reconstruct` would lay it out: tracks.csv, events.json, report.json
/// (fps, sport, playerNames) and the `.matchscene-output` marker. `noise` (metres, Gaussian, seeded)
/// perturbs the people's keypoints like triangulation would; every 7th row is marked filled
/// (reprojection -1) so that both sample states are stored.
@discardableResult
func writeOutputFolder(
  _ match: SimulatedMatch, to folder: URL, names: [String: String] = [:], noise: Double = 0, seed: UInt64 = 1,
  extraFiles: [String: String] = [:]
) throws -> URL {
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  var generator = SeededGenerator(seed: seed)
  var points = match.truth.rows
  for i in points.indices {
    if noise > 0, points[i].kind != .ball {
      points[i].position += SIMD3(gaussian(&generator), gaussian(&generator), gaussian(&generator)) * noise
    }
    points[i].reprojectionPx = i % 7 == 3 ? -1 : Double(i % 1000) / 997
  }
  try TracksCSV.write(points, to: folder.appendingPathComponent("tracks.csv"))
  try EventsJSON.write(match.events, to: folder.appendingPathComponent("events.json"))
  let namesJSON = names.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
  let report = "{\"fps\": \(match.truth.fps), \"sport\": \"table-tennis\", \"playerNames\": {\(namesJSON)}}"
  try Data(report.utf8).write(to: folder.appendingPathComponent("report.json"))
  try Data("test\n".utf8).write(to: folder.appendingPathComponent(".matchscene-output"))
  for (name, text) in extraFiles { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
  return folder
}

/// A standard normal deviate (Box–Muller).
func gaussian(_ g: inout SeededGenerator) -> Double {
  let u = Double.random(in: Double.ulpOfOne..<1, using: &g), v = Double.random(in: 0..<1, using: &g)
  return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
}
