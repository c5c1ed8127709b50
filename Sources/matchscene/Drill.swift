import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneIO
import MatchScenePipeline

/// `matchscene drill <out> --drill drill.toml`: hits per target, the score and each hit's time.
struct DrillCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "drill",
    abstract: "Score a drill (drill.toml: targets as zones, what touches them, order, time limit) on a reconstructed match; writes drill.json.")

  @Argument(help: "Output folder of `matchscene reconstruct` (tracks.csv, report.json).")
  var output: String

  @Option(help: "The drill: drill.toml (see docs/commands/drill.md).")
  var drill: String

  func run() throws {
    let spec = try DrillTOML.read(from: URL(fileURLWithPath: drill))
    let folder = URL(fileURLWithPath: output)
    let result = try DrillRun.score(spec, outputFolder: folder)
    let url = try DrillRun.write(result, to: folder)
    try OutputFolder.record([url.lastPathComponent], in: folder)
    print("\(result.drill): score \(formatted(result.score)) (\(String(format: "%.2f", result.start))–\(String(format: "%.2f", result.end)) s)")
    for target in result.targets { print("  \(target.name): \(target.hits) hit\(target.hits == 1 ? "" : "s")") }
    for hit in result.hits {
      print("  \(String(format: "%8.3f", hit.time)) s  frame \(hit.frame)  \(hit.target)  \(hit.track) \(hit.joint)  +\(formatted(hit.points))")
    }
    print("wrote \(url.path)")
  }

  func formatted(_ x: Double) -> String { x.rounded() == x && abs(x) < 1e15 ? String(Int(x)) : String(format: "%.2f", x) }
}
