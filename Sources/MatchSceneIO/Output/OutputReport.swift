import Foundation
import MatchSceneCore

/// What later commands read from an output folder's `report.json` (the only reader of that file; the
/// pipeline's `ReconstructionReport` writes it): the frame rate, sport, venue frame and player names.
/// `MatchOutput` uses it for the fallback of a folder without `match.json`, and for the player names.
struct OutputReport: Sendable, Decodable {
  var fps: Double?
  var sport: String?
  /// Nil when the report has none, or one whose vectors are not three numbers each.
  var venue: ManifestVenue?
  var playerNames: [String: String]?
  /// Every keypoint of the reconstruction's skeleton, in its order (`joints[].joint`).
  var joints: [String]?

  enum CodingKeys: String, CodingKey { case fps, sport, venue, playerNames, joints }
  private struct Joint: Decodable { var joint: String }

  init(from decoder: Decoder) throws {
    let keys = try decoder.container(keyedBy: CodingKeys.self)
    fps = try keys.decodeIfPresent(Double.self, forKey: .fps)
    sport = try keys.decodeIfPresent(String.self, forKey: .sport)
    venue = try? keys.decodeIfPresent(ManifestVenue.self, forKey: .venue)
    playerNames = try keys.decodeIfPresent([String: String].self, forKey: .playerNames)
    joints = (try? keys.decodeIfPresent([Joint].self, forKey: .joints))?.map(\.joint)
  }

  /// Reads `folder`'s `report.json`; nil when there is none.
  /// - Throws: `InputError` naming the file (and key) when it is not a report.
  static func read(folder: URL) throws -> OutputReport? {
    let url = MatchOutput.url(.report, in: folder)
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    do {
      return try JSONDecoder().decode(OutputReport.self, from: data)
    } catch let error as DecodingError {
      throw JSONErrors.inputError(error, data: data, file: url.path) { _ in "the report of `matchscene reconstruct`" }
    }
  }
}
