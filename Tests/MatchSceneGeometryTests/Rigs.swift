import MatchSceneCore

/// Cameras around a 3 × 2 m area, 4 m away and 2.5 m up, with realistic HD intrinsics and distortion.
func ringCameras(count: Int = 4, distortion: [Double] = [-0.12, 0.05, 0.0004, -0.0003, 0.01]) -> [Camera] {
  (0..<count).map { i in
    let a = 2 * Double.pi * (Double(i) + 0.5) / Double(count)
    return Camera.lookingAt(
      SIMD3(0, 0, 0.9), from: SIMD3(4 * cos(a), 4 * sin(a), 2.5), name: "cam\(i + 1)",
      imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400, distortion: distortion)
  }
}

/// Deterministic points in the capture volume.
func volumePoints(_ n: Int, seed: UInt64 = 7) -> [SIMD3<Double>] {
  var rng = SeededGenerator(seed: seed)
  return (0..<n).map { _ in
    SIMD3(rng.uniform(-1.5...1.5), rng.uniform(-1...1), rng.uniform(0...2))
  }
}

#if canImport(Glibc)
  import Glibc
#endif
