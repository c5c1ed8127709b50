import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SHA-256 digests of files, recorded by a reader as it reads them, so that the folder hash
/// (`MatchOutput.hash(folder:digests:)`) takes them instead of opening and reading the files again: a
/// 10-minute match holds 144,000 detection files, and reading them twice cost a run more than the hash
/// itself. A file is known by its device, inode, size and modification time (POSIX `stat`), so a file
/// changed since it was read is read again, and any spelling of its path finds it. Safe to use from
/// several threads.
public final class FileDigests: @unchecked Sendable {
  /// What tells a file's content unchanged without reading it.
  struct Identity: Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    init(_ s: stat) {
      device = UInt64(s.st_dev)
      inode = UInt64(s.st_ino)
      size = Int64(s.st_size)
      #if canImport(Glibc)
        modifiedSeconds = Int64(s.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(s.st_mtim.tv_nsec)
      #else
        modifiedSeconds = Int64(s.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(s.st_mtimespec.tv_nsec)
      #endif
    }
  }

  /// A SHA-256 in four words, without an array's allocation (10⁵ of them in a match).
  struct Digest {
    let words: (UInt64, UInt64, UInt64, UInt64)

    init(_ bytes: [UInt8]) {
      func word(_ i: Int) -> UInt64 { (0..<8).reduce(0) { $0 << 8 | UInt64(bytes[8 * i + $1]) } }
      words = (word(0), word(1), word(2), word(3))
    }

    var bytes: [UInt8] {
      [words.0, words.1, words.2, words.3].flatMap { w in (0..<8).map { UInt8(truncatingIfNeeded: w >> (56 - 8 * $0)) } }
    }
  }

  private let lock = NSLock()
  private var digests: [Identity: Digest] = [:]

  public init() {}

  /// How many files are recorded.
  public var count: Int { lock.withLock { digests.count } }

  /// Records the SHA-256 of `bytes`, the whole content of the regular file that `status` (its `fstat`
  /// when it was opened) describes.
  func record(_ status: stat, bytes: UnsafeRawBufferPointer) {
    let digest = Digest(SHA256.digest(bytes))
    let identity = Identity(status)
    lock.withLock { digests[identity] = digest }
  }

  /// The recorded SHA-256 of the file that `status` describes, or nil when it was not recorded or has
  /// changed since (another size or modification time).
  func digest(of status: stat) -> [UInt8]? {
    let identity = Identity(status)
    return lock.withLock { digests[identity] }?.bytes
  }
}
