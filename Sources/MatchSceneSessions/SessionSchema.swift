import Foundation
import GRDB

/// The store's schema, one named step per change, applied by GRDB's `DatabaseMigrator`
/// (github.com/groue/GRDB.swift, Documentation/Migrations.md): a step, once released, is never edited; a
/// change is a new step. A file holding steps this build does not know was written by a newer MatchScene and
/// is refused before anything is written to it (`SessionStoreError.newerSchema`).
enum SessionSchema {
  /// `PRAGMA user_version` after the last step: readable by `sqlite3` without GRDB.
  static let version = 4

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1-sessions") { db in
      try db.create(table: "session") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("name", .text).notNull()
        t.column("date", .text).notNull()  // ISO 8601 day of the match, yyyy-MM-dd
        t.column("place", .text)
        t.column("sport", .text).notNull()
        t.column("fps", .double).notNull()
        t.column("toolVersion", .text).notNull()
        t.column("inputHash", .text).notNull().unique()  // SHA-256 of the output folder's files
        t.column("source", .text).notNull()  // the output folder added
        t.column("skeleton", .text).notNull()  // JSON: name, keypoints, bones
        t.column("venue", .text)  // JSON: up, origin, longAxis (world) and source
        t.column("firstFrame", .integer).notNull()
        t.column("frameCount", .integer).notNull()
        t.column("score", .text)  // JSON: final points per track
        t.column("addedAt", .text).notNull()
      }
      try db.create(table: "player") { t in
        t.column("sessionId", .integer).notNull().references("session", onDelete: .cascade)
        t.column("track", .text).notNull()
        t.column("name", .text)
        t.column("boneLengths", .text).notNull()  // JSON: bone "a-b" → median metres
        t.primaryKey(["sessionId", "track"])
      }
      try db.create(index: "player_name", on: "player", columns: ["name"])
      try db.create(table: "track") { t in
        t.column("sessionId", .integer).notNull().references("session", onDelete: .cascade)
        t.column("ordinal", .integer).notNull()
        t.column("trackId", .text).notNull()
        t.column("kind", .text).notNull()
        t.column("jointCount", .integer).notNull()
        t.column("firstFrame", .integer).notNull()
        t.column("frameCount", .integer).notNull()
        t.column("encoding", .text).notNull()
        t.column("samples", .blob).notNull()
        t.primaryKey(["sessionId", "ordinal"])
      }
      try db.create(table: "event") { t in
        t.column("sessionId", .integer).notNull().references("session", onDelete: .cascade)
        t.column("ordinal", .integer).notNull()
        t.column("type", .text).notNull()
        t.column("frame", .integer).notNull()
        t.column("time", .double).notNull()
        t.column("track", .text)
        t.column("x", .double)
        t.column("y", .double)
        t.column("z", .double)
        t.column("speed", .double)
        t.column("surface", .text)
        t.column("side", .text)
        t.column("rally", .integer)
        t.primaryKey(["sessionId", "ordinal"])
      }
      // Files kept whole: report.json, and strokes.json / angles.csv when the output has them.
      try db.create(table: "document") { t in
        t.column("sessionId", .integer).notNull().references("session", onDelete: .cascade)
        t.column("name", .text).notNull()
        t.column("content", .blob).notNull()
        t.primaryKey(["sessionId", "name"])
      }
      try db.execute(sql: "PRAGMA user_version = 1")
    }
    // The match's story: an event's optional fields beyond v1's columns (reason, score,
    // games, server, hand, zone, joint, duration), as a JSON object; NULL when it has none.
    migrator.registerMigration("v2-event-story") { db in
      try db.alter(table: "event") { t in t.add(column: "story", .text) }
      try db.execute(sql: "PRAGMA user_version = 2")
    }
    // How well each session measured a player's bones: JSON bone "a-b" → σ of its median length, metres
    // (`BodyMeasurementModel`); NULL for players stored before (a default σ is used).
    migrator.registerMigration("v3-player-sigmas") { db in
      try db.alter(table: "player") { t in t.add(column: "boneSigmas", .text) }
      try db.execute(sql: "PRAGMA user_version = 3")
    }
    // The reference library: stroke references (`matchscene form --save-reference` JSON, kept whole) by
    // name, with the fields they are looked up and checked by.
    migrator.registerMigration("v4-references") { db in
      try db.create(table: "reference") { t in
        t.column("name", .text).primaryKey()
        t.column("kind", .text).notNull()
        t.column("hand", .text).notNull()
        t.column("sport", .text)
        t.column("player", .text)
        t.column("source", .text)
        t.column("content", .blob).notNull()  // the reference's JSON
        t.column("addedAt", .text).notNull()
      }
      try db.execute(sql: "PRAGMA user_version = 4")
    }
    return migrator
  }

  /// Whether `player.boneSigmas` exists: a store of an older schema opened read-only is read as it is.
  static func hasBoneSigmas(_ db: Database) throws -> Bool {
    try db.columns(in: "player").contains { $0.name == "boneSigmas" }
  }

  /// Throws `SessionStoreError.newerSchema` when `db` holds schema steps this build does not know.
  static func checkNotNewer(_ db: Database, file: String) throws {
    let migrator = migrator
    let applied = try migrator.appliedIdentifiers(db)
    let unknown = applied.subtracting(migrator.migrations).sorted()
    let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    if !unknown.isEmpty || userVersion > version {
      throw SessionStoreError.newerSchema(
        file: file, unknownMigrations: unknown.isEmpty ? ["user_version \(userVersion)"] : unknown)
    }
  }
}
