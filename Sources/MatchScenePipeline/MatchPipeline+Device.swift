import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO
import MatchSceneReconstruction

extension MatchPipeline {
  /// A match filmed by one device that gives 3D joints (`match.toml`'s `[device]`): its skeletons are
  /// read and placed in the venue (`DeviceRecording`), then analysed as a reconstructed match is — the
  /// players' smoothing and bone lengths, zones — so that tracks.csv, events.json and the scene come out
  /// as usual. The venue frame is the world (positions in tracks.csv are venue coordinates); there are
  /// no cameras and no ball.
  /// - Throws: `InputError` naming `match.toml` or the device file.
  func runOneDevice(_ folder: URL, device: DeviceConfig, fps fileFPS: Double?, sport sportName: String?) throws -> MatchResult {
    var clock = StageClock()
    let sport = try SportSpec.builtIn(options.input.sport ?? sportName ?? options.input.defaultSport)
    let fps = options.input.fps ?? fileFPS ?? sport.defaultFPS
    var motion = try DeviceRecording.load(device, fps: fps)
    if let requested = options.frames, let all = motion.frames {
      guard requested.overlaps(all) else {
        throw InputError(file: "frames option", "\(requested) holds no frames; the device recorded frames \(all)")
      }
      motion = motion.clipped(to: requested.clamped(to: all))
    }
    let zones = options.analysis ? try zones(folder: folder) : []
    clock.lap("read")
    if options.analysis {
      motion = MatchAnalyzer(table: nil, ball: sport.ballModel, ballRadius: sport.ball.radius, options: options.analysisOptions)
        .run(motion).motion
    }
    let venue = VenueFrame(venueFromWorld: .identity, source: .given)
    // The story one device can tell: hand-raise claims (the detector needs no ball: the racket hand is
    // the faster one) and zone entries, with the event definitions of a camera match.
    let claims = options.analysis ? motion.handRaiseClaims(options: options.claims ?? ClaimOptions()) : []
    let events = Self.addingZoneEvents(claims, zones: zones, motion: motion, venue: venue).sorted { $0.frame < $1.frame }
    clock.lap("analyse")
    var report = ReconstructionReport(motion: motion)
    report.sport = sport.id
    report.venue = .init(venue)
    return MatchResult(
      folder: folder, sport: sport, cameras: [], worldUp: SIMD3(0, 0, 1), venue: venue, motion: motion, events: events,
      scores: Scoreboard.compute(events, sides: Scoreboard.sides(of: motion)), playerNames: [:], calibrationCheck: nil,
      calibrationRefinement: nil, report: report, diagnostics: [], frames: motion.frames ?? 0...0, analysed: options.analysis,
      timings: clock.laps)
  }
}
