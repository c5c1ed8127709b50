/// One 2D keypoint as a detector reports it: pixels and a confidence in [0, 1].
/// A keypoint the detector did not find has confidence 0 (OpenPose writes 0, 0, 0).
public struct Keypoint2D: Sendable, Equatable, Hashable {
  public var x: Double
  public var y: Double
  public var confidence: Double
  public init(x: Double, y: Double, confidence: Double) {
    self.x = x
    self.y = y
    self.confidence = confidence
  }
  public static let missing = Keypoint2D(x: 0, y: 0, confidence: 0)
  public var isDetected: Bool { confidence > 0 && x.isFinite && y.isFinite }
}

/// One detected person in one camera image: a keypoint per skeleton keypoint, in skeleton order.
public struct PersonDetection2D: Sendable, Equatable, Hashable {
  public var keypoints: [Keypoint2D]
  public init(keypoints: [Keypoint2D]) { self.keypoints = keypoints }
}

/// One ball detection in one camera image (pixels). TrackNet-style detectors report at most one per
/// frame; other detectors may report several candidates.
public struct BallDetection2D: Sendable, Equatable, Hashable {
  public var x: Double
  public var y: Double
  public var confidence: Double
  public init(x: Double, y: Double, confidence: Double = 1) {
    self.x = x
    self.y = y
    self.confidence = confidence
  }
}

/// Everything one camera's detectors reported, by the camera's own frame number.
public struct CameraDetections: Sendable, Equatable {
  /// People per frame; frames with nobody detected may be absent.
  public var people: [Int: [PersonDetection2D]]
  /// Ball candidates per frame; frames where the ball was not seen may be absent.
  public var balls: [Int: [BallDetection2D]]
  public init(people: [Int: [PersonDetection2D]] = [:], balls: [Int: [BallDetection2D]] = [:]) {
    self.people = people
    self.balls = balls
  }
}
