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

      With --video cam01.mp4 it draws the same on the camera's own video instead and writes \
      <output>/<camera>.mp4 (H.264, the video's frame rate; needs ffmpeg: apt-get install -y ffmpeg). \
      Video frame k is camera frame k, so match frame k − offset (match.toml [frame_offsets]); the \
      camera is --camera, or the one the file is named after. When the tracks' folder holds \
      calibration-refined.toml (the run corrected a camera), it draws with those cameras.
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

  @Flag(help: "Add to an -o folder that MatchScene did not write (its files are kept, same-named ones replaced).")
  var force = false

  @Flag(help: "Transparent images, to lay over the camera's video frames (default: a dark background).")
  var transparent = false

  @Option(help: "The camera's video (e.g. cam01.mp4): draw on its frames and write <output>/<camera>.mp4 instead of SVG images.")
  var video: String?

  @Flag(help: "With --video: draw even when the video's frame rate is not the match's or its aspect ratio not the calibrated image's.")
  var acceptVideoMismatch = false

  func run() throws {
    let tracksURL = Evaluate.tracksFile(tracks ?? URL(fileURLWithPath: input.match).appendingPathComponent("out").path)
    // Draw with the cameras the reconstruction used: a run that corrected a camera wrote them beside
    // tracks.csv (calibration-refined.toml); --calibration still chooses.
    var input = self.input
    let corrected = MatchOutput.url(.refinedCalibration, in: tracksURL.deletingLastPathComponent())
    if input.calibration == nil, FileManager.default.fileExists(atPath: corrected.path) {
      input.calibration = corrected.path
      Console.error("note: \(corrected.path): drawing with the cameras the reconstruction corrected (--calibration to choose)")
    }
    let loaded = try input.load()
    let match = loaded.match
    guard FileManager.default.fileExists(atPath: tracksURL.path) else {
      throw CommandFailure("\(tracksURL.path): no such file; run `matchscene reconstruct` first or pass --tracks")
    }
    let motion = try MatchOutput.readMotion(tracks: tracksURL)

    let known = match.cameras.filter { match.detections[$0.name] != nil }
    let chosen = try cameras.isEmpty ? known : cameras.map { name in
      guard let found = MatchFolder.cameraName(name, among: known.map(\.name)), let camera = known.first(where: { $0.name == found }) else {
        throw CommandFailure("--camera \(name): no such camera with detections (known: \(known.map(\.name).joined(separator: ", ")))")
      }
      return camera
    }
    let range = frames?.range ?? motion.frames
    guard let range else { throw CommandFailure("\(tracksURL.path): no reconstructed points") }

    let out = output.map { URL(fileURLWithPath: $0) } ?? tracksURL.deletingLastPathComponent().appendingPathComponent("overlay")
    // Added to across runs (a camera, a range of frames at a time), never into a folder of the user's
    // or of the input; the marker lists what overlay wrote.
    let kept = try OutputFolder.checkAdding(out, command: "matchscene overlay", force: force, inputs: input.inputURLs + [tracksURL])
    if output == nil { try OutputFolder.record(["overlay"], in: tracksURL.deletingLastPathComponent()) }
    // The entries this run writes (a video's partial file too: a killed run's is the next run's to replace).
    let adding = video.map { video -> [String] in
      let mp4 = FileName.safe(cameras.first ?? URL(fileURLWithPath: video).deletingPathExtension().lastPathComponent) + ".mp4"
      return [mp4, ".\(mp4).partial.mp4"]
    } ?? chosen.map { FileName.safe($0.name) } + ["disagreement.csv"]
    try OutputFolder.claim(out, command: "matchscene overlay", keeping: kept, adding: adding)
    defer { try? OutputFolder.claim(out, command: "matchscene overlay", keeping: kept) }
    if let video {
      try overlayVideo(URL(fileURLWithPath: video), known: known, match: match, motion: motion, out: out)
      return
    }
    let progress = ProgressReporter("overlay", total: range.count * chosen.count)
    let summaryURL = try OverlayImages.write(
      cameras: chosen, frames: range, match: match, reconstructed: motion,
      background: transparent ? nil : OverlaySVG.defaultBackground, to: out
    ) { progress.update($0) }
    progress.finish()
    print("wrote \(range.count * chosen.count) SVG image(s) in \(out.path)/<camera>/ and \(summaryURL.path)")
  }

  /// `--video`: the overlay drawn on the camera's video, `<out>/<camera>.mp4`.
  private func overlayVideo(
    _ video: URL, known: [Camera], match: Match, motion: MotionModel, out: URL
  ) throws {
    guard FileManager.default.fileExists(atPath: video.path) else { throw CommandFailure("--video \(video.path): no such file") }
    try OutputFolder.checkRegularFile(video, what: "video")
    let stem = video.deletingPathExtension().lastPathComponent
    guard cameras.count <= 1 else { throw CommandFailure("--video draws one camera; pass one --camera") }
    let name = cameras.first ?? stem
    guard let camera = known.first(where: { $0.name == name }) else {
      throw CommandFailure(
        "--video \(video.lastPathComponent): no camera \(name) with detections; pass --camera (known: \(known.map(\.name).joined(separator: ", ")))")
    }
    let target = try FileName.file(camera.name, suffix: ".mp4", in: out)
    let progress = ProgressReporter("overlay", total: frames?.range.count ?? 0)
    let started = Date()
    let summary = try OverlayVideo.render(
      video: video, to: target, camera: camera, offset: match.frameOffsets[camera.name] ?? 0, frames: frames?.range,
      match: match, reconstructed: motion, skeleton: match.skeleton, acceptMismatch: acceptVideoMismatch
    ) { progress.update($0) }
    progress.finish()
    print(
      "wrote \(target.path): \(summary.framesWritten) frames at \(summary.info.frameRate) fps, "
        + "\(summary.framesWithReconstruction) with reconstructed points, "
        + String(format: "%.1f s", Date().timeIntervalSince(started)))
  }
}
