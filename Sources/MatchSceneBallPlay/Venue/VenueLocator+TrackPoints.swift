import MatchSceneCore

extension VenueLocator {
  /// The ball's positions by frame among `points` (rows of `tracks.csv`: those of kind `ball`; the
  /// first of a frame when there are several).
  public static func ball(in points: [TrackPoint]) -> [Int: SIMD3<Double>] {
    var ball: [Int: SIMD3<Double>] = [:]
    for p in points where p.kind == .ball && ball[p.frame] == nil { ball[p.frame] = p.position }
    return ball
  }

  /// Locates the venue from a reconstruction's ball (`matchscene locate-venue <out>` reads
  /// `tracks.csv` and calls this). - Throws: `VenueLocatorError`.
  public func locate(_ reconstruction: Reconstruction, upHint: SIMD3<Double> = SIMD3(0, 0, 1)) throws -> VenueEstimate {
    try locate(ball: Self.ball(in: reconstruction.points), fps: reconstruction.fps, upHint: upHint)
  }
}
