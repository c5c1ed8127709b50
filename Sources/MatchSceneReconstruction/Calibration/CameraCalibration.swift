import Foundation
import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO

/// A rig's calibration from its inputs, as `matchscene calibrate` runs it: intrinsics from checkerboard
/// images (`IntrinsicsCalibration`) or taken from an existing calibration, then the poses from the table's
/// clicked corners (`TableExtrinsics`) or from a board every camera sees (`BoardExtrinsics`), or none.
public enum CameraCalibration {
  /// What to calibrate from.
  public struct Inputs: Sendable {
    /// A folder of checkerboard images (or videos), one subfolder per camera (`CalibrationImages`).
    public var intrinsicsImages: URL?
    /// Cameras whose intrinsics are known, and the file they came from; used for cameras without images.
    public var givenCameras: [Camera] = []
    public var givenSource: String?
    public var board: Checkerboard?
    public var intrinsics = IntrinsicsCalibration.Options()
    /// Videos are sampled every this many seconds.
    public var videoEverySeconds = 1.0
    /// The table's clicked corners (`TableExtrinsics`) and the table they belong to.
    public var tableCorners: URL?
    public var table: TableGeometry?
    /// A folder with one image per camera of a board all cameras see at once (`BoardExtrinsics`).
    public var boardImages: URL?
    /// A match folder whose players refine every camera's pose jointly after the table's corners placed
    /// them (`PlayerPoseRefinement`), and its skeleton when match.toml does not name it.
    public var match: URL?
    public var matchSkeleton: String?
    public var playerRefinement = PlayerPoseRefinement.Options()
    /// Pose the cameras from the match's players alone (`PlayerRig`), the table's clicks (when given)
    /// or `personHeight` (metres) giving the scale and world frame.
    public var fromPlayers = false
    public var personHeight: Double?
    public var playerRig = PlayerRig.Options()
    public init() {}
  }

