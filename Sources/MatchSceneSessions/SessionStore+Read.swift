import Foundation
import GRDB
import MatchSceneCore
import MatchSceneIO

extension SessionStore {
  /// Every session, by date then id.
  public func list() throws -> [SessionSummary] {
    try reading { db in
      try Row.fetchAll(db, sql: "SELECT * FROM session ORDER BY date, id").map { try Self.summary($0, db) }
    }
  }

  /// One session's metadata.
  /// - Throws: `SessionStoreError.noSuchSession`.
  public func summary(_ id: Int64) throws -> SessionSummary {
    try reading { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [id]) else {
        throw SessionStoreError.noSuchSession(file: path, id: id)
      }
      return try Self.summary(row, db)
    }
  }

  /// The ids of the sessions the player named `name` played in, the latest `last` (by date), oldest first.
  public func sessions(ofPlayer name: String, last: Int = .max) throws -> [Int64] {
    try reading { db in
      try Int64.fetchAll(
        db,
        sql: """
          SELECT s.id FROM session s JOIN player p ON p.sessionId = s.id WHERE p.name = ?
          ORDER BY s.date DESC, s.id DESC LIMIT ?
          """, arguments: [name, last == .max ? -1 : last])
    }.reversed()
  }

  /// One session read back whole (its tracks decoded; only those in `tracks` when given).
  /// - Throws: `SessionStoreError.noSuchSession`, `.corrupt`.
  public func load(_ id: Int64, tracks only: Set<String>? = nil) throws -> StoredSession {
    try reading { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [id]) else {
        throw SessionStoreError.noSuchSession(file: path, id: id)
      }
      let summary = try Self.summary(row, db)
      let decoder = JSONDecoder()
      let skeleton = try decoder.decode(SkeletonRecord.self, from: Data((row["skeleton"] as String).utf8)).skeleton
      let venue = try (row["venue"] as String?).map {
        try decoder.decode(VenueRecord.self, from: Data($0.utf8)).venue
      } ?? nil
      let first: Int = row["firstFrame"], count: Int = row["frameCount"]
      var motion = MotionModel(
        fps: summary.fps, skeleton: skeleton, frames: count > 0 ? first...(first + count - 1) : nil)
      for t in try Row.fetchAll(db, sql: "SELECT * FROM track WHERE sessionId = ? ORDER BY ordinal", arguments: [id]) {
        guard (t["encoding"] as String) == TrackCodec.encoding else {
          throw SessionStoreError.corrupt("session \(id): unknown track encoding \(t["encoding"] as String)")
        }
        if let only, !only.contains(t["trackId"]) { continue }
        let tFirst: Int = t["firstFrame"], tCount: Int = t["frameCount"]
        var track = MotionTrack(
          id: t["trackId"], kind: TrackKind(rawValue: t["kind"]) ?? .person, jointCount: t["jointCount"],
          frames: tFirst...(tFirst + tCount - 1))
        try TrackCodec.decode(t["samples"], into: &track)
        motion.tracks.append(track)
      }
      var events: [MatchEvent] = []
      for e in try Row.fetchAll(db, sql: "SELECT * FROM event WHERE sessionId = ? ORDER BY ordinal", arguments: [id]) {
        guard let kind = MatchEvent.Kind(rawValue: e["type"]) else {
          throw SessionStoreError.corrupt("session \(id): unknown event type \(e["type"] as String)")
        }
        let x: Double? = e["x"], y: Double? = e["y"], z: Double? = e["z"]
        var event = MatchEvent(
          type: kind, frame: e["frame"], time: e["time"], track: e["track"],
          position: x.flatMap { x in y.flatMap { y in z.map { SIMD3(x, y, $0) } } }, speed: e["speed"],
          surface: (e["surface"] as String?).flatMap(BounceSurface.init(rawValue:)),
          side: (e["side"] as String?).flatMap(TableSide.init(rawValue:)), rally: e["rally"])
        if let story: String = e["story"] {
          do { try decoder.decode(EventStory.self, from: Data(story.utf8)).apply(to: &event) } catch {
            throw SessionStoreError.corrupt("session \(id): event \(e["ordinal"] as Int): story is not JSON: \(error)")
          }
        }
        events.append(event)
      }
      var documents: [String: Data] = [:]
      for d in try Row.fetchAll(db, sql: "SELECT name, content FROM document WHERE sessionId = ?", arguments: [id]) {
        documents[d["name"]] = d["content"]
      }
      var proportions: [String: BodyProportions] = [:]
      for p in try Row.fetchAll(db, sql: "SELECT * FROM player WHERE sessionId = ?", arguments: [id]) {
        proportions[p["track"]] = try Self.proportions(p)
      }
      return StoredSession(
        summary: summary, motion: motion, events: events, venue: venue, documents: documents, proportions: proportions)
    }
  }

  /// Deletes a session (its players, tracks, events and documents with it) in one transaction.
  /// - Throws: `SessionStoreError.noSuchSession`.
  public func remove(_ id: Int64) throws {
    try mappingErrors {
      try pool.write { db in
        try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
        if db.changesCount == 0 { throw SessionStoreError.noSuchSession(file: path, id: id) }
      }
    }
  }

  /// Writes a session back as an output folder (`MatchOutput`): its tracks, events and the documents kept
  /// whole (`SessionInput.documentFiles`), the folder written whole (`OutputFolder.replace`). Only that fixed
  /// set of files is written: a stored document of any other name (a store edited by hand, `../x.sh`) is
  /// refused before anything is written. The store itself may not lie in `folder`.
  public func export(_ id: Int64, to folder: URL, force: Bool = false) throws {
    let session = try load(id)
    let allowed = Set(SessionInput.documentNames)
    if let odd = session.documents.keys.sorted().first(where: { !allowed.contains($0) }) {
      throw InputError(
        file: path,
        "session \(id) holds a document named \(odd.debugDescription); expected only \(SessionInput.documentNames.joined(separator: ", ")) — nothing exported")
    }
    try OutputFolder.replace(
      folder, force: force, marker: "matchscene sessions export \(id)\n", inputs: [URL(fileURLWithPath: path)]
    ) { staging in
      try MatchOutput.writeTracks(session.motion, in: staging)
      try MatchOutput.writeEvents(session.events, in: staging)
      for (name, content) in session.documents {
        let url = staging.appendingPathComponent(name)
        try OutputFolder.checkInside(url, folder: staging)
        try AtomicFile.write(content, to: url)
      }
    }
  }

  static func summary(_ row: Row, _ db: Database) throws -> SessionSummary {
    let id: Int64 = row["id"]
    var players: [String: String?] = [:]
    for p in try Row.fetchAll(db, sql: "SELECT track, name FROM player WHERE sessionId = ?", arguments: [id]) {
      players[p["track"]] = .some(p["name"])
    }
    let score = try (row["score"] as String?).map { try JSONDecoder().decode([String: Int].self, from: Data($0.utf8)) }
    return SessionSummary(
      id: id, name: row["name"], date: row["date"], place: row["place"], sport: row["sport"], fps: row["fps"],
      toolVersion: row["toolVersion"], inputHash: row["inputHash"], source: row["source"],
      firstFrame: row["firstFrame"], frameCount: row["frameCount"], players: players, score: score,
      addedAt: row["addedAt"])
  }
}
