import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneSessions

/// `--store`, shared by `sessions` and `compare`.
struct StoreOptions: ParsableArguments {
  @Option(help: "The session store (default ~/.matchscene/sessions.sqlite).")
  var store: String?

  var path: String { store ?? SessionStore.defaultPath }

  /// Runs `body` on the store opened for `access` (reading commands open it read-only and never create
  /// it); the store's errors become a failure message without usage text.
  func withStore<T>(_ access: SessionStore.Access, _ body: (SessionStore) throws -> T) throws -> T {
    do {
      return try body(try SessionStore(path: path, access: access))
    } catch let error as SessionStoreError {
      throw CommandFailure(error.description)
    }
  }
}

/// `matchscene sessions`: the store of reconstructed matches.
struct Sessions: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Keep reconstructed matches in a session store (SQLite) to compare them later.",
    subcommands: [
      SessionsAdd.self, SessionsList.self, SessionsShow.self, SessionsName.self, SessionsRemove.self, SessionsExport.self,
      SessionsReference.self,
    ])
}

/// `matchscene sessions add <out>`.
struct SessionsAdd: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Store an output folder of `matchscene reconstruct` as a session.")

  @Argument(help: "The output folder (tracks.csv, events.json, report.json…).")
  var output: String

  @Option(help: "The session's name (default: the folder's name, its parent's when it is called out).")
  var name: String?

  @Option(help: "The day of the match, yyyy-MM-dd (default: today).")
  var date: String?

  @Option(help: "Where it was played.")
  var place: String?

  @Option(name: .customLong("player"), help: "A player's name, TRACK=NAME (e.g. P1=Ana); repeatable. Default: report.json's playerNames.")
  var players: [String] = []

  @OptionGroup var storeOptions: StoreOptions

  func validate() throws {
    for p in players where p.split(separator: "=", maxSplits: 1).count != 2 {
      throw ValidationError("--player: expected TRACK=NAME (e.g. P1=Ana), got '\(p)'")
    }
    var nameOfTrack: [String: String] = [:], trackOfName: [String: String] = [:]
    for p in players {
      let parts = p.split(separator: "=", maxSplits: 1).map(String.init)
      let (track, name) = (parts[0], parts[1])
      if let other = nameOfTrack[track], other != name {
        throw ValidationError("--player: track \(track) is named twice ('\(other)' and '\(name)'); give each track one name")
      }
      if let other = trackOfName[name.lowercased()], other != track {
        throw ValidationError(
          "--player: '\(name)' is given to both \(other) and \(track); one person is one track in a session (name the other track differently)")
      }
      nameOfTrack[track] = name
      trackOfName[name.lowercased()] = track
    }
    if let date, !Self.isDay(date) {
      throw ValidationError("--date: expected yyyy-MM-dd, got '\(date)'")
    }
  }

  /// `yyyy-MM-dd` naming a real day.
  static func isDay(_ text: String) -> Bool {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "yyyy-MM-dd"
    f.isLenient = false
    return text.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil && f.date(from: text).map(f.string) == text
  }

  func run() throws {
    let started = Date()
    let input = try SessionInput.read(outputFolder: URL(fileURLWithPath: output))
    let read = Date()
    var options = SessionStore.AddOptions()
    options.name = name
    options.date = date
    options.place = place
    for p in players {
      let parts = p.split(separator: "=", maxSplits: 1).map(String.init)
      options.players[parts[0]] = parts[1]
    }
    try storeOptions.withStore(.readWrite) { store in
      let result = try store.add(input, options: options)
      let summary = try store.summary(result.id)
      print("added session \(result.id) '\(shown(summary.name))' (\(summary.date), \(String(format: "%.1f", summary.duration)) s, \(shown(summary.playersText)))")
      for s in result.suggestions {
        print(
          "  \(shown(s.track)) looks like \(shown(s.name)): limb lengths within \(String(format: "%.1f", s.rmsDifference * 1000)) mm RMS "
            + "(\(String(format: "%.1f", s.rmsSigmas)) σ), confidence \(String(format: "%.0f", s.confidence * 100)) % "
            + "(someone new \(String(format: "%.0f", s.someoneNew * 100)) %) — name them with "
            + "`matchscene sessions name \(result.id) \(shown(s.track)) \(shown(s.name))`")
      }
      for d in result.disagreements { printWarning(d, session: result.id) }
      print(
        String(
          format: "stored in %.2f s (read and hash %.2f s, encode and write %.2f s): %@",
          Date().timeIntervalSince(started), read.timeIntervalSince(started), Date().timeIntervalSince(read), store.path))
    }
  }
}

