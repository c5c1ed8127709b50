import MatchSceneBallFlight
import MatchSceneCore

/// Whether the ball's bounces fit a table where the venue frame puts it: a match analysed at the
/// assumed place (the calibration's world taken as the venue) whose ball comes down onto a surface at
/// table height outside the table's outline — or never onto the table at all — has its table
/// elsewhere, and its events would be invented.
///
/// Contacts are the ends of the fitted flights (where a flight meets the next one). A contact "at
/// table height" has its centre within `heightTolerance` of the resting height on the table top and
/// comes down onto it (vertical velocity down before, up after).
public struct TablePlacementCheck: Sendable {
  public var table: TableGeometry
  /// Metres around the resting height on the table top.
  public var heightTolerance = 0.06
  /// Slack around the outline, metres.
  public var edgeTolerance = 0.1
  /// Fewer flights than this say nothing either way.
  public var minimumFlights = 6

  public init(table: TableGeometry) { self.table = table }

  /// A sentence saying what does not fit, or nil when the bounces fit the table (or there is too little
  /// of the ball to tell).
  public func problem(with analysis: AnalysisResult) -> String? {
    let flights = analysis.flights
    guard flights.count >= minimumFlights else { return nil }
    let fps = analysis.motion.fps
    let resting = table.surfaceHeight + table.ballRadius
    var inside = 0, outside = 0
    for (a, b) in zip(flights, flights.dropFirst()) {
      let t = Double(a.frames.upperBound) / fps
      let p = a.position(at: t)
      guard abs(p.z - resting) <= heightTolerance, a.velocity(at: t).z < 0,
        b.velocity(at: Double(b.frames.lowerBound) / fps).z > 0
      else { continue }
      if abs(p.x) <= table.length / 2 + edgeTolerance && abs(p.y) <= table.width / 2 + edgeTolerance {
        inside += 1
      } else {
        outside += 1
      }
    }
    let tableBounces = analysis.events.filter { $0.type == .bounce && $0.surface == .table }.count
    if tableBounces == 0 && inside == 0 {
      return "the ball never bounces on a table at the assumed place (\(flights.count) flights, \(outside) bounces at table height elsewhere)"
    }
    if outside > inside {
      return "\(outside) of the ball's \(inside + outside) bounces at table height land outside a table at the assumed place"
    }
    return nil
  }
}
