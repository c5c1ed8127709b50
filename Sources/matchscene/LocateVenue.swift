import ArgumentParser
import Foundation
import MatchSceneAssets
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO
import MatchScenePipeline
import MatchSceneReconstruction

/// `matchscene locate-venue <out>`: the `[venue]` table of match.toml, estimated from the ball.
struct LocateVenue: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "locate-venue",
    abstract: "Estimate where the table is in the calibration's world from a reconstruction's ball, and print the [venue] table for match.toml.",
    discussion: """
      Reads <out>/tracks.csv and <out>/report.json. Up comes from the ball's flights (gravity), the table top from the \
      densest plane of bounces, its heading and centre from the bounces' extent, the net from consecutive bounces on \
      opposite halves and from net touches; the uncertainties are bootstrapped over the bounces. The bounces rarely \
      reach the table's edges, so expect centimetres and degrees from a minute of play, less from longer matches. \
      For millimetres, click the table's four top corners in one or more camera images and pass them with --corners \
      (a TOML file: [cam01] corners = [[x, y], [x, y], [x, y], [x, y]], in the same order around the table in every camera). \
      Every source is weighed by its uncertainty: the bounces (the table's plane, heading and centre), contacts with the \
      net (the net line), where the players stand (the long axis) and the corners (click noise --click-sigma, or the \
      corners' own residual when larger); the printed table lists each source's residual and weight. Without a \
      tracks.csv in <out>, --corners alone places the table.
      """)

  @Argument(help: "The output folder of `matchscene reconstruct`.")
  var output: String

  @Option(help: "The world's up axis (x, y, z, -x, -y, -z); default: the one the reconstruction used.")
  var up: String?

  @Option(help: "Sport (default: the one the reconstruction used).")
  var sport: String?

  @Option(help: "The table's top corners clicked in camera images (TOML: [<camera>] corners = [[x, y] × 4]); uses --calibration.")
  var corners: String?

  @Option(help: "With --corners: the calibration (a .toml, intri.yml, .qca.txt or a folder holding one).")
  var calibration: String?

  @Option(help: "With --corners: how far a click may be off, pixels (standard deviation per axis).")
  var clickSigma: Double = 2

  func validate() throws {
    if corners != nil && calibration == nil { throw ValidationError("--corners needs --calibration (the cameras the corners were clicked in)") }
    guard clickSigma > 0, clickSigma.isFinite else { throw ValidationError("--click-sigma must be > 0 pixels") }
    if let up, MatchConfig.upVector(up) == nil { throw ValidationError("--up must be x, y, z, -x, -y or -z, got '\(up)'") }
  }

  func run() throws {
    if let corners, let calibration {
      let cameras = try MatchFolder.cameras(calibration: URL(fileURLWithPath: calibration))
      let clicks = try TableCorners.read(URL(fileURLWithPath: corners), cameras: cameras)
      let spec = try SportSpec.builtIn(sport ?? "table-tennis")
      guard let table = try spec.tableGeometry() else {
        throw ValidationError("--corners locates a table; \(spec.name) has none")
      }
      let folder = URL(fileURLWithPath: output)
      if FileManager.default.fileExists(atPath: MatchOutput.tracksFile(folder).path) {
        let (evidence, _) = try TableCorners.evidence(clicks, table: table, file: corners, clickSigmaPx: clickSigma)
        let estimate = try VenueLocation.locate(
          output: folder, upHint: up.flatMap(MatchConfig.upVector), sport: sport, evidence: [evidence])
        return printEstimate(estimate)
      }
      let (venue, rms) = try TableCorners.venue(clicks, table: table, file: corners)
      print(MatchConfig.renderVenueTable(venue, comment: String(
        format: "located from the table's corners clicked in %d camera(s) (matchscene locate-venue --corners): %.2f px RMS\n"
          + "heading %.2f°; the table's two ends cannot be told apart (add 180° to swap them)",
        clicks.count, rms, venue.headingDegrees)), terminator: "")
      return
    }
    let estimate = try VenueLocation.locate(
      output: URL(fileURLWithPath: output), upHint: up.flatMap(MatchConfig.upVector), sport: sport)
    printEstimate(estimate)
  }

  func printEstimate(_ estimate: VenueEstimate) {
    print(estimate.tomlTable, terminator: "")
    print(
      String(
        format: "# table centre ± %.1f cm along, ± %.1f cm across; heading ± %.2f°; paste the table above into match.toml",
        estimate.centreSigma.x * 100, estimate.centreSigma.y * 100, estimate.headingSigma))
  }
}
