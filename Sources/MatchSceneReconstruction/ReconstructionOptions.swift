import MatchSceneGeometry

/// Settings of `Reconstructor`. Defaults suit table-sized scenes filmed in HD at 30–120 fps.
public struct ReconstructionOptions: Sendable {
  /// Triangulation of joints and the ball (robust by default: view rejection + LM with Huber loss).
  public var triangulation: TriangulationOptions = .robust
  /// Adaptive view selection: with robust triangulation, each camera's noise scale is estimated from
  /// the match (`CameraNoise`) and a view is rejected while its reprojection error exceeds this many of
  /// its camera's noise scales; views are weighed by 1 / their camera's noise scale, and the largest set
  /// of views consistent within the gate is kept. nil: the fixed pixel gate
  /// (`triangulation.maxReprojectionPx`) and equal weights (`match.toml` `view_gate = 0` /
  /// `--view-gate 0`). 5 noise scales lets through all but 4·10⁻⁶ of Gaussian inliers (the error length
  /// is Rayleigh: P(r > kσ) = exp(−k²/2)), about the old 8 px gate at the simulator's 1.4 px noise;
  /// the Huber loss (1.345 σ) weighs down what lies between.
  public var viewGateSigmas: Double? = 5
  /// Adaptive view selection: weigh each view by 1 / its camera's noise scale (maximum likelihood, the
  /// default), or only gate in noise units and weigh pixels equally (`view_weights = "equal"`: spreads
  /// the error over every camera, as Pose2Sim does, at the cost of following the noisier ones).
  public var weighViewsByNoise = true
  /// Adaptive view selection: frames sampled (evenly over the match) to estimate the noise scales.
  public var noiseSampleFrames = 150
  /// Association: two detections in different cameras may be the same person when the median
  /// distance between their joints' viewing rays is below this, metres.
  public var maxRayDistance: Double = 0.12
  /// Association: joints both detections must share for the comparison to count.
  public var minSharedJoints = 5
  /// A person needs this many cameras to be reconstructed.
  public var minViewsPerPerson = 2
  /// Tracking: largest distance a person's centre may move per second, m/s (gates frame-to-frame links):
  /// the upper limit of the speed the tracker measures on the match (`PersonSpeeds`), and the speed
  /// used until it has measured enough.
  public var maxPersonSpeed: Double = 8
  /// Tracking: slack added to the gate, metres (covers reconstruction noise of the centre).
  public var trackGateSlack: Double = 0.35
  /// Tracking: after half a second unseen, the gate grows at this speed, m/s.
  public var walkingSpeed: Double = 2
  /// Tracking: metres of cost per metre of mean limb-length difference.
  public var limbDifferenceWeight: Double = 5
  /// Tracking: a person whose limbs differ from a track's by more than this (median over limbs,
  /// metres) is not it. Triangulated limb lengths scatter by a few millimetres; two adults rarely
  /// match within a centimetre on most limbs.
  public var maxLimbDifference: Double = 0.01
  /// Tracking: a track unseen for longer than this (seconds) must match a person's proportions within
  /// `maxLimbDifference` to take them (re-identification); a track seen more recently is continued on
  /// position, with proportions as a soft cost only.
  public var reidentificationGap: Double = 0.5
  /// Tracking: a person needs this many reconstructed joints to open a new track.
  public var minJointsForNewTrack = 10
  /// Tracks shorter than this (seconds) are dropped as spurious; in a clip shorter than twice this,
  /// tracks seen in at least half its frames are kept (a static trial of 0.2 s).
  public var minTrackDuration: Double = 0.5
  /// Ball: a candidate agrees with a hypothesis when it lies within this many pixels of its projection.
  public var ballInlierPx: Double = 6
  /// Ball: largest plausible ball speed, m/s (gates candidates against the previous position).
  public var maxBallSpeed: Double = 35
  /// Ball: a frame's ball is kept only when at least this many views agree (2 accepts any pair).
  public var minBallViews = 2
  /// Work on frames in parallel.
  public var parallel = true
  /// Tracking: link tracklets by the global optimum over the whole match (`globalChains`, min-cost
  /// flow as an assignment) before the greedy joining in time order. Off by default: at 2× keypoint
  /// noise, 3 % outliers and 4 % swaps it split the bystander (seen by two cameras) more than the
  /// greedy joining alone (seed 2, 60 s: 8 identity switches of the bystander against 6; players
  /// unaffected).
  public var globalTrackletLinking = false
  /// Tracking: a track lost for longer than `reidentificationGap` may take a person back only if no
  /// other track (seen 30 times or more, not nearer someone else) predicts a place nearer the person,
  /// in units of how far each could have moved since it was seen (`IdentityTracker.isExplainedBetter`).
  /// Off by default: at 2× keypoint noise, 3 % outliers and 4 % swaps (60 s) it took seed 3 from 6
  /// identity switches to 0 but seed 2 from 12 to 14 and left seed 4 at 14.
  public var reidentifyByBestExplanation = false

  public init() {}
}

extension ReconstructionOptions {
  /// The triangulation of people's joints in noise units (`viewGateSigmas`, `weighViewsByNoise`), to be
  /// given each camera's noise scale; nil with the fixed pixel gate or without robust triangulation.
  public var noiseGatedTriangulation: TriangulationOptions? {
    guard let sigmas = viewGateSigmas, triangulation.robust else { return nil }
    var scaled = triangulation
    scaled.gateSigmas = sigmas
    scaled.noiseWeighting = weighViewsByNoise
    return scaled
  }
}
