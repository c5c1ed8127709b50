import Foundation
import MatchSceneCore

/// Measures the triangulation kernel's throughput on synthetic data: points in a 3 × 2 × 2 m
/// volume seen by a ring of HD cameras with distortion, 1 px Gaussian noise, and (optionally) a
/// share of gross outliers. Used by `matchscene benchmark`; not a test.
public struct TriangulationBenchmark: Sendable {
  public struct Figure: Sendable {
    public var views: Int
    public var robust: Bool
    public var points: Int
    public var seconds: Double
    public var pointsPerSecond: Double { Double(points) / seconds }
    /// Mean 3D error against the true points, metres.
    public var meanError: Double
  }

  public var points: Int
  public var repeats: Int
  public var outlierRate: Double

  public init(points: Int = 200_000, repeats: Int = 3, outlierRate: Double = 0.05) {
    self.points = points
    self.repeats = repeats
    self.outlierRate = outlierRate
  }

  /// Observations and truth for `views` cameras.
  public func scene(views: Int, seed: UInt64 = 1) -> (cameras: [Camera], observations: [Keypoint2D], truth: [SIMD3<Double>]) {
    let cameras = (0..<views).map { i -> Camera in
      let a = 2 * Double.pi * (Double(i) + 0.5) / Double(views)
      return Camera.lookingAt(
        SIMD3(0, 0, 0.9), from: SIMD3(4.5 * cos(a), 4.5 * sin(a), 2.2 + 0.3 * Double(i % 2)), name: "cam\(i + 1)",
        imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400, distortion: [-0.1, 0.04, 0.0003, -0.0002, 0])
    }
    var rng = SeededGenerator(seed: seed)
    let truth = (0..<points).map { _ in SIMD3(rng.uniform(-1.5...1.5), rng.uniform(-1...1), rng.uniform(0...2)) }
    let pixels = cameras.map { $0.project(truth) }
    var observations = [Keypoint2D](repeating: .missing, count: points * views)
    for p in 0..<points {
      for c in 0..<views {
        guard var px = pixels[c][p] else { continue }
        px += SIMD2(rng.gaussian(), rng.gaussian())
        if rng.chance(outlierRate) { px += SIMD2(rng.uniform(40...150), rng.uniform(-150...150)) }
        observations[p * views + c] = Keypoint2D(x: px.x, y: px.y, confidence: rng.uniform(0.6...0.95))
      }
    }
    return (cameras, observations, truth)
  }

  /// Runs plain and robust triangulation for each view count; best of `repeats` runs each.
  public func run(views: [Int] = [4, 8]) throws -> [Figure] {
    var figures: [Figure] = []
    for v in views {
      let (cameras, observations, truth) = scene(views: v)
      for robust in [false, true] {
        let triangulator = try Triangulator(cameras: cameras, options: robust ? .robust : .init())
        var best = Double.infinity
        var batch: TriangulationBatch?
        for _ in 0..<max(1, repeats) {
          let start = DispatchTime.now().uptimeNanoseconds
          batch = try triangulator.triangulate(observations)
          best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        var sum = 0.0, n = 0
        for i in 0..<points where batch!.status(i) == .ok {
          sum += length(batch!.position(i) - truth[i])
          n += 1
        }
        figures.append(Figure(views: v, robust: robust, points: points, seconds: best, meanError: n > 0 ? sum / Double(n) : .nan))
      }
    }
    return figures
  }
}

#if canImport(Glibc)
  import Glibc
#endif
