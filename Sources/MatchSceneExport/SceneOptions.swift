import Foundation
import MatchSceneCore

/// What `MatchSceneGLTF.build` puts in the scene, beyond the reconstruction itself. Every default is usable.
public struct SceneOptions: Sendable {
  /// Extra animations, each sampled at every frame of its range with its own time accessor from 0 s.
  public var clips: [(name: String, frames: ClosedRange<Int>)]
  /// Extra members of the scene's `extras` (e.g. `events`). The builder's own keys (`fps`, `firstFrame`,
  /// `lastFrame`, `generator`, `up`, `skeleton`) take precedence over same-named keys here.
  public var sceneExtras: [String: JSONValue]
  /// A user-supplied venue mesh (any format assimp reads) in calibration world coordinates, metres; when
  /// set it replaces the venue generated from the sport's dimensions. This module has no mesh reader of
  /// its own (it needs no system library): `MatchSceneAssimp`'s `SceneOptions.loadVenueMesh()` reads the
  /// file into `venueMeshParts`, which `MatchSceneGLTF.build` requires when `venueMesh` is set.
  public var venueMesh: URL?
  /// The triangle meshes read from `venueMesh` (see there).
  public var venueMeshParts: [VenueMeshPart]?
  /// Whether to add the venue at all.
  public var includeVenue: Bool
  /// Whether to add a node per calibrated camera.
  public var includeCameras: Bool
  /// Radius of the sphere drawn at each player keypoint, metres.
  public var jointRadius: Double
  /// Circumradius of the hexagonal prism drawn along each bone, metres.
  public var limbRadius: Double
  /// Player colours (linear RGB in [0, 1]), used in order of the players' first appearance and repeated.
  public var playerColors: [SIMD3<Double>]
  /// Near and far clip distances of the glTF cameras, metres; a nil far plane asks for an infinite projection.
  public var cameraZNear: Double
  public var cameraZFar: Double?
  /// Keyframe interpolation of every channel: `.linear` or `.step`.
  public var interpolation: GLTFInterpolation
  /// Also drive the rotation and scale of every translation-only node (keypoints, ball) with constant
  /// identity/unit keys, through two samplers shared by all of them (a few bytes per frame in all).
  /// Some converters need every animated node to have all three channels with equal key counts: assimp
  /// 5.2's Collada exporter writes dangling references otherwise. With keyframe reduction the key
  /// counts are equal only with `sharedKeysPerNode`.
  public var completeTransformChannels: Bool
  /// The real frames of the motion's frames (`MotionModel.axis`): a sparse match's keys are timed at
  /// their real frames, so an animation jumps over the empty stretches between runs of data (the frames
  /// at each side of one hold no data: players are hidden across it, nothing glides for hours).
  public var frameAxis: FrameAxis = .identity
  /// A player is hidden (`MatchSceneGLTF.hiddenScale`) across gaps in its data longer than this, and before and after its
  /// track, seconds; shorter gaps are bridged by interpolation.
  public var hideGapsLongerThan: Double = 0.5
  /// Length of the ball's trail, seconds; 0 (the default) draws none. The trail is
  /// `ballTrailSpheres` smaller, fading copies of the ball, nodes `ball/trail-1` … `ball/trail-N`
  /// beside `ball`, sphere k following the ball's track k/N of this time behind it (rounded to whole
  /// frames, at least one); a sphere is hidden (`MatchSceneGLTF.hiddenScale`) at frames where its delayed position has no data.
  /// At most `maxBallTrail`.
  public var ballTrail: Double = 0
  /// The longest ball trail accepted, seconds (a minute: longer than any rally).
  public static let maxBallTrail: Double = 60
  /// Number of spheres of the ball's trail (≥ 1).
  public var ballTrailSpheres: Int = 5
  /// Keyframe reduction, metres; 0 (the default) keeps every frame. Each channel keeps the fewest keys
  /// (always its first and last) such that interpolating between them reproduces every frame within
  /// this distance: translations by Euclidean distance, limb scales along the limb, limb rotations
  /// within `keyframeTolerance / L` radians for a limb at most L long in the clip (so its far end moves
  /// less than the tolerance); STEP channels keep only their changes. See `KeyframeReduction`. A
  /// channel keeps every frame instead where that takes fewer bytes (`SceneAssembly.cheaper`): noise
  /// can leave so many keys that their own time accessors cost more than the frames they drop.
  public var keyframeTolerance: Double = 0
  /// With keyframe reduction, give every channel of an animated node the same keys: a frame is dropped
  /// only where all of them stay within the tolerance. assimp 5.2's Collada exporter needs this (with
  /// `completeTransformChannels`): channels of one node with different key counts come out as
  /// references to sources it never writes, and the file does not re-import.
  public var sharedKeysPerNode: Bool = false
  /// How animated rotations are stored: `.float` (the default, every reader) or `.normalizedShort`
  /// (half the bytes; not for assimp 5.2). With `.normalizedShort` the keyframe reduction measures the
  /// error of the integers written, as a reader decodes and interpolates them.
  public var rotationEncoding: RotationEncoding = .float
  /// Draw each player as a glTF skin (the default): the keypoint and limb nodes become the joints of
  /// skin `<track>`, carry no mesh of their own, and one skinned mesh `<track>/body` (a scene root)
  /// holds their spheres and prisms. Off, each keypoint and limb node carries its own mesh (as before
  /// the skins; assimp 5.2's exporters are given this form).
  public var rigPlayers: Bool = true
  /// Add a directional light `sun` (`KHR_lights_punctual`) shining down at 30° from the vertical.
  public var includeLight: Bool = true
  /// The sun's illuminance, lux (`KHR_lights_punctual`: directional intensity is in lux); 1000 lux is
  /// the lighting a table tennis hall gives the playing area. Blender imports it as 1000 / 683 W/m².
  public var lightIntensity: Double = 1000

