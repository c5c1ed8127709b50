import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneIO
import MatchScenePipeline

/// `matchscene locate-venue <out>`: the `[venue]` table of match.toml, estimated from the ball.
struct LocateVenue: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "locate-venue",
    abstract: "Estimate where the table is in the calibration's world from a reconstruction's ball, and print the [venue] table for match.toml.",
    discussion: """
      Reads <out>/tracks.csv and <out>/report.json. Up comes from the ball's flights (gravity), the table top from the \
      densest plane of bounces, its heading and centre from the bounces' extent, the net from consecutive bounces on \
      opposite halves and from net touches; the uncertainties are bootstrapped over the bounces. The bounces rarely \
      reach the table's edges, so expect centimetres and degrees from a minute of play, less from longer matches.
      """)

  @Argument(help: "The output folder of `matchscene reconstruct`.")
  var output: String

  @Option(help: "The world's up axis (x, y, z, -x, -y, -z); default: the one the reconstruction used.")
  var up: String?

  @Option(help: "Sport (default: the one the reconstruction used).")
  var sport: String?

  func validate() throws {
    if let up, MatchConfig.upVector(up) == nil { throw ValidationError("--up must be x, y, z, -x, -y or -z, got '\(up)'") }
  }

  func run() throws {
    let estimate = try VenueLocation.locate(
      output: URL(fileURLWithPath: output), upHint: up.flatMap(MatchConfig.upVector), sport: sport)
    print(estimate.tomlTable, terminator: "")
    print(
      String(
        format: "# table centre ± %.1f cm along, ± %.1f cm across; heading ± %.2f°; paste the table above into match.toml",
        estimate.centreSigma.x * 100, estimate.centreSigma.y * 100, estimate.headingSigma))
  }
}
