internal import CTriangulation
import MatchSceneCore

/// A planar checkerboard calibration target: `columns` × `rows` inner corners (where four squares meet),
/// `squareSize` metres apart.
public struct Checkerboard: Sendable, Equatable {
  public var columns: Int
  public var rows: Int
  public var squareSize: Double

  public init(columns: Int, rows: Int, squareSize: Double) {
    self.columns = columns
    self.rows = rows
    self.squareSize = squareSize
  }

  /// The inner corners in the board's own frame (metres, z = 0), in the order the detector returns them:
  /// row by row, `columns` corners per row.
  public var objectPoints: [SIMD3<Double>] {
    (0..<rows).flatMap { r in (0..<columns).map { c in SIMD3(Double(c) * squareSize, Double(r) * squareSize, 0) } }
  }

  /// What looking for the board in one image found.
  public enum Detection: Sendable, Equatable {
    /// The inner corners (pixels, sub-pixel), in `objectPoints`' order, and the image's size.
    case found([SIMD2<Double>], ImageSize)
    /// The image was read but no complete board was found in it.
    case notFound(ImageSize)
    /// The file could not be read or decoded as an image.
    case unreadable
  }

  /// Finds the board's inner corners in the image file at `path` (OpenCV's sector-based detector with
  /// its classic detector as a fallback, refined to sub-pixel accuracy; see `mscal_find_checkerboard`).
  public func detect(inImageAt path: String) -> Detection {
    var corners = [Double](repeating: 0, count: 2 * columns * rows)
    var width: Int32 = 0, height: Int32 = 0
    let status = mscal_find_checkerboard(path, Int32(columns), Int32(rows), &corners, &width, &height)
    let size = ImageSize(width: Int(width), height: Int(height))
    switch status {
    case MSCAL_OK: return .found((0..<columns * rows).map { SIMD2(corners[2 * $0], corners[2 * $0 + 1]) }, size)
    case MSCAL_UNREADABLE_IMAGE: return .unreadable
    default: return width > 0 ? .notFound(size) : .unreadable
    }
  }

  /// The variance of the image's Laplacian (grey levels²; Pech-Pacheco et al., ICPR 2000): a sharp
  /// print gives hundreds, a blurred one tens or less. Nil when the file cannot be read.
  public static func sharpness(ofImageAt path: String) -> Double? {
    var value = 0.0
    return mscal_image_sharpness(path, &value) == MSCAL_OK ? value : nil
  }
}
