import Foundation
import MatchSceneAnalysis
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO
import MatchSceneReconstruction

/// Everything that steers one run of `MatchPipeline`. Every default gives what `matchscene reconstruct`
/// gives without flags.
public struct PipelineOptions: Sendable {
  /// Where the parts of the match folder are, and overrides of `match.toml` (fps, sport, skeleton).
  public var input = MatchFolderOptions()
  /// Only these match frames (default: the frames every camera with detections covers).
  public var frames: ClosedRange<Int>?
  /// Association, triangulation, tracking.
  public var reconstruction = ReconstructionOptions()
  /// Run the time analysis (smoothing, bone lengths, ball flights, events); off writes the per-frame
  /// triangulation as it is.
  public var analysis = true
  public var analysisOptions = AnalysisOptions()
  /// The venue frame to analyse in, overriding `match.toml`'s `[venue]`.
  public var venue: VenueFrame?
  /// Who plays: the rules that tell players from other people.
  public var roles = PlayerRoles()
  /// Check each camera's calibration against the others (warnings name a camera that disagrees).
  public var checkCalibration = true
  /// How the match is scored, overriding `match.toml`'s `[score]` (nil: that table, else the defaults).
  public var score: ScoreSettings?
  /// The score policy alone, overriding both (`reconstruct --score-policy`).
  public var scorePolicy: ScorePolicy?
  /// The hand-raise claim detector's settings (nil: defaults, the hold from the score settings).
  public var claims: ClaimOptions?
  /// Refine the cameras' extrinsics by a robust bundle adjustment over the reconstructed people, then
  /// reconstruct again with them (`MatchResult.calibrationRefinement`; written as
  /// `calibration-refined.toml`). Cameras the check trusts stay fixed when a camera disagrees.
  public var refineCalibration = false
  /// When the check finds a camera that disagrees with the others, correct its pose from the match for
  /// this run (the same robust bundle adjustment as `refineCalibration`, the trusted cameras holding the
  /// world frame) and reconstruct with it; `calibration-refined.toml` is written only with
  /// `refineCalibration`. False: the calibration as given (`reconstruct --keep-calibration`).
  public var correctDisagreeingCameras = true
  /// After a refinement, weigh the views equally (gates still in each camera's re-estimated noise units)
  /// unless `weighViewsByNoise` or `match.toml`'s `view_weights` says otherwise. The bundle adjustment
  /// takes out the cameras' systematic residuals; what is left differs between cameras mostly by how the
  /// detector places a joint from each viewpoint, the same in every frame, which a 1/σ weight would let
  /// the steadiest camera decide alone (Pose2Sim demo, cam_01/02/03/04: 3.1 / 7.9 / 12.4 / 9.3 px over all
  /// views with noise weights, 5.4 / 6.7 / 8.0 / 6.3 px equal).
  public var equalWeightsAfterRefinement = true
  /// After a refinement that re-chooses the world frame (every camera refined), level that frame on
  /// the floor where standing people's feet rest (`FloorContact`, `FloorLevelling`): a tilt and lift of
  /// the whole rig and scene, which leaves every projection as it is but leaves the calibration's world
  /// (`reconstruct --level-on-floor`). False, the default: coordinates stay in the world of the
  /// calibration given, and the floor's tilt is reported (`report.json`'s `floor`).
  public var levelOnFloorContacts = false
  /// Estimate each camera's systematic offset per joint from the match (`DetectorBias`) and, when it is
  /// significant, remove it from the detections and reconstruct again (`reconstruct --keep-detector-bias`
  /// turns it off).
  public var removeDetectorBias = true
  /// Also refine focal lengths (with `refineCalibration`).
  public var refineFocal = false
  /// Bone lengths as a weighted term that keeps each joint within its reprojection tolerance
  /// (`SoftBoneLengths`, the default), or held fixed by moving joints (`BoneLengthConstraint`, false;
  /// `reconstruct --hard-bones`). Used when `analysisOptions.boneLengths` is on and
  /// `analysisOptions.softBones` is not set.
  public var softBones = true
  /// The view-selection gate in noise units, overriding `match.toml`'s `view_gate`; 0 keeps the fixed
  /// pixel gate (`reconstruction.triangulation.maxReprojectionPx`). nil: `match.toml`, else
  /// `reconstruction.viewGateSigmas`.
  public var viewGateSigmas: Double?
  /// Weigh views by 1 / their camera's noise scale (true) or equally (false), overriding `match.toml`'s
  /// `view_weights`; nil: that key, else `reconstruction.weighViewsByNoise`.
  public var weighViewsByNoise: Bool?
  /// A `zones.toml` whose zone entries and exits become events (default: the match folder's
  /// `zones.toml`, when there is one).
  public var zones: URL?
  /// Estimate each camera's time offset from the detections when `match.toml` gives no
  /// `[frame_offsets]` (`CameraSync`), and use it when a camera is clearly off (`MatchPipeline.synchronise`).
  public var estimateSync = true
  public var syncOptions = CameraSyncOptions()

  public init() {}

  /// The lowest smoothing cutoff accepted, Hz: the Butterworth filter's lowest relative cutoff
  /// (`Butterworth.minimumRelativeCutoff`) at the highest frame rate accepted (10000 fps).
  public static let minimumCutoff = 0.01

  /// Checks the options before any work starts.
  /// - Throws: `InputError` naming the option and the accepted range.
  public func check() throws {
    try score?.rules.validate(file: "score options")
    try claims?.validate()
    try analysisOptions.ballAtRest.validate()
    let smoothing = analysisOptions.smoothing
    guard smoothing.cutoff.isFinite, smoothing.cutoff >= Self.minimumCutoff else {
      throw InputError(file: "cutoff option", "must be at least \(Self.minimumCutoff) Hz, got \(smoothing.cutoff)")
    }
    guard smoothing.maxGap.isFinite, smoothing.maxGap >= 0, smoothing.maxGap <= 60 else {
      throw InputError(file: "max-gap option", "must be between 0 and 60 seconds, got \(smoothing.maxGap)")
    }
    if let gate = viewGateSigmas, !(gate >= 0 && gate <= MatchConfig.maxViewGate) {
      throw InputError(file: "view-gate option", "must be 0 (the fixed pixel gate) or a number of noise scales up to \(Int(MatchConfig.maxViewGate)), got \(gate)")
    }
    if let fps = input.fps, !(fps.isFinite && fps >= 1 && fps <= 10_000) {
      throw InputError(file: "fps option", "must be between 1 and 10000 frames per second, got \(fps)")
    }
  }
}

extension PipelineOptions {
  /// The calibration a diagnostic about a camera names: the file or folder given in
  /// `input.calibration`, else the match's own `calibration/` folder.
  func calibrationLabel(_ folder: URL) -> String {
    (input.calibration ?? folder.appendingPathComponent("calibration")).path
  }
}
