import Foundation
import MatchSceneCore

/// `.matchscene-batch.json` in a match's output folder, written after the folder was swapped in whole:
/// the input's SHA-256, the flags and the tool version that made it. A batch re-run skips an entry whose
/// marker matches; a killed run leaves either the previous folder with its marker or the new folder
/// without one (done again next time).
public struct BatchMarker: Codable, Sendable, Equatable {
  public static let fileName = ".matchscene-batch.json"
  public var inputHash: String
  public var flags: [String]
  public var toolVersion: String
  public var finishedAt: String

  public init(inputHash: String, flags: [String], toolVersion: String, finishedAt: Date = Date()) {
    self.inputHash = inputHash
    self.flags = flags
    self.toolVersion = toolVersion
    let f = ISO8601DateFormatter()
    self.finishedAt = f.string(from: finishedAt)
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
