import Foundation
import MatchSceneCore
import MatchSceneSessions

/// What one batch process did.
public struct BatchReport: Sendable {
  /// Entries run and finished (manifest lines).
  public var done: [Int] = []
  /// Entries whose output was already made from the same input, flags and tool.
  public var upToDate: [Int] = []
  /// Entries that failed, with the error.
  public var failed: [(line: Int, message: String)] = []
  public var summary: String {
    "\(done.count) done, \(upToDate.count) up to date, \(failed.count) failed"
      + (failed.isEmpty ? "" : " (manifest lines \(failed.map { String($0.line) }.joined(separator: ", ")))")
  }
}

/// Runs a shard of a batch manifest one match after another: an entry whose output folder carries a
/// `BatchMarker` for the same input (SHA-256 of its files), flags and tool version is skipped; any other
/// is run by `runMatch` (which writes the output folder whole), then marked. A failing match is logged and
/// the next one runs. Every step goes to the shard's log file (appended, with UTC times).
public struct BatchRunner {
  public static var toolVersion: String { SessionStore.toolVersion }

  public var log: URL?
  /// The manifest, left out of an input folder that holds it (editing the manifest is no change of input).
  public var manifest: URL?

  public init(log: URL?, manifest: URL? = nil) {
    self.log = log
    self.manifest = manifest
  }

  /// The input's SHA-256: the input folder (`SessionInput.hash`, links followed), leaving out what lies
  /// inside it but is no input — the output folder, the manifest, the batch's log files
  /// (`batch-shard-*.log` in the log folder) — then each file or folder the flags name
  /// (`BatchManifest.pathFlags`). A line without such flags hashes as its input folder alone.
  public static func inputHash(_ entry: BatchEntry, log: URL? = nil, manifest: URL? = nil) throws -> String {
    let input = entry.input.standardizedFileURL.path + "/"
    func inside(_ url: URL?) -> String? {
      guard let path = url?.standardizedFileURL.path, path.hasPrefix(input) else { return nil }
      return String(path.dropFirst(input.count))
    }
    let excluded = [inside(entry.output), inside(manifest)].compactMap { $0 }
    let logFolder = log.flatMap { inside($0.deletingLastPathComponent()) }
    let logFolderIsInput = log.map { $0.deletingLastPathComponent().standardizedFileURL.path + "/" == input } ?? false
    func isLog(_ relative: String) -> Bool {
      let name = (relative as NSString).lastPathComponent, folder = (relative as NSString).deletingLastPathComponent
      guard name.hasPrefix("batch-shard-"), name.hasSuffix(".log") else { return false }
      return logFolderIsInput ? folder.isEmpty : folder == logFolder
    }
    let folderHash = try SessionInput.hash(folder: entry.input, excluding: excluded, skip: isLog)
    let named = BatchManifest.flagPaths(entry.flags)
    guard !named.isEmpty else { return folderHash }
    var text = folderHash + "\n"
    for (flag, path) in named {
      text += "\(flag) \(path) \(try SessionInput.hash(path: path))\n"
    }
    return SessionInput.hash(bytes: Array(text.utf8))
  }

  /// - Parameters:
  ///   - runMatch: reconstructs one entry into `entry.output` (whole), throwing on failure.
  ///   - note: called with a line per entry (for the terminal).
  public func run(
    _ entries: [BatchEntry], shard: BatchShard, runMatch: (BatchEntry) throws -> Void, note: (String) -> Void = { _ in }
  ) -> BatchReport {
    var report = BatchReport()
    write("\(shard): \(entries.count) match(es), \(Self.toolVersion)")
    for entry in entries {
      let started = Date()
      let name = "line \(entry.line) (\(entry.input.path) → \(entry.output.path))"
      do {
        guard FileManager.default.fileExists(atPath: entry.input.path) else {
          throw InputError(file: entry.input.path, "no such match folder (manifest line \(entry.line))")
        }
        let hash = try Self.inputHash(entry, log: log, manifest: manifest)
        if let marker = BatchMarker.read(in: entry.output),
          marker.matches(inputHash: hash, flags: entry.flags, toolVersion: Self.toolVersion),
          marker.missingFiles(in: entry.output).isEmpty
        {
          report.upToDate.append(entry.line)
          write("\(name): up to date")
          note("\(name): up to date")
          continue
        }
        try runMatch(entry)
        try BatchMarker(
          inputHash: hash, flags: entry.flags, toolVersion: Self.toolVersion, files: BatchMarker.files(in: entry.output)
        ).write(in: entry.output)
        report.done.append(entry.line)
        let line = String(format: "%@: done in %.1f s", name, Date().timeIntervalSince(started))
        write(line)
        note(line)
      } catch {
        report.failed.append((entry.line, "\(error)"))
        write("\(name): FAILED: \(error)")
        note("\(name): FAILED: \(error)")
      }
    }
    write("\(shard): \(report.summary)")
    return report
  }

  /// Appends a line to the log (a log that cannot be written is not a reason to stop the batch).
  private func write(_ text: String) {
    guard let log else { return }
    let stamp = ISO8601DateFormatter().string(from: Date())
    let data = Data("\(stamp) \(text)\n".utf8)
    let fm = FileManager.default
    try? fm.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
    if !fm.fileExists(atPath: log.path) { fm.createFile(atPath: log.path, contents: nil) }
    guard let handle = try? FileHandle(forWritingTo: log) else { return }
    defer { try? handle.close() }
    _ = try? handle.seekToEnd()
    try? handle.write(contentsOf: data)
  }
}
