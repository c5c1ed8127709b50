import Foundation
import XCTest

/// A Python virtual environment that `./quickstart.sh` makes in `.build/` for the tools tier.
public struct PythonEnvironment: Sendable {
  /// The folder under `.build/`.
  public var folder: String
  /// What makes it (named when it is missing).
  public var setup: String

  /// The independent readers the tests check our files with (PyPI `c3d`, `ezc3d`).
  public static let readers = PythonEnvironment(
    folder: "python-tools", setup: "./quickstart.sh test creates it (python3 -m venv, pip install c3d ezc3d)")
  /// OpenSim's Python package (PyPI `opensim`), where `matchscene opensim` finds it.
  public static let openSim = PythonEnvironment(
    folder: "opensim", setup: "./quickstart.sh opensim creates it (python3 -m venv, pip install opensim numpy)")

  /// `.build/<folder>/bin/python`. - Throws: `XCTSkip` unless the tools tier is enabled, or when it is
  /// missing (a failure under CI).
  public func python() throws -> String {
    try requireTier(.tools)
    // productsDirectory is .build/<triple>/<configuration>; the environments sit in .build.
    let build = productsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    let python = build.appendingPathComponent("\(folder)/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
      let hint = "\(python) is missing: \(setup)"
      if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(hint) }
      throw XCTSkip(hint)
    }
    return python
  }

  /// Runs `script` with this environment's Python and `arguments`; returns standard output.
  /// - Throws: when Python exits non-zero (its standard error in the message).
  public func run(_ script: String, arguments: [String] = []) throws -> String {
    let result = try runProgram(URL(fileURLWithPath: try python()), ["-c", script] + arguments)
    guard result.status == 0 else {
      throw NSError(domain: "PythonEnvironment.\(folder)", code: Int(result.status), userInfo: [
        NSLocalizedDescriptionKey: "python exited \(result.status): \(result.stderr)",
      ])
    }
    return result.stdout
  }
}
