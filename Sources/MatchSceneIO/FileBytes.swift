import Foundation
import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A whole file read straight into a byte array (POSIX `open`/`fstat`/`read`), without the `Data` and the
/// copy `[UInt8](Data)` costs: for the large CSV files (a 10-minute match's `tracks.csv` is ~120 MB).
enum FileBytes {
  /// The file's bytes, or nil when it cannot be opened or read. With `digests`, the file's SHA-256 is
  /// recorded there when it was read whole at the size it had when opened.
  static func read(_ path: String, digests: FileDigests? = nil) -> [UInt8]? {
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer; a regular file ignores it.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    let size = Int(info.st_size)
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      var done = 0
      while done < size {
        let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        done += n
      }
      count = done
      failed = done != size
    }
    if failed {
      // The file changed size while being read: read what it holds now, the slow way.
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      bytes.removeAll()
      guard lseek(fd, 0, SEEK_SET) == 0 else { return nil }
      while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += chunk[0..<n]
      }
    } else if let digests {
      bytes.withUnsafeBytes { digests.record(info, bytes: $0) }
    }
    return bytes
  }

  /// The file's contents like `FileManager.contents(atPath:)` (nil when missing or unreadable), after
  /// refusing a FIFO, device or socket, which would block the reader or never end.
  /// - Throws: `InputError` naming the file when it is not a regular file.
  static func contents(of url: URL) throws -> Data? {
    var info = stat()
    if stat(url.path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      if kind != S_IFREG {
        throw InputError(
          file: url.path,
          kind == S_IFDIR ? "is a folder; expected a file" : "is a FIFO, device or socket, not a regular file; expected a file")
      }
    }
    return FileManager.default.contents(atPath: url.path)
  }
}
