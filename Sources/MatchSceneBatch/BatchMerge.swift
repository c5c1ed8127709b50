import Foundation
import MatchSceneCore
import MatchSceneSessions

/// What `BatchMerge.run` did.
public struct BatchMergeReport: Sendable {
  /// Sessions added: manifest line and session id.
  public var added: [(line: Int, id: Int64)] = []
  /// Entries whose output was already in the store (same output hash).
  public var alreadyStored: [(line: Int, id: Int64)] = []
  /// Entries without a finished output (not run yet, failed, killed, or missing files since).
  public var notFinished: [Int] = []
  /// Entries whose output could not be added, with why.
  public var failed: [(line: Int, message: String)] = []
  public var summary: String {
    "\(added.count) added, \(alreadyStored.count) already stored, \(notFinished.count) not finished, \(failed.count) failed"
      + (notFinished.isEmpty ? "" : " (not finished: manifest lines \(notFinished.map(String.init).joined(separator: ", ")))")
  }
}

/// Adds every finished match of a manifest to the session store, in manifest order (so the store's ids
/// do not depend on which shard finished first), each once: an output already stored is counted, not
/// added again.
public enum BatchMerge {
  public static func run(_ entries: [BatchEntry], store: SessionStore) -> BatchMergeReport {
    var report = BatchMergeReport()
    for entry in entries {
      guard let marker = BatchMarker.read(in: entry.output), marker.missingFiles(in: entry.output).isEmpty else {
        report.notFinished.append(entry.line)
        continue
      }
      do {
        let input = try SessionInput.read(outputFolder: entry.output)
        var options = SessionStore.AddOptions()
        options.name = entry.sessionName
        let result = try store.add(input, options: options)
        report.added.append((entry.line, result.id))
      } catch SessionStoreError.duplicate(let existing, _, _) {
        report.alreadyStored.append((entry.line, existing))
      } catch {
        report.failed.append((entry.line, "\(error)"))
      }
    }
    return report
  }
}
