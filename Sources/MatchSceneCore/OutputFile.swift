import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A single output file named on the command line (`clip -f`, `compare --glb`, `evaluate --json`,
/// `form --save-reference`): written whole (`AtomicFile`), and only where it replaces nothing of the
/// user's.
///
/// The rule: the file may be written when nothing is at its path, or when the file there is one this
/// option writes — its contents say so (`isOurs`: a GLB whose generator is MatchScene, a stroke
/// reference) — or with `force`. It is never written over one of the command's inputs, nor into a
/// folder the command reads unless MatchScene wrote that folder (`<match>/out`), even with `force`. A symbolic link is followed: its target is written, the link kept.
public enum OutputFile {
  /// Checks, before the run, that `url` may be written (see the type's rule).
  /// - Parameters:
  ///   - option: the option that named the file, for messages (`--json`).
  ///   - force: replace an existing file MatchScene did not write.
  ///   - inputs: the files and folders the command reads.
  ///   - isOurs: whether an existing file's contents show that this option wrote it.
  /// - Returns: where the file will be written (`url` with symbolic links resolved).
  /// - Throws: `InputError` naming the path, what is in the way and what to do.
  @discardableResult
  public static func check(
    _ url: URL, option: String, force: Bool = false, inputs: [URL] = [], isOurs: (URL) -> Bool = { _ in false }
  ) throws -> URL {
    let target = OutputFolder.resolved(url)
    for input in inputs {
      let input = OutputFolder.resolved(input)
      guard FileManager.default.fileExists(atPath: input.path) else { continue }
      if target.path == input.path || isSameFile(target, input) {
        throw InputError(file: url.path, "\(option) names an input of this command; refusing to overwrite it — choose another file")
      }
      if OutputFolder.isInside(target, input) && !isInsideAnOutput(target, below: input) {
        throw InputError(
          file: url.path, "\(option) names a file inside the input \(input.path); MatchScene never writes into its input — choose another place")
      }
    }
    var info = stat()
    if lstat(target.path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      if kind == S_IFDIR {
        throw InputError(file: url.path, "\(option) names a folder; expected a file name")
      }
      guard kind == S_IFREG else {
        throw InputError(file: url.path, "\(option) names a special file (a FIFO, device or socket); expected a file name")
      }
      if !force && !isOurs(target) {
        throw InputError(
          file: url.path,
          "exists and was not written by MatchScene's \(option); refusing to overwrite it — choose another file, or pass --force to replace it")
      }
    }
    let nearest = OutputFolder.nearestExisting(target.deletingLastPathComponent())
    let folder = nearest?.url ?? target.deletingLastPathComponent()
    guard nearest?.isFolder == true else {
      throw InputError(file: folder.path, "is a file, not a folder, so \(option) \(url.path) cannot be written in it")
    }
    guard access(folder.path, W_OK | X_OK) == 0 else {
      throw InputError(file: folder.path, "cannot write \(option) \(url.lastPathComponent) here: \(String(cString: strerror(errno)))")
    }
    return target
  }

  /// Writes `data` to `url` whole (`AtomicFile`) after `check`, and lists it in the marker of the output
  /// folder it lies in, if any, so that the next run of the command that wrote the folder replaces it.
  /// - Returns: where it was written.
  @discardableResult
  public static func write(
    _ data: Data, to url: URL, option: String, force: Bool = false, inputs: [URL] = [], isOurs: (URL) -> Bool = { _ in false }
  ) throws -> URL {
    let target = try check(url, option: option, force: force, inputs: inputs, isOurs: isOurs)
    try AtomicFile.write(data, to: target)
    try OutputFolder.record([target.lastPathComponent], in: target.deletingLastPathComponent())
    return target
  }

  /// Whether both paths name one existing file (a hard link to an input is the input).
  static func isSameFile(_ a: URL, _ b: URL) -> Bool {
    var x = stat(), y = stat()
    return stat(a.path, &x) == 0 && stat(b.path, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
  }

  /// Whether `target`, inside the input folder `input`, lies in a folder MatchScene wrote (one with a
  /// marker: `input` itself, or one inside it like `<match>/out`), where a new file replaces nothing of
  /// the user's.
  static func isInsideAnOutput(_ target: URL, below input: URL) -> Bool {
    var folder = target.deletingLastPathComponent()
    while folder.path.count >= input.path.count {
      if OutputMarker.read(in: folder) != nil { return true }
      folder = folder.deletingLastPathComponent()
    }
    return false
  }
}
