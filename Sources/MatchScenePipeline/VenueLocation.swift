import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneCore
import MatchSceneIO
import MatchSceneReconstruction

/// `matchscene locate-venue <out>`: where the table is, from a reconstruction's ball.
public enum VenueLocation {
  /// Reads `<output>/tracks.csv` (the ball's rows) and `<output>/report.json` (sport, frame rate, the
  /// up direction the run used) and estimates the venue frame (`VenueLocator`).
  /// - Parameters:
  ///   - upHint: the world's up direction; default the one `report.json` names, else z.
  ///   - sport: default the one `report.json` names, else table tennis.
  /// - Throws: `InputError` naming the file when it cannot be read or the sport has no table;
  ///   `VenueLocatorError` saying what evidence is missing.
  public static func locate(output: URL, upHint: SIMD3<Double>? = nil, sport: String? = nil) throws -> VenueEstimate {
    let reportURL = output.appendingPathComponent("report.json")
    var report: ReconstructionReport?
    if let data = FileManager.default.contents(atPath: reportURL.path) {
      do {
        report = try JSONDecoder().decode(ReconstructionReport.self, from: data)
      } catch {
        throw InputError(file: reportURL.path, "not a MatchScene report: \(error)")
      }
    }
    let spec = try SportSpec.builtIn(sport ?? report?.sport ?? "table-tennis")
    guard let table = try spec.tableGeometry() else {
      throw InputError(
        file: sport == nil ? reportURL.path : "sport option", location: .key("sport"),
        "locate-venue finds a table from the ball's bounces; \(spec.name) has none (give [venue] in match.toml by hand)")
    }
    let points = try TracksCSV.read(from: output.appendingPathComponent("tracks.csv"))
    let frames = points.map(\.frame)
    let fps = report?.fps ?? points.framesPerSecond ?? 0
    guard fps > 0, frames.count > 1 else {
      throw InputError(file: output.appendingPathComponent("tracks.csv").path, "has no ball rows to locate the table from")
    }
    let up = upHint ?? report?.venue.map { SIMD3($0.up[0], $0.up[1], $0.up[2]) } ?? SIMD3(0, 0, 1)
    var options = VenueLocatorOptions()
    options.ballDrag = spec.ball.dragPerMetre
    return try VenueLocator(table: table, options: options).locate(
      ball: VenueLocator.ball(in: points), fps: fps, upHint: up)
  }
}
