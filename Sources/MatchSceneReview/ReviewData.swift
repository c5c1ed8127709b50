import Foundation
import MatchSceneCore

/// What the review app (`ReviewApp`) shows, written beside its page as `review/data.js` (a classic
/// script, so the page reads it from `file://` with no browser flag): the scene, the events, the score
/// file, the players' names and every stroke with its score card and angle curves.
public struct ReviewData: Encodable, Sendable {
  /// The page's title (the output folder's name).
  public var title: String
  /// The scene (GLB) as a `data:` URI: without its animation when `motion` is given.
  public var scene: String
  /// The people's and the ball's motion (`ReviewSceneSplit`); nil: the scene's own animation plays.
  public var motion: ReviewMotion?
  /// Frames per second of the match.
  public var fps: Double
  /// Track → name (`match.toml [players]`).
  public var players: [String: String]
  /// The match's events in time order (`events.json`).
  public var events: [MatchEvent]
  /// The strokes, in time order.
  public var strokes: [ReviewStroke]
  /// Reference curves by `ReviewStroke.reference` key.
  public var references: [String: ReviewReference]
  /// The angles plotted, in order: key (`FormJoint`), label.
  public var angles: [ReviewAngle]
  /// The phases of the registered stroke: name and first and last sample (0…100).
  public var phases: [ReviewPhase]
  /// What the app could not show and why (no form analysis, no events).
  public var notes: [String]
  /// Camera videos shown beside the 3D view.
  public var videos: [ReviewVideo] = []

  public init(
    title: String, scene: String, fps: Double, players: [String: String], events: [MatchEvent],
    strokes: [ReviewStroke] = [], references: [String: ReviewReference] = [:], angles: [ReviewAngle] = [],
    phases: [ReviewPhase] = [], notes: [String] = []
  ) {
    self.title = title
    self.scene = scene
    self.fps = fps
    self.players = players
    self.events = events
    self.strokes = strokes
    self.references = references
    self.angles = angles
    self.phases = phases
    self.notes = notes
  }
}

/// One stroke's score card (`matchscene form`'s figures) and its joint angles over the registered stroke.
public struct ReviewStroke: Encodable, Sendable {
  public var track: String
  public var number: Int
  public var kind: String
  public var hand: String
  /// Match time (s) of the backswing start, contact and follow-through end.
  public var start: Double
  public var contact: Double
  public var end: Double
  public var rally: Int?
  public var score: Double
  /// The reference's name (`own average (12 forehands)`, a saved reference's name).
  public var referenceName: String
  /// Key into `ReviewData.references`.
  public var reference: String
  public var comments: [String]
  public var contactHeight: Double
  public var handSpeed: Double?
  public var ballSpeed: Double?
  /// Per joint: `joint`, `weight`, `subScore`, `deviation` (spreads), `largestPhase`, `largestDegrees`.
  public var joints: [ReviewJointScore]
  /// Degrees per angle key, 101 samples (0 … 100 % of the stroke, contact at 50).
  public var curves: [String: [Double]]

  public init(
    track: String, number: Int, kind: String, hand: String, start: Double, contact: Double, end: Double, rally: Int?,
    score: Double, referenceName: String, reference: String, comments: [String], contactHeight: Double,
    handSpeed: Double?, ballSpeed: Double?, joints: [ReviewJointScore], curves: [String: [Double]]
  ) {
    self.track = track
    self.number = number
    self.kind = kind
    self.hand = hand
    self.start = start
    self.contact = contact
    self.end = end
    self.rally = rally
    self.score = score
    self.referenceName = referenceName
    self.reference = reference
    self.comments = comments
    self.contactHeight = contactHeight
    self.handSpeed = handSpeed
    self.ballSpeed = ballSpeed
    self.joints = joints
    self.curves = curves
  }
}

/// One joint's line of a stroke's score card.
public struct ReviewJointScore: Encodable, Sendable {
  public var joint: String
  public var weight: Double
  public var subScore: Double
  public var deviation: Double
  public var largestPhase: String
  public var largestDegrees: Double

  public init(joint: String, weight: Double, subScore: Double, deviation: Double, largestPhase: String, largestDegrees: Double) {
    self.joint = joint
    self.weight = weight
    self.subScore = subScore
    self.deviation = deviation
    self.largestPhase = largestPhase
    self.largestDegrees = largestDegrees
  }
}

/// A reference stroke: its curves and, per angle, its spread in each phase (degrees, `ReviewData.phases`
/// order), the band the page draws around the curve.
public struct ReviewReference: Encodable, Sendable {
  public var curves: [String: [Double]]
  public var spread: [String: [Double]]

  public init(curves: [String: [Double]], spread: [String: [Double]]) {
    self.curves = curves
    self.spread = spread
  }
}

/// A camera's video: the scene's camera of that name draws the skeletons over it; video time = match
/// time + `offset` (s).
public struct ReviewVideo: Encodable, Sendable {
  public var camera: String
  /// The video's address from the page: relative inside the page's folder, else a `file://` URL.
  public var src: String
  public var offset: Double
  public init(camera: String, src: String, offset: Double = 0) {
    self.camera = camera
    self.src = src
    self.offset = offset
  }
}

public struct ReviewAngle: Encodable, Sendable {
  public var key: String
  public var label: String
  public init(key: String, label: String) {
    self.key = key
    self.label = label
  }
}

public struct ReviewPhase: Encodable, Sendable {
  public var name: String
  public var first: Int
  public var last: Int
  public init(name: String, first: Int, last: Int) {
    self.name = name
    self.first = first
    self.last = last
  }
}

extension ReviewData {
  /// `review/data.js`: a comment naming MatchScene (`ReviewApp.isDataFile`), then
  /// `window.MATCHSCENE_REVIEW = {…}` with `score` (the score file's JSON as written, or null).
  public func script(scoreJSON: Data? = nil) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let body = try encoder.encode(self)
    var score = Data("null".utf8)
    if let scoreJSON, (try? JSONSerialization.jsonObject(with: scoreJSON)) != nil { score = scoreJSON }
    // `<` escaped so that no string can close a script when the file is inlined (on the bytes: a 20 MB
    // String's replacingOccurrences takes seconds).
    func safe(_ json: Data) -> [UInt8] {
      var out: [UInt8] = []
      out.reserveCapacity(json.count)
      for byte in json {
        if byte == UInt8(ascii: "<") { out.append(contentsOf: Array("\\u003c".utf8)) } else { out.append(byte) }
      }
      return out
    }
    let bytes = Array((ReviewApp.dataFileHeader + "\nwindow.MATCHSCENE_REVIEW = ").utf8) + safe(body)
      + Array(";\nwindow.MATCHSCENE_REVIEW.score = ".utf8) + safe(score) + Array(";\n".utf8)
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Rounds every value to `decimals` (the page's curves need no more than 0.1°; keeps the data file small).
public func reviewRounded(_ values: [Double], decimals: Int = 1) -> [Double] {
  let scale = pow(10.0, Double(decimals))
  return values.map { $0.isFinite ? ($0 * scale).rounded() / scale : 0 }
}
