import Foundation

/// The temporary files (`.NAME.….tmp`) found in each folder the first time this process writes there,
/// by destination name; `AtomicFile` asks it which may be stale before each write. Thread-safe.
final class TemporaryFileScan: @unchecked Sendable {
  static let shared = TemporaryFileScan()
  private let lock = NSLock()
  /// folder path → destination name → temporary files named after it (not yet handed out).
  private var folders: [String: [String: [String]]] = [:]

  /// The temporary files in `folder` whose names start with `.name.` and end with `.tmp`, as found by
  /// the folder's first listing in this process; each is handed out once.
  func entries(in folder: String, for name: String) -> [String] {
    lock.lock()
    defer { lock.unlock() }
    if folders[folder] == nil {
      var byName: [String: [String]] = [:]
      for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      where entry.hasPrefix(".") && entry.hasSuffix(".tmp") {
        // `.NAME.MIDDLE.tmp`: the middle (a UUID, or PID-UUID) holds no dot; NAME may.
        let inner = entry.dropFirst().dropLast(4)
        guard let dot = inner.lastIndex(of: "."), dot > inner.startIndex, inner.index(after: dot) < inner.endIndex else { continue }
        byName[String(inner[..<dot]), default: []].append(entry)
      }
      folders[folder] = byName
    }
    return folders[folder]?.removeValue(forKey: name) ?? []
  }
}
