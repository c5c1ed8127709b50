import MatchSceneCore

/// A synthetic match and its ground truth.
public struct SimulatedMatch: Sendable {
  /// What a real capture would give: cameras, per-camera 2D detections keyed by camera frame, fps,
  /// sport `table-tennis`, skeleton COCO-17.
  public var match: Match
  /// True 3D points at every frame: players `P1` (negative x) and `P2` (positive x), the bystander
  /// `B1` (kind `.person`) when enabled, and `ball` while it is in play or held by the server.
  /// Every sample is measured, with `reprojectionPx` 0 and `views` the number of cameras whose image
  /// contains the point.
  public var truth: MotionModel
  /// True events, in time order; `frame` is the nearest frame.
  public var events: [MatchEvent]
  /// The configuration that produced this match.
  public var config: SimulationConfig
  /// The strokes played, in time order (within the match's frames).
  public var strokes: [SimulatedStroke]
  /// The arm gestures made (claims, decoys, high tosses), in time order; empty unless
  /// `SimulationConfig.gestures` asks for them.
  public var gestures: [SimulatedGesture] = []
  /// The cameras as they truly are; `match.cameras` is what the calibration says
  /// (`RigConfig.calibrationError`). Equal unless calibration errors are simulated.
  public var trueCameras: [Camera] = []
  /// Each camera's true clock (`SimulationConfig.unsync`); all zero offsets when synchronised.
  public var clocks: [SimulatedCameraClock] = []
  /// The ball's true drag and per-flight spin (`truth/ball.json`).
  public var ball: SimulatedBallTruth?

  public init(
    match: Match, truth: MotionModel, events: [MatchEvent], config: SimulationConfig, strokes: [SimulatedStroke] = []
  ) {
    self.match = match
    self.truth = truth
    self.events = events
    self.config = config
    self.strokes = strokes
  }
}
