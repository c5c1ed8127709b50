import ArgumentParser
import Foundation
import MatchSceneGeometry

/// `matchscene benchmark`: throughput of the triangulation kernel.
struct Benchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure the triangulation kernel's throughput (points per second), plain DLT vs robust.",
    discussion: "Build with -c release for meaningful figures: swift run -c release matchscene benchmark")

  @Option(help: "Points per run.")
  var points = 200_000

  @Option(help: "Runs per configuration (the fastest counts).")
  var repeats = 3

  @Option(parsing: .upToNextOption, help: "Camera counts to measure.")
  var views: [Int] = [4, 8]

  @Option(help: "Share of observations replaced by gross outliers (40–150 px off).")
  var outlierRate = 0.05

  func validate() throws {
    guard points > 0, repeats > 0, views.allSatisfy({ $0 >= 2 }) else {
      throw ValidationError("--points and --repeats must be positive and every --views at least 2")
    }
  }

  func run() throws {
    let bench = TriangulationBenchmark(points: points, repeats: repeats, outlierRate: outlierRate)
    let figures = try bench.run(views: views)
    print("views  mode    points/s      mean 3D error   vs plain DLT (same run)")
    for f in figures {
      let plain = figures.first { $0.views == f.views && !$0.robust }!
      print(
        String(
          format: "%5d  %-6@  %10.0f  %10.2f mm   %.2f×", f.views, f.robust ? "robust" : "plain",
          f.pointsPerSecond, f.meanError * 1000, f.pointsPerSecond / plain.pointsPerSecond))
    }
  }
}
