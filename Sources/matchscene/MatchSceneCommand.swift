import ArgumentParser

@main
struct MatchSceneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "matchscene",
    abstract: "Turn multi-camera 2D detections of a match into 3D tracks and an animated glTF scene.",
    discussion: """
      A match is a folder with calibration/*.toml (Pose2Sim / anipose layout), pose/<camera>_json/ \
      (OpenPose JSON), ball/<camera>.csv (TrackNet CSV) and an optional match.toml. \
      Try `matchscene simulate -o demo/match` then `matchscene reconstruct demo/match -o demo/out`.
      """,
    subcommands: [Simulate.self, Reconstruct.self, Evaluate.self, View.self, Overlay.self, Benchmark.self])
}
