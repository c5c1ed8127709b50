import ArgumentParser
import Foundation
import MatchSceneAnalysis
import MatchSceneCore
import MatchSceneIO

/// `matchscene evaluate <out> --truth <truth>`: 3D error of a reconstruction against ground truth.
struct Evaluate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare reconstructed tracks with ground truth (e.g. from `matchscene simulate`).")

  @Argument(help: "tracks.csv, or a folder holding it.")
  var estimate: String

  @Option(help: "The true tracks.csv, or a folder holding it (simulate writes <match>/truth/).")
  var truth: String

  @Option(help: "Also write the figures as JSON to this file.")
  var json: String?

  static func tracksFile(_ path: String) -> URL {
    var isFolder: ObjCBool = false
    let url = URL(fileURLWithPath: path)
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      return url.appendingPathComponent("tracks.csv")
    }
    return url
  }

  func run() throws {
    let estimated = try TracksCSV.read(from: Self.tracksFile(estimate))
    let reference = try TracksCSV.read(from: Self.tracksFile(truth))
    let evaluation = TrackEvaluation(estimate: estimated, truth: reference)
    print(evaluation.summary)
    if let json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try AtomicFile.write(try encoder.encode(evaluation), to: URL(fileURLWithPath: json))
    }
  }
}
