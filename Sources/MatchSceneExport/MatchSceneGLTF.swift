import Foundation
import MatchSceneAssets
import MatchSceneCore

/// Builds the glTF scene of a reconstructed match: venue, ball, players (keypoint spheres and limb
/// prisms), calibrated cameras and the animation of every track.
///
/// Layout (node names are a contract other tools rely on):
/// - `matchscene`: the only scene root; its rotation turns the calibration world (`worldUp` up) into
///   glTF's y-up (§3.4: "glTF uses a right-handed coordinate system … +Y is up"). Everything below it is
///   in calibration world coordinates, metres.
/// - `venue`: the table, lines, net, legs and floor generated from the sport's dimensions (or the user's
///   mesh).
/// - `ball`: an icosphere of the sport's ball radius, translation animated from the ball track.
/// - one node per player track named by its id (`P1`, …), with a child per skeleton keypoint named by
///   the keypoint (`nose`, `left_wrist`, …) and a child per bone named `P1/<from>-<to>`, a unit prism
///   whose translation, rotation and scale follow its two joints every frame. With
///   `SceneOptions.rigPlayers` (the default) these children are the joints of skin `P1` (§3.7.3), and
///   node `P1/body` (under the root) holds the skinned mesh of their spheres and prisms.
/// - `sun`: a directional light (`KHR_lights_punctual`, `SceneOptions.includeLight`).
/// - one node per camera, named after it, carrying a glTF perspective camera at the camera's pose.
///
/// The animation `match` samples every frame from the reconstruction's first to its last, times
/// `(frame − firstFrame) / fps` from 0 s, with one shared time accessor. Frames where a track has no data
/// hold the nearest known position (before, else after) and are hidden: a keypoint or the ball without
/// data at a frame has scale `hiddenScale` there (STEP), a limb `hiddenScale` where either of its joints has
/// none, a player `hiddenScale` across gaps longer than `SceneOptions.hideGapsLongerThan`; a track or keypoint with no
/// data at all is left out. `SceneOptions.clips` add more animations the same way, each with times from 0 s; a clip within
/// the match shares the match's data (its outputs are views into the match's). `SceneOptions.ballTrail`
/// adds `ball/trail-1`…; `SceneOptions.keyframeTolerance` thins out every channel's keys, each channel
/// then with its own time accessor (shared where the kept frames coincide; channels that keep every
/// frame share the animation's). `SceneOptions.rotationEncoding` stores rotations as Float32 or as
/// normalised SHORTs.
public enum MatchSceneGLTF {
  public static let rootName = "matchscene"
  public static let ballName = "ball"
  public static let venueName = "venue"
  public static let animationName = "match"
  public static let generator = "MatchScene"
  /// The uniform scale of a node hidden at a frame (STEP key): too small to see (a 2 m body becomes
  /// 0.02 mm), yet invertible. A scale of exactly 0 made Godot 3's importer fail on every such key of a
  /// skin joint ("Basis must be normalized": it takes rest⁻¹ · key apart into a rotation and a scale,
  /// which a singular key has not). A viewer hides a node whose scale is at most `hiddenScaleLimit`.
  public static let hiddenScale: Float = 1e-5
  /// A viewer hides a node whose scale, or a joint whose world scale, is at most this: above the hidden
  /// scale, below every shown one (a limb's length is at least `minimumLimbLength`, 0.1 mm; a trail
  /// sphere's size at least its fade). The viewer page writes it as the literal 5e-5.
  public static let hiddenScaleLimit: Float = 5e-5

  /// The glTF document of `motion` (positions in the calibration's world frame).
  /// - Parameters:
  ///   - cameras: calibrated cameras to place in the scene (`SceneOptions.includeCameras`).
  ///   - sport: ball radius, venue dimensions and colours.
  ///   - worldUp: the calibration world's up direction (non-zero), e.g. (0, 0, 1).
  /// - Throws: `GLTFError` for a non-finite position, a bad frame rate, bad options or non-finite data;
  ///   `InputError` when the sport lacks a venue dimension or colour; `GLTFError` when `venueMesh` is set
  ///   but not loaded (`SceneOptions.loadVenueMesh()`, MatchSceneAssimp).
  public static func build(
    motion: MotionModel, cameras: [Camera], sport: SportSpec, worldUp: SIMD3<Double>,
    options: SceneOptions = SceneOptions()
  ) throws -> GLTFDocument {
    try options.check()
    guard motion.fps.isFinite, motion.fps > 0 else {
      throw GLTFError("frame rate \(motion.fps) must be > 0")
    }
    guard worldUp.x.isFinite, worldUp.y.isFinite, worldUp.z.isFinite, length(worldUp) > 0 else {
      throw GLTFError("worldUp \(worldUp) must be a finite non-zero vector")
    }
    let table = try TrackTable(motion)
    var scene = SceneAssembly(builder: GLTFBuilder(generator: generator), table: table, options: options)

    let yUpFromWorld = Matrix3.rotation(from: worldUp, to: SIMD3(0, 1, 0))
    let rootRotation = Quaternion.float32(Quaternion.fromMatrix(yUpFromWorld))
    let root = scene.builder.addNode(GLTFNode(name: rootName, rotation: Self.array(rootRotation)))
    // The rotation as written (Float32), for the skins' inverse bind matrices.
    let rootFromWorld = Quaternion.toMatrix(
      SIMD4(Double(rootRotation.x), Double(rootRotation.y), Double(rootRotation.z), Double(rootRotation.w)))

    if options.includeVenue { try scene.addVenue(sport: sport, parent: root) }
    let range = table.frameRange  // reconstruction.frameRange, without another pass over the points
    try scene.addPlayers(
      skeleton: motion.skeleton, parent: root, firstFrame: range?.lowerBound, rootFromWorld: rootFromWorld)
    try scene.addBalls(sport: sport, parent: root, firstFrame: range?.lowerBound)
    if options.includeCameras {
      for camera in cameras { try scene.addCamera(camera, parent: root) }
    }
    if options.includeLight { try scene.addSun(parent: root, worldUp: worldUp) }

    try scene.addAnimations(range: range, clips: options.clips, fps: motion.fps)

    let up = normalize(worldUp)
    var extras: [String: JSONValue] = options.sceneExtras
    extras["generator"] = .string(generator)
    extras["fps"] = .number(motion.fps)
    extras["up"] = .array([.number(up.x), .number(up.y), .number(up.z)])
    extras["skeleton"] = .string(motion.skeleton.name)
    if let range {
      extras["firstFrame"] = .number(Double(range.lowerBound))
      extras["lastFrame"] = .number(Double(range.upperBound))
    }
    _ = scene.builder.addScene(GLTFScene(name: rootName, nodes: [root], extras: .object(extras)))
    return scene.builder.finish()
  }

  static func array(_ v: SIMD4<Float>) -> [Float] { [v.x, v.y, v.z, v.w] }
  static func array(_ v: SIMD3<Double>) -> [Float] { [Float(v.x), Float(v.y), Float(v.z)] }
}
