import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneExport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `matchscene clip` exports.
public struct ClipRequest: Sendable {
  public enum GhostPlacement: String, Sendable, CaseIterable {
    /// The ghost stands 1 m to the player's left.
    case beside
    /// The ghost stands where the player stands.
    case over
  }
  public var player: String
  /// 1-based: the N-th stroke of the player (of `kind` when given).
  public var stroke: Int?
  public var kind: StrokeKind?
  /// Explicit frames instead of a stroke.
  public var frames: ClosedRange<Int>?
  public var reference: StrokeReference?
  public var ghost: GhostPlacement = .beside

  public init(player: String, stroke: Int? = nil, kind: StrokeKind? = nil, frames: ClosedRange<Int>? = nil) {
    self.player = player
    self.stroke = stroke
    self.kind = kind
    self.frames = frames
  }
}

/// A GLB of one player and the ball over one stroke (or frames), centred on the player: the origin on
/// the floor below the player's hip centre at contact (at the first frame for `--frames`), axes the
/// venue's (z up), at the capture rate; with a reference, its ghost (a translucent second skeleton,
/// node `ghost`, glTF `alphaMode` BLEND, glTF 2.0 §3.9.4) aligned at contact.
///
/// The scene's extras hold `clipFromWorld` (`rotation` row-major 3×3, `translation`): clip coordinates
/// of a calibration-world point p (tracks.csv) are rotation · p + translation.
public enum StrokeClip {
  public static let ghostName = "ghost"
  public static let ghostAlpha: Float = 0.35

  public struct Clip: Sendable {
    public var document: GLTFDocument
    public var frames: ClosedRange<Int>
    public var stroke: FormStroke?
    /// Clip coordinates from the calibration world's.
    public var clipFromWorld: RigidTransform
  }

  /// - Throws: `InputError` naming the flag for an unknown player, stroke or frames.
  public static func build(
    _ request: ClipRequest, result: FormResult, venue: VenueFrame, sport: SportSpec
  ) throws -> Clip {
    guard let track = result.motion.track(request.player), track.kind != .ball else {
      let players = result.motion.tracks.filter { $0.kind != .ball }.map(\.id)
      throw InputError(file: "--player", "no player '\(request.player)' in tracks.csv; players: \(players.joined(separator: ", "))")
    }
    var stroke: FormStroke?
    let frames: ClosedRange<Int>
    if let requested = request.frames {
      guard requested.overlaps(track.frames) else {
        throw InputError(file: "--frames", "frames \(requested.lowerBound)-\(requested.upperBound) miss \(request.player)'s frames \(track.frames.lowerBound)-\(track.frames.upperBound)")
      }
      frames = requested.clamped(to: track.frames)
    } else {
      let candidates = result.strokes.filter { $0.track == request.player && (request.kind == nil || $0.kind == request.kind) }
      let n = request.stroke ?? 1
      guard n >= 1, n <= candidates.count else {
        throw InputError(
          file: "--stroke", "\(request.player) has \(candidates.count) \(request.kind?.rawValue ?? "") strokes; --stroke \(n) must lie in 1…\(candidates.count)")
      }
      stroke = candidates[n - 1]
      frames = stroke!.backswingStartFrame...stroke!.followThroughEndFrame
    }
    // The clip frame: floor below the hip centre at contact (or the first frame), venue axes.
    let originFrame = stroke?.contactFrame ?? frames.lowerBound
    let hipPoints = [JointRole.leftHip, .rightHip].compactMap { result.motion.skeleton.index(of: $0) }
      .compactMap { track.position(joint: $0, frame: originFrame) }
    let hip = hipPoints.isEmpty ? SIMD3<Double>.zero : hipPoints.reduce(.zero, +) / Double(hipPoints.count)
    let clipFromVenue = RigidTransform(rotation: .identity, translation: -SIMD3(hip.x, hip.y, 0))

    var tracks = [subTrack(track, frames: frames, clipFromVenue)]
    if let ball = result.motion.ballTrack { tracks.append(subTrack(result.motion.tracks[ball], frames: frames, clipFromVenue)) }
    // A reference of the other hand is shown mirrored (`StrokeReference.mirrored`).
    if let reference = request.reference, let stroke, let ghost = reference.forHand(stroke.hand).ghost {
      tracks.append(ghostTrack(ghost, stroke: stroke, frames: frames, result: result, clipFromVenue, request.ghost))
    }
    let motion = MotionModel(fps: result.motion.fps, skeleton: result.motion.skeleton, frames: frames, tracks: tracks)
    var options = SceneOptions(includeVenue: false, includeCameras: false)
    options.playerColors = [SIMD3(0.85, 0.15, 0.15), SIMD3(0.9, 0.9, 0.9)]
    let clipFromWorld = clipFromVenue * venue.venueFromWorld
    let r = clipFromWorld.rotation
    options.sceneExtras["clipFromWorld"] = .object([
      "rotation": .array((0..<3).flatMap { i in (0..<3).map { j in JSONValue.number(r[i, j]) } }),
      "translation": .array([clipFromWorld.translation.x, clipFromWorld.translation.y, clipFromWorld.translation.z].map { .number($0) }),
    ])
    options.sceneExtras["player"] = .string(request.player)
    options.sceneExtras["frames"] = .array([.number(Double(frames.lowerBound)), .number(Double(frames.upperBound))])
    if let stroke {
      options.sceneExtras["stroke"] = .object([
        "number": .number(Double(stroke.number)), "kind": .string(stroke.kind.rawValue),
        "contactFrame": .number(Double(stroke.contactFrame)),
      ])
    }
    var document = try MatchSceneGLTF.build(
      motion: motion, cameras: [], sport: sport, worldUp: SIMD3(0, 0, 1), options: options)
    makeTranslucent(&document, under: ghostName)
    return Clip(document: document, frames: frames, stroke: stroke, clipFromWorld: clipFromWorld)
  }

