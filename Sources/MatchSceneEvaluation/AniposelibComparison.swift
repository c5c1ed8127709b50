import Foundation
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO

/// The triangulation benchmark's scene triangulated by aniposelib (Karashchuk et al., "Anipose", Cell
/// Reports 2021) in the same run, for a like-for-like throughput comparison: the scene is written to a
/// temporary folder (`calibration.toml`, the observations and the truth as float64, `scene.json`) and the
/// package's script `aniposelib_compare.py` (a resource; `Examples/benchmarks` links to it) is run on it
/// with the given Python, which must have aniposelib.
public enum AniposelibComparison {
  /// The comparison script shipped with the package; nil when the resource bundle is missing.
  public static var scriptURL: URL? { Bundle.module.url(forResource: "aniposelib_compare", withExtension: "py") }

  /// Runs the script on `bench`'s scene for `views` cameras with `python`.
  /// - Parameter optimPoints: points given to aniposelib's `triangulate_optim` (it is slow).
  /// - Returns: the script's output lines, one JSON object per method (`method`, `views`, `points`,
  ///   `seconds`, `points_per_second`, `mean_error_mm`).
  /// - Throws: `InputError` naming the script when it is missing or fails; a write error for the scene.
  public static func run(python: String, bench: TriangulationBenchmark, views: Int, optimPoints: Int) throws -> [String] {
    guard let script = scriptURL else {
      throw InputError(file: "aniposelib_compare.py", "missing from MatchScene's resources (the MatchScene_MatchSceneEvaluation bundle)")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("matchscene-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (cameras, observations, truth) = bench.scene(views: views)
    try CalibrationTOML.write(cameras, to: folder.appendingPathComponent("calibration.toml"))
    var obs = [Double](), pts = [Double]()
    obs.reserveCapacity(observations.count * 3)
    for o in observations { obs += [o.x, o.y, o.confidence] }
    for p in truth { pts += [p.x, p.y, p.z] }
    try AtomicFile.write(obs.withUnsafeBytes { Data($0) }, to: folder.appendingPathComponent("observations.f64"))
    try AtomicFile.write(pts.withUnsafeBytes { Data($0) }, to: folder.appendingPathComponent("truth.f64"))
    try AtomicFile.write("{\"views\": \(views), \"points\": \(truth.count)}", to: folder.appendingPathComponent("scene.json"))
    let result = ChildProcess.run(URL(fileURLWithPath: python), [script.path, folder.path, String(optimPoints)])
    guard result.status == 0 else {
      throw InputError(
        file: script.path, "aniposelib comparison failed (\(python) \(script.path)); exit \(result.status): \(result.stderr.suffix(2000))")
    }
    return result.stdout.split(separator: "\n").map(String.init)
  }
}
