import Foundation
import MatchSceneCore
import MatchSceneIO

/// `.matchscene-batch.json` in a match's output folder, written after the folder was swapped in whole:
/// the input's SHA-256, the flags and the tool version that made it. A batch re-run skips an entry whose
/// marker matches; a killed run leaves either the previous folder with its marker or the new folder
/// without one (done again next time). The marker lists the output's files with their sizes: an output
/// missing one (a deleted `tracks.csv`) is not done, however its marker reads.
public struct BatchMarker: Codable, Sendable, Equatable {
  public static let fileName = ".matchscene-batch.json"
  public var inputHash: String
  public var flags: [String]
  public var toolVersion: String
  public var finishedAt: String
  /// Every file of the output when it was marked (path relative to the folder → bytes); nil in markers
  /// written before this was recorded, whose output then only needs its `tracks.csv`.
  public var files: [String: Int]?

  public init(inputHash: String, flags: [String], toolVersion: String, finishedAt: Date = Date(), files: [String: Int]? = nil) {
    self.inputHash = inputHash
    self.flags = flags
    self.toolVersion = toolVersion
    let f = ISO8601DateFormatter()
    self.finishedAt = f.string(from: finishedAt)
    self.files = files
  }

  /// The regular files under `output` (links not followed) with their sizes, the marker itself left out.
  public static func files(in output: URL) -> [String: Int] {
    let fm = FileManager.default
    var out: [String: Int] = [:]
    guard let walker = fm.enumerator(atPath: output.path) else { return out }
    for case let relative as String in walker where relative != fileName {
      guard let attributes = try? fm.attributesOfItem(atPath: output.appendingPathComponent(relative).path),
        attributes[.type] as? FileAttributeType == .typeRegular
      else { continue }
      out[relative] = (attributes[.size] as? NSNumber)?.intValue ?? 0
    }
    return out
  }

  /// The files of `files` missing from `output` or of another size now (`tracks.csv` when the marker
  /// lists none); empty when the output is whole.
  public func missingFiles(in output: URL) -> [String] {
    let fm = FileManager.default
    guard let files else {
      let tracks = MatchOutput.File.tracks.rawValue
      return fm.fileExists(atPath: output.appendingPathComponent(tracks).path) ? [] : [tracks]
    }
    return files.keys.sorted().filter { relative in
      let attributes = try? fm.attributesOfItem(atPath: output.appendingPathComponent(relative).path)
      return (attributes?[.size] as? NSNumber)?.intValue != files[relative]
    }
  }

  /// The marker in `output`, nil when there is none or it cannot be read.
  public static func read(in output: URL) -> BatchMarker? {
    guard let data = FileManager.default.contents(atPath: output.appendingPathComponent(fileName).path) else { return nil }
    return try? JSONDecoder().decode(BatchMarker.self, from: data)
  }

  public func write(in output: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try AtomicFile.write(try encoder.encode(self), to: output.appendingPathComponent(Self.fileName))
  }

  /// Whether this marker says the same input was run with the same flags by the same tool.
  public func matches(inputHash: String, flags: [String], toolVersion: String) -> Bool {
    self.inputHash == inputHash && self.flags == flags && self.toolVersion == toolVersion
  }
}
