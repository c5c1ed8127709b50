import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files so that a reader never sees half of one: the bytes go to a temporary file in the same
/// folder, `.NAME.PID-UUID.tmp`, which is then renamed over the destination (rename is atomic within a
/// file system, POSIX). The temporary files of the same name left by killed runs (their process gone) are
/// removed by the next write.
public enum AtomicFile {
  /// Writes `data` to `url`, creating parent folders. On failure the destination is untouched and
  /// the temporary file removed.
  public static func write(_ data: Data, to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    removeStale(of: url)
    let temp = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid())-\(UUID().uuidString).tmp")
    do {
      try data.write(to: temp)
      if rename(temp.path, url.path) != 0 {
        throw InputError(file: url.path, "cannot replace the file: \(String(cString: strerror(errno)))")
      }
    } catch {
      try? FileManager.default.removeItem(at: temp)
      throw error
    }
  }

  /// Removes `.NAME.PID-UUID.tmp` beside `url` whose process has ended, and `.NAME.UUID.tmp` (the
  /// names of earlier versions, which carried no process id). A folder is listed once per process
  /// (`TemporaryFileScan`): the temporary files found there are kept by destination name and looked up
  /// at each write, so that writing n files into one folder costs one listing, not n (a 600 s
  /// simulation writes 36,000 files per camera folder). Files left by runs killed after that listing
  /// are found by the next process.
  static func removeStale(of url: URL) {
    let folder = url.deletingLastPathComponent()
    for entry in TemporaryFileScan.shared.entries(in: folder.path, for: url.lastPathComponent) {
      let middle = entry.dropFirst(url.lastPathComponent.count + 2).dropLast(4)
      let parts = middle.split(separator: "-", maxSplits: 1)
      let stale: Bool
      if UUID(uuidString: String(middle)) != nil {
        stale = true
      } else if parts.count == 2, let pid = Int32(parts[0]), UUID(uuidString: String(parts[1])) != nil {
        stale = pid != getpid() && kill(pid, 0) == -1 && errno == ESRCH
      } else {
        stale = false
      }
      if stale { try? FileManager.default.removeItem(at: folder.appendingPathComponent(entry)) }
    }
  }

  /// Writes `bytes` to `url` like `write(_:to:)`, without first copying them into a `Data` (a
  /// 10-minute match's `tracks.csv` is 120 MB).
  public static func write(bytes: [UInt8], to url: URL) throws {
    try write(to: url) { fd, path in try bytes.withUnsafeBytes { try writeAll($0, fd: fd, path: path) } }
  }

  /// Writes `chunks` one after the other to `url` like `write(_:to:)`, without joining them first.
  public static func write(chunks: [Data], to url: URL) throws {
    try write(to: url) { fd, path in
      for chunk in chunks { try chunk.withUnsafeBytes { try writeAll($0, fd: fd, path: path) } }
    }
  }

  /// Writes to `url` like `write(_:to:)` the bytes `fill` passes to `emit`, one piece after another, so
  /// that a large file rendered in pieces is never held whole in memory. On failure (of `fill` too) the
  /// destination is untouched and the temporary file removed.
  public static func write(to url: URL, emitting fill: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
    try write(to: url) { fd, path in try fill { try writeAll($0, fd: fd, path: path) } }
  }

  /// Creates a temporary file beside `url`, lets `fill` write to its descriptor, closes it and renames
  /// it over `url`; on failure removes it.
  private static func write(to url: URL, _ fill: (_ fd: Int32, _ path: String) throws -> Void) throws {
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    removeStale(of: url)
    let temp = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid())-\(UUID().uuidString).tmp")
    do {
      let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      guard fd >= 0 else { throw InputError(file: temp.path, "cannot create the file: \(String(cString: strerror(errno)))") }
      do {
        try fill(fd, temp.path)
      } catch {
        close(fd)
        throw error
      }
      if close(fd) != 0 { throw InputError(file: temp.path, "cannot write the file: \(String(cString: strerror(errno)))") }
      if rename(temp.path, url.path) != 0 {
        throw InputError(file: url.path, "cannot replace the file: \(String(cString: strerror(errno)))")
      }
    } catch {
      try? FileManager.default.removeItem(at: temp)
      throw error
    }
  }

  /// Writes all of `buffer` to `fd` (POSIX `write`, retried when interrupted or partial).
  private static func writeAll(_ buffer: UnsafeRawBufferPointer, fd: Int32, path: String) throws {
    var done = 0
    while done < buffer.count {
      let n = Foundation.write(fd, buffer.baseAddress! + done, buffer.count - done)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw InputError(file: path, "cannot write the file: \(String(cString: strerror(n < 0 ? errno : ENOSPC)))")
      }
      done += n
    }
  }

  /// Writes UTF-8 text to `url` atomically, without first copying it into a `Data`.
  public static func write(_ text: String, to url: URL) throws {
    var text = text
    try write(to: url) { fd, path in try text.withUTF8 { try writeAll(UnsafeRawBufferPointer($0), fd: fd, path: path) } }
  }
}