  public init(
    clips: [(name: String, frames: ClosedRange<Int>)] = [], sceneExtras: [String: JSONValue] = [:],
    venueMesh: URL? = nil, includeVenue: Bool = true, includeCameras: Bool = true, jointRadius: Double = 0.03,
    limbRadius: Double = 0.012,
    playerColors: [SIMD3<Double>] = [
      SIMD3(0.85, 0.15, 0.15), SIMD3(0.15, 0.45, 0.90), SIMD3(0.20, 0.70, 0.25), SIMD3(0.80, 0.70, 0.10),
      SIMD3(0.60, 0.25, 0.75), SIMD3(0.10, 0.70, 0.70),
    ],
    cameraZNear: Double = 0.05, cameraZFar: Double? = 1000, interpolation: GLTFInterpolation = .linear,
    completeTransformChannels: Bool = true
  ) {
    self.clips = clips
    self.sceneExtras = sceneExtras
    self.venueMesh = venueMesh
    self.includeVenue = includeVenue
    self.includeCameras = includeCameras
    self.jointRadius = jointRadius
    self.limbRadius = limbRadius
    self.playerColors = playerColors
    self.cameraZNear = cameraZNear
    self.cameraZFar = cameraZFar
    self.interpolation = interpolation
    self.completeTransformChannels = completeTransformChannels
  }

  /// Checks the options before any work starts.
  /// - Throws: `GLTFError` naming the first bad option.
  public func check() throws {
    guard jointRadius.isFinite, jointRadius > 0 else { throw GLTFError("jointRadius \(jointRadius) must be > 0") }
    guard limbRadius.isFinite, limbRadius > 0 else { throw GLTFError("limbRadius \(limbRadius) must be > 0") }
    guard !playerColors.isEmpty else { throw GLTFError("playerColors is empty") }
    for c in playerColors where !(0...1).contains(c.x) || !(0...1).contains(c.y) || !(0...1).contains(c.z) {
      throw GLTFError("player colour \(c) has a component outside [0, 1]")
    }
    guard cameraZNear.isFinite, cameraZNear > 0 else { throw GLTFError("cameraZNear \(cameraZNear) must be > 0") }
    if let far = cameraZFar, !(far.isFinite && far > cameraZNear) {
      throw GLTFError("cameraZFar \(far) must be finite and > cameraZNear \(cameraZNear)")
    }
    guard hideGapsLongerThan.isFinite, hideGapsLongerThan >= 0 else {
      throw GLTFError("hideGapsLongerThan \(hideGapsLongerThan) must be ≥ 0")
    }
    guard ballTrail.isFinite, ballTrail >= 0, ballTrail <= Self.maxBallTrail else {
      throw GLTFError("ballTrail \(ballTrail) s must lie in 0…\(Int(Self.maxBallTrail)) s")
    }
    guard ballTrailSpheres >= 1 else { throw GLTFError("ballTrailSpheres \(ballTrailSpheres) must be ≥ 1") }
    guard lightIntensity.isFinite, lightIntensity > 0 else {
      throw GLTFError("lightIntensity \(lightIntensity) lux must be > 0")
    }
    guard keyframeTolerance.isFinite, keyframeTolerance >= 0 else {
      throw GLTFError("keyframeTolerance \(keyframeTolerance) m must be ≥ 0")
    }
    if let venueMesh, venueMeshParts == nil {
      throw GLTFError("venueMesh \(venueMesh.path) is not loaded: call SceneOptions.loadVenueMesh() (MatchSceneAssimp) first")
    }
    guard interpolation != .cubicSpline else { throw GLTFError("interpolation must be LINEAR or STEP") }
    var names = Set<String>()
    for clip in clips {
      guard !clip.name.isEmpty else { throw GLTFError("a clip has an empty name") }
      guard names.insert(clip.name).inserted else { throw GLTFError("clip name '\(clip.name)' used twice") }
    }
  }
}

/// One triangle mesh of a user's venue: vertices, unit normals and triangles (three indices each), in
/// calibration world coordinates, metres.
public typealias VenueMeshPart = (positions: [SIMD3<Float>], normals: [SIMD3<Float>], indices: [UInt32])
