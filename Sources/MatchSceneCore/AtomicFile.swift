import Foundation

/// Writes files so that a reader never sees half of one: the bytes go to a temporary file in the same
/// folder, which is then renamed over the destination (rename is atomic within a file system, POSIX).
public enum AtomicFile {
  /// Writes `data` to `url`, creating parent folders. On failure the destination is untouched and
  /// the temporary file removed.
  public static func write(_ data: Data, to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temp = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    do {
      try data.write(to: temp)
      if rename(temp.path, url.path) != 0 {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
      }
    } catch {
      try? FileManager.default.removeItem(at: temp)
      throw error
    }
  }

  /// Writes UTF-8 text to `url` atomically.
  public static func write(_ text: String, to url: URL) throws {
    try write(Data(text.utf8), to: url)
  }
}
