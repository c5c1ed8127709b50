import Foundation
import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A reference stroke saved as a small JSON file (`matchscene form <out> --save-reference FILE`): the
/// mean curves of one or more strokes of one kind, and the first stroke's keypoints as a "ghost" for
/// clips.
public struct StrokeReference: Sendable, Codable, Equatable {
  /// The keypoints of a stroke in the player's own frame: origin on the floor below the hip centre at
  /// contact, x the pelvis's forward direction at contact, z up; metres.
  public struct Ghost: Sendable, Codable, Equatable {
    public var fps: Double
    public var keypoints: [String]
    /// Index into `frames` of the contact.
    public var contactIndex: Int
    /// frames × keypoints × (x, y, z); NaN-free (a missing keypoint repeats its last position).
    public var frames: [[[Double]]]
  }

  public static let formatName = "matchscene-stroke-reference"
  public var format = StrokeReference.formatName
  public var version = 1
  public var name: String
  public var kind: StrokeKind
  public var hand: BodySide
  /// Where the strokes came from: `P1#3` (player, stroke number).
  public var sources: [String]
  public var curves: StrokeCurves
  public var ghost: Ghost?
  /// The strokes' own stroke-to-stroke spread (`ReferenceSpread`), when made of enough strokes; absent
  /// in references saved before it existed.
  public var spread: ReferenceSpread?
  /// The sport's id (`table-tennis`); nil in references saved before it was kept (unknown).
  public var sport: String?
  /// The player whose strokes these are, by name when known, else by track; nil: unknown.
  public var player: String?
  /// What the reference was made from: `stroke` (one stroke) or `average` (a player's strokes of one
  /// kind over a session); nil: unknown.
  public var origin: Origin?
  /// Where: the output folder or stored session (`session 4`); nil: unknown.
  public var source: String?
  /// Set when this reference is another's mirror image (`mirrored()`): the hand it was saved for.
  public var mirroredFrom: BodySide?

  /// What a reference was made from.
  public enum Origin: String, Sendable, Codable { case stroke, average }

  /// The fields a reference saved before they existed lacks (`sport`, `player`, `source`), for a warning.
  public var missingFields: [String] {
    [("sport", sport == nil), ("player", player == nil), ("source", origin == nil || source == nil)].filter(\.1).map(\.0)
  }

  /// `fh.json: Ana's forehand average (right hand, table-tennis, 12 strokes)`-style description.
  public var summary: String {
    let who = player.map { "\($0)'s " } ?? ""
    let what = origin.map { $0 == .average ? " average" : " stroke" } ?? ""
    return "\(name): \(who)\(kind.rawValue)\(what) (\(hand.rawValue) hand, \(sport ?? "sport unknown"), \(sources.count) strokes)"
  }

  /// The reference of `strokes` (each with its player's series in `result`); nil when none has curves.
  public static func make(
    name: String, strokes: [FormStroke], result: FormResult, sport: String? = nil, player: String? = nil, origin: Origin? = nil,
    source: String? = nil
  ) -> StrokeReference? {
    var curves: [StrokeCurves] = []
    var used: [FormStroke] = []
    for s in strokes {
      guard let series = result.series(s.track), let c = StrokeCurves(s, series: series) else { continue }
      curves.append(c)
      used.append(s)
    }
    guard let first = used.first, let mean = StrokeCurves.mean(curves) else { return nil }
    return StrokeReference(
      name: name, kind: first.kind, hand: first.hand, sources: used.map { "\($0.track)#\($0.number)" }, curves: mean,
      ghost: ghost(first, result: result), spread: ReferenceSpread(curves, centre: mean), sport: sport,
      player: player ?? first.track, origin: origin ?? (used.count == 1 ? .stroke : .average), source: source)
  }

  /// The player's frame at `stroke`'s contact: floor point below the hip centre, pelvis heading.
  public static func playerFrame(_ stroke: FormStroke, result: FormResult) -> (origin: SIMD3<Double>, heading: Double)? {
    guard let body = result.series(stroke.track)?.body(frame: stroke.contactFrame) else { return nil }
    let right = body.rightHip - body.leftHip
    let forward = SIMD3(-right.y, right.x, 0)  // up × right (the pelvis frame's X, `AngleKinematics`)
    let hip = body.hipCentre
    return (SIMD3(hip.x, hip.y, 0), atan2(forward.y, forward.x))
  }

  static func ghost(_ stroke: FormStroke, result: FormResult) -> Ghost? {
    guard let track = result.motion.track(stroke.track), let frame = playerFrame(stroke, result: result) else { return nil }
    let c = cos(-frame.heading), s = sin(-frame.heading)
    var frames: [[[Double]]] = []
    var last = [SIMD3<Double>?](repeating: nil, count: track.jointCount)
    for f in stroke.backswingStartFrame...stroke.followThroughEndFrame {
      var row: [[Double]] = []
      for j in 0..<track.jointCount {
        if let p = track.frames.contains(f) ? track.position(joint: j, frame: f) : nil { last[j] = p }
        guard let p = last[j] else { return nil }
        let d = p - frame.origin
        row.append([c * d.x - s * d.y, s * d.x + c * d.y, d.z])
      }
      frames.append(row)
    }
    return Ghost(
      fps: result.motion.fps, keypoints: result.motion.skeleton.keypoints,
      contactIndex: stroke.contactFrame - stroke.backswingStartFrame, frames: frames)
  }

  public func write(to url: URL) throws {
    try jsonData().write(to: url, options: .atomic)
  }

  /// The reference's JSON, as `write(to:)` writes it.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(self)
  }

  /// Checks, before any work, that `write(to:)` may put a reference at `url`: nothing is there, or a
  /// stroke reference `write(to:)` wrote (so a reference is replaced by a newer one, never `tracks.csv`,
  /// another output file, a user's file or a folder).
  /// - Throws: `InputError` naming `url` and what is there.
  public static func checkTarget(_ url: URL) throws {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return }
    guard !isFolder.boolValue else { throw InputError(file: url.path, "is a folder; --save-reference takes a JSON file name") }
    try OutputFolder.checkRegularFile(url, what: "reference")
    do {
      _ = try read(from: url)
    } catch {
      throw InputError(
        file: url.path,
        "exists and is not a stroke reference saved by `matchscene form --save-reference`; refusing to overwrite it — choose another file")
    }
  }

  /// - Throws: `InputError` naming the file when it is not a stroke reference.
  public static func read(from url: URL) throws -> StrokeReference {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw InputError(
        file: url.path,
        "expected a stroke reference saved by `matchscene form --save-reference`, but cannot read it: \(error.localizedDescription)")
    }
    return try decode(data, file: url.path)
  }

  /// A reference from its JSON; `file` names where it came from in errors.
  /// - Throws: `InputError` naming `file` when it is not a stroke reference.
  public static func decode(_ data: Data, file: String) throws -> StrokeReference {
    let reference: StrokeReference
    do {
      reference = try JSONDecoder().decode(StrokeReference.self, from: data)
    } catch {
      throw InputError(file: file, "expected a stroke reference saved by `matchscene form --save-reference`: \(error)")
    }
    guard reference.format == formatName, reference.version == 1 else {
      throw InputError(file: file, "format '\(reference.format)' version \(reference.version): expected '\(formatName)' version 1")
    }
    return reference
  }
}
