import ArgumentParser

@main
struct MatchSceneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "matchscene",
    abstract: "Turn multi-camera 2D detections of a match into 3D tracks and an animated glTF scene.",
    subcommands: [])
}
