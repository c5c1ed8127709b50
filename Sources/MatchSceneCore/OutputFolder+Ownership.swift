import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an output folder may replace: only what MatchScene wrote there, never an input, never outside.
extension OutputFolder {
  /// `path` with every symbolic link resolved (`realpath(3)`) as far as the path exists, the rest
  /// appended with `.` and `..` removed lexically: where a write to `path` would land.
  public static func resolved(_ url: URL) -> URL {
    var missing: [String] = []
    var existing = url.standardizedFileURL
    while true {
      if let real = realpath(existing.path, nil) {
        defer { free(real) }
        var out = URL(fileURLWithPath: String(cString: real))
        for component in missing.reversed() { out.appendPathComponent(component) }
        return out.standardizedFileURL
      }
      let up = existing.deletingLastPathComponent()
      if up.path == existing.path { return url.standardizedFileURL }
      missing.append(existing.lastPathComponent)
      existing = up
    }
  }

  /// The nearest of `url` and its ancestors that exists, and whether it is a folder; nil when none does.
  static func nearestExisting(_ url: URL) -> (url: URL, isFolder: Bool)? {
    var at = url
    var isFolder: ObjCBool = false
    while !FileManager.default.fileExists(atPath: at.path, isDirectory: &isFolder) {
      let up = at.deletingLastPathComponent()
      if up.path == at.path { return nil }
      at = up
    }
    return (at, isFolder.boolValue)
  }

  /// Up to eight `names` joined by commas, and how many more: the entries an error message names.
  static func listed(_ names: [String]) -> String {
    names.prefix(8).joined(separator: ", ") + (names.count > 8 ? " and \(names.count - 8) more" : "")
  }

  /// Whether `inner` is `outer` or lies inside it, both resolved (`resolved(_:)`).
  public static func isInside(_ inner: URL, _ outer: URL) -> Bool {
    let a = resolved(inner).path, b = resolved(outer).path
    return a == b || a.hasPrefix(b == "/" ? "/" : b + "/")
  }

  /// Checks that a write to `url` lands inside `folder` once symbolic links are followed (the idea of
  /// Go's `filepath.IsLocal`, applied to the resolved paths).
  /// - Throws: `InputError` naming `url` when it would land outside.
  public static func checkInside(_ url: URL, folder: URL) throws {
    guard isInside(url, folder), resolved(url).path != resolved(folder).path else {
      throw InputError(
        file: url.path, "refusing to write outside the output folder \(folder.path) (the path leads to \(resolved(url).path))")
    }
  }

  /// Checks that the output folder `destination` and the inputs of a run do not overlap: the output is
  /// not an input, does not contain one, and does not lie inside one — except inside a match folder, in a
  /// folder that does not exist yet or that MatchScene wrote (`<match>/out`), which the run does not read.
  /// Checked before the run, with or without `force`: replacing the folder would delete the input.
  /// - Parameter inputs: the files and folders the run reads (a match folder, a store, a calibration …).
  /// - Throws: `InputError` naming the output and the input it overlaps.
  public static func checkInputs(_ destination: URL, inputs: [URL]) throws {
    let out = resolved(destination)
    for input in inputs {
      let input = resolved(input)
      guard FileManager.default.fileExists(atPath: input.path) else { continue }
      if out.path == input.path || isInside(input, out) {
        throw InputError(
          file: destination.path,
          out.path == input.path
            ? "is the input \(input.path); the output would replace it — choose another output folder"
            : "holds the input \(input.path); the output would replace it — choose another output folder")
      }
      if isInside(out, input) {
        // The first entry of the input on the way to the output: a new folder or a MatchScene output
        // holds nothing the run reads.
        let below = out.path.dropFirst(input.path == "/" ? 1 : input.path.count + 1)
        let first = input.appendingPathComponent(String(below.split(separator: "/").first ?? ""))
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: first.path, isDirectory: &isFolder)
        if exists && (!isFolder.boolValue || OutputMarker.read(in: first) == nil) {
          throw InputError(
            file: destination.path,
            "lies inside the input \(first.path); the output would replace part of the input — choose another output folder")
        }
      }
    }
  }

  /// The entries at the top of the existing folder `destination` that a run of `command` may not
  /// replace: everything when the folder has no marker; the entries its marker does not list (or, for a
  /// marker without a list, the entries not in `OutputMarker.knownEntries`); everything when another
  /// command wrote the folder (`compare` does not replace what `reconstruct` wrote).
  /// - Returns: the names, sorted, and the marker's command when it differs from `command`.
  public static func foreignEntries(in destination: URL, command: String?) -> (names: [String], otherCommand: String?) {
    let contents = ((try? FileManager.default.contentsOfDirectory(atPath: destination.path)) ?? []).sorted()
    guard let marker = OutputMarker.read(in: destination) else { return (contents, nil) }
    if let command, OutputMarker(command: command, files: nil).commandKind != marker.commandKind {
      return (contents.filter { $0 != markerName }, marker.command)
    }
    let owned = marker.files.map(Set.init) ?? OutputMarker.knownEntries
    return (contents.filter { $0 != markerName && !owned.contains($0) && !isHousekeeping($0) }, nil)
  }

  /// MatchScene's own bookkeeping in an output: its markers (`.matchscene-output`, the batch's
  /// `.matchscene-batch.json`) and the temporary files of an `AtomicFile` write killed midway
  /// (`.NAME.PID-UUID.tmp`).
  static func isHousekeeping(_ name: String) -> Bool {
    if name.hasPrefix(".matchscene") { return true }
    guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
    let middle = name.dropLast(4)
    guard let dot = middle.lastIndex(of: ".") else { return false }
    let tag = middle[middle.index(after: dot)...]
    let parts = tag.split(separator: "-", maxSplits: 1)
    return UUID(uuidString: String(tag)) != nil
      || (parts.count == 2 && Int32(parts[0]) != nil && UUID(uuidString: String(parts[1])) != nil)
  }

  /// Adds `names` (entries at the top of `folder`) to the list of `folder`'s marker, for a command that
  /// writes into an output another command made (`form` adds `angles.csv`, `mot` …), so that the next run
  /// replaces them as MatchScene's. Does nothing when `folder` has no marker or its marker no list.
  public static func record(_ names: [String], in folder: URL) throws {
    guard var marker = OutputMarker.read(in: folder), let files = marker.files else { return }
    let added = names.filter { !files.contains($0) && !$0.contains("/") && !$0.contains("\n") }
    guard !added.isEmpty else { return }
    marker.files = files + added
    try AtomicFile.write(marker.text, to: folder.appendingPathComponent(markerName))
  }

  /// Whether `folder` is a mount point (its device differs from its parent's, or it is `/`): it cannot
  /// be renamed, so it is written into rather than replaced.
  public static func isMountPoint(_ folder: URL) -> Bool {
    var own = stat(), up = stat()
    let path = resolved(folder).path
    guard stat(path, &own) == 0 else { return false }
    if path == "/" { return true }
    guard stat((path as NSString).deletingLastPathComponent, &up) == 0 else { return false }
    return own.st_dev != up.st_dev || own.st_ino == up.st_ino
  }

  /// Refuses a path that exists and is not a regular file (a FIFO, a device, a socket) as an input file:
  /// reading a FIFO blocks until a writer comes, a device never ends.
  /// - Throws: `InputError` naming `url` and what it is.
  public static func checkRegularFile(_ url: URL, what: String = "input") throws {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG || kind == S_IFDIR else {
      let name =
        switch kind {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
      throw InputError(file: url.path, "is \(name), not a file; expected a regular \(what) file")
    }
  }
}