  static func subTrack(_ track: MotionTrack, frames: ClosedRange<Int>, _ transform: RigidTransform) -> MotionTrack {
    var out = MotionTrack(id: track.id, kind: track.kind, jointCount: track.jointCount, frames: frames)
    for j in 0..<track.jointCount {
      for f in frames where track.frames.contains(f) {
        var s = track[joint: j, frame: f]
        guard s.isPresent else { continue }
        s.position = transform.apply(s.position)
        out.samples[out.index(joint: j, frame: f)] = s
      }
    }
    return out
  }

  /// The reference's keypoints in the clip: turned to the player's heading at contact, placed over or
  /// beside the player, time-aligned at contact (the ghost's ends held outside its frames).
  static func ghostTrack(
    _ ghost: StrokeReference.Ghost, stroke: FormStroke, frames: ClosedRange<Int>, result: FormResult,
    _ clipFromVenue: RigidTransform, _ placement: ClipRequest.GhostPlacement
  ) -> MotionTrack {
    let jointCount = result.motion.skeleton.keypoints.count
    var out = MotionTrack(id: ghostName, kind: .player, jointCount: jointCount, frames: frames)
    guard let frame = StrokeReference.playerFrame(stroke, result: result), ghost.keypoints.count == jointCount else { return out }
    let c = cos(frame.heading), s = sin(frame.heading)
    let left = SIMD3(-s, c, 0)
    let origin = clipFromVenue.apply(frame.origin) + (placement == .beside ? 1.0 * left : .zero)
    for f in frames {
      let t = Double(f - stroke.contactFrame) / result.motion.fps
      let g = min(max(0, Int((t * ghost.fps).rounded()) + ghost.contactIndex), ghost.frames.count - 1)
      for j in 0..<jointCount {
        let p = ghost.frames[g][j]
        let q = origin + SIMD3(c * p[0] - s * p[1], s * p[0] + c * p[1], p[2])
        out.samples[out.index(joint: j, frame: f)] = MotionSample(position: q, reprojectionPx: 0, views: 0, state: .filled)
      }
    }
    return out
  }

  /// Sets `alphaMode` BLEND and alpha `ghostAlpha` on every material used below the node named `name`
  /// or by a skinned mesh whose joints are below it (a rigged player's body, `<name>/body`; each such
  /// material copied first if nodes elsewhere share it).
  static func makeTranslucent(_ document: inout GLTFDocument, under name: String) {
    guard let nodes = document.nodes, let root = nodes.firstIndex(where: { $0.name == name }) else { return }
    var below = Set<Int>(), stack = [root]
    while let n = stack.popLast() {
      below.insert(n)
      stack += nodes[n].children ?? []
    }
    for (i, node) in nodes.enumerated() {
      if let s = node.skin, let joints = document.skins?[s].joints, joints.contains(where: below.contains) {
        below.insert(i)
      }
    }
    var sharedElsewhere = Set<Int>()
    for (i, node) in nodes.enumerated() where !below.contains(i) {
      for p in node.mesh.map({ document.meshes![$0].primitives }) ?? [] { if let m = p.material { sharedElsewhere.insert(m) } }
    }
    var copies: [Int: Int] = [:]
    var meshesDone = Set<Int>()
    for n in below {
      guard let mesh = nodes[n].mesh, meshesDone.insert(mesh).inserted else { continue }
      for k in document.meshes![mesh].primitives.indices {
        guard let m = document.meshes![mesh].primitives[k].material else { continue }
        var target = m
        if sharedElsewhere.contains(m) {
          if let copy = copies[m] {
            target = copy
          } else {
            var material = document.materials![m]
            material.name = (material.name ?? "material") + "-ghost"
            document.materials!.append(material)
            target = document.materials!.count - 1
            copies[m] = target
          }
        }
        document.meshes![mesh].primitives[k].material = target
        if document.materials![target].alphaMode != "BLEND" {
          document.materials![target].alphaMode = "BLEND"
          document.materials![target].pbrMetallicRoughness?.baseColorFactor?[3] = ghostAlpha
        }
      }
    }
  }
}
