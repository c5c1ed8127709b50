import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO
import MatchSceneReconstruction

/// One reconstructed and analysed match, as `MatchPipeline.run` returns it; `write(to:options:)` puts
/// it on disk.
public struct MatchResult: Sendable {
  /// The match folder read.
  public var folder: URL
  /// The sport: venue dimensions and the ball.
  public var sport: SportSpec
  public var cameras: [Camera]
  /// The calibration world's up direction (`match.toml`'s `up`).
  public var worldUp: SIMD3<Double>
  /// The venue frame the analysis worked in.
  public var venue: VenueFrame
  /// Every track, in the calibration's world frame: players `P1`, `P2`…, other people `B1`…, the ball.
  public var motion: MotionModel
  /// The match's events, positions in the world frame (table halves are the venue frame's).
  public var events: [MatchEvent]
  /// The point won at the end of each rally.
  public var scores: [ScoreEntry]
  /// How the score was kept (rules, policy, claim hold).
  public var scoreSettings = ScoreSettings()
  /// Rallies where the automatic point and a claim disagree.
  public var disagreements: [ScoreDisagreement] = []
  /// A name per player id (`match.toml`'s `[players]`).
  public var playerNames: [String: String]
  /// How each camera's calibration agrees with the others; nil when not checked.
  public var calibrationCheck: CalibrationSelfCheckResult?
  /// The bundle adjustment's corrections, when `refineCalibration` was asked for (`cameras` are then the
  /// refined ones).
  public var calibrationRefinement: CalibrationRefinementResult?
  /// The refinement was made for this run only, because a camera disagreed
  /// (`PipelineOptions.correctDisagreeingCameras`), not asked for; `calibration-refined.toml` is written either way.
  public var calibrationCorrectedInternally = false
  /// Quality figures; nil when no frame was processed.
  public var report: ReconstructionReport?
  /// Warnings and notes met on the way (reading, venue, analysis).
  public var diagnostics: [Diagnostic]
  /// The frames processed.
  public var frames: ClosedRange<Int>
  /// Whether the time analysis ran.
  public var analysed: Bool
  /// Seconds spent per stage: `read`, `reconstruct`, `analyse`.
  public var timings: [(stage: String, seconds: Double)]
  /// Which cameras each person joint was triangulated from (written as `views.csv`); nil when not known.
  public var viewsUsed: ViewsUsed? = nil
  /// The settings the run used, by name, as the manifest records them (`MatchManifest.options`).
  public var settings: [String: SettingValue] = [:]
  /// The SHA-256 of the match folder read (`MatchOutput.hash`, MatchScene's outputs inside it left out);
  /// nil: `write(to:options:)` computes it (and the manifest has none when a file there cannot be read).
  public var inputHash: String?
  /// The settings the run used and where each came from (`PipelineOptions.resolved(for:)`); nil when
  /// not recorded.
  public var resolvedOptions: ResolvedOptions? = nil

  /// The players' ids, in order.
  public var playerIDs: [String] { motion.tracks.filter { $0.kind == .player }.map(\.id) }
  /// The other people's ids, in order.
  public var personIDs: [String] { motion.tracks.filter { $0.kind == .person }.map(\.id) }
  /// Frames with a ball.
  public var ballFrames: Int { motion.ballTrack.map { motion.tracks[$0].presentFrameCount } ?? 0 }
}
