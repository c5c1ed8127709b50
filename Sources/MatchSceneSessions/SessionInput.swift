import Foundation
import MatchSceneCore
import MatchSceneIO

/// What `sessions add` stores from one output folder of `matchscene reconstruct` (`MatchOutput`): its
/// tracks, events, report and manifest, the optional form-analysis files, and the SHA-256 of the folder's
/// files (`MatchOutput.hash`), which tells the same output added twice.
public struct SessionInput: Sendable {
  /// The folder read.
  public var source: URL
  public var motion: MotionModel
  public var events: [MatchEvent]
  public var sport: String
  public var venue: VenueFrame?
  /// Track → name, from the report's `playerNames`.
  public var playerNames: [String: String]
  /// Files kept whole by name (`documentFiles`) when present.
  public var documents: [String: Data]
  /// SHA-256 (hex) over the folder's files, in path order, each as its path, its length and its bytes.
  public var inputHash: String

  /// Files kept whole when the folder has them (`strokes.json` and `angles.csv` come from the form analysis;
  /// `match.json` is written back by `sessions export`).
  public static let documentFiles: [MatchOutput.File] = [.report, .manifest, .strokes, .angles, .form]
  /// The names of `documentFiles`.
  public static var documentNames: [String] { documentFiles.map(\.rawValue) }

  public init(
    source: URL, motion: MotionModel, events: [MatchEvent], sport: String, venue: VenueFrame?,
    playerNames: [String: String], documents: [String: Data], inputHash: String
  ) {
    self.source = source
    self.motion = motion
    self.events = events
    self.sport = sport
    self.venue = venue
    self.playerNames = playerNames
    self.documents = documents
    self.inputHash = inputHash
  }

  /// Reads an output folder (`MatchOutput`: its skeleton, frame rate, sport and venue from `match.json`, or by
  /// the fallback for a folder written before it).
  /// - Throws: `InputError` naming the folder when it has no tracks, or the file that cannot be read.
  public static func read(outputFolder folder: URL) throws -> SessionInput {
    let output = try MatchOutput.open(folder)
    // The hash reads ~120 MB for a 10-minute match while the tracks are parsed beside it.
    let pending = MatchOutput.PendingHash(folder: folder, skippingOutputs: false)
    defer { _ = try? pending.value() }
    var documents: [String: Data] = [:]
    for file in documentFiles {
      if let data = FileManager.default.contents(atPath: output.url(file).path) { documents[file.rawValue] = data }
    }
    let motion = try output.motion()
    // A sparse match's tracks read on a compact axis (`FrameAxis`): its events go onto it too, so that
    // rallies and tracks agree.
    return SessionInput(
      source: folder, motion: motion, events: motion.axis.compact(try output.events(), fps: motion.fps), sport: output.manifest.sport,
      venue: output.recordedVenue, playerNames: output.playerNames, documents: documents, inputHash: try pending.value())
  }

  /// SHA-256 over the output folder's files (`MatchOutput.hash(folder:excluding:skip:)`: links followed,
  /// read in pieces).
  public static func hash(folder: URL, excluding: [String] = [], skip: (String) -> Bool = { _ in false }) throws -> String {
    try MatchOutput.hash(folder: folder, excluding: excluding, skip: skip)
  }

  /// SHA-256 of a file or a folder (`MatchOutput.hash(path:)`).
  public static func hash(path: String) throws -> String { try MatchOutput.hash(path: path) }

  /// SHA-256 (hex) of `bytes`.
  public static func hash(bytes: [UInt8]) -> String { MatchOutput.hash(bytes: bytes) }
}
