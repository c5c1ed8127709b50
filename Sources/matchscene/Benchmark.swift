import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneEvaluation
import MatchSceneGeometry
import MatchSceneIO

/// `matchscene benchmark`: throughput of the triangulation kernel.
struct Benchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure the triangulation kernel's throughput (points per second), plain DLT vs robust.",
    discussion: """
      Build with -c release for meaningful figures: swift run -c release matchscene benchmark. \
      With --aniposelib PYTHON (a Python that has aniposelib, e.g. from a throwaway venv) the same points \
      are also triangulated by aniposelib's triangulate and triangulate_optim in the same run \
      (the package's aniposelib_compare.py, linked from Examples/benchmarks).
      """)

  @Option(help: "Points per run.")
  var points = 200_000

  @Option(help: "Runs per configuration (the fastest counts).")
  var repeats = 3

  @Option(parsing: .upToNextOption, help: "Camera counts to measure.")
  var views: [Int] = [4, 8]

  @Option(help: "Share of observations replaced by gross outliers (40–150 px off).")
  var outlierRate = 0.05

  @Option(help: "A Python interpreter with aniposelib installed, to compare in the same run.")
  var aniposelib: String?

  @Option(help: "Points given to aniposelib's triangulate_optim (it is slow).")
  var optimPoints = 2000

  func validate() throws {
    guard points > 0, repeats > 0, views.allSatisfy({ $0 >= 2 }) else {
      throw ValidationError("--points and --repeats must be positive and every --views at least 2")
    }
  }

  func run() throws {
    let bench = TriangulationBenchmark(points: points, repeats: repeats, outlierRate: outlierRate)
    let figures = try bench.run(views: views)
    print("views  method                  points/s    mean 3D error   vs MatchScene plain (same run)")
    for f in figures {
      let plain = figures.first { $0.views == f.views && !$0.robust }!
      print(row(f.views, f.robust ? "matchscene robust" : "matchscene plain", f.pointsPerSecond, f.meanError, f.pointsPerSecond / plain.pointsPerSecond))
    }
    guard let python = aniposelib else { return }
    for v in views {
      let plain = figures.first { $0.views == v && !$0.robust }!
      let robust = figures.first { $0.views == v && $0.robust }!
      for line in try AniposelibComparison.run(python: python, bench: bench, views: v, optimPoints: optimPoints) {
        guard let data = line.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let method = object["method"] as? String, let rate = object["points_per_second"] as? Double,
          let error = object["mean_error_mm"] as? Double
        else { continue }
        print(row(v, "aniposelib \(method)", rate, error / 1000, rate / plain.pointsPerSecond)
          + String(format: "   (MatchScene robust is %.0f× faster)", robust.pointsPerSecond / rate))
      }
    }
  }

  func row(_ views: Int, _ method: String, _ rate: Double, _ error: Double, _ ratio: Double) -> String {
    String(format: "%5d  %@  %10.0f  %10.2f mm   %.3f×", views, method.padding(toLength: 30, withPad: " ", startingAt: 0), rate, error * 1000, ratio)
  }
}
