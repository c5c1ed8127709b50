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
  /// (each real folder, by device and inode, walked once, so a link cycle ends); a folder or file for which
  /// `leaveOut` says true is not entered or listed. FIFOs, sockets and devices are left out. The entry
  /// types come from `readdir` (POSIX.1-2008 `d_type`); only links and entries of unknown type are
  /// `stat`ed — a match folder holds ~10⁵ files.
  static func files(under root: String, leaveOut: (_ relative: String, _ isFolder: Bool) -> Bool) -> [String] {
    var out: [String] = []
    var visited = Set<FolderID>()
    func walk(_ folder: String, _ prefix: String) {
      var s = stat()
      guard stat(folder, &s) == 0, visited.insert(FolderID(device: UInt64(s.st_dev), inode: UInt64(s.st_ino))).inserted,
        let dir = opendir(folder)
      else { return }
      defer { closedir(dir) }
      var folders: [(path: String, relative: String)] = []
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if name == "." || name == ".." { continue }
        let relative = prefix.isEmpty ? name : prefix + "/" + name
        let path = folder + "/" + name
        var kind = Int32(entry.pointee.d_type)
        if kind != Int32(DT_DIR) && kind != Int32(DT_REG) {
          var target = stat()
          guard stat(path, &target) == 0 else { continue }  // a dangling link
          switch target.st_mode & S_IFMT {
          case S_IFDIR: kind = Int32(DT_DIR)
          case S_IFREG: kind = Int32(DT_REG)
          default: continue
          }
        }
        if kind == Int32(DT_DIR) {
          if !leaveOut(relative, true) { folders.append((path, relative)) }
        } else if !leaveOut(relative, false) {
          out.append(relative)
        }
      }
      for sub in folders { walk(sub.path, sub.relative) }
    }
    walk(root, "")
    return out
  }

  /// A folder's identity, whatever path reaches it.
  struct FolderID: Hashable {
    let device: UInt64
    let inode: UInt64
  }

  /// Feeds `relative`, the length hashed and the bytes hashed of `file`: a `.glb`'s JSON chunk only,
  /// `report.json` without its run time, any other file whole — in `pieceBytes` pieces.
  /// - Throws: `InputError` naming the file when it cannot be read or shrinks while it is read.
  static func update(_ digest: inout SHA256, file: String, relative: String) throws {
    var buffer: [UInt8] = []
    try update(&digest, file: file, relative: relative, buffer: &buffer)
  }

  /// As `update(_:file:relative:)`, reading through `buffer` (grown to at most `pieceBytes` and kept, so a
  /// walk over 10⁵ small files allocates it once).
  static func update(_ digest: inout SHA256, file: String, relative: String, buffer: inout [UInt8]) throws {
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
    // Grown to the largest file read so far, up to a piece: a match folder holds ~10⁵ small JSON files,
    // and a fresh zeroed 1 MB buffer for each (mapped and unmapped by malloc) cost more than hashing them.
    if buffer.count < min(pieceBytes, max(length, 1)) { buffer = [UInt8](repeating: 0, count: min(pieceBytes, max(length, 1))) }
    var remaining = length
    while remaining > 0 {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, min($0.count, remaining)) }
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
