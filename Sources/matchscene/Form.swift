import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneForm
import MatchSceneIO
import MatchSceneSessions

/// `matchscene form <out>`: joint angles, strokes and their scores against a reference.
struct Form: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Form analysis of a reconstruction: joint angles, strokes, scores against a reference, form.html.",
    discussion: """
      Reads tracks.csv, events.json and report.json of `matchscene reconstruct` and writes into the same folder: \
      angles.csv (per frame and player), mot/<player>.mot (OpenSim), strokes.json, form.html (per stroke the \
      score, per-joint detail, comments and angle curves against the reference) and form.json (the same \
      scores, sub-scores and comments, machine-readable). Without --reference each stroke \
      is compared with the player's own average stroke of that kind. --save-reference writes a reference from \
      --player's --stroke N (or the mean of all their strokes of --kind).
      """)

  @Argument(help: "Output folder of `matchscene reconstruct`.")
  var output: String

  @Option(
    help: ArgumentHelp(
      "Reference stroke JSON (from --save-reference) to score strokes of its kind against; repeatable, one per stroke kind.",
      discussion: "A reference saved for the other hand is mirrored (noted in form.html); one of another sport is an error."))
  var reference: [String] = []

  @Option(help: "A reference kept in the session store (`sessions reference list`), by name; repeatable, one per stroke kind with --reference.")
  var storedReference: [String] = []

  @Option(help: "The session store of --stored-reference (default ~/.matchscene/sessions.sqlite).")
  var store: String?

  @Option(help: "Save a reference stroke to this JSON file (with --player and --stroke or --kind).")
  var saveReference: String?

  @Option(help: "Player of --save-reference.")
  var player: String?

  @Option(help: "Stroke number of --save-reference (1-based, as in strokes.json).")
  var stroke: Int?

  @Option(help: "With --save-reference and no --stroke: average all of the player's strokes of this kind (serve, forehand, backhand).")
  var kind: String?

  @Option(help: "Metres per pixel at the players, for the angles' uncertainty (camera distance / focal length in px).")
  var metresPerPixel: Double = 0.004

  func validate() throws {
    if saveReference != nil {
      guard player != nil else { throw ValidationError("--save-reference needs --player") }
      guard stroke != nil || kind != nil else { throw ValidationError("--save-reference needs --stroke N or --kind") }
    }
    if let kind, StrokeKind(rawValue: kind) == nil {
      throw ValidationError("--kind must be serve, forehand or backhand, got '\(kind)'")
    }
    guard metresPerPixel > 0, metresPerPixel < 1 else { throw ValidationError("--metres-per-pixel must lie in (0, 1)") }
  }

  func run() throws {
    let started = Date()
    var laps: [String] = []
    var clock = started
    func lap(_ stage: String) {
      laps.append("\(stage) " + String(format: "%.2f s", Date().timeIntervalSince(clock)))
      clock = Date()
    }
    let folder = URL(fileURLWithPath: output)
    // --save-reference replaces only a stroke reference, never what the run reads (--reference included).
    let inputs = MatchOutput.File.allCases.map { MatchOutput.url($0, in: folder) } + reference.map { URL(fileURLWithPath: $0) }
    if let saveReference {
      try StrokeReference.checkTarget(URL(fileURLWithPath: saveReference))
      try OutputFile.check(URL(fileURLWithPath: saveReference), option: "--save-reference", inputs: inputs) { _ in true }
    }
    let input = try FormInput.load(folder)
    try input.checkAnalysable(folder)
    // Every reference is read and checked (sport, one per kind) before any work.
    var references = ReferenceSet()
    for file in reference {
      try references.add(try StrokeReference.read(from: URL(fileURLWithPath: file)), file: file, sport: input.sport)
    }
    if !storedReference.isEmpty {
      var options = StoreOptions()
      options.store = store
      let stored = try options.withStore(.readOnly) { store in try storedReference.map { try store.reference(named: $0) } }
      for r in stored {
        let label = "\(options.path): reference \(r.name)"
        try references.add(try StrokeReference.decode(r.content, file: label), file: label, sport: input.sport)
      }
    }
    for warning in references.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
    lap("read")
    var options = FormOptions()
    options.metresPerPixel = metresPerPixel
    let result = try FormAnalysis.run(motion: input.motion, venue: input.venue, events: input.events, options: options)
    lap("angles and strokes")
    // angles.csv, mot/ and strokes.json are written on another core while the strokes are scored.
    let page = folder.appendingPathComponent("form.html")
    let json = folder.appendingPathComponent("form.json")
    let comparison = try result.write(to: folder) {
      let comparison = FormComparison(result, references: references)
      lap("scores")
      try AtomicFile.write(FormPage.render(comparison, title: "Form: \(folder.lastPathComponent)"), to: page)
      try FormJSON.data(comparison, axis: result.motion.axis, fps: result.motion.fps).write(to: json, options: .atomic)
      lap("form.html, form.json")
      return comparison
    }
    try OutputFolder.record(["angles.csv", "strokes.json", "mot", page.lastPathComponent, json.lastPathComponent], in: folder)
    lap("angles.csv, mot/, strokes.json (overlapping)")
    if let saveReference, let player {
      let chosen = result.strokes.filter { s in
        s.track == player && (stroke.map { s.number == $0 } ?? (s.kind.rawValue == kind))
      }
      guard
        let saved = StrokeReference.make(
          name: stroke.map { "\(player) stroke \($0)" } ?? "\(player) \(kind ?? "") average", strokes: chosen, result: result,
          sport: input.sport, player: player, origin: stroke == nil ? .average : .stroke,
          source: folder.standardizedFileURL.path)
      else {
        throw CommandFailure("--save-reference: \(player) has no stroke \(stroke.map(String.init) ?? "of kind \(kind ?? "")") with complete angles")
      }
      try OutputFile.check(URL(fileURLWithPath: saveReference), option: "--save-reference", inputs: inputs) { _ in true }
      try saved.write(to: URL(fileURLWithPath: saveReference))
      print("saved reference \(saved.name) (\(saved.kind.rawValue), \(saved.sources.count) strokes) → \(saveReference)")
    }
    print(comparison.summary)
    print("wrote angles.csv, strokes.json, mot/, form.html, form.json in \(folder.path)")
    print("took \(String(format: "%.2f", Date().timeIntervalSince(started))) s (\(laps.joined(separator: ", ")))")
  }
}
