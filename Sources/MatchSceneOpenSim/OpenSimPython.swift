import Foundation
import MatchSceneCore

/// The Python interpreter that has OpenSim's Python package (PyPI `opensim`, OpenSim 4.5+): the path given
/// (and only it), else the first of `$MATCHSCENE_OPENSIM_PYTHON`; the virtual environment `./quickstart.sh opensim`
/// makes in `.build/opensim` beside the `matchscene` binary's build folder (`.build/release/matchscene` →
/// `.build/opensim/bin/python`); `python3` on `PATH`. The first that imports `opensim` wins.
public struct OpenSimPython: Sendable {
  /// The interpreter.
  public var executable: URL
  /// `opensim.__version__`.
  public var version: String

  /// The places searched, in order (candidates that do not exist are skipped).
  public static func candidates(given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
    var out: [URL] = []
    if let given { out.append(URL(fileURLWithPath: given)) }
    if let env = environment["MATCHSCENE_OPENSIM_PYTHON"], !env.isEmpty { out.append(URL(fileURLWithPath: env)) }
    let binary = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    // .build/<config>/matchscene and .build/<triple>/<config>/matchscene.
    var folder = binary.deletingLastPathComponent()
    for _ in 0..<3 {
      folder = folder.deletingLastPathComponent()
      out.append(folder.appendingPathComponent("opensim/bin/python"))
      out.append(folder.appendingPathComponent(".build/opensim/bin/python"))
    }
    for dir in (environment["PATH"] ?? "").split(separator: ":") {
      out.append(URL(fileURLWithPath: String(dir)).appendingPathComponent("python3"))
    }
    return out
  }

  /// The given interpreter, or the first candidate that imports `opensim`.
  /// - Throws: `InputError` saying how to install it when none does (or the given one does not).
  public static func find(given: String?) throws -> OpenSimPython {
    if let given {
      let url = URL(fileURLWithPath: given)
      guard FileManager.default.isExecutableFile(atPath: url.path) else {
        throw InputError(file: given, "--python: no executable here")
      }
      guard let version = try? opensimVersion(url) else {
        throw InputError(file: given, "--python: this Python cannot import the package `opensim` (pip install opensim in its environment, or ./quickstart.sh opensim)")
      }
      return OpenSimPython(executable: url, version: version)
    }
    var tried: [String] = []
    for candidate in candidates(given: nil) where FileManager.default.isExecutableFile(atPath: candidate.path) {
      tried.append(candidate.path)
      if let version = try? opensimVersion(candidate) { return OpenSimPython(executable: candidate, version: version) }
    }
    throw InputError(
      file: "opensim",
      """
      OpenSim's Python package is not installed: run `./quickstart.sh opensim` (a virtual environment in .build/opensim \
      with `pip install opensim`, about 250 MB), or give an interpreter that has it with --python or \
      MATCHSCENE_OPENSIM_PYTHON (tried: \(tried.isEmpty ? "none found" : tried.joined(separator: ", ")))
      """)
  }

  /// `opensim.__version__` as `python` reports it; throws when the import fails.
  static func opensimVersion(_ python: URL) throws -> String {
    let result = try run(python, ["-c", "import opensim; print(opensim.__version__)"])
    let version = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    guard result.status == 0, !version.isEmpty else { throw InputError(file: python.path, "cannot import opensim: \(result.stderr)") }
    return version
  }

  /// Runs `python` with `arguments` (`ChildProcess`: in a private working folder, where OpenSim writes its
  /// `opensim.log`, never the user's).
  static func run(_ python: URL, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let result = ChildProcess.run(python, arguments)
    return (result.status, result.stdout, result.stderr)
  }

  /// Runs the bundled script `opensim_ik.py` on `job` (a JSON file).
  /// - Throws: `InputError` with the script's standard error when it fails as a whole.
  func runIK(job: URL) throws {
    guard let script = OpenSimRun.scriptURL else {
      throw InputError(file: "opensim_ik.py", "MatchScene's OpenSim script is missing from its resources; reinstall matchscene")
    }
    let result = try Self.run(executable, [script.path, job.path])
    guard result.status == 0 else {
      throw InputError(file: job.path, "OpenSim's inverse kinematics failed (exit \(result.status)): \(result.stderr.suffix(2000))")
    }
  }
}
