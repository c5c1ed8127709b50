import MatchSceneCore

/// How large a pixel is in the scene, from the cameras' pinhole model (Hartley & Zisserman, *Multiple
/// View Geometry*, 2nd ed., §6.1: a pixel at depth d spans d / f metres).
public enum PixelScale {
  /// Metres one pixel spans at a venue point: the smallest depth / focal length over the cameras that
  /// have it in front (the strictest view), else 1 mm.
  public static func metresPerPixel(cameras: [Camera], worldFromVenue: RigidTransform) -> @Sendable (SIMD3<Double>) -> Double {
    { venuePoint in
      let world = worldFromVenue.apply(venuePoint)
      var best = Double.infinity
      for camera in cameras {
        let depth = camera.camFromWorld.apply(world).z
        if depth > 1e-3 { best = min(best, depth / max(camera.fx, camera.fy)) }
      }
      return best.isFinite ? best : 1e-3
    }
  }
}
