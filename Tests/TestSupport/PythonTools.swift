import Foundation
import XCTest

/// The Python readers the tests check our files with (independent implementations from PyPI: `c3d`,
/// `ezc3d`), installed by `./quickstart.sh test` into a virtual environment in `.build/python-tools`.
public enum PythonTools {
  /// `.build/python-tools/bin/python`. - Throws: `XCTSkip` unless the tools tier is enabled, or when it is
  /// missing (a failure under CI).
  public static func python() throws -> String {
    try requireTier(.tools)
    // productsDirectory is .build/<triple>/debug; the venv sits in .build.
    let build = productsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    let python = build.appendingPathComponent("python-tools/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
      let hint = "\(python) is missing: ./quickstart.sh test creates it (python3 -m venv, pip install c3d ezc3d)"
      if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(hint) }
      throw XCTSkip(hint)
    }
    return python
  }

  /// Runs `script` with the tools' Python and `arguments`; returns standard output.
  /// - Throws: when Python exits non-zero (its standard error in the message).
  public static func run(_ script: String, arguments: [String] = []) throws -> String {
    let result = try runProgram(URL(fileURLWithPath: try python()), ["-c", script] + arguments)
    guard result.status == 0 else {
      throw NSError(domain: "PythonTools", code: Int(result.status), userInfo: [
        NSLocalizedDescriptionKey: "python exited \(result.status): \(result.stderr)",
      ])
    }
    return result.stdout
  }
}
