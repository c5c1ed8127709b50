import Foundation
import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The walk and the reading behind `MatchOutput.hash`: which files a folder holds (links followed) and
/// each file's contribution to the digest, read in pieces.
enum FolderHash {
  /// Bytes read at a time.
  static let pieceBytes = 1 << 20
  /// `report.json` is re-encoded without its run time when it is at most this large (it is a few KB);
  /// a larger one is hashed as it is, in pieces.
  static let reportLimit = 64 << 20

  /// Regular files under `root`, as paths relative to it, following symbolic links to files and folders
  /// (each real folder walked once, so a link cycle ends); a folder or file for which `leaveOut` says
  /// true is not entered or listed. FIFOs, sockets and devices are left out.
  static func files(under root: String, leaveOut: (_ relative: String, _ isFolder: Bool) -> Bool) -> [String] {
    var out: [String] = []
    var visited = Set<String>()
    func walk(_ folder: String, _ prefix: String) {
      guard let real = realPath(folder), visited.insert(real).inserted else { return }
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
      for name in names {
        let relative = prefix.isEmpty ? name : prefix + "/" + name
        var s = stat()
        guard stat(folder + "/" + name, &s) == 0 else { continue }  // a dangling link
        switch s.st_mode & S_IFMT {
        case S_IFDIR: if !leaveOut(relative, true) { walk(folder + "/" + name, relative) }
        case S_IFREG: if !leaveOut(relative, false) { out.append(relative) }
        default: continue
        }
      }
    }
    walk(root, "")
    return out
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Feeds `relative`, the length hashed and the bytes hashed of `file`: a `.glb`'s JSON chunk only,
  /// `report.json` without its run time, any other file whole — in `pieceBytes` pieces.
  /// - Throws: `InputError` naming the file when it cannot be read or shrinks while it is read.
  static func update(_ digest: inout SHA256, file: String, relative: String) throws {
    let fd = open(file, O_RDONLY)
    guard fd >= 0 else { throw InputError(file: file, "cannot read the file: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var s = stat()
    guard fstat(fd, &s) == 0 else { throw InputError(file: file, "cannot read the file: \(String(cString: strerror(errno)))") }
    let size = Int(s.st_size)
    if relative == MatchOutput.File.report.rawValue && size <= reportLimit {
      let data = MatchOutput.withoutRunTime(try readAll(fd, size: size, file: file))
      digest.update(Array("\(relative)\n\(data.count)\n".utf8))
      data.withUnsafeBytes { digest.update($0) }
      return
    }
    var length = size
    if relative.hasSuffix(".glb"), size >= 20 {
      // The JSON chunk only, found as `MatchOutput.glbJSONChunk` finds it; else the whole file.
      let bytes = [UInt8](try readAll(fd, size: 20, file: file))
      func word(_ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
      }
      if bytes[0..<4].elementsEqual(Array("glTF".utf8)), word(16) == 0x4E4F_534A, 20 + word(12) <= size {
        length = word(12)
      } else if lseek(fd, 0, SEEK_SET) != 0 {
        throw InputError(file: file, "cannot read the file: \(String(cString: strerror(errno)))")
      }
    }
    digest.update(Array("\(relative)\n\(length)\n".utf8))
    // No bigger than the file: a match folder holds ~10⁵ small JSON files, and a fresh zeroed 1 MB buffer
    // for each (mapped and unmapped by malloc) cost more than hashing them.
    var buffer = [UInt8](repeating: 0, count: min(pieceBytes, max(length, 1)))
    var remaining = length
    while remaining > 0 {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, min(pieceBytes, remaining)) }
      guard n > 0 else {
        throw InputError(file: file, "the file shrank or could not be read while it was hashed (\(length - remaining) of \(length) bytes)")
      }
      buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
      remaining -= n
    }
  }

  /// Exactly `size` bytes from `fd`'s current offset.
  static func readAll(_ fd: Int32, size: Int, file: String) throws -> Data {
    var data = Data(count: size)
    var done = 0
    while done < size {
      let n = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
      guard n > 0 else { throw InputError(file: file, "the file shrank or could not be read while it was hashed") }
      done += n
    }
    return data
  }

  /// SHA-256 of a file or folder named in a batch line's flags: a folder as `MatchOutput.hash`
  /// hashes one, a file under its own name.
  static func hash(path: String) throws -> String {
    var s = stat()
    guard stat(path, &s) == 0 else { throw InputError(file: path, "no such file or folder") }
    if s.st_mode & S_IFMT == S_IFDIR { return try MatchOutput.hash(folder: URL(fileURLWithPath: path)) }
    var digest = SHA256()
    try update(&digest, file: path, relative: URL(fileURLWithPath: path).lastPathComponent)
    return digest.finish()
  }
}
