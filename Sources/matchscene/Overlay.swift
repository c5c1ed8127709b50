import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneExport
import MatchSceneIO
import MatchSceneReview

/// `matchscene overlay <match> --camera cam01 --frames 100-200`: SVG images of each camera's 2D
/// detections with the reconstruction reprojected over them, for quality control.
struct Overlay: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Draw each camera's 2D detections and the reprojected 3D skeletons and ball as SVG images.",
    discussion: """
      One image per camera and frame, <output>/<camera>/<camera>_<frame>.svg, in the camera's pixel \
      coordinates: detections in white, each reconstructed track in its colour (dashed bones, ball ring), \
      and a legend with each track's mean distance in pixels between its reprojection and its detection. \
      <output>/disagreement.csv lists those distances for every image (frame,camera,track,mean_px), so \
      the worst frames can be found by sorting it.
      """)

  @OptionGroup var input: MatchInputOptions

  @Option(help: "The reconstruction: tracks.csv or the folder holding it (default: <match>/out).")
  var tracks: String?

  @Option(name: .customLong("camera"), help: "A camera to draw (repeat for several; default: every camera with detections).")
  var cameras: [String] = []

  @Option(help: "Match frames to draw, e.g. 100-200 (default: every frame of the reconstruction).")
  var frames: FrameRange?

  @Option(name: .shortAndLong, help: "Output folder (default: <tracks folder>/overlay).")
  var output: String?

  @Flag(help: "Transparent images, to lay over the camera's video frames (default: a dark background).")
  var transparent = false

  func run() throws {
    let loaded = try input.load()
    let match = loaded.match
    let tracksURL = Evaluate.tracksFile(tracks ?? URL(fileURLWithPath: input.match).appendingPathComponent("out").path)
    guard FileManager.default.fileExists(atPath: tracksURL.path) else {
      throw CommandFailure("\(tracksURL.path): no such file; run `matchscene reconstruct` first or pass --tracks")
    }
    let points = try TracksCSV.read(from: tracksURL)
    let byFrame = Dictionary(grouping: points, by: \.frame)

    let known = match.cameras.filter { match.detections[$0.name] != nil }
    let chosen = try cameras.isEmpty ? known : cameras.map { name in
      guard let camera = known.first(where: { $0.name == name }) else {
        throw CommandFailure("--camera \(name): no such camera with detections (known: \(known.map(\.name).joined(separator: ", ")))")
      }
      return camera
    }
    let range = frames?.range ?? byFrame.keys.min().flatMap { lo in byFrame.keys.max().map { lo...$0 } }
    guard let range else { throw CommandFailure("\(tracksURL.path): no reconstructed points") }

    let out = output.map { URL(fileURLWithPath: $0) } ?? tracksURL.deletingLastPathComponent().appendingPathComponent("overlay")
    let progress = ProgressReporter("overlay", total: range.count * chosen.count)
    var summary = "frame,camera,track,mean_px\n"
    var done = 0
    for camera in chosen {
      let folder = out.appendingPathComponent(camera.name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for frame in range {
        let reconstructed = byFrame[frame] ?? []
        let detections = match.people(camera: camera.name, frame: frame)
        let balls = match.balls(camera: camera.name, frame: frame)
        let image = OverlaySVG.renderWithDisagreements(
          camera: camera, frame: frame, detections: detections, balls: balls, reconstructed: reconstructed,
          skeleton: match.skeleton, background: transparent ? nil : OverlaySVG.defaultBackground)
        try AtomicFile.write(image.svg, to: folder.appendingPathComponent("\(camera.name)_\(frame).svg"))
        for d in image.disagreements {
          summary += "\(frame),\(camera.name),\(d.track),\(d.meanPx.map { String(format: "%.2f", $0) } ?? "")\n"
        }
        done += 1
        progress.update(done)
      }
    }
    progress.finish()
    let summaryURL = out.appendingPathComponent("disagreement.csv")
    try AtomicFile.write(summary, to: summaryURL)
    print("wrote \(range.count * chosen.count) SVG image(s) in \(out.path)/<camera>/ and \(summaryURL.path)")
  }
}
