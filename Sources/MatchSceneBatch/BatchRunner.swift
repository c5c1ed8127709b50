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

  public init(log: URL?) { self.log = log }

  /// The input folder's SHA-256 (`SessionInput.hash`), leaving out the output folder when it lies inside.
  public static func inputHash(_ entry: BatchEntry) throws -> String {
    let input = entry.input.standardizedFileURL.path + "/", output = entry.output.standardizedFileURL.path
    let inside = output.hasPrefix(input) ? [String(output.dropFirst(input.count))] : []
    return try SessionInput.hash(folder: entry.input, excluding: inside)
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
        let hash = try Self.inputHash(entry)
        if let marker = BatchMarker.read(in: entry.output),
          marker.matches(inputHash: hash, flags: entry.flags, toolVersion: Self.toolVersion)
        {
          report.upToDate.append(entry.line)
          write("\(name): up to date")
          note("\(name): up to date")
          continue
        }
        try runMatch(entry)
        try BatchMarker(inputHash: hash, flags: entry.flags, toolVersion: Self.toolVersion).write(in: entry.output)
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