/// `matchscene sessions list`.
struct SessionsList: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "List the stored sessions.")
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    // No store yet: nothing to list, and nothing is created.
    guard FileManager.default.fileExists(atPath: storeOptions.path) else {
      print("no sessions in \(storeOptions.path) (no store there yet)")
      return
    }
    let sessions = try storeOptions.withStore(.readOnly) { try $0.list() }
    if sessions.isEmpty { print("no sessions in \(storeOptions.path)") }
    for s in sessions {
      print("\(s.id)\t\(shown(s.date))\t\(shown(s.name))\t\(String(format: "%.1f s", s.duration))\t\(shown(s.playersText))")
    }
  }
}

/// `matchscene sessions show <id>`.
struct SessionsShow: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "show", abstract: "Print one session's metadata.")
  @Argument(help: "The session's id (see `sessions list`).") var id: Int64
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    let s = try storeOptions.withStore(.readOnly) { try $0.summary(id) }
    print("""
        session \(s.id): \(shown(s.name))
          date \(shown(s.date))\(s.place.map { ", place \(shown($0))" } ?? "")
          sport \(shown(s.sport)), \(s.fps) fps, frames \(s.firstFrame)…\(s.firstFrame + s.frameCount - 1) (\(String(format: "%.1f", s.duration)) s)
          players \(shown(s.playersText))
          score \(s.score.map { score in score.keys.sorted().map { "\(shown($0)) \(score[$0]!)" }.joined(separator: " : ") } ?? "not kept")
          from \(shown(s.source)), SHA-256 \(shown(s.inputHash))
          stored \(shown(s.addedAt)) by \(shown(s.toolVersion))
        """)
  }
}

/// `matchscene sessions name <id> <track> <name>`.
struct SessionsName: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "name", abstract: "Name (or rename) a player track of a stored session, e.g. `sessions name 3 P1 Ana`.")
  @Argument(help: "The session's id (see `sessions list`).") var id: Int64
  @Argument(help: "The player track (P1, P2…).") var track: String
  @Argument(help: "The player's name.") var name: String?
  @Flag(help: "Make the track unnamed again.") var clear = false
  @OptionGroup var storeOptions: StoreOptions

  func validate() throws {
    if clear == (name != nil) { throw ValidationError("give either a name or --clear") }
  }

  func run() throws {
    let result = try storeOptions.withStore(.readWrite) { try $0.name(session: id, track: track, as: clear ? nil : name) }
    let was = result.previous.map { "was \(shown($0))" } ?? "was unnamed"
    print("session \(id): \(shown(track)) is now \(name.map(shown) ?? "unnamed") (\(was))")
    if let d = result.disagreement { printWarning(d, session: id) }
  }
}

/// A name given to a track whose limb lengths contradict it, as a warning on standard error.
func printWarning(_ d: NameDisagreement, session: Int64) {
  let message =
    "warning: \(shown(d.track)) is named \(shown(d.name)), but its limb lengths are \(String(format: "%.1f", d.rmsSigmas)) σ "
    + "from \(shown(d.name))'s (RMS over \(d.bones) bones; most: \(shown(d.worstBone)) \(String(format: "%.3f", d.trackLength)) m vs "
    + "\(String(format: "%.3f", d.personLength)) m, \(String(format: "%.1f", d.worstSigmas)) σ); someone new is \(d.log10Odds > 100 ? "over 10^100" : "10^" + String(format: "%.1f", d.log10Odds)) "
    + "times likelier — if the name is wrong: `matchscene sessions name \(session) \(shown(d.track)) NAME`\n"
  FileHandle.standardError.write(Data(message.utf8))
}

/// `matchscene sessions remove <id>`.
struct SessionsRemove: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a session from the store.")
  @Argument(help: "The session's id.") var id: Int64
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    try storeOptions.withStore(.readWrite) { try $0.remove(id) }
    print("removed session \(id)")
  }
}

/// `matchscene sessions export <id> -o <dir>`.
struct SessionsExport: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export", abstract: "Write a session back as tracks.csv, events.json and report.json.")
  @Argument(help: "The session's id.") var id: Int64
  @Option(name: .shortAndLong, help: "The folder to write (written whole).") var output: String
  @Flag(help: "Replace a non-empty folder that MatchScene did not write.") var force = false
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    try storeOptions.withStore(.readOnly) { try $0.export(id, to: URL(fileURLWithPath: output), force: force) }
    print("exported session \(id) to \(output)")
  }
}

/// A stored name as printed: control characters escaped (`TerminalText`), so a name cannot drive the
/// terminal.
func shown(_ text: String) -> String { TerminalText.escaped(text) }
