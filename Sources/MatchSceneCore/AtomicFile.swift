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

  /// Writes `bytes` to `url` like `write(_:to:)`, without first copying them into a `Data` (a
  /// 10-minute match's `tracks.csv` is 120 MB).
  public static func write(bytes: [UInt8], to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temp = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    do {
      try writeAll(bytes, to: temp.path)
      if rename(temp.path, url.path) != 0 {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
      }
    } catch {
      try? FileManager.default.removeItem(at: temp)
      throw error
    }
  }

  /// Creates `path` (it must not exist) and writes all of `bytes` to it (POSIX `open`/`write`).
  private static func writeAll(_ bytes: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw InputError(file: path, "cannot create the file: \(String(cString: strerror(errno)))") }
    var failed: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      var done = 0
      while done < buffer.count {
        let n = Foundation.write(fd, buffer.baseAddress! + done, buffer.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          failed = n < 0 ? errno : ENOSPC
          return
        }
        done += n
      }
    }
    if close(fd) != 0 && failed == 0 { failed = errno }
    if failed != 0 { throw InputError(file: path, "cannot write the file: \(String(cString: strerror(failed)))") }
  }

  /// Writes UTF-8 text to `url` atomically.
  public static func write(_ text: String, to url: URL) throws {
    try write(Data(text.utf8), to: url)
  }
}
