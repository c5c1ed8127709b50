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
    /// No complete board was found in the image.
    case notFound(ImageSize)
  }

  /// Finds the board's inner corners in `image` (OpenCV's sector-based detector with its classic detector
  /// as a fallback, refined to sub-pixel accuracy; see `mscal_find_checkerboard`).
  public func detect(in image: GreyImage) -> Detection {
    var corners = [Double](repeating: 0, count: 2 * columns * rows)
    let status = image.pixels.withUnsafeBufferPointer {
      mscal_find_checkerboard($0.baseAddress, Int32(image.width), Int32(image.height), Int32(columns), Int32(rows), &corners)
    }
    guard status == MSCAL_OK else { return .notFound(image.size) }
    return .found((0..<columns * rows).map { SIMD2(corners[2 * $0], corners[2 * $0 + 1]) }, image.size)
  }

  /// The variance of the image's Laplacian (grey levels²; Pech-Pacheco et al., ICPR 2000): a sharp
  /// print gives hundreds, a blurred one tens or less.
  public static func sharpness(of image: GreyImage) -> Double {
    var value = 0.0
    let status = image.pixels.withUnsafeBufferPointer {
      mscal_image_sharpness($0.baseAddress, Int32(image.width), Int32(image.height), &value)
    }
    return status == MSCAL_OK ? value : 0
  }
}
