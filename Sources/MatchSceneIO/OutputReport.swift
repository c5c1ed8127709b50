import Foundation
import MatchSceneCore

/// What later commands (`form`, `clip`, `drill`) read from a `reconstruct` output folder's
/// `report.json`: the frame rate, the venue frame and the sport.
public struct OutputReport: Sendable {
  public var fps: Double
  /// The venue frame of the run (`assumed` z-up when the report has none).
  public var venue: VenueFrame
  public var sport: String?

  struct Report: Decodable {
    struct Venue: Decodable { var source: String; var up: [Double]; var origin: [Double]; var longAxis: [Double] }
    var fps: Double
    var venue: Venue?
    var sport: String?
  }

  /// Reads `folder/report.json`. - Throws: `InputError` naming the file when missing or malformed.
  public static func read(folder: URL) throws -> OutputReport {
    let url = folder.appendingPathComponent("report.json")
    let report: Report
    do {
      report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: url))
    } catch {
      throw InputError(file: url.path, "expected report.json of `matchscene reconstruct` with fps and venue: \(error)")
    }
    var venue = VenueFrame.assumed(worldUp: SIMD3(0, 0, 1))
    if let v = report.venue, v.up.count == 3, v.origin.count == 3, v.longAxis.count == 3,
      let frame = VenueFrame(
        up: SIMD3(v.up[0], v.up[1], v.up[2]), origin: SIMD3(v.origin[0], v.origin[1], v.origin[2]),
        longAxis: SIMD3(v.longAxis[0], v.longAxis[1], v.longAxis[2]), source: VenueFrame.Source(rawValue: v.source) ?? .given)
    {
      venue = frame
    }
    return OutputReport(fps: report.fps, venue: venue, sport: report.sport)
  }
}
