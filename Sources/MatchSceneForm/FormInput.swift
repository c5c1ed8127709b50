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

  struct Report: Decodable {
    struct Venue: Decodable { var source: String; var up: [Double]; var origin: [Double]; var longAxis: [Double] }
    var fps: Double
    var venue: Venue?
    var sport: String?
  }

  /// Reads an output folder.
  /// - Parameter skeleton: the skeleton of tracks.csv's joint names (default COCO-17).
  /// - Throws: `InputError` naming the missing or malformed file.
  public static func load(_ folder: URL, skeleton: Skeleton = .coco17) throws -> FormInput {
    let tracks = folder.appendingPathComponent("tracks.csv")
    guard FileManager.default.fileExists(atPath: tracks.path) else {
      throw InputError(file: tracks.path, "not found: expected the output folder of `matchscene reconstruct`")
    }
    let reportURL = folder.appendingPathComponent("report.json")
    let report: Report
    do {
      report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: reportURL))
    } catch {
      throw InputError(file: reportURL.path, "expected report.json of `matchscene reconstruct` with fps and venue: \(error)")
    }
    var venue = VenueFrame.assumed(worldUp: SIMD3(0, 0, 1))
    if let v = report.venue, v.up.count == 3, v.origin.count == 3, v.longAxis.count == 3,
      let frame = VenueFrame(
        up: SIMD3(v.up[0], v.up[1], v.up[2]), origin: SIMD3(v.origin[0], v.origin[1], v.origin[2]),
        longAxis: SIMD3(v.longAxis[0], v.longAxis[1], v.longAxis[2]), source: VenueFrame.Source(rawValue: v.source) ?? .given)
    {
      venue = frame
    }
    // Only the players and the ball are analysed: other people's rows are left out of the model.
    let motion = try TracksCSV.readMotion(from: tracks, fps: report.fps, skeleton: skeleton, kinds: [.player, .ball])
    let eventsURL = folder.appendingPathComponent("events.json")
    let events = FileManager.default.fileExists(atPath: eventsURL.path) ? try EventsJSON.read(from: eventsURL) : []
    return FormInput(motion: motion, events: events, venue: venue,
      sport: report.sport ?? "table-tennis")
  }
}
