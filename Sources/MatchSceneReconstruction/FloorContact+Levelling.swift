import MatchSceneCore
import MatchSceneGeometry

/// How the floor where standing people's feet rest sits in a world frame: the tilt and lift that would
/// put those feet on z = 0 while moving the anchor cameras least (`FloorLevelling`).
public struct FloorMeasure: Sendable {
  /// `levelledFromWorld`: x' = R x + t, R a tilt about horizontal axes only.
  public var levelling: RigidTransform
  /// The contacts measured (`FloorContact.floorGroup`), world frame.
  public var contacts: [FloorContact]
  /// The floor's tilt against the world's z = 0, degrees.
  public var tiltDegrees: Double { length(levelling.rotation.rodriguesVector) * 180 / .pi }
  /// How far the levelling would move the world as a whole, metres.
  public var moveMetres: Double { length(levelling.translation) }
  /// The levelling's lift, metres (positive: the feet rest below z = 0).
  public var liftMetres: Double { levelling.translation.z }
}

extension FloorContact {
  /// Measures the floor in `motion`'s world frame: the largest group of resting feet at one height
  /// (`FloorContact.find`, `floorGroup`) and the levelling that would put it on z = 0 while moving
  /// `anchors` (camera indices; every camera when empty) least.
  /// - Returns: nil without contacts or when the levelling has no solution.
  public static func measureFloor(cameras: [Camera], anchors: Set<Int>, motion: MotionModel) -> FloorMeasure? {
    let contacts = FloorContact.floorGroup(FloorContact.find(in: motion))
    guard !contacts.isEmpty, !cameras.isEmpty else { return nil }
    let anchorCameras = (anchors.isEmpty ? Set(cameras.indices) : anchors).sorted().map { cameras[$0] }
    let centroid = contacts.map(\.position).reduce(SIMD3<Double>.zero, +) / Double(contacts.count)
    let lever = anchorCameras.map { length($0.center - centroid) }.sorted()[anchorCameras.count / 2]
    guard
      let level = FloorLevelling.transform(
        contacts: contacts.map(\.position), weights: contacts.map { Double($0.footFrames) },
        anchors: FloorLevelling.anchors(anchorCameras, lever: lever))
    else { return nil }
    return FloorMeasure(levelling: level, contacts: contacts)
  }

  /// Levels a refined rig's world frame on `floor` (`measureFloor`): the tilt and lift applied to the
  /// cameras, the motion and the refinement's corrections (measured again against `given`). The world is
  /// then no longer the calibration's: only when asked (`reconstruct --level-on-floor`).
  /// - Returns: a note (naming `file`) saying what was moved, and by how much.
  public static func level(
    on floor: FloorMeasure, given: [Camera], _ match: inout Match, _ reconstructed: inout ReconstructionResult,
    _ refinement: inout CalibrationRefinementResult, file: String
  ) -> Diagnostic {
    let level = floor.levelling
    let move = Similarity3(scale: 1, rotation: level.rotation, translation: level.translation)
    match.cameras = match.cameras.map { move.apply($0) }
    reconstructed.motion = reconstructed.motion.transformed(by: level)
    for i in refinement.corrections.indices {
      let after = move.apply(refinement.corrections[i].camera)
      let before = given[i]
      refinement.corrections[i].camera = after
      let turn = after.camFromWorld.rotation * before.camFromWorld.rotation.transposed
      refinement.corrections[i].rotationChangeDegrees = length(turn.rodriguesVector) * 180 / .pi
      refinement.corrections[i].positionChangeMetres = length(after.center - before.center)
      refinement.corrections[i].translationChangeMetres = length(after.camFromWorld.translation - before.camFromWorld.translation)
    }
    return Diagnostic(.note, InputError(file: file, String(
      format: "the world frame was levelled on where standing people's feet rest (%@ before), as asked: tilted %.2f° and "
        + "moved %.3f m (%+.3f m up) as a whole, which changes no projection; coordinates are no longer in the "
        + "calibration's world", heights(floor), floor.tiltDegrees, floor.moveMetres, floor.liftMetres)))
  }

  /// A note on `floor` in the calibration's world, which is kept: how far resting feet are from z = 0.
  public static func floorNote(_ floor: FloorMeasure, file: String) -> Diagnostic {
    Diagnostic(.note, InputError(file: file, String(
      format: "coordinates stay in the calibration's world; there, the floor where standing people's feet rest (%@) is "
        + "tilted %.2f° and %.3f m from z = 0 (--level-on-floor levels the world on it)",
      heights(floor), floor.tiltDegrees, floor.moveMetres)))
  }

  private static func heights(_ floor: FloorMeasure) -> String {
    floor.contacts.map { String(format: "%@ %+.3f m", $0.track, $0.position.z) }.joined(separator: ", ")
  }
}
