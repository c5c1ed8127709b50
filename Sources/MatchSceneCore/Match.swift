/// Everything MatchScene reads about one recorded match: calibrated cameras, the skeleton the
/// detector uses, the timing, and the 2D detections of every camera.
public struct Match: Sendable {
  /// Sport identifier (`table-tennis`, `tennis`, …); selects venue and ball constants in `Assets/`.
  public var sport: String
  /// Capture rate in frames per second (every camera is assumed to run at it).
  public var fps: Double
  public var skeleton: Skeleton
  /// Cameras in a fixed order; detections refer to them by name.
  public var cameras: [Camera]
  /// Per camera: its frame number minus the match frame number (`cameraFrame = matchFrame + offset`).
  public var frameOffsets: [String: Int]
  /// Per camera name: its detections, keyed by the camera's own frame number.
  public var detections: [String: CameraDetections]
  /// Direction of "up" in the calibration's world frame; (0, 0, 1) for Pose2Sim / anipose rigs.
  public var worldUp: SIMD3<Double>
  /// Where the venue is in the calibration's world (`match.toml`'s `[venue]`); nil when nothing says so.
  public var venue: VenueFrame?
  /// A name per player track id (`match.toml`'s `[players]`: `P1 = "Ana"`).
  public var playerNames: [String: String] = [:]
  /// How the match is scored (`match.toml`'s `[score]`); nil when it says nothing.
  public var scoreSettings: ScoreSettings?
  /// The view-selection gate in noise units (`match.toml`'s `view_gate`; 0: the fixed pixel gate); nil
  /// when it says nothing.
  public var viewGateSigmas: Double?
  /// `match.toml`'s `view_weights`: true for "noise", false for "equal"; nil when it says nothing.
  public var weighViewsByNoise: Bool?

  public init(
    sport: String = "table-tennis", fps: Double, skeleton: Skeleton = .coco17, cameras: [Camera],
    frameOffsets: [String: Int] = [:], detections: [String: CameraDetections] = [:],
    worldUp: SIMD3<Double> = SIMD3(0, 0, 1)
  ) {
    self.sport = sport
    self.fps = fps
    self.skeleton = skeleton
    self.cameras = cameras
    self.frameOffsets = frameOffsets
    self.detections = detections
    self.worldUp = worldUp
  }

  /// Match frame range covered by at least one camera's detections (empty when there are none).
  public var frameRange: ClosedRange<Int>? {
    var lo = Int.max, hi = Int.min
    for camera in cameras {
      guard let d = detections[camera.name] else { continue }
      let offset = frameOffsets[camera.name] ?? 0
      for f in d.people.keys { lo = min(lo, f - offset); hi = max(hi, f - offset) }
      for f in d.balls.keys { lo = min(lo, f - offset); hi = max(hi, f - offset) }
    }
    return lo <= hi ? lo...hi : nil
  }

  /// People seen by `camera` at match frame `frame`.
  public func people(camera: String, frame: Int) -> [PersonDetection2D] {
    detections[camera]?.people[frame + (frameOffsets[camera] ?? 0)] ?? []
  }

  /// Ball candidates seen by `camera` at match frame `frame`.
  public func balls(camera: String, frame: Int) -> [BallDetection2D] {
    detections[camera]?.balls[frame + (frameOffsets[camera] ?? 0)] ?? []
  }
}
