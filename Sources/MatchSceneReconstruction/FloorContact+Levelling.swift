import MatchSceneCore
import MatchSceneGeometry

extension FloorContact {
  /// Levels a refined rig's world frame on the floor contacts of `reconstructed` (people whose feet
  /// rest: `FloorContact.find`, the largest group at one height: `FloorContact.floorGroup`): the tilt
  /// and lift that put them on z = 0 while moving the anchor cameras least (`FloorLevelling`), applied
  /// to the cameras, the motion and the refinement's corrections (measured again against `given`).
  /// - Returns: a note (naming `file`) saying what was moved, and by how much; nil, and nothing
  ///   changed, without contacts.
  public static func levelOnFloor(
    given: [Camera], anchors: Set<Int>, _ match: inout Match, _ reconstructed: inout ReconstructionResult,
    _ refinement: inout CalibrationRefinementResult, file: String
  ) -> Diagnostic? {
    let contacts = FloorContact.floorGroup(FloorContact.find(in: reconstructed.motion))
    guard !contacts.isEmpty else { return nil }
    let anchorCameras = (anchors.isEmpty ? Set(match.cameras.indices) : anchors).sorted().map { match.cameras[$0] }
    let centroid = contacts.map(\.position).reduce(SIMD3<Double>.zero, +) / Double(contacts.count)
    let lever = anchorCameras.map { length($0.center - centroid) }.sorted()[anchorCameras.count / 2]
    guard
      let level = FloorLevelling.transform(
        contacts: contacts.map(\.position), weights: contacts.map { Double($0.footFrames) },
        anchors: FloorLevelling.anchors(anchorCameras, lever: lever))
    else { return nil }
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
    let tilt = length(level.rotation.rodriguesVector) * 180 / .pi
    let heights = contacts.map { String(format: "%@ %+.3f m", $0.track, $0.position.z) }.joined(separator: ", ")
    return Diagnostic(.note, InputError(file: file, String(
      format: "the refined rig's floor was levelled on where standing people's feet rest (%@ before): tilted %.2f° and moved "
        + "%.3f m (%+.3f m up) as a whole, which changes no projection (--no-floor-contact keeps the frame the given cameras hold)",
      heights, tilt, length(level.translation), level.translation.z)))
  }
}
