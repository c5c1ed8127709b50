import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneExport
import MatchSceneSessions

/// `matchscene compare A B` or `compare --player Ana --last 10`: one player across stored sessions.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare stored sessions: movement, ball, score and (with strokes/angles) technique.",
    discussion: """
      Writes compare.html (SVG plots) and compare.json into -o, and prints a summary. The first session \
      (A, or the oldest of --last) is the baseline the others are compared with.
      """)

  @Argument(help: "Session ids (see `matchscene sessions list`); none with --player.")
  var ids: [Int64] = []

  @Option(help: "The player to follow, by name: their track in each session (and with --last, their sessions).")
  var player: String?

  @Option(help: "With --player: the latest N sessions they played.")
  var last: Int?

  @Option(help: "Without --player: the player track to compare.")
  var track: String = "P1"

  @Option(name: .shortAndLong, help: "The folder for compare.html and compare.json (written whole).")
  var output: String = "compare"

  @Flag(help: "Replace a non-empty folder, or a --glb file, that MatchScene did not write.")
  var force = false

  @Option(help: "Also write one rally of each of two sessions, overlaid in the venue frame, as this .glb file.")
  var glb: String?

  @Option(help: "With --glb: the rally of the first and of the second session, A,B (default 1,1).")
  var rallies: String = "1,1"

  @OptionGroup var storeOptions: StoreOptions

  func validate() throws {
    if ids.isEmpty && player == nil { throw ValidationError("give session ids (compare 3 7) or --player NAME [--last N]") }
    if ids.count == 1 { throw ValidationError("give two or more session ids, got only \(ids[0])") }
    if let last, last < 1 { throw ValidationError("--last: expected 1 or more, got \(last)") }
    if last != nil && player == nil { throw ValidationError("--last needs --player NAME") }
    if last != nil && !ids.isEmpty { throw ValidationError("give either session ids or --last, not both") }
    if glb != nil && ids.count != 2 { throw ValidationError("--glb overlays two sessions: give two session ids") }
    if rallyNumbers == nil { throw ValidationError("--rallies: expected two rally numbers A,B (e.g. 3,5), got '\(rallies)'") }
  }

  var rallyNumbers: (Int, Int)? {
    let parts = rallies.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    return parts.count == 2 && parts.allSatisfy { $0 >= 1 } ? (parts[0], parts[1]) : nil
  }

  func run() throws {
    let started = Date()
    // --glb never overwrites the store, nor a file that is not a rally overlay, unless --force.
    let store = URL(fileURLWithPath: storeOptions.path)
    let storeFiles = [store, URL(fileURLWithPath: store.path + "-wal"), URL(fileURLWithPath: store.path + "-shm")]
    let isOverlay = { (url: URL) in GLTFWriter.isMatchSceneGLB(url, sceneExtra: "overlay") }
    if let glb { try OutputFile.check(URL(fileURLWithPath: glb), option: "--glb", force: force, inputs: storeFiles, isOurs: isOverlay) }
    let comparison = try storeOptions.withStore(.readOnly) { store in
      var chosen = ids
      if chosen.isEmpty, let player {
        chosen = try store.sessions(ofPlayer: player, last: last ?? .max)
        guard !chosen.isEmpty else { throw CommandFailure("no stored session has a player named \(player)") }
      }
      return SessionComparison(try store.comparisonMetrics(chosen, player: player, track: track))
    }
    let folder = URL(fileURLWithPath: output)
    try OutputFolder.replace(
      folder, force: force, marker: "matchscene compare\n", inputs: [URL(fileURLWithPath: storeOptions.path)]
    ) { staging in
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try AtomicFile.write(try encoder.encode(comparison), to: staging.appendingPathComponent("compare.json"))
      try AtomicFile.write(Data(ComparePage.render(comparison).utf8), to: staging.appendingPathComponent("compare.html"))
    }
    if let glb, let (ra, rb) = rallyNumbers {
      try storeOptions.withStore(.readOnly) { store in
        let data = try RallyOverlay.glb(try store.load(ids[0]), rally: ra, try store.load(ids[1]), rally: rb)
        try OutputFile.write(data, to: URL(fileURLWithPath: glb), option: "--glb", force: force, inputs: storeFiles, isOurs: isOverlay)
      }
      print("wrote \(glb): rally \(ra) of session \(ids[0]) (A-…) and rally \(rb) of session \(ids[1]) (B-…)")
    }
    print(comparison.summary)
    print(String(format: "wrote %@/compare.html and compare.json in %.2f s", output, Date().timeIntervalSince(started)))
  }
}
