import Foundation
import MatchSceneCore
import MatchSceneIO

/// What `matchscene form` and `clip` read from a `reconstruct` output folder: `tracks.csv` (world
/// frame), `events.json`, and the venue frame and frame rate from `report.json`.
public struct FormInput: Sendable {
  public var motion: MotionModel
  public var events: [MatchEvent]
  public var venue: VenueFrame
  /// The sport's id (report.json's `sport`, else table tennis).
  public var sport: String

  public init(motion: MotionModel, events: [MatchEvent], venue: VenueFrame, sport: String = "table-tennis") {
    self.motion = motion
    self.events = events
    self.venue = venue
    self.sport = sport
  }

  /// Reads an output folder.
  /// - Parameter skeleton: the skeleton of tracks.csv's joint names (default COCO-17).
  /// - Throws: `InputError` naming the missing or malformed file.
  public static func load(_ folder: URL, skeleton: Skeleton = .coco17) throws -> FormInput {
    let tracks = folder.appendingPathComponent("tracks.csv")
    guard FileManager.default.fileExists(atPath: tracks.path) else {
      throw InputError(file: tracks.path, "not found: expected the output folder of `matchscene reconstruct`")
    }
    let report = try OutputReport.read(folder: folder)
    // Only the players and the ball are analysed: other people's rows are left out of the model.
    let motion = try TracksCSV.readMotion(from: tracks, fps: report.fps, skeleton: skeleton, kinds: [.player, .ball])
    let eventsURL = folder.appendingPathComponent("events.json")
    let events = FileManager.default.fileExists(atPath: eventsURL.path) ? try EventsJSON.read(from: eventsURL) : []
    return FormInput(motion: motion, events: events, venue: report.venue,
      sport: report.sport ?? "table-tennis")
  }
}
