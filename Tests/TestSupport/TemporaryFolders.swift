import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh empty folder under the system temporary directory, removed with everything in it when the
/// test process exits (a full run makes about 300 of them, 1.8 GB; before this they stayed behind).
/// Set `MATCHSCENE_KEEP_TEST_FILES=1` to keep them for inspection after a failure.
public func makeTemporaryFolder(_ label: String = "matchscene-test") throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  TemporaryFolders.shared.add(url)
  return url
}

/// The folders `makeTemporaryFolder` made in this process; an `atexit` handler (C11 7.22.4.2, run by
/// XCTest's final `exit`) removes them.
private final class TemporaryFolders: @unchecked Sendable {
  static let shared = TemporaryFolders()
  private let lock = NSLock()
  private var folders: [URL] = []

  private init() {
    atexit { TemporaryFolders.shared.removeAll() }
  }

  func add(_ url: URL) {
    lock.lock()
    folders.append(url)
    lock.unlock()
  }

  func removeAll() {
    lock.lock()
    let doomed = folders
    folders = []
    lock.unlock()
    if ProcessInfo.processInfo.environment["MATCHSCENE_KEEP_TEST_FILES"] == "1" { return }
    for url in doomed { try? FileManager.default.removeItem(at: url) }
  }
}
