import MatchSceneCore

/// How a ball was struck.
public enum StrokeKind: String, Sendable, Codable, CaseIterable {
  case serve, forehand, backhand
}

/// The stroke's key moments, in the order they happen.
public enum StrokePhase: String, Sendable, Codable, CaseIterable {
  case backswingStart = "backswing_start"
  case forwardSwingStart = "forward_swing_start"
  case contact
  case followThroughEnd = "follow_through_end"
}

/// One stroke of one player, as `strokes.json` holds it.
public struct FormStroke: Sendable, Codable, Equatable {
  public init(
    track: String, number: Int, kind: StrokeKind, hand: BodySide, backswingStartFrame: Int, forwardSwingStartFrame: Int?,
    contactFrame: Int, followThroughEndFrame: Int, landmarks: StrokeLandmarks?, contactTime: Double, contactHeight: Double,
    handSpeedAtContact: Double?, ballSpeedAfter: Double?, rally: Int?, ballSpin: BallSpin? = nil,
    angles: [String: [String: Double]]
  ) {
    self.track = track
    self.number = number
    self.kind = kind
    self.hand = hand
    self.backswingStartFrame = backswingStartFrame
    self.forwardSwingStartFrame = forwardSwingStartFrame
    self.contactFrame = contactFrame
    self.followThroughEndFrame = followThroughEndFrame
    self.landmarks = landmarks
    self.contactTime = contactTime
    self.contactHeight = contactHeight
    self.handSpeedAtContact = handSpeedAtContact
    self.ballSpeedAfter = ballSpeedAfter
    self.rally = rally
    self.ballSpin = ballSpin
    self.angles = angles
  }

  /// The player's track id.
  public var track: String
  /// 1-based number of the stroke among the player's strokes (`clip --stroke N`).
  public var number: Int
  public var kind: StrokeKind
  /// The racket hand.
  public var hand: BodySide
  /// Frames of the key moments: backswing start ≤ contact ≤ follow-through end.
  public var backswingStartFrame: Int
  /// The end of the backswing (absent in files written before it was found, or when the hand is missing).
  public var forwardSwingStartFrame: Int?
  public var contactFrame: Int
  public var followThroughEndFrame: Int
  /// The landmarks to a fraction of a frame (`StrokeLandmarks`), on the analysis's frame axis; absent
  /// when they could not be found.
  public var landmarks: StrokeLandmarks?
  /// Seconds.
  public var contactTime: Double
  /// Height of the contact above the floor, metres (the ball at the hit; else the racket wrist).
  public var contactHeight: Double
  /// Racket-hand wrist speed at contact, m/s.
  public var handSpeedAtContact: Double?
  /// Ball speed just after the hit, m/s (`events.json`), when known.
  public var ballSpeedAfter: Double?
  /// The rally (1-based), when known.
  public var rally: Int?
  /// The spin the stroke gave the ball (the hit's `spin` in `events.json`), when its flight showed spin.
  public var ballSpin: BallSpin? = nil
  /// Every `FormAngle` (degrees) at each `StrokePhase`, keyed by their raw values.
  public var angles: [String: [String: Double]]

  public func frame(_ phase: StrokePhase) -> Int {
    switch phase {
    case .backswingStart: backswingStartFrame
    case .forwardSwingStart: forwardSwingStartFrame ?? backswingStartFrame
    case .contact: contactFrame
    case .followThroughEnd: followThroughEndFrame
    }
  }
}
