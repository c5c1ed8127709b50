import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneExport

/// Two rallies, from two sessions, in one animated glTF scene (`compare --glb`): both in the venue frame
/// and started together, so that one session's player moves beside the other's at the same table.
public enum RallyOverlay {
  /// The frames of rally `number`, from its `rally_start` to its `rally_end` event.
  public static func frames(ofRally number: Int, in events: [MatchEvent]) -> ClosedRange<Int>? {
    guard let start = events.first(where: { $0.type == .rallyStart && $0.rally == number })?.frame,
      let end = events.first(where: { $0.type == .rallyEnd && $0.rally == number })?.frame, end >= start
    else { return nil }
    return start...end
  }

  /// One motion in the venue frame whose frame 0 is the start of rally `rallyA` of `a` and of `rallyB` of
  /// `b`; their tracks renamed `A-P1`, `B-P1`, `A-ball`, … .
  /// - Throws: `SessionStoreError.cannotOverlay` naming what does not fit: a rally the session does not have,
  ///   different frame rates or skeletons.
  public static func motion(_ a: StoredSession, rally rallyA: Int, _ b: StoredSession, rally rallyB: Int) throws -> MotionModel {
    guard a.motion.fps == b.motion.fps else {
      throw SessionStoreError.cannotOverlay("sessions \(a.summary.id) and \(b.summary.id) differ in frame rate (\(a.motion.fps), \(b.motion.fps) fps)")
    }
    guard a.motion.skeleton.keypoints == b.motion.skeleton.keypoints else {
      throw SessionStoreError.cannotOverlay("sessions \(a.summary.id) and \(b.summary.id) differ in skeleton")
    }
    var parts: [(label: String, session: StoredSession, frames: ClosedRange<Int>)] = []
    for (label, session, rally) in [("A", a, rallyA), ("B", b, rallyB)] {
      guard let frames = frames(ofRally: rally, in: session.events) else {
        throw SessionStoreError.cannotOverlay("session \(session.summary.id) has no rally \(rally) (it has \(Set(session.events.compactMap { $0.type == .rallyEnd ? $0.rally : nil }).count), numbered from 1)")
      }
      parts.append((label, session, frames))
    }
    let length = parts.map(\.frames.count).max()!
    var out = MotionModel(fps: a.motion.fps, skeleton: a.motion.skeleton, frames: 0...(length - 1))
    for part in parts {
      let venueFromWorld = part.session.venue?.venueFromWorld ?? .identity
      for source in part.session.motion.tracks {
        var track = MotionTrack(id: "\(part.label)-\(source.id)", kind: source.kind, jointCount: source.jointCount, frames: 0...(length - 1))
        for joint in 0..<source.jointCount {
          for frame in part.frames where source.frames.contains(frame) {
            var sample = source[joint: joint, frame: frame]
            guard sample.isPresent else { continue }
            sample.position = venueFromWorld.apply(sample.position)
            track[joint: joint, frame: frame - part.frames.lowerBound] = sample
          }
        }
        out.tracks.append(track)
      }
    }
    out.sortTracks()
    return out
  }

  /// The overlay as binary glTF (the venue drawn, no cameras: the two sessions' cameras differ).
  public static func glb(_ a: StoredSession, rally rallyA: Int, _ b: StoredSession, rally rallyB: Int) throws -> Data {
    let motion = try motion(a, rally: rallyA, b, rally: rallyB)
    var options = SceneOptions()
    options.includeCameras = false
    options.sceneExtras["overlay"] = .string(
      "A: session \(a.summary.id) rally \(rallyA); B: session \(b.summary.id) rally \(rallyB)")
    let document = try MatchSceneGLTF.build(
      motion: motion, cameras: [], sport: try SportSpec.builtIn(a.summary.sport), worldUp: SIMD3(0, 0, 1), options: options)
    return try GLTFWriter.glbData(document)
  }
}
