import ArgumentParser

@main
struct MatchSceneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "matchscene",
    abstract: "Turn multi-camera 2D detections of a match into 3D tracks and an animated glTF scene.",
    discussion: """
      A match is a folder with calibration/*.toml (Pose2Sim / anipose layout) or calibration/intri.yml + extri.yml \
      (EasyMocap), pose/ with one entry per camera — <camera>_json/ (OpenPose JSON), <camera>.json (COCO keypoint \
      results), <camera>.mediapipe.json (MediaPipe landmarks) or <camera>.csv (DeepLabCut) — ball/<camera>.csv \
      (TrackNet CSV) and an optional match.toml (sport, fps, skeleton name or [skeleton] table, up, frame offsets). \
      Try `matchscene simulate -o demo/match` then `matchscene reconstruct demo/match -o demo/out`.
      """,
    subcommands: [
      Simulate.self, Reconstruct.self, LocateVenue.self, Evaluate.self, View.self, Overlay.self, Benchmark.self,
      Form.self, Clip.self, Sessions.self, Compare.self, Batch.self, DrillCommand.self, OpenSimCommand.self, Open.self,
      Calibrate.self,
    ])

  /// Caps glibc's malloc arenas before any thread starts (see `limitMallocArenas`), then runs the
  /// command as `ParsableCommand.main` does.
  static func main() {
    limitMallocArenas()
    main(nil)
  }
}