  /// The calibrated cameras (sorted by name) and the report.
  /// - Throws: `InputError` naming the file and camera of whatever prevents a calibration.
  public static func run(_ inputs: Inputs) throws -> (cameras: [Camera], report: CalibrationReport) {
    var cameras: [String: Camera] = [:]
    var entries: [String: (source: String, rms: Double?, images: [IntrinsicsCalibration.ImageOutcome])] = [:]
    for camera in inputs.givenCameras {
      var c = camera
      c.camFromWorld = .identity
      cameras[c.name] = c
      entries[c.name] = (inputs.givenSource ?? "given", nil, [])
    }
    if let folder = inputs.intrinsicsImages {
      guard let board = inputs.board else { throw InputError(file: folder.path, "checkerboard images need the board: --board COLUMNSxROWS --square LENGTH") }
      let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("matchscene-calibrate-\(getpid())-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: scratch) }
      for (name, files) in try CalibrationImages.cameras(in: folder) {
        let frames = try CalibrationImages.frames(of: files, everySeconds: inputs.videoEverySeconds, scratch: scratch)
        let outcome = try IntrinsicsCalibration.calibrate(name: name, images: frames, board: board, options: inputs.intrinsics)
        cameras[name] = outcome.camera
        entries[name] = ("checkerboard", outcome.rmsPx, outcome.images)
      }
    }
    guard !cameras.isEmpty else {
      throw InputError(file: inputs.tableCorners?.path ?? inputs.boardImages?.path ?? ".", "no intrinsics: give checkerboard images (--images) or a calibration (--intrinsics)")
    }
    var extrinsics: [String: CalibrationReport.Extrinsics] = [:]
    var refinementReport: CalibrationReport.PlayerRefinement?
    var world = "none: every camera at the origin, looking along +z (intrinsics only)"
    var rigReport: CalibrationReport.PlayerRigReport?
    if inputs.fromPlayers {
      guard let folder = inputs.match else { throw InputError(file: ".", "posing the cameras from the players needs a match folder (--match)") }
      (world, rigReport, refinementReport) = try PlayerRigCalibration.run(folder, cameras: &cameras, extrinsics: &extrinsics, inputs: inputs)
    } else if let corners = inputs.tableCorners {
      guard let table = inputs.table else { throw InputError(file: corners.path, "the sport has no table to calibrate from") }
      let fits = try TableExtrinsics.fit(TableExtrinsics.read(corners), cameras: Array(cameras.values), table: table, file: corners.path)
      for fit in fits {
        cameras[fit.camera.name] = fit.camera
        extrinsics[fit.camera.name] = .init(source: "table", rmsPx: fit.rmsPx, residualsPx: fit.residualsPx, file: corners.path, centre: array(fit.camera.center))
      }
      if let folder = inputs.match {
        refinementReport = try refineOnPlayers(folder, fits: fits, cameras: &cameras, extrinsics: &extrinsics, inputs: inputs)
      }
      world = "venue: origin on the floor below the table's centre, x along its length, z up (metres)"
    } else if let folder = inputs.boardImages {
      guard let board = inputs.board else { throw InputError(file: folder.path, "board images need the board: --board COLUMNSxROWS --square LENGTH") }
      let fits = try BoardExtrinsics.fit(images: CalibrationImages.cameras(in: folder), cameras: Array(cameras.values), board: board)
      for fit in fits {
        cameras[fit.camera.name] = fit.camera
        extrinsics[fit.camera.name] = .init(source: "board", rmsPx: fit.rmsPx, residualsPx: nil, file: fit.file, centre: array(fit.camera.center))
      }
      world = "board: origin at the board's first inner corner, x along its columns, y along its rows (metres)"
    }
    let located = inputs.tableCorners != nil || inputs.boardImages != nil || inputs.fromPlayers
    if located, let lost = cameras.keys.sorted().first(where: { extrinsics[$0] == nil }) {
      let file = (inputs.tableCorners ?? inputs.boardImages)!.path
      throw InputError(
        file: file, location: .key(lost),
        "camera \(lost) has intrinsics but nothing places it: "
          + (inputs.tableCorners != nil ? "add its clicked table corners to this file" : "add its image of the board to this folder"))
    }
    let names = cameras.keys.sorted()
    let report = CalibrationReport(
      board: inputs.board.map { .init(columns: $0.columns, rows: $0.rows, squareSizeM: $0.squareSize) }, world: world,
      cameras: names.map { name in
        let c = cameras[name]!, e = entries[name]!
        return .init(
          name: name, imageSize: [c.imageSize.width, c.imageSize.height], fx: c.fx, fy: c.fy, cx: c.cx, cy: c.cy, distortion: c.distortion,
          intrinsicsSource: e.source, intrinsicsRMSPx: e.rms, images: e.images,
          extrinsics: extrinsics[name] ?? .init(source: "none", centre: array(c.center)))
      }, playerRefinement: refinementReport, playerRig: rigReport)
    return (names.map { cameras[$0]! }, report)
  }

  /// Loads the match with the table-posed cameras and refines them on its players; the table's clicks
  /// are the anchors.
  static func refineOnPlayers(
    _ folder: URL, fits: [TableExtrinsics.CameraFit], cameras: inout [String: Camera],
    extrinsics: inout [String: CalibrationReport.Extrinsics], inputs: Inputs
  ) throws -> CalibrationReport.PlayerRefinement {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("matchscene-calibrate-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let posed = scratch.appendingPathComponent("calibration.toml")
    try CalibrationTOML.write(cameras.keys.sorted().map { cameras[$0]! }, to: posed)
    let loaded = try MatchFolder.load(folder, options: MatchFolderOptions(calibration: posed, skeleton: inputs.matchSkeleton))
    let match = loaded.match
    let anchors = anchors(fits, cameras: match.cameras)
    guard let outcome = try PlayerPoseRefinement.refine(
      match: match, anchors: anchors, frames: loaded.commonFrames, options: inputs.playerRefinement)
    else {
      throw InputError(file: folder.path, "nothing to refine the poses on: no person was reconstructed from two cameras with the table's poses")
    }
    for (c, refined) in outcome.cameras.enumerated() {
      guard let before = cameras[refined.name] else { continue }
      cameras[refined.name] = refined
      let turn = refined.camFromWorld.rotation * before.camFromWorld.rotation.transposed
      extrinsics[refined.name]?.source = "table+players"
      extrinsics[refined.name]?.centre = array(refined.center)
      extrinsics[refined.name]?.refinedMoveM = length(refined.center - before.center)
      extrinsics[refined.name]?.refinedTurnDeg = length(turn.rodriguesVector) * 180 / .pi
      extrinsics[refined.name]?.refinedMedianPx = outcome.adjustment.corrections[c].after.medianPx
    }
    return .init(
      match: folder.path,
      gauge: "bundle adjustment over the players' keypoints (Huber), then the similarity taking the adjusted table points onto the table's model",
      observations: outcome.keypointObservations, anchorResidualsM: outcome.anchorResidualsM, scale: outcome.alignment.scale)
  }

  /// One anchor per clicked venue point (the same model point in every camera), cameras by index into
  /// `cameras`.
  static func anchors(_ fits: [TableExtrinsics.CameraFit], cameras: [Camera]) -> [PlayerPoseRefinement.Anchor] {
    var anchors: [PlayerPoseRefinement.Anchor] = []
    for fit in fits {
      guard let c = cameras.firstIndex(where: { $0.name == fit.camera.name }) else { continue }
      for (world, pixel) in zip(fit.worldPoints, fit.pixels) {
        let click = PlayerPoseRefinement.Anchor.Click(camera: c, pixel: pixel)
        if let a = anchors.firstIndex(where: { length($0.world - world) < 1e-9 }) {
          anchors[a].clicks.append(click)
        } else {
          anchors.append(.init(world: world, clicks: [click]))
        }
      }
    }
    return anchors
  }

  static func array(_ v: SIMD3<Double>) -> [Double] { [v.x, v.y, v.z] }
}
