import Foundation
import GRDB
import MatchSceneCore

/// A stroke reference kept in the store (its JSON whole, as `matchscene form --save-reference` writes it).
public struct StoredReference: Sendable, Equatable {
  public var name: String
  public var kind: String
  public var hand: String
  public var sport: String?
  public var player: String?
  public var source: String?
  public var content: Data
  public var addedAt: String

  public init(name: String, kind: String, hand: String, sport: String?, player: String?, source: String?, content: Data, addedAt: String = "") {
    self.name = name
    self.kind = kind
    self.hand = hand
    self.sport = sport
    self.player = player
    self.source = source
    self.content = content
    self.addedAt = addedAt
  }

  init(_ row: Row) {
    self.init(
      name: row["name"], kind: row["kind"], hand: row["hand"], sport: row["sport"], player: row["player"], source: row["source"],
      content: row["content"], addedAt: row["addedAt"])
  }
}

extension SessionStore {
  /// Stores `reference` under its name, in one transaction.
  /// - Throws: `InputError` naming the store when a reference of that name is stored already and
  ///   `replace` is false.
  public func saveReference(_ reference: StoredReference, replace: Bool = false) throws {
    try mappingErrors {
      try pool.write { db in
        if !replace, try Int.fetchOne(db, sql: "SELECT 1 FROM reference WHERE name = ?", arguments: [reference.name]) != nil {
          throw InputError(file: path, "a reference named \(reference.name.debugDescription) is stored already; choose another name or replace it")
        }
        try db.execute(
          sql: "INSERT OR REPLACE INTO reference (name, kind, hand, sport, player, source, content, addedAt) VALUES (?,?,?,?,?,?,?,?)",
          arguments: [
            reference.name, reference.kind, reference.hand, reference.sport, reference.player, reference.source, reference.content,
            ISO8601DateFormatter().string(from: Date()),
          ])
      }
    }
  }

  /// Every stored reference, by name; empty for a store of a schema before references.
  public func references() throws -> [StoredReference] {
    try reading { db in
      guard try db.tableExists("reference") else { return [] }
      return try Row.fetchAll(db, sql: "SELECT * FROM reference ORDER BY name").map(StoredReference.init)
    }
  }

  /// The reference called `name`.
  /// - Throws: `InputError` naming the store and the stored names when there is none.
  public func reference(named name: String) throws -> StoredReference {
    let all = try references()
    guard let found = all.first(where: { $0.name == name }) else {
      let names = all.map(\.name)
      throw InputError(
        file: path, "no stored reference \(name.debugDescription) (stored: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
    }
    return found
  }

  /// Deletes the reference called `name`.
  public func removeReference(named name: String) throws {
    try mappingErrors {
      try pool.write { db in
        try db.execute(sql: "DELETE FROM reference WHERE name = ?", arguments: [name])
        if db.changesCount == 0 { throw InputError(file: path, "no stored reference \(name.debugDescription)") }
      }
    }
  }
}
