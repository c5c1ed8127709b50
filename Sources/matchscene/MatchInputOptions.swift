import ArgumentParser
import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneIO

/// Options that locate and override the parts of a match folder.
struct MatchInputOptions: ParsableArguments {
  @Argument(help: "The match folder (calibration/, pose/, ball/, optional match.toml).")
  var match: String

  @Option(help: ArgumentHelp(
    "Calibration to use instead of <match>/calibration/.",
    discussion: "A Pose2Sim / anipose .toml file, an EasyMocap intri.yml (with extri.yml beside it), a Qualisys .qca.txt, or a folder holding one."))
  var calibration: String?

  @Option(help: ArgumentHelp(
    "Folder of per-camera 2D keypoints to use instead of <match>/pose.",
    discussion: """
      Each camera in one format: <camera>_json/ (OpenPose JSON, a file per frame), <camera>.json (COCO keypoint results), \
      <camera>.mediapipe.json (MediaPipe pose landmarks; skeleton blazepose33) or <camera>.csv (DeepLabCut CSV, body parts matched by name).
      """))
  var pose: String?

  @Option(help: "Folder of TrackNet CSV files to use instead of <match>/ball.")
  var ball: String?

  @Option(help: "Frame rate in frames per second (default: match.toml, else the sport's default: 60 for table tennis, 120 for tennis…).")
  var fps: Double?

  @Option(help: "Sport (default: match.toml, else table-tennis).")
  var sport: String?

  @Option(help: "Skeleton of the 2D keypoints: a built-in name or match.toml's [skeleton] table name (default: match.toml, else coco17).")
  var skeleton: String?

  func validate() throws {
    if let fps, !(fps > 0 && fps.isFinite) { throw ValidationError("--fps must be a positive number, got \(fps)") }
  }

  /// Where the parts of the match are and what overrides `match.toml`.
  var folderOptions: MatchFolderOptions {
    var options = MatchFolderOptions()
    options.calibration = calibration.map { URL(fileURLWithPath: $0) }
    options.pose = pose.map { URL(fileURLWithPath: $0) }
    options.ball = ball.map { URL(fileURLWithPath: $0) }
    options.fps = fps
    options.sport = sport
    options.skeleton = skeleton
    options.defaultFPSForSport = { try? SportSpec.builtIn($0).defaultFPS }
    return options
  }

  /// The files and folders a run reads: the match folder and the parts given apart from it.
  var inputURLs: [URL] {
    ([match] + [calibration, pose, ball].compactMap { $0 }).map { URL(fileURLWithPath: $0) }
  }

  /// Loads the match, printing warnings to standard error.
  func load() throws -> LoadedMatch {
    let loaded = try MatchFolder.load(URL(fileURLWithPath: match), options: folderOptions)
    for diagnostic in loaded.diagnostics { Console.error("\(diagnostic)") }
    return loaded
  }
}
