import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output folder written whole: its contents are built in a staging folder beside it and swapped in
/// at the end, so the folder always holds exactly one run's files — a run that fails, or is killed at
/// any moment, leaves the previous contents as they were.
///
/// On Linux the swap is one `renameat2(RENAME_EXCHANGE)` (atomic: at every instant the destination is
/// either the old folder or the new one; Linux 3.15+, glibc 2.28+); elsewhere two renames, with a
/// window of a few microseconds in which the destination is missing. Staging and retired folders
/// (`.NAME.partial-PID-UUID`, `.NAME.old-PID-UUID`) of runs whose process is gone are removed by the
/// next run into the same folder.
public enum OutputFolder {
  /// The file that marks a folder as written by MatchScene (one that may be replaced without `force`).
  public static let markerName = ".matchscene-output"

  /// Builds `destination` anew.
  /// - Parameters:
  ///   - destination: the folder to create or replace.
  ///   - force: replace a non-empty folder even when MatchScene did not write it.
  ///   - replaceable: whether an existing folder's contents may be replaced without `force` (default:
  ///     it holds `markerName`).
  ///   - fill: writes the contents into the staging folder it is given.
  /// - Throws: `InputError` naming `destination` when it exists, is not empty and may not be replaced, or
  ///   cannot be created; whatever `fill` throws (the staging folder is removed then).
  public static func replace(
    _ destination: URL, force: Bool = false, replaceable: ((URL) -> Bool)? = nil, marker: String? = nil,
    fill: (URL) throws -> Void
  ) throws {
    let fm = FileManager.default
    let destination = destination.standardizedFileURL
    let name = destination.lastPathComponent
    let parent = destination.deletingLastPathComponent()
    let exists = try checkDestination(destination, force: force, replaceable: replaceable)
    try createFolders(parent)
    removeStale(beside: destination)
    let tag = "\(getpid())-\(UUID().uuidString)"
    let staging = parent.appendingPathComponent(".\(name).partial-\(tag)")
    guard mkdir(staging.path, 0o755) == 0 else {
      throw InputError(
        file: parent.path, "cannot write the output folder here (creating \(staging.lastPathComponent)): \(String(cString: strerror(errno)))")
    }
    do {
      try fill(staging)
      if let marker { try Data(marker.utf8).write(to: staging.appendingPathComponent(markerName)) }
      if exists {
        let old = parent.appendingPathComponent(".\(name).old-\(tag)")
        try swap(staging, destination, retiringTo: old)
        try? fm.removeItem(at: old)
      } else {
        guard rename(staging.path, destination.path) == 0 else {
          throw InputError(file: destination.path, "cannot move the new output into place: \(String(cString: strerror(errno)))")
        }
      }
    } catch {
      try? fm.removeItem(at: staging)
      throw error
    }
  }

