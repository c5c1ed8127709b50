import Foundation
import MatchSceneCore

/// What `compare` measures of one player in one session, in the venue frame (z up, origin below the
/// table's centre, x along it); metres, seconds, m/s.
public struct SessionMetrics: Sendable, Codable, Equatable {
  public struct Bounce: Sendable, Codable, Equatable {
    /// Venue x, y, metres.
    public var x: Double
    public var y: Double
    /// `negative_x` or `positive_x`.
    public var side: String
    /// Whether this player's hit sent the ball there.
    public var byPlayer: Bool
  }

  public var session: Int64
  public var name: String
  public var date: String
  public var track: String
  public var player: String?
  // Movement
  /// Horizontal path length of the hip midpoint sampled at 10 Hz (sampling at the capture rate would add
  /// the keypoints' jitter to the distance), metres.
  public var distanceCovered: Double
  /// Seconds in which the player was seen.
  public var secondsSeen: Double
  /// Share of the seen time in each cell of `Heatmap.grid` (row-major, y then x).
  public var heatmap: [Double]
  /// Movement while the ball was in play (rally start to end).
  public var inPlay: RallyMovement
  // Ball
  /// Ball speeds after this player's hits, m/s.
  public var shotSpeeds: [Double]
  /// Every table bounce of the session (both players' shots); `byPlayer` marks this player's.
  public var bounces: [Bounce]
  /// This player's own shots in rallies: speeds, where they landed, errors.
  public var ball: PlayerBall
  // Score
  public var rallies: Int
  public var meanRallySeconds: Double?
  public var meanHitsPerRally: Double?
  public var pointsWon: Int?
  public var pointsLost: Int?
  // Technique: stroke kind → angle → mean curve (only when the session has strokes.json and angles.csv),
  // registered at the strokes' four landmarks when strokes.json has them.
  public var technique: [String: [String: NormalisedCurves]]
  /// Per stroke kind, the spread of the strokes at contact (`StrokeConsistency`).
  public var consistency: [StrokeConsistency]

  /// The heat map's cells: 0.5 m squares over x −6…6 m, y −4…4 m of the venue.
  public enum Heatmap {
    public static let cell = 0.5
    public static let x = -6.0...6.0
    public static let y = -4.0...4.0
    public static var columns: Int { Int((x.upperBound - x.lowerBound) / cell) }
    public static var rows: Int { Int((y.upperBound - y.lowerBound) / cell) }
  }

  public var meanShotSpeed: Double? { shotSpeeds.isEmpty ? nil : shotSpeeds.reduce(0, +) / Double(shotSpeeds.count) }
  public var maxShotSpeed: Double? { shotSpeeds.max() }

