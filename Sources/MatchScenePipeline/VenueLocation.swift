import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO
import MatchSceneReconstruction

/// `matchscene locate-venue <out>`: where the table is, from a reconstruction's ball and players (and
/// the table's corners when given).
public enum VenueLocation {
  /// Reads an output folder (`MatchOutput`: the ball's track, the sport, frame rate and the up direction the
  /// run used) and estimates the venue frame (`VenueLocator`).
  /// - Parameters:
  ///   - upHint: the world's up direction; default the one the output's venue frame names, else z.
  ///   - sport: default the output's, else table tennis.
  ///   - evidence: other sources to weigh with the ball and the players (the table's corners in camera
  ///     images: `TableCorners.evidence`).
  /// - Throws: `InputError` naming the file when it cannot be read or the sport has no table;
  ///   `VenueLocatorError` saying what evidence is missing.
  public static func locate(
    output folder: URL, upHint: SIMD3<Double>? = nil, sport: String? = nil, evidence: [VenueEvidence] = []
  ) throws -> VenueEstimate {
    let output = try MatchOutput.open(folder)
    let spec = try SportSpec.builtIn(sport ?? output.manifest.sport)
    guard let table = try spec.tableGeometry() else {
      throw InputError(
        file: sport == nil ? output.url(output.hasManifestFile ? .manifest : .report).path : "sport option", location: .key("sport"),
        "locate-venue finds a table from the ball's bounces; \(spec.name) has none (give [venue] in match.toml by hand)")
    }
    let motion = try output.motion(kinds: [.ball, .player, .person])
    let ball = VenueLocator.ball(in: motion)
    guard output.manifest.fps > 0, !ball.isEmpty else {
      throw InputError(file: output.url(.tracks).path, "has no ball rows to locate the table from")
    }
    let up = upHint ?? output.recordedVenue?.up ?? SIMD3(0, 0, 1)
    var options = VenueLocatorOptions()
    options.ballDrag = spec.ball.dragPerMetre
    options.ballMagnus = spec.ballModel.magnus
    return try VenueLocator(table: table, options: options).locate(
      ball: ball, fps: output.manifest.fps, upHint: up, players: VenueLocator.people(in: motion), evidence: evidence)
  }
}
