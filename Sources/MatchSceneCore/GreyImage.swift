/// An 8-bit grey image: `width` × `height` pixels, row by row from the top-left, no padding.
public struct GreyImage: Sendable, Equatable {
  public var width: Int
  public var height: Int
  /// `width` · `height` grey levels (0 black … 255 white).
  public var pixels: [UInt8]

  /// Nil when `pixels` does not hold `width` · `height` values or a side is not positive.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width > 0, height > 0, pixels.count == width * height else { return nil }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  public var size: ImageSize { ImageSize(width: width, height: height) }
}