  /// Measures `track` of `session`.
  public init(_ stored: StoredSession, track: String) throws {
    let s = stored.summary
    session = s.id
    name = s.name
    date = s.date
    self.track = track
    player = s.players[track] ?? nil
    let venueFromWorld = stored.venue?.venueFromWorld ?? .identity
    let motion = stored.motion

    // Movement: hip midpoint at 10 Hz.
    distanceCovered = 0
    secondsSeen = 0
    heatmap = [Double](repeating: 0, count: Heatmap.columns * Heatmap.rows)
    var hips: [(frame: Int, position: SIMD3<Double>?)] = []
    let step = max(1, Int((motion.fps / 10).rounded()))
    if let t = motion.trackIndex(track), let l = motion.skeleton.index(of: .leftHip),
      let r = motion.skeleton.index(of: .rightHip)
    {
      let tr = motion.tracks[t]
      var previous: SIMD3<Double>?
      var seen = 0
      for frame in stride(from: tr.firstFrame, to: tr.firstFrame + tr.frameCount, by: step) {
        guard let a = tr.position(joint: l, frame: frame), let b = tr.position(joint: r, frame: frame) else {
          previous = nil
          hips.append((frame, nil))
          continue
        }
        let p = venueFromWorld.apply((a + b) / 2)
        hips.append((frame, p))
        if let q = previous { distanceCovered += ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }
        previous = p
        seen += 1
        let cx = Int(((p.x - Heatmap.x.lowerBound) / Heatmap.cell).rounded(.down))
        let cy = Int(((p.y - Heatmap.y.lowerBound) / Heatmap.cell).rounded(.down))
        if (0..<Heatmap.columns).contains(cx), (0..<Heatmap.rows).contains(cy) { heatmap[cy * Heatmap.columns + cx] += 1 }
      }
      secondsSeen = Double(seen * step) / motion.fps
      if seen > 0 { heatmap = heatmap.map { $0 / Double(seen) } }
    }

    // Ball and score, from the events.
    var speeds: [Double] = [], bounces: [Bounce] = []
    var lastHitter: String?
    var rallyStarts: [Double] = [], rallySeconds: [Double] = [], hitsPerRally: [Int] = []
    var hits = 0
    for e in stored.events {
      switch e.type {
      case .hit:
        lastHitter = e.track
        hits += 1
        if e.track == track, let v = e.speed { speeds.append(v) }
      case .bounce:
        if e.surface == .table, let p = e.position, let side = e.side {
          let v = venueFromWorld.apply(p)
          bounces.append(Bounce(x: v.x, y: v.y, side: side.rawValue, byPlayer: lastHitter == track))
        }
      case .rallyStart:
        rallyStarts.append(e.time)
        hits = 0
        lastHitter = nil
      case .rallyEnd:
        if let start = rallyStarts.last { rallySeconds.append(e.time - start) }
        hitsPerRally.append(hits)
      case .net, .point, .claim, .zoneEnter, .zoneExit, .ballAtRest:
        break
      }
    }
    shotSpeeds = speeds
    self.bounces = bounces
    ball = PlayerBall(stored.events, track: track, venueFromWorld: venueFromWorld)
    var windows: [ClosedRange<Int>] = [], open: Int?
    for e in stored.events {
      if e.type == .rallyStart { open = e.frame }
      if e.type == .rallyEnd, let start = open, e.frame >= start {
        windows.append(start...e.frame)
        open = nil
      }
    }
    inPlay = RallyMovement(hips: hips, rallies: windows, step: step, fps: motion.fps)
    rallies = rallyStarts.count
    meanRallySeconds = rallySeconds.isEmpty ? nil : rallySeconds.reduce(0, +) / Double(rallySeconds.count)
    meanHitsPerRally = hitsPerRally.isEmpty ? nil : Double(hitsPerRally.reduce(0, +)) / Double(hitsPerRally.count)
    pointsWon = s.score?[track]
    pointsLost = s.score.map { score in score.filter { $0.key != track }.values.reduce(0, +) }

    // Technique.
    technique = [:]
    consistency = []
    if let strokesData = stored.documents["strokes.json"], let anglesData = stored.documents["angles.csv"] {
      technique = try Self.technique(strokes: strokesData, angles: anglesData, track: track, session: s.id)
      let strokes = try FormFiles.strokes(strokesData, session: s.id).filter { $0.track == track }
      let scores = stored.documents[MatchOutputFile.form.rawValue].map { FormFiles.scores($0, track: track) } ?? [:]
      consistency = StrokeConsistency.of(technique, strokes: strokes, scores: scores)
    }
  }

  /// Stroke kind → angle → the strokes' curves of `track` from the form analysis's `strokes.json` and
  /// `angles.csv`: registered at the strokes' four landmarks when every stroke of the kind has them, else
  /// normalised linearly from backswing start to follow-through end (files written before landmarks).
  /// - Throws: `SessionStoreError.corrupt` naming session `session` when strokes.json is not one.
  public static func technique(strokes strokesData: Data, angles anglesData: Data, track: String, session: Int64) throws
    -> [String: [String: NormalisedCurves]]
  {
    var technique: [String: [String: NormalisedCurves]] = [:]
    let strokes = try FormFiles.strokes(strokesData, session: session).filter { $0.track == track }
    let angles = FormFiles.angles(anglesData, track: track)
      for kind in Set(strokes.map(\.kind)) {
      let ofKind = strokes.filter { $0.kind == kind && $0.followThroughEndFrame > $0.backswingStartFrame + 2 }
      // Registered at the four landmarks when every stroke of the kind has them, else normalised
      // linearly from backswing start to follow-through end (files written before landmarks existed).
      let landmarks = ofKind.compactMap { $0.landmarks?.ordered }
      let registered = !ofKind.isEmpty && landmarks.count == ofKind.count
      var perAngle: [String: NormalisedCurves] = [:]
      for (angle, values) in angles {
        var curves: [[Double]] = [], contacts: [Double] = [], numbers: [Int] = []
        for (number, stroke) in ofKind.enumerated() {
          if registered {
            guard let curve = NormalisedCurves.registered(values, landmarks: landmarks[number]) else { continue }
            curves.append(curve)
            contacts.append(NormalisedCurves.registeredContactPercent)
          } else {
            let frames = stroke.backswingStartFrame...stroke.followThroughEndFrame
            guard let curve = NormalisedCurves.resample(values, frames: frames) else { continue }
            curves.append(curve)
            contacts.append(
              100 * Double(stroke.contactFrame - stroke.backswingStartFrame) / Double(frames.count - 1))
          }
          numbers.append(number)
        }
        if let c = NormalisedCurves(
          curves, contactPercents: contacts,
          forwardSwingPercent: registered ? NormalisedCurves.registeredForwardSwingPercent : nil, strokes: numbers)
        {
          perAngle[angle] = c
        }
      }
      if !perAngle.isEmpty { technique[kind] = perAngle }
    }
    return technique
  }
}
