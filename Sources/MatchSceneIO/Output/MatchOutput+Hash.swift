import Foundation
import MatchSceneCore

extension MatchOutput {
  /// SHA-256 over the files under `folder` that say what it holds, in path order, each as its path, its
  /// length and its bytes: a match folder's input (`match.json`'s `inputHash`), an output folder's content
  /// (the session store tells the same output added twice by it). Left out, because they repeat
  /// `tracks.csv`: `trc/`, `match.c3d` and the binary buffer of a `.glb` (its JSON chunk, with the cameras'
  /// calibrated poses and lenses, is hashed); also the `.matchscene-output` and `.matchscene-batch.json`
  /// markers; and `report.json`'s run time (`seconds`). A 10-minute match's 225 MB output hashes ~120 MB
  /// this way.
  /// - Parameter excluding: further paths relative to `folder` to leave out (a file, or a folder and
  ///   everything in it).
  /// - Throws: `InputError` naming a file that cannot be read.
  /// - Parameter skippingOutputs: also leave out every folder below `folder` that MatchScene writes whole
  ///   (`OutputFolder`): one holding the `.matchscene-output` marker, and the `.<name>.partial-…` and
  ///   `.<name>.old-…` folders of a write under way — for hashing a match folder while its output is
  ///   being written inside it.
  /// - Parameter skip: further relative paths to leave out (e.g. a batch's log files).
  ///
  /// Symbolic links are followed (a linked folder's files are hashed under the link's path; a link cycle is
  /// walked once); files are read in 1 MB pieces, so memory does not grow with their size; FIFOs, sockets
  /// and devices are left out (reading a FIFO would wait forever).
  public static func hash(
    folder: URL, excluding: [String] = [], skippingOutputs: Bool = false, skip: (String) -> Bool = { _ in false }
  ) throws -> String {
    let root = folder.standardizedFileURL.path
    let trc = File.trc.rawValue, c3d = File.c3d.rawValue
    let fm = FileManager.default
    let paths = FolderHash.files(under: root) { relative, isFolder in
      if relative.hasPrefix(trc + "/") || relative == trc || relative == c3d { return true }
      if excluding.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) || skip(relative) { return true }
      // Outputs and their staging folders are folders: a file needs no look (10⁵ of them in a match).
      if skippingOutputs && isFolder {
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".") && (name.contains(".partial-") || name.contains(".old-")) { return true }
        if fm.fileExists(atPath: root + "/" + relative + "/" + OutputFolder.markerName) { return true }
      }
      return false
    }.filter { !$0.hasSuffix(OutputFolder.markerName) && !$0.hasSuffix(".matchscene-batch.json") }
    var digest = SHA256()
    var buffer: [UInt8] = []
    for relative in paths.sorted() {
      try FolderHash.update(&digest, file: root + "/" + relative, relative: relative, buffer: &buffer)
    }
    return digest.finish()
  }

  /// SHA-256 of a file or a folder (a folder as `hash(folder:)` hashes it, a file under its own name).
  /// - Throws: `InputError` naming `path` when it does not exist or cannot be read.
  public static func hash(path: String) throws -> String { try FolderHash.hash(path: path) }

  /// SHA-256 (hex) of `bytes`.
  public static func hash(bytes: [UInt8]) -> String {
    var digest = SHA256()
    digest.update(bytes)
    return digest.finish()
  }

  /// A hash of `folder` computed on another thread from now on (`hash(folder:skippingOutputs:)`), so that
  /// a run can hash its input, or `sessions add` an output, while it reads the rest.
  public final class PendingHash: @unchecked Sendable {
    private let done = DispatchGroup()
    private var result: Result<String, any Error>?

    public init(folder: URL, skippingOutputs: Bool = true) {
      DispatchQueue.global(qos: .utility).async(group: done) { [self] in
        result = Result { try MatchOutput.hash(folder: folder, skippingOutputs: skippingOutputs) }
      }
    }

    /// The hash, once computed. - Throws: the hash's error (a file that cannot be read).
    public func value() throws -> String {
      done.wait()
      return try result!.get()
    }
  }

  /// `report.json` without its top-level `seconds` (how long the run took, which differs between two runs
  /// of the same match), re-encoded with sorted keys; the bytes as they are when it is not a JSON object.
  static func withoutRunTime(_ data: Data) -> Data {
    guard var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return data }
    object["seconds"] = nil
    return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? data
  }

  /// The JSON chunk of a binary glTF (glTF 2.0 §4.4: a 12-byte header, then chunk length, type `JSON`,
  /// data); the whole file when it is not one.
  static func glbJSONChunk(_ data: Data) -> Data {
    guard data.count >= 20 else { return data }
    let bytes = [UInt8](data.prefix(20))
    func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
    guard bytes[0..<4].elementsEqual(Array("glTF".utf8)), word(16) == 0x4E4F_534A, 20 + word(12) <= data.count else { return data }
    return data.subdata(in: (data.startIndex + 20)..<(data.startIndex + 20 + word(12)))
  }
}
