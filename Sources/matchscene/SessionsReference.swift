import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneForm
import MatchSceneSessions

/// `matchscene sessions reference …`: the stroke references kept in the session store.
struct SessionsReference: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reference", abstract: "Keep stroke references in the session store (save, import, export, list, remove).",
    subcommands: [
      SessionsReferenceSave.self, SessionsReferenceImport.self, SessionsReferenceExport.self, SessionsReferenceList.self,
      SessionsReferenceRemove.self,
    ])
}

/// `sessions reference save <id> --player Ana --kind forehand`: a player's average (or one stroke) of a
/// stored session, kept in the store and optionally written to a file.
struct SessionsReferenceSave: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "save", abstract: "Save a reference from a stored session: a player's average stroke of a kind, or one stroke.")
  @Argument(help: "The session's id (see `sessions list`).") var id: Int64
  @Option(help: "The player: a stored name (Ana) or a track (P1).") var player: String
  @Option(help: "Average every stroke of this kind (serve, forehand, backhand).") var kind: String?
  @Option(help: "Only this stroke (1-based, as in strokes.json).") var stroke: Int?
  @Option(help: "The reference's name in the store (default: `<player> <kind> session <id>`).") var name: String?
  @Option(name: .shortAndLong, help: "Also write the reference to this JSON file.") var output: String?
  @Flag(help: "Replace a stored reference of the same name.") var replace = false
  @OptionGroup var storeOptions: StoreOptions

  func validate() throws {
    guard kind != nil || stroke != nil else { throw ValidationError("give --kind or --stroke") }
    if let kind, StrokeKind(rawValue: kind) == nil { throw ValidationError("--kind must be serve, forehand or backhand, got '\(kind)'") }
  }

  func run() throws {
    if let output { try StrokeReference.checkTarget(URL(fileURLWithPath: output)) }
    let session = try storeOptions.withStore(.readOnly) { try $0.load(id) }
    let track = session.track(ofPlayer: player) ?? player
    guard session.summary.players[track] != nil else {
      throw CommandFailure("\(storeOptions.path): session \(id) has no player \(player) (it has \(session.summary.playersText))")
    }
    let venue = session.venue ?? .assumed(worldUp: SIMD3(0, 0, 1))
    let result = try FormAnalysis.run(motion: session.motion, venue: venue, events: session.events)
    let chosen = result.strokes.filter { s in
      s.track == track && (stroke.map { s.number == $0 } ?? true) && (kind.map { s.kind.rawValue == $0 } ?? true)
    }
    let playerName = session.summary.players[track].flatMap { $0 } ?? track
    let what = stroke.map { "stroke \($0)" } ?? "\(kind ?? "") average"
    let referenceName = name ?? "\(playerName) \(what) session \(id)"
    guard
      let reference = StrokeReference.make(
        name: referenceName, strokes: chosen, result: result, sport: session.summary.sport, player: playerName,
        origin: stroke == nil ? .average : .stroke, source: "session \(id) '\(session.summary.name)' of \(storeOptions.path)")
    else {
      throw CommandFailure("session \(id): \(player) has no \(what) with complete angles")
    }
    let data = try reference.jsonData()
    try storeOptions.withStore(.readWrite) { store in
      try store.saveReference(
        StoredReference(
          name: referenceName, kind: reference.kind.rawValue, hand: reference.hand.rawValue, sport: reference.sport,
          player: reference.player, source: reference.source, content: data), replace: replace)
    }
    if let output { try reference.write(to: URL(fileURLWithPath: output)) }
    print("saved reference \(shown(reference.summary)) in \(storeOptions.path)\(output.map { " and \($0)" } ?? "")")
  }
}

/// `sessions reference import FILE`.
struct SessionsReferenceImport: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "import", abstract: "Keep a reference file in the store.")
  @Argument(help: "A reference JSON (`matchscene form --save-reference`).") var file: String
  @Option(help: "Its name in the store (default: the reference's own).") var name: String?
  @Flag(help: "Replace a stored reference of the same name.") var replace = false
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    let reference = try StrokeReference.read(from: URL(fileURLWithPath: file))
    if !reference.missingFields.isEmpty {
      FileHandle.standardError.write(
        Data("warning: \(file): saved before references carried \(reference.missingFields.joined(separator: ", ")); taken as unknown\n".utf8))
    }
    let stored = StoredReference(
      name: name ?? reference.name, kind: reference.kind.rawValue, hand: reference.hand.rawValue, sport: reference.sport,
      player: reference.player, source: reference.source ?? file, content: try reference.jsonData())
    try storeOptions.withStore(.readWrite) { try $0.saveReference(stored, replace: replace) }
    print("stored reference \(shown(stored.name)) (\(shown(reference.summary))) in \(storeOptions.path)")
  }
}

/// `sessions reference export NAME -o FILE`.
struct SessionsReferenceExport: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "export", abstract: "Write a stored reference to a JSON file.")
  @Argument(help: "The reference's name (see `sessions reference list`).") var name: String
  @Option(name: .shortAndLong, help: "The JSON file to write.") var output: String
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    try StrokeReference.checkTarget(URL(fileURLWithPath: output))
    let stored = try storeOptions.withStore(.readOnly) { try $0.reference(named: name) }
    let reference = try StrokeReference.decode(stored.content, file: "\(storeOptions.path): reference \(name)")
    try reference.write(to: URL(fileURLWithPath: output))
    print("wrote reference \(shown(name)) to \(output)")
  }
}

/// `sessions reference list`.
struct SessionsReferenceList: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "List the stored references.")
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    guard FileManager.default.fileExists(atPath: storeOptions.path) else {
      print("no references in \(storeOptions.path) (no store there yet)")
      return
    }
    let all = try storeOptions.withStore(.readOnly) { try $0.references() }
    if all.isEmpty { print("no references in \(storeOptions.path)") }
    for r in all {
      print(
        [r.name, r.kind, "\(r.hand) hand", r.sport ?? "sport unknown", r.player ?? "player unknown", r.source ?? "source unknown"]
          .map(shown).joined(separator: "\t"))
    }
  }
}

/// `sessions reference remove NAME`.
struct SessionsReferenceRemove: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a stored reference.")
  @Argument(help: "The reference's name.") var name: String
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    try storeOptions.withStore(.readWrite) { try $0.removeReference(named: name) }
    print("removed reference \(shown(name))")
  }
}
