import Foundation
import XCTest

/// OpenSim's Python package (PyPI `opensim`), installed by `./quickstart.sh opensim` (and `test`) into the
/// virtual environment `.build/opensim`, where `matchscene opensim` finds it.
public enum OpenSimTools {
  /// `.build/opensim/bin/python`. - Throws: `XCTSkip` unless the tools tier is enabled, or when it is
  /// missing (a failure under CI).
  public static func python() throws -> String {
    try requireTier(.tools)
    let build = productsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    let python = build.appendingPathComponent("opensim/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
      let hint = "\(python) is missing: ./quickstart.sh opensim creates it (python3 -m venv, pip install opensim numpy)"
      if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(hint) }
      throw XCTSkip(hint)
    }
    return python
  }

  /// Runs `script` with OpenSim's Python and `arguments`; returns standard output.
  /// - Throws: when Python exits non-zero (its standard error in the message).
  public static func run(_ script: String, arguments: [String] = []) throws -> String {
    let result = try runProgram(URL(fileURLWithPath: try python()), ["-c", script] + arguments)
    guard result.status == 0 else {
      throw NSError(domain: "OpenSimTools", code: Int(result.status), userInfo: [
        NSLocalizedDescriptionKey: "python exited \(result.status): \(result.stderr)",
      ])
    }
    return result.stdout
  }
}
