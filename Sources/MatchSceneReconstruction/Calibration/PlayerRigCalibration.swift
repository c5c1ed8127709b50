import Foundation
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO

/// `CameraCalibration`'s route from the players alone: the rig posed by `PlayerRig` on the match, then
/// put in a metric world by the table's clicked corners (the venue frame: the joint adjustment with the
/// clicks as anchors, `PlayerPoseRefinement.adjust`, then its reconstruct-and-adjust rounds) or by a
/// stated body height (`StatureScale`).
enum PlayerRigCalibration {
  /// Poses `cameras` (intrinsics known) from the match in `folder`.
  /// - Returns: the world frame's description and the report's entries.
  static func run(
    _ folder: URL, cameras: inout [String: Camera], extrinsics: inout [String: CalibrationReport.Extrinsics],
    inputs: CameraCalibration.Inputs
  ) throws -> (world: String, rig: CalibrationReport.PlayerRigReport, refinement: CalibrationReport.PlayerRefinement?) {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("matchscene-calibrate-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let intrinsicsOnly = scratch.appendingPathComponent("calibration.toml")
    try CalibrationTOML.write(cameras.keys.sorted().map { cameras[$0]! }, to: intrinsicsOnly)
    let loaded = try MatchFolder.load(folder, options: MatchFolderOptions(calibration: intrinsicsOnly, skeleton: inputs.matchSkeleton))
    let match = loaded.match
    guard let frames = loaded.commonFrames else {
      throw InputError(file: folder.path, "the cameras' detections share no frame: posing them from the players needs frames every camera saw")
    }
    let rig = try PlayerRig.solve(match: match, frames: Array(frames), file: folder.path, options: inputs.playerRig)
    let names = match.cameras.map(\.name)
    var report = CalibrationReport.PlayerRigReport(
      match: folder.path, reference: names[rig.reference], scaleCamera: names[rig.scaleCamera],
      links: rig.links.map { .init(camera: names[$0.camera], sharedKeypoints: $0.sharedKeypoints, inliers: $0.inliers) },
      points: rig.points.count, observations: rig.observations.count,
      medianPx: median(rig.adjustment.corrections.map(\.after.medianPx).filter(\.isFinite)), gauge: "", scaleFrom: "")
    func place(_ posed: [Camera], source: String) {
      for (c, camera) in posed.enumerated() {
        cameras[camera.name] = camera
        extrinsics[camera.name] = .init(
          source: source, rmsPx: rig.adjustment.corrections[c].after.rmsPx, residualsPx: nil, file: folder.path,
          centre: CameraCalibration.array(camera.center))
      }
    }
    if let corners = inputs.tableCorners {
      guard let table = inputs.table else { throw InputError(file: corners.path, "the sport has no table to calibrate from") }
      // The fits give each click's point on the table's model (which corner is which); their poses are not used.
      let fits = try TableExtrinsics.fit(TableExtrinsics.read(corners), cameras: match.cameras, table: table, file: corners.path)
      let anchors = CameraCalibration.anchors(fits, cameras: match.cameras)
      guard
        let placed = try PlayerPoseRefinement.adjust(
          cameras: rig.cameras, points: rig.points, observations: rig.observations, anchors: anchors, options: inputs.playerRefinement)
      else { throw InputError(file: corners.path, "the clicked corners do not fix the venue frame: need three or more points not on one line") }
      place(placed.cameras, source: "players")
      let fitted = fits.map { fit in TableExtrinsics.CameraFit(camera: cameras[fit.camera.name]!, rmsPx: fit.rmsPx, residualsPx: fit.residualsPx, worldPoints: fit.worldPoints, pixels: fit.pixels) }
      let refinement = try CameraCalibration.refineOnPlayers(folder, fits: fitted, cameras: &cameras, extrinsics: &extrinsics, inputs: inputs)
      for name in names { extrinsics[name]?.source = "players+table" }
      report.gauge = "world = the venue frame: the rig from the players (world = camera \(names[rig.reference])'s frame), then the similarity taking the adjusted clicked table points onto the table's model"
      report.scaleFrom = "the table's clicked corners (\(corners.lastPathComponent))"
      let world = "venue: origin on the floor below the table's centre, x along its length, z up (metres); poses from the players, frame and scale from the table's clicks"
      return (world, report, refinement)
    }
    guard let height = inputs.personHeight else {
      throw InputError(file: folder.path, "posing the cameras from the players needs a scale: the table's clicked corners (--table-corners) or the people's height (--person-height)")
    }
    guard
      let scaled = StatureScale.fit(
        cameras: rig.cameras, reference: rig.reference, points: rig.points, keys: rig.keys, skeleton: match.skeleton, stature: height)
    else {
      throw InputError(file: folder.path, "no limb (knee–ankle, hip–knee, shoulder–elbow, elbow–wrist) was measured: the skeleton '\(match.skeleton.name)' names none, or no person was seen by two cameras")
    }
    place(rig.cameras.map { scaled.similarity.apply($0) }, source: "players")
    report.gauge = "world = z up (perpendicular to every camera's x axis), x along camera \(names[rig.reference])'s view, origin on the floor below the people's median ankle"
    report.scaleFrom = String(format: "a stated body height of %.3f m (the people's limbs: shank, thigh, upper arm, forearm)", height)
    report.measuredStature = scaled.measuredStature
    report.limbSamples = scaled.limbSamples
    let world = String(format: "players: z up, x along %@'s view, origin on the floor below the people's median ankle; scale from a body height of %.3f m (metres)", names[rig.reference], height)
    return (world, report, nil)
  }
}
