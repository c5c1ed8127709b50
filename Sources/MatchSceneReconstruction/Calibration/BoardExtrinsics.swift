import Foundation
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO

/// Every camera's pose from one checkerboard seen by all of them at the same time (one image per
/// camera): each camera is placed by `CameraPose` (PnP) against the board's corners with its known
/// intrinsics, so the world is the board's frame (origin at its first inner corner, x along its
/// `columns` direction, y along its rows, z into the side facing away from the cameras).
public enum BoardExtrinsics {
  /// One camera's fitted pose and the image it came from.
  public struct CameraFit: Sendable {
    public var camera: Camera
    public var file: String
    public var rmsPx: Double
  }

  /// - Parameters:
  ///   - images: per camera name, its images of the board (the first that shows the whole board is used).
  /// - Throws: `InputError` naming the camera and its image when the board is found in none of its
  ///   images (that camera shares no board view with the others, so nothing places it), or no pose fits.
  public static func fit(images: [(camera: String, files: [URL])], cameras: [Camera], board: Checkerboard) throws -> [CameraFit] {
    var fits: [CameraFit] = []
    for (name, files) in images {
      guard let camera = cameras.first(where: { $0.name == name }) else {
        throw InputError(
          file: files.first?.path ?? name, location: .key(name),
          "no intrinsics for this camera (calibrated: \(cameras.map(\.name).joined(separator: ", "))); calibrate it first")
      }
      var reasons: [String] = []
      var fit: CameraFit?
      for file in files where fit == nil {
        let image: GreyImage
        do { image = try GreyImageFile.read(file) } catch {
          reasons.append("\(file.lastPathComponent): not a readable image (\((error as? InputError)?.message ?? "\(error)"))")
          continue
        }
        switch board.detect(in: image) {
        case .found(let corners, _):
          guard let r = CameraPose.solve(camera: camera, world: board.objectPoints, pixels: corners) else {
            reasons.append("\(file.lastPathComponent): no pose fits the board's corners")
            continue
          }
          fit = CameraFit(camera: r.camera, file: file.path, rmsPx: r.rmsPx)
        case .notFound:
          let sharp = Checkerboard.sharpness(of: image)
          reasons.append("\(file.lastPathComponent): " + (sharp < 30 ? String(format: "blurred (sharpness %.1f), no board found", sharp) : "no complete board of \(board.columns)×\(board.rows) inner corners"))
        }
      }
      guard let fit else {
        throw InputError(
          file: files.first?.path ?? name, location: .key(name),
          "camera \(name) sees the board in none of its images (\(reasons.joined(separator: "; "))), so it shares no view with the other cameras "
            + "and its pose cannot be found: take an image in which this camera and at least one other see the whole board")
      }
      fits.append(fit)
    }
    return fits
  }
}
