import Foundation
import GRDB
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO

/// The session store: one SQLite file of reconstructed matches (default `~/.matchscene/sessions.sqlite`).
///
/// Built on GRDB (github.com/groue/GRDB.swift) rather than a hand-made libsqlite3 target for three things
/// it does right: schema steps registered by name with `DatabaseMigrator` (and a newer file recognised by
/// the steps it holds), a `DatabasePool` in WAL mode so `list`/`compare` read beside a writer, and `write`
/// blocks that are one transaction each — a session is stored whole or not at all, also under `kill -9`.
public final class SessionStore: Sendable {
  /// Recorded with each session (the package has no release version yet).
  public static let toolVersion = "matchscene 0.13-dev (session schema \(SessionSchema.version))"

  public let path: String
  /// A `DatabasePool` (WAL) when opened for writing; a read-only connection otherwise.
  let pool: any DatabaseWriter
  /// How the store was opened.
  public let access: Access

  /// What the caller will do with the store.
  public enum Access: Sendable {
    /// Add and remove sessions: a missing store is created (exclusively, so two processes creating it at
    /// once both succeed) and an older schema brought up to date.
    case readWrite
    /// List, show, compare, export: nothing is created or written; a store on a read-only mount or in a
    /// file without write permission can be read.
    case readOnly
  }

