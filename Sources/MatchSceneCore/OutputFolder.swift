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
  ///
  /// Only what MatchScene wrote is replaced: the marker lists the entries each run wrote, and an existing
  /// folder holding anything else (a user's notes, a session store), or written by another command, is
  /// refused before `fill` runs unless `force`. An output that is, holds or lies inside one of `inputs` is
  /// refused even with `force`. A symbolic link is followed (its target is written, the link kept); a
  /// mount point, which cannot be renamed, is written into (`replaceInto`).
  /// - Parameters:
  ///   - destination: the folder to create or replace.
  ///   - force: replace a non-empty folder even when MatchScene did not write it.
  ///   - replaceable: whether an existing folder's contents may be replaced without `force` (default:
  ///     its marker lists them, `foreignEntries`).
  ///   - marker: the command written on the marker's first line (nil: no marker).
  ///   - inputs: what the run reads (`checkInputs`).
  ///   - fill: writes the contents into the staging folder it is given.
  /// - Throws: `InputError` naming `destination` when it exists, is not empty and may not be replaced, or
  ///   cannot be created; whatever `fill` throws (the staging folder is removed then).
  public static func replace(
    _ destination: URL, force: Bool = false, replaceable: ((URL) -> Bool)? = nil, marker: String? = nil,
    inputs: [URL] = [], fill: (URL) throws -> Void
  ) throws {
    let fm = FileManager.default
    let destination = try followLink(destination.standardizedFileURL)
    let command = marker.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    let exists = try checkDestination(destination, force: force, replaceable: replaceable, command: command, inputs: inputs)
    if exists && isMountPoint(destination) {
      try replaceInto(destination, force: force, command: command, fill: fill)
      return
    }
    let name = destination.lastPathComponent
    let parent = destination.deletingLastPathComponent()
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
      if let command { try writeMarker(command, listing: staging) }
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

  /// `replace` for a folder that cannot be renamed (a mount point): the new entries are built in a
  /// staging folder inside it, then the entries the previous run wrote (all with `force`) are removed and
  /// the new ones renamed into place one by one. Not atomic: a run killed during those renames leaves a
  /// mix, which the next run replaces. Staging folders of runs whose process has ended are removed first
  /// (`isLeftover`); nothing else that was not listed is touched.
  static func replaceInto(_ destination: URL, force: Bool, command: String?, fill: (URL) throws -> Void) throws {
    let fm = FileManager.default
    for entry in (try? fm.contentsOfDirectory(atPath: destination.path)) ?? []
    where entry.hasPrefix(".matchscene.partial-") && isLeftover(tag: entry.dropFirst(".matchscene.partial-".count)) {
      try? fm.removeItem(at: destination.appendingPathComponent(entry))
    }
    let staging = destination.appendingPathComponent(".matchscene.partial-\(getpid())-\(UUID().uuidString)")
    guard mkdir(staging.path, 0o755) == 0 else {
      throw InputError(file: destination.path, "cannot write into the output folder: \(String(cString: strerror(errno)))")
    }
    do {
      try fill(staging)
      let contents = try fm.contentsOfDirectory(atPath: destination.path).filter { !$0.hasPrefix(".matchscene.partial-") }
      let owned: Set<String> =
        force ? Set(contents) : Set(OutputMarker.read(in: destination)?.files ?? Array(OutputMarker.knownEntries))
      let entries = try fm.contentsOfDirectory(atPath: staging.path)
      if let command {
        // Listed before they are moved in: a run killed during the moves leaves only listed entries.
        let listed = Set(contents.filter { owned.contains($0) && $0 != markerName }).union(entries.filter { $0 != markerName })
        try AtomicFile.write(OutputMarker(command: command, files: listed.sorted()).text, to: destination.appendingPathComponent(markerName))
      }
      for entry in contents where owned.contains(entry) && entry != markerName {
        try fm.removeItem(at: destination.appendingPathComponent(entry))
      }
      for entry in entries {
        let target = destination.appendingPathComponent(entry)
        if fm.fileExists(atPath: target.path) { try fm.removeItem(at: target) }
        guard rename(staging.appendingPathComponent(entry).path, target.path) == 0 else {
          throw InputError(file: target.path, "cannot move the new output into place: \(String(cString: strerror(errno)))")
        }
      }
      if let command {
        let files = try fm.contentsOfDirectory(atPath: destination.path).filter { $0 != markerName && !$0.hasPrefix(".matchscene.partial-") }
        let kept = Set(contents).subtracting(owned)
        try AtomicFile.write(
          OutputMarker(command: command, files: files.filter { !kept.contains($0) }.sorted()).text,
          to: destination.appendingPathComponent(markerName))
      }
      try fm.removeItem(at: staging)
    } catch {
      try? fm.removeItem(at: staging)
      throw error
    }
  }

  /// Writes the marker naming `command` and every entry of `folder`.
  static func writeMarker(_ command: String, listing folder: URL) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != markerName }.sorted()
    try Data(OutputMarker(command: command, files: files).text.utf8).write(to: folder.appendingPathComponent(markerName))
  }

  /// `url`, or the folder a symbolic link at `url` points to: the link is kept and its target written.
  /// - Throws: `InputError` when the link leads nowhere or to something that is not a folder.
  static func followLink(_ url: URL) throws -> URL {
    var info = stat()
    guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return url }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
      throw InputError(file: url.path, "is a symbolic link to \(resolved(url).path), which is not a folder; choose an output folder")
    }
    return resolved(url)
  }

  /// Checks, without writing anything, that `replace` may put a folder at `destination`: it is not a
  /// file, it is empty or may be replaced (`force`, `replaceable`, or its marker lists every entry and
  /// names the same command), it does not overlap `inputs` (`checkInputs`, even with `force`), and the
  /// nearest folder that exists on its path is a folder this process may write into. Commands call it
  /// before a long run, so a bad `-o` is reported at once rather than after the work.
  /// - Parameter command: the command that will write the folder (the marker's first line).
  /// - Returns: whether `destination` exists.
  /// - Throws: `InputError` naming the path that is in the way and why.
  @discardableResult
  public static func checkDestination(
    _ destination: URL, force: Bool = false, replaceable: ((URL) -> Bool)? = nil, command: String? = nil,
    inputs: [URL] = []
  ) throws -> Bool {
    let fm = FileManager.default
    let destination = try followLink(destination.standardizedFileURL)
    try checkInputs(destination, inputs: inputs)
    var info = stat()
    if lstat(destination.path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      if kind != S_IFDIR && kind != S_IFREG && kind != S_IFLNK {
        throw InputError(file: destination.path, "is a special file (a FIFO, device or socket), not a folder; choose an output folder")
      }
    }
    var isFolder: ObjCBool = false
    let exists = fm.fileExists(atPath: destination.path, isDirectory: &isFolder)
    if exists && !isFolder.boolValue {
      throw InputError(file: destination.path, "exists and is not a folder; choose an output folder")
    }
    if exists, !force {
      let contents = (try? fm.contentsOfDirectory(atPath: destination.path)) ?? []
      if let replaceable {
        if !contents.isEmpty && !replaceable(destination) {
          throw InputError(
            file: destination.path,
            "exists, is not empty and was not written by MatchScene; choose another folder, or pass --force to replace it")
        }
      } else if !contents.isEmpty {
        guard contents.contains(markerName) else {
          throw InputError(
            file: destination.path,
            "exists, is not empty and was not written by MatchScene; choose another folder, or pass --force to replace it")
        }
        let (foreign, other) = foreignEntries(in: destination, command: command)
        if let other {
          throw InputError(
            file: destination.path,
            "was written by `\(other)`, whose files this command would replace; choose another folder, or pass --force to replace it")
        }
        if !foreign.isEmpty {
          let shown = listed(foreign)
          throw InputError(
            file: destination.path,
            "holds files MatchScene did not write (\(shown)); move them away, choose another folder, or pass --force to replace them too")
        }
      }
    }
    // The staging folder is created beside `destination` (inside it for a mount point): the nearest
    // existing ancestor of its parent must be a folder we may write into.
    if let ancestor = nearestExisting(exists && isMountPoint(destination) ? destination : destination.deletingLastPathComponent()) {
      guard ancestor.isFolder else {
        throw InputError(
          file: ancestor.url.path, "is a file, not a folder, so the output folder \(destination.path) cannot be created in it")
      }
      guard access(ancestor.url.path, W_OK | X_OK) == 0 else {
        throw InputError(
          file: ancestor.url.path,
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
      for kind in [".\(name).partial-", ".\(name).old-"] where entry.hasPrefix(kind) && isLeftover(tag: entry.dropFirst(kind.count)) {
        try? fm.removeItem(at: parent.appendingPathComponent(entry))
      }
    }
  }

  /// Whether `tag`, the end of a staging or retired folder's name, is `PID-UUID` as `replace` writes it
  /// and that process has ended, or a bare UUID as earlier versions wrote it: a killed run's leftover. A
  /// name of any other form (a user's `.out.partial-notes`) is not MatchScene's and is kept.
  static func isLeftover(tag: Substring) -> Bool {
    if UUID(uuidString: String(tag)) != nil { return true }
    let parts = tag.split(separator: "-", maxSplits: 1)
    guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UUID(uuidString: String(parts[1])) != nil else { return false }
    return pid != getpid() && kill(pid, 0) == -1 && errno == ESRCH
  }
}
