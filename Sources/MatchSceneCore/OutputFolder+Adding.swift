import Foundation

/// An output folder that a command adds to across runs instead of replacing (`overlay`: one camera or
/// range of frames at a time): the same ownership as `replace`, checked before the work.
extension OutputFolder {
  /// Checks, before the run, that `command` may add files to `folder`: it does not exist, is empty, or
  /// MatchScene wrote it — its marker names the same command and lists every entry, or it has no marker
  /// and the marker of the folder holding it lists it (an earlier version's `<out>/overlay`); with
  /// `force`, a folder without a marker too (its entries are kept). It may not overlap an input, nor lie
  /// inside an input folder unless inside a folder MatchScene wrote there (`<match>/out/overlay`), even
  /// with `force`; a folder another command wrote is refused even with `force`.
  /// - Returns: the entries at its top that are not MatchScene's (with `force`), to leave out of the
  ///   marker (`claim`).
  /// - Throws: `InputError` naming the folder, what is in the way and what to do.
  public static func checkAdding(_ folder: URL, command: String, force: Bool = false, inputs: [URL] = []) throws -> [String] {
    let fm = FileManager.default
    let folder = try followLink(folder.standardizedFileURL)
    try checkInputs(folder, inputs: inputs)
    for input in inputs where FileManager.default.fileExists(atPath: input.path) && isInside(folder, input) {
      guard OutputFile.isInsideAnOutput(resolved(folder).appendingPathComponent(markerName), below: resolved(input)) else {
        throw InputError(
          file: folder.path, "lies inside the input \(input.path); MatchScene never writes into its input — choose another output folder")
      }
    }
    var isFolder: ObjCBool = false
    guard fm.fileExists(atPath: folder.path, isDirectory: &isFolder) else { return [] }
    guard isFolder.boolValue else { throw InputError(file: folder.path, "exists and is not a folder; choose an output folder") }
    let contents = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    if contents.isEmpty { return [] }
    guard OutputMarker.read(in: folder) != nil else {
      let name = folder.lastPathComponent
      if let parent = OutputMarker.read(in: folder.deletingLastPathComponent()),
        parent.files?.contains(name) ?? OutputMarker.knownEntries.contains(name)
      {
        return []
      }
      if force { return contents }
      throw InputError(
        file: folder.path, "exists, is not empty and was not written by MatchScene; choose another folder, or pass --force to add to it")
    }
    let (foreign, other) = foreignEntries(in: folder, command: command)
    if let other {
      throw InputError(file: folder.path, "was written by `\(other)`; choose another folder")
    }
    if !foreign.isEmpty && !force {
      let shown = listed(foreign)
      throw InputError(
        file: folder.path,
        "holds files MatchScene did not write (\(shown)); move them away, choose another folder, or pass --force to add to it")
    }
    return foreign
  }

  /// Writes `folder`'s marker naming `command` and listing its entries and `adding` (entries about to
  /// be written), all but `kept` (`checkAdding`'s result): called before the work, so that a run that
  /// fails midway leaves a folder the next run may add to, and after it.
  public static func claim(_ folder: URL, command: String, keeping kept: [String], adding: [String] = []) throws {
    let fm = FileManager.default
    try createFolders(folder)
    let entries = Set(((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []) + adding)
    let files = entries.filter { $0 != markerName && !kept.contains($0) && !isHousekeeping($0) }.sorted()
    try AtomicFile.write(OutputMarker(command: command, files: files).text, to: folder.appendingPathComponent(markerName))
  }
}
