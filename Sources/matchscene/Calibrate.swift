import ArgumentParser
import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO
import MatchSceneReconstruction

/// `matchscene calibrate`: a rig's calibration.toml from checkerboard images and the table's corners.
struct Calibrate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Calibrate the cameras: intrinsics from checkerboard images, poses from the table's clicked corners or a board.",
    discussion: """
      Writes <output>/calibration.toml (Pose2Sim/anipose format), calibration_report.json (per camera and image: \
      reprojection errors, images rejected and why) and rig.svg (the rig seen from above). Intrinsics: --images DIR \
      holds one subfolder of checkerboard images (or a video, sampled every --every seconds) per camera, named after \
      it (Pose2Sim's int_cam01_img is cam01); --board gives the inner corners and --square their spacing; images \
      whose own error stands out are rejected. Or --intrinsics takes them from an existing calibration. Poses: \
      --table-corners FILE (the file locate-venue --corners reads: [cam01] corners = [[x, y] × 4], the same order \
      around the table in every camera, optionally net_posts = [[x, y] × 2]) places every camera in the venue frame \
      (origin on the floor below the table's centre, x along its length, z up); --board-images DIR (one image per \
      camera of one board all cameras see at once) places them in the board's frame. With --table-corners, --match \
      FOLDER then refines every camera's pose jointly by a robust bundle adjustment over that match's reconstructed \
      players (and ball), the table's clicked corners holding the venue frame and its scale. --from-players \
      (implied by --match without --table-corners) poses the cameras from the match's people alone: relative \
      poses between camera pairs from the essential matrix on shared keypoints, then a robust bundle adjustment; \
      the scale and frame come from --table-corners (the venue frame) or --person-height (z up, origin on the \
      floor below the people).
      """)

  @Option(name: .shortAndLong, help: "Output folder for calibration.toml, calibration_report.json and rig.svg.")
  var output: String

  @Option(help: "Checkerboard images or videos, one subfolder per camera.")
  var images: String?

  @Option(help: "The board's inner corners, COLUMNSxROWS (e.g. 7x4).")
  var board: String?

  @Option(help: "The board's square size (a length: 60mm, 0.06).")
  var square: LengthArgument?

  @Option(help: "Intrinsics of cameras without --images: a calibration (.toml, intri.yml, .qca.txt or a folder holding one).")
  var intrinsics: String?

  @Option(help: "The table's top corners clicked in each camera's image (TOML).")
  var tableCorners: String?

  @Option(help: "One image per camera of one board all cameras see at once, for the poses.")
  var boardImages: String?

  @Option(help: "A match folder (calibration/ optional, pose/): with --table-corners, every camera's pose is then refined jointly on its players' keypoints, the table's corners holding the venue frame and scale.")
  var match: String?

  @Flag(help: "Pose the cameras from the players of --match alone (no board; the table's corners, when given, only fix the frame and scale).")
  var fromPlayers = false

  @Option(help: "With --from-players and no --table-corners: the people's typical height (a length: 1.75m), for the scale.")
  var personHeight: LengthArgument?

  @Option(help: "With --from-players: frames of the match used at most, spread evenly over it (fewer: faster).")
  var playerFrames: Int = 240

  @Option(help: "The match's skeleton when its match.toml does not name it (coco17, body25b, …).")
  var skeleton: String?

  @Option(help: "Sport, for the table's dimensions.")
  var sport: String = "table-tennis"

  @Option(help: "Distortion terms fitted: 0, 2 (k1 k2), 4 (k1 k2 p1 p2) or 5 (and k3).")
  var distortion: Int = 4

  @Option(help: "The fewest board images a camera needs.")
  var minImages: Int = 3

  @Option(help: "Videos: sample a frame every this many seconds.")
  var every: Double = 1

  @Flag(help: "Replace an output folder MatchScene did not write.")
  var force = false

  func validate() throws {
    if images == nil && intrinsics == nil { throw ValidationError("give --images (checkerboard images) or --intrinsics (an existing calibration)") }
    if playerFrames < 10 { throw ValidationError("--player-frames must be ≥ 10") }
    if fromPlayers && match == nil { throw ValidationError("--from-players needs the match to pose the cameras from: add --match FOLDER") }
    if usesPlayers && boardImages != nil { throw ValidationError("give --board-images or --from-players, not both") }
    if usesPlayers && tableCorners == nil && personHeight == nil {
      throw ValidationError("posing the cameras from the players needs a scale: add --table-corners FILE or --person-height LENGTH (e.g. 1.75m)")
    }
    if personHeight != nil && !usesPlayers { throw ValidationError("--person-height scales a rig posed from the players: add --match (and --from-players)") }
    if personHeight != nil && tableCorners != nil { throw ValidationError("give --table-corners or --person-height for the scale, not both") }
    if let personHeight, !(personHeight.metres > 0.5 && personHeight.metres < 2.8) { throw ValidationError("--person-height must be a person's height (0.5–2.8 m)") }
    if tableCorners != nil && boardImages != nil { throw ValidationError("give --table-corners or --board-images, not both") }
    if (images != nil || boardImages != nil) && (board == nil || square == nil) {
      throw ValidationError("board images need --board COLUMNSxROWS (inner corners) and --square LENGTH")
    }
    if let board, Self.boardSize(board) == nil { throw ValidationError("--board must be COLUMNSxROWS inner corners, each ≥ 2 (e.g. 7x4), got '\(board)'") }
    if let square, !(square.metres > 0) { throw ValidationError("--square must be > 0") }
    if ![0, 2, 4, 5].contains(distortion) { throw ValidationError("--distortion must be 0, 2, 4 or 5") }
    if minImages < 3 { throw ValidationError("--min-images must be ≥ 3") }
    if !(every > 0 && every.isFinite) { throw ValidationError("--every must be > 0 seconds") }
  }

  /// Whether the poses come from the match's players: asked, or --match without the table's corners.
  var usesPlayers: Bool { fromPlayers || (match != nil && tableCorners == nil) }

  static func boardSize(_ text: String) -> (Int, Int)? {
    let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2, parts[0] >= 2, parts[1] >= 2 else { return nil }
    return (parts[0], parts[1])
  }

  func run() throws {
    var inputs = CameraCalibration.Inputs()
    inputs.intrinsicsImages = images.map { URL(fileURLWithPath: $0) }
    if let board, let square, let (columns, rows) = Self.boardSize(board) {
      inputs.board = Checkerboard(columns: columns, rows: rows, squareSize: square.metres)
    }
    if let intrinsics {
      inputs.givenCameras = try MatchFolder.cameras(calibration: URL(fileURLWithPath: intrinsics))
      inputs.givenSource = intrinsics
    }
    inputs.intrinsics.distortionTerms = distortion
    inputs.intrinsics.minViews = minImages
    inputs.videoEverySeconds = every
    inputs.tableCorners = tableCorners.map { URL(fileURLWithPath: $0) }
    inputs.boardImages = boardImages.map { URL(fileURLWithPath: $0) }
    inputs.match = match.map { URL(fileURLWithPath: $0) }
    inputs.matchSkeleton = skeleton
    inputs.fromPlayers = usesPlayers
    inputs.personHeight = personHeight?.metres
    inputs.playerRig.maxFrames = playerFrames
    let table = try SportSpec.builtIn(sport).tableGeometry()
    inputs.table = table
    let (cameras, report) = try CameraCalibration.run(inputs)
    let readFrom = [images, intrinsics, tableCorners, boardImages, match].compactMap { $0 }.map { URL(fileURLWithPath: $0) }
    try OutputFolder.replace(URL(fileURLWithPath: output), force: force, marker: "matchscene calibrate\n", inputs: readFrom) { staging in
      try CalibrationTOML.write(cameras, to: staging.appendingPathComponent("calibration.toml"))
      try report.json().write(to: staging.appendingPathComponent("calibration_report.json"))
      let svg = RigDrawing.svg(cameras: cameras, table: tableCorners != nil ? table : nil)
      try Data(svg.utf8).write(to: staging.appendingPathComponent("rig.svg"))
    }
    print(report.summary, terminator: "")
    print("→ \(output)/calibration.toml")
  }
}
