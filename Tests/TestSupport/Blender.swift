import Foundation
import XCTest

/// Headless Blender (Debian's 3.4.1) for tests that open MatchScene's files the way a user does.
public enum Blender {
  /// The package's `Tests/Blender` folder (the scripts run inside Blender) and its root.
  public static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Blender")
  public static let packageRoot = scripts.deletingLastPathComponent().deletingLastPathComponent()

  /// Blender's path. - Throws: `XCTSkip` when it is not installed (a failure under CI).
  public static func executable() throws -> String {
    try programOnPath("blender", hint: "apt-get install -y blender python3-numpy")
  }

  /// Runs `blender -b --factory-startup --python script -- arguments` and returns the JSON object the
  /// script wrote to the file named by its last argument `json` (read after Blender exits).
  /// - Throws: when Blender fails or writes no JSON (its output is in the error).
  public static func run(script: String, arguments: [String], json: URL, timeout: TimeInterval = 120) throws
    -> [String: Any]
  {
    try run(script: scripts.appendingPathComponent(script), arguments: arguments, json: json, timeout: timeout)
  }

  /// `run(script:arguments:json:timeout:)` with a script anywhere (e.g. under Examples/).
  public static func run(script: URL, arguments: [String], json: URL, timeout: TimeInterval = 120) throws
    -> [String: Any]
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try executable())
    process.arguments =
      ["-b", "--factory-startup", "--python-exit-code", "1", "--python", script.path, "--"]
      + arguments
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("blender-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    defer { try? FileManager.default.removeItem(at: log) }
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    try handle.close()
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0, let data = try? Data(contentsOf: json),
      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
      throw NSError(
        domain: "Blender", code: Int(process.terminationStatus),
        userInfo: [NSLocalizedDescriptionKey: "blender \(script.lastPathComponent) failed:\n\(output.suffix(3000))"])
    }
    return object
  }
}