  /// Checks, without writing anything, that `replace` may put a folder at `destination`: it is not a
  /// file, it is empty or may be replaced (`force`, `replaceable`, or it holds `markerName`), and the
  /// nearest folder that exists on its path is a folder this process may write into. Commands call it
  /// before a long run, so a bad `-o` is reported at once rather than after the work.
  /// - Returns: whether `destination` exists.
  /// - Throws: `InputError` naming the path that is in the way and why.
  @discardableResult
  public static func checkDestination(
    _ destination: URL, force: Bool = false, replaceable: ((URL) -> Bool)? = nil
  ) throws -> Bool {
    let fm = FileManager.default
    let destination = destination.standardizedFileURL
    var isFolder: ObjCBool = false
    let exists = fm.fileExists(atPath: destination.path, isDirectory: &isFolder)
    if exists && !isFolder.boolValue {
      throw InputError(file: destination.path, "exists and is not a folder; choose an output folder")
    }
    if exists, !force {
      let contents = (try? fm.contentsOfDirectory(atPath: destination.path)) ?? []
      let mayReplace = replaceable?(destination) ?? contents.contains(markerName)
      if !contents.isEmpty && !mayReplace {
        throw InputError(
          file: destination.path,
          "exists, is not empty and was not written by MatchScene; choose another folder, or pass --force to replace it")
      }
    }
    // The staging folder is created beside `destination`: the nearest existing ancestor of its parent
    // must be a folder we may write into.
    var ancestor = destination.deletingLastPathComponent()
    while !fm.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
      let up = ancestor.deletingLastPathComponent()
      if up.path == ancestor.path { break }
      ancestor = up
    }
    if fm.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw InputError(
          file: ancestor.path, "is a file, not a folder, so the output folder \(destination.path) cannot be created in it")
      }
      guard access(ancestor.path, W_OK | X_OK) == 0 else {
        throw InputError(
          file: ancestor.path,
          "cannot write the output folder \(destination.lastPathComponent) here: \(String(cString: strerror(errno)))")
      }
    }
    return exists
  }

  /// Creates `folder` and its missing parents one by one, so that an error names the exact path and
  /// the system's reason (a file in the way, no permission, a read-only file system).
  static func createFolders(_ folder: URL) throws {
    var missing: [URL] = []
    var url = folder
    var isFolder: ObjCBool = false
    while !FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
      missing.append(url)
      let up = url.deletingLastPathComponent()
      if up.path == url.path { break }
      url = up
    }
    if !isFolder.boolValue && FileManager.default.fileExists(atPath: url.path) {
      throw InputError(file: url.path, "is a file, not a folder, so the output folder \(folder.path) cannot be created in it")
    }
    for url in missing.reversed() where mkdir(url.path, 0o755) != 0 && errno != EEXIST {
      throw InputError(file: url.path, "cannot create the folder: \(String(cString: strerror(errno)))")
    }
  }

  /// Puts `new` at `destination` and the folder that was there at `old`.
  static func swap(_ new: URL, _ destination: URL, retiringTo old: URL) throws {
    if let exchange = renameExchange {
      // After the exchange `new`'s path holds the old contents: move them aside for removal.
      if exchange(AT_FDCWD, new.path, AT_FDCWD, destination.path, 2 /* RENAME_EXCHANGE */) == 0 {
        guard rename(new.path, old.path) == 0 else {
          throw InputError(file: old.path, "cannot retire the previous output: \(String(cString: strerror(errno)))")
        }
        return
      }
    }
    guard rename(destination.path, old.path) == 0 else {
      throw InputError(file: destination.path, "cannot replace the previous output: \(String(cString: strerror(errno)))")
    }
    guard rename(new.path, destination.path) == 0 else {
      let reason = String(cString: strerror(errno))
      _ = rename(old.path, destination.path)
      throw InputError(file: destination.path, "cannot move the new output into place: \(reason)")
    }
  }

  /// `renameat2` looked up at run time: Swift's Glibc module does not declare it (glibc declares it only
  /// with `_GNU_SOURCE`). Remove once it does.
  private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
  private static let renameExchange: RenameAt2? = {
    #if os(Linux)
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
      return unsafeBitCast(symbol, to: RenameAt2.self)
    #else
      return nil
    #endif
  }()

  /// Removes `.NAME.partial-PID-…` and `.NAME.old-PID-…` folders beside `destination` whose process has
  /// ended (a killed run's leftovers), and `.NAME.*.tmp` files of `AtomicFile` inside it.
  public static func removeStale(beside destination: URL) {
    let fm = FileManager.default
    let name = destination.lastPathComponent
    let parent = destination.deletingLastPathComponent()
    for entry in (try? fm.contentsOfDirectory(atPath: parent.path)) ?? [] {
      for kind in [".\(name).partial-", ".\(name).old-"] where entry.hasPrefix(kind) {
        let pid = entry.dropFirst(kind.count).split(separator: "-").first.flatMap { Int32($0) }
        if let pid, pid != getpid(), kill(pid, 0) == -1, errno == ESRCH {
          try? fm.removeItem(at: parent.appendingPathComponent(entry))
        } else if pid == nil {
          try? fm.removeItem(at: parent.appendingPathComponent(entry))
        }
      }
    }
  }
}