  /// `~/.matchscene/sessions.sqlite`.
  public static var defaultPath: String {
    FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".matchscene/sessions.sqlite").path
  }

  /// Opens the store at `path`: for `.readWrite`, creating it if needed and bringing its schema up to date;
  /// for `.readOnly`, without writing a byte (a store of an older schema is read as it is).
  /// - Throws: `SessionStoreError.newerSchema` — before writing anything — when the file was written by a
  ///   newer MatchScene; `SessionStoreError.noStore` for `.readOnly` when there is no file; `InputError`
  ///   naming `path` when it is a folder, is not a SQLite file, cannot be created (a full disk says so) or
  ///   is read-only for `.readWrite`.
  public init(path: String = SessionStore.defaultPath, access: Access = .readWrite) throws {
    self.path = path
    self.access = access
    do {
      try Self.checkNotFolder(path)
      switch access {
      case .readOnly:
        pool = try Self.openReadOnly(path)
      case .readWrite:
        if !FileManager.default.fileExists(atPath: path) { try Self.createExclusively(path) }
        // Read-only first: a newer file is refused without a byte written to it.
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(10)
        let probe = try DatabaseQueue(path: path, configuration: readOnly)
        try probe.read { try SessionSchema.checkNotNewer($0, file: path) }
        try probe.close()
        var config = Configuration()
        config.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: config)
        try Self.migrate(pool, path: path)
      }
    } catch let error as SessionStoreError {
      throw error
    } catch let error as DatabaseError {
      throw Self.failure(error, path: path)
    }
  }

  // MARK: - Adding

  /// What `add` takes besides the output folder.
  public struct AddOptions: Sendable {
    /// Default: the output folder's name (its parent's when it is called `out`).
    public var name: String?
    /// `yyyy-MM-dd`; default: today (UTC).
    public var date: String?
    public var place: String?
    /// Track → name; overrides report.json's `playerNames`.
    public var players: [String: String] = [:]
    public var matcher = PlayerMatcher()
    public init() {}
  }

  /// What `add` did.
  public struct AddResult: Sendable {
    public var id: Int64
    public var players: [String: String?]
    /// Known players whose limb lengths fit the unnamed ones (one known player for at most one track).
    public var suggestions: [PlayerSuggestion]
    /// Names given to tracks whose limb lengths contradict that name's stored ones.
    public var disagreements: [NameDisagreement] = []
  }

  /// Stores a session in one transaction.
  /// - Throws: `SessionStoreError.duplicate` when a session with the same input hash is stored already;
  ///   `InputError` naming the folder when `options.players` names a track that is not a player.
  @discardableResult
  public func add(_ input: SessionInput, options: AddOptions = .init()) throws -> AddResult {
    let motion = input.motion
    let frames = motion.frames ?? 0...0
    var players: [String: String?] = [:]
    var proportions: [String: BodyProportions] = [:]
    for t in motion.playerTracks {
      let id = motion.tracks[t].id
      let playerName: String? = options.players[id] ?? input.playerNames[id]
      players[id] = .some(playerName)
      proportions[id] = BodyProportions(track: t, of: motion)
    }
    for track in options.players.keys.sorted() where players[track] == nil {
      throw InputError(
        file: input.source.path,
        "--player \(track)=…: no player track \(track) in tracks.csv (players: \(players.keys.sorted().joined(separator: ", ")))")
    }
    let blobs = motion.tracks.map { TrackCodec.encode($0) }
    let score = Self.finalScore(motion: motion, events: input.events, venue: input.venue)
    let name = options.name ?? Self.defaultName(input.source)
    let date = options.date ?? Self.day(Date())
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let skeleton = try encoder.encode(SkeletonRecord(motion.skeleton))
    let venue = try input.venue.map { try encoder.encode(VenueRecord($0)) }
    let scoreJSON = try score.map { try encoder.encode($0) }
    let proportionsJSON = try proportions.mapValues { try encoder.encode($0.boneLengths) }
    let sigmasJSON = try proportions.mapValues { try encoder.encode($0.boneSigmas) }

    return try mappingErrors { try pool.write { db in
      if let existing = try Row.fetchOne(
        db, sql: "SELECT id, name FROM session WHERE inputHash = ?", arguments: [input.inputHash])
      {
        throw SessionStoreError.duplicate(existing: existing["id"], name: existing["name"], hash: input.inputHash)
      }
      let known = try Self.knownPlayers(db)
      try db.execute(
        sql: """
          INSERT INTO session (name, date, place, sport, fps, toolVersion, inputHash, source, skeleton, venue,
            firstFrame, frameCount, score, addedAt) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
          """,
        arguments: [
          name, date, options.place, input.sport, motion.fps, Self.toolVersion, input.inputHash,
          input.source.standardizedFileURL.path, String(decoding: skeleton, as: UTF8.self),
          venue.map { String(decoding: $0, as: UTF8.self) }, frames.lowerBound, frames.count,
          scoreJSON.map { String(decoding: $0, as: UTF8.self) }, ISO8601DateFormatter().string(from: Date()),
        ])
      let id = db.lastInsertedRowID
      for (track, playerName) in players {
        try db.execute(
          sql: "INSERT INTO player (sessionId, track, name, boneLengths, boneSigmas) VALUES (?,?,?,?,?)",
          arguments: [
            id, track, playerName, String(decoding: proportionsJSON[track]!, as: UTF8.self),
            String(decoding: sigmasJSON[track]!, as: UTF8.self),
          ])
      }
      for (ordinal, track) in motion.tracks.enumerated() {
        try db.execute(
          sql: """
            INSERT INTO track (sessionId, ordinal, trackId, kind, jointCount, firstFrame, frameCount, encoding, samples)
            VALUES (?,?,?,?,?,?,?,?,?)
            """,
          arguments: [
            id, ordinal, track.id, track.kind.rawValue, track.jointCount, track.firstFrame, track.frameCount,
            TrackCodec.encoding, blobs[ordinal],
          ])
      }
      for (ordinal, e) in input.events.enumerated() {
        let p = e.position
        try db.execute(
          sql: """
            INSERT INTO event (sessionId, ordinal, type, frame, time, track, x, y, z, speed, surface, side, rally, story)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """,
          arguments: [
            id, ordinal, e.type.rawValue, e.frame, e.time, e.track, p?.x, p?.y, p?.z, e.speed, e.surface?.rawValue,
            e.side?.rawValue, e.rally, try EventStory(e).json,
          ])
      }
      for (docName, content) in input.documents {
        try db.execute(
          sql: "INSERT INTO document (sessionId, name, content) VALUES (?,?,?)", arguments: [id, docName, content])
      }
      let named = players.compactMapValues { $0 }
      let unnamed = proportions.filter { named[$0.key] == nil }
      let suggestions = options.matcher.suggest(tracks: unnamed, known: known, taken: Set(named.values))
      let disagreements = named.keys.sorted().compactMap { track in
        options.matcher.check(track: track, name: named[track]!, proportions: proportions[track]!, known: known)
      }
      return AddResult(id: id, players: players, suggestions: suggestions, disagreements: disagreements)
    } }
  }

  /// Every named player's bone lengths, the median over their sessions (`BodyProportions.median`);
  /// `excluding` leaves one session's players out.
  static func knownPlayers(_ db: Database, excluding session: Int64? = nil) throws -> [String: BodyProportions] {
    var all: [String: [BodyProportions]] = [:]
    for row in try Row.fetchAll(
      db, sql: "SELECT * FROM player WHERE name IS NOT NULL AND sessionId IS NOT ?", arguments: [session])
    {
      all[row["name"], default: []].append(try proportions(row))
    }
    return all.mapValues { BodyProportions.median($0) }
  }

  /// A `player` row's proportions (σ empty when the row or the store predates them).
  static func proportions(_ row: Row) throws -> BodyProportions {
    let decoder = JSONDecoder()
    let lengths = try decoder.decode([String: Double].self, from: Data((row["boneLengths"] as String).utf8))
    let sigmas = try (row["boneSigmas"] as String?).map { try decoder.decode([String: Double].self, from: Data($0.utf8)) }
    return BodyProportions(boneLengths: lengths, boneSigmas: sigmas ?? [:])
  }

  /// The points of each player after the last rally (`Scoreboard`, in the venue frame), nil without rallies.
  static func finalScore(motion: MotionModel, events: [MatchEvent], venue: VenueFrame?) -> [String: Int]? {
    guard events.contains(where: { $0.type == .rallyEnd }) else { return nil }
    let venueMotion = venue.map { motion.transformed(by: $0.venueFromWorld) } ?? motion
    return Scoreboard.compute(events, sides: Scoreboard.sides(of: venueMotion)).last?.score
  }

  static func defaultName(_ folder: URL) -> String {
    let last = folder.standardizedFileURL.lastPathComponent
    return last == "out" ? folder.standardizedFileURL.deletingLastPathComponent().lastPathComponent : last
  }

  static func day(_ date: Date) -> String {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "yyyy-MM-dd"
    return f.string(from: date)
  }
}
