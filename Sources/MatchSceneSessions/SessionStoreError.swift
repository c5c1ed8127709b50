/// Why the session store could not do what was asked; each case names the file or session.
public enum SessionStoreError: Error, CustomStringConvertible, Equatable {
  /// The store was written by a newer MatchScene: its schema has steps this build does not know.
  case newerSchema(file: String, unknownMigrations: [String])
  /// No store at this path (a reading command creates none).
  case noStore(file: String)
  /// No session with this id.
  case noSuchSession(file: String, id: Int64)
  /// The output folder holds the same files as a session already stored.
  case duplicate(existing: Int64, name: String, hash: String)
  /// A session to compare has no such player (or player track).
  case playerMissing(file: String, session: Int64, player: String, known: String)
  /// Two rallies that cannot be overlaid (no such rally, different frame rates or skeletons).
  case cannotOverlay(String)
  /// Stored bytes that cannot be read back.
  case corrupt(String)

  public var description: String {
    switch self {
    case .newerSchema(let file, let unknown):
      "\(file): the session store was written by a newer MatchScene (schema steps \(unknown.joined(separator: ", ")) "
        + "unknown to this build); it was left untouched — open it with that version or newer"
    case .noStore(let file):
      "\(file): no session store here (nothing was created; `matchscene sessions add <output>` creates one)"
    case .noSuchSession(let file, let id):
      "\(file): no session \(id) (see `matchscene sessions list`)"
    case .duplicate(let existing, let name, let hash):
      "this output is already stored as session \(existing) '\(name)' (same files, SHA-256 \(hash.prefix(12))…)"
    case .playerMissing(let file, let session, let player, let known):
      "\(file): session \(session) has no player \(player) (it has \(known))"
    case .cannotOverlay(let why):
      "cannot overlay the rallies: \(why)"
    case .corrupt(let what):
      "the session store holds unreadable data: \(what)"
    }
  }
}
