import Foundation
import MatchSceneCore
import MatchSceneIO

/// The overlay as SVG images: for each camera and frame, `<folder>/<camera>/<camera>_<frame>.svg`
/// (`OverlaySVG.renderWithDisagreements`: the detections, each reconstructed track reprojected, a legend
/// of their distances), and `<folder>/disagreement.csv` listing those distances for every image.
public enum OverlayImages {
  /// The header of `disagreement.csv`: one row per image and track, the track's mean distance in pixels
  /// between its reprojection and its detection (empty when it has none in that image).
  public static let disagreementHeader = "frame,camera,track,mean_px"

  /// Draws `cameras` over `frames` and writes the images and `disagreement.csv` into `folder`. A camera's
  /// folder and file names are its name made safe (`FileName`), its name and the track's CSV-escaped.
  /// - Parameters:
  ///   - reconstructed: the reconstruction (world frame, match frames).
  ///   - background: the images' background colour; nil: transparent, to lay over video frames.
  ///   - progress: told the number of images written so far.
  /// - Returns: the `disagreement.csv` written.
  /// - Throws: when a folder or file cannot be written.
  @discardableResult
  public static func write(
    cameras: [Camera], frames: ClosedRange<Int>, match: Match, reconstructed: MotionModel, background: String?,
    to folder: URL, progress: ((Int) -> Void)? = nil
  ) throws -> URL {
    var summary = disagreementHeader + "\n"
    var done = 0
    for camera in cameras {
      let cameraFolder = try FileName.file(camera.name, in: folder)
      try FileManager.default.createDirectory(at: cameraFolder, withIntermediateDirectories: true)
      for frame in frames {
        let image = OverlaySVG.renderWithDisagreements(
          camera: camera, frame: frame, detections: match.people(camera: camera.name, frame: frame),
          balls: match.balls(camera: camera.name, frame: frame), reconstructed: reconstructed,
          skeleton: match.skeleton, background: background)
        try AtomicFile.write(image.svg, to: cameraFolder.appendingPathComponent(FileName.safe(camera.name) + "_\(frame).svg"))
        for d in image.disagreements {
          summary += "\(frame),\(CSVField.escape(camera.name)),\(CSVField.escape(d.track)),\(d.meanPx.map { String(format: "%.2f", $0) } ?? "")\n"
        }
        done += 1
        progress?(done)
      }
    }
    let summaryURL = folder.appendingPathComponent("disagreement.csv")
    try AtomicFile.write(summary, to: summaryURL)
    return summaryURL
  }
}
