import Foundation
import GRDB
import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SessionStore {
  /// Refuses a folder given as the store, before SQLite says "unable to open database file".
  static func checkNotFolder(_ path: String) throws {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw InputError(
        file: path,
        "is a folder; expected the session store's file (a SQLite file such as \(URL(fileURLWithPath: path).appendingPathComponent("sessions.sqlite").path))")
    }
  }

  /// Creates a new store at `path` so that any number of processes may do it at once: the schema is
  /// written to a private file beside it (WAL mode set first, then every schema step), which is then
  /// hard-linked to `path` — `link(2)` never replaces an existing file, so when another process got there
  /// first its store is kept, ours discarded, and both open the same store. The private file is removed
  /// in every case.
  static func createExclusively(_ path: String) throws {
    let fm = FileManager.default
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    do {
      try fm.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw InputError(
        file: path, "cannot create the session store's folder \(folder.path): \(Self.reason(error, folder: folder.path))")
    }
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).creating-\(getpid())-\(UUID().uuidString.prefix(8))").path
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
    }
    do {
      let queue = try DatabaseQueue(path: temporary)
      try queue.writeWithoutTransaction { db in
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
      }
      try SessionSchema.migrator.migrate(queue)
      try queue.close()
    } catch let error as DatabaseError {
      throw failure(error, path: path)
    }
    if link(temporary, path) == 0 { return }
    let code = errno
    if code == EEXIST { return }  // another process created it first: use theirs
    if code == EPERM || code == ENOTSUP || code == EOPNOTSUPP {
      // A file system without hard links (FAT, some network shares): rename, which does not check again
      // that nobody created the store meanwhile.
      guard !fm.fileExists(atPath: path) else { return }
      if rename(temporary, path) == 0 { return }
    }
    throw InputError(file: path, "cannot create the session store: \(String(cString: strerror(code)))")
  }

  /// Brings the schema up to date. Two processes may both find a step missing; the one that applies it
  /// second fails, finds the store up to date, and goes on.
  static func migrate(_ writer: any DatabaseWriter, path: String) throws {
    let migrator = SessionSchema.migrator
    // Readers do not wait for a writer (WAL): the schema is checked by reading, and written only when a
    // step is missing.
    let upToDate = try writer.read { db in
      try SessionSchema.checkNotNewer(db, file: path)
      return try migrator.hasCompletedMigrations(db)
    }
    guard !upToDate else { return }
    do {
      try migrator.migrate(writer)
    } catch {
      if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
      throw error
    }
  }

  /// A read-only connection to the existing store at `path`; nothing is created or written.
  ///
  /// A WAL-mode file can be read in place only when its `-shm` index exists or can be created (SQLite,
  /// "Write-Ahead Logging" §"Read-Only Databases"); on a read-only mount it cannot, so the file is then
  /// opened as `immutable` (a URI parameter, SQLite "URI Filenames"): read without locks, as it is.
  static func openReadOnly(_ path: String) throws -> DatabaseQueue {
    guard FileManager.default.fileExists(atPath: path) else { throw SessionStoreError.noStore(file: path) }
    var config = Configuration()
    config.readonly = true
    config.busyMode = .timeout(10)
    do {
      let queue = try DatabaseQueue(path: path, configuration: config)
      try queue.read { try SessionSchema.checkNotNewer($0, file: path) }
      return queue
    } catch let error as DatabaseError
      where [.SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_PERM].contains(error.resultCode)
    {
      let queue = try DatabaseQueue(path: immutableURI(path), configuration: config)
      try queue.read { try SessionSchema.checkNotNewer($0, file: path) }
      return queue
    }
  }

  /// `file:<path>?immutable=1`, the path's `%`, `?` and `#` percent-encoded (SQLite "URI Filenames" §3.1).
  static func immutableURI(_ path: String) -> String {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    var encoded = ""
    for c in absolute.unicodeScalars {
      switch c {
      case "%": encoded += "%25"
      case "?": encoded += "%3f"
      case "#": encoded += "%23"
      default: encoded.unicodeScalars.append(c)
      }
    }
    return "file:\(encoded)?immutable=1"
  }

  /// Runs a store operation, turning SQLite's errors into `InputError`s that say what happened to the
  /// store (`failure`).
  func mappingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw Self.failure(error, path: path)
    }
  }

  /// `pool.read`, SQLite's errors in words (`failure`).
  func reading<T>(_ body: (Database) throws -> T) throws -> T {
    try mappingErrors { try pool.read(body) }
  }

  /// What went wrong with the store at `path`, in words: a full disk, a read-only store, a busy store, a
  /// file that is not a store — rather than SQLite's "disk I/O error".
  static func failure(_ error: DatabaseError, path: String) -> InputError {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let sqlite = error.message ?? "\(error)"
    let free = freeBytes(folder)
    let nearlyFull = free.map { $0 < 1 << 20 } ?? false
    if [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR].contains(error.resultCode), !isWritable(path) {
      return InputError(file: path, readOnly)
    }
    switch error.resultCode {
    case .SQLITE_FULL:
      return InputError(file: path, diskFull(folder: folder, free: free))
    case .SQLITE_IOERR where nearlyFull:
      return InputError(file: path, diskFull(folder: folder, free: free))
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      return InputError(
        file: path, "not a session store (expected a SQLite file written by `matchscene sessions add`): \(sqlite)")
    case .SQLITE_READONLY:
      return InputError(file: path, readOnly)
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return InputError(file: path, "the session store stayed locked for 10 s by another process writing to it; try again: \(sqlite)")
    case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
      return InputError(file: path, "cannot open the session store (no permission, or its folder is missing): \(sqlite)")
    default:
      return InputError(file: path, "the session store failed: \(sqlite)")
    }
  }

  static let readOnly =
    "the session store is read-only (a read-only file system, or no write permission on the file or its folder): "
    + "`sessions list`, `sessions show`, `sessions export` and `compare` can read it; adding or removing sessions needs write access"

  /// Whether the store (when it exists) and its folder can be written (`access(2)`, which also reports a
  /// read-only file system to root).
  static func isWritable(_ path: String) -> Bool {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    if FileManager.default.fileExists(atPath: path), Glibc.access(path, W_OK) != 0 { return false }
    return !FileManager.default.fileExists(atPath: folder) || Glibc.access(folder, W_OK) == 0
  }

  static func diskFull(folder: String, free: Int64?) -> String {
    "the disk is full (\(free.map { "\($0 / 1024) KB" } ?? "no space") free in \(folder)): the store was left as it was; free some space and run again"
  }

  /// Bytes free to an unprivileged user on the file system holding `folder` (its nearest existing
  /// ancestor), nil when unknown.
  static func freeBytes(_ folder: String) -> Int64? {
    var url = URL(fileURLWithPath: folder)
    while !FileManager.default.fileExists(atPath: url.path) && url.path != "/" { url.deleteLastPathComponent() }
    var s = statvfs()
    guard statvfs(url.path, &s) == 0 else { return nil }
    return Int64(s.f_bavail) * Int64(s.f_frsize)
  }

  /// A Foundation error's reason, naming a full disk as such.
  static func reason(_ error: any Error, folder: String) -> String {
    let ns = error as NSError
    let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
    if ns.code == NSFileWriteOutOfSpaceError || underlying?.code == Int(ENOSPC) || ns.code == Int(ENOSPC) {
      return diskFull(folder: folder, free: freeBytes(folder))
    }
    return error.localizedDescription
  }
}
