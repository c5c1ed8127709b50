import Foundation
import XCTest

/// The result of running a command-line program.
public struct CommandResult {
  public var status: Int32
  public var stdout: String
  public var stderr: String
  /// Standard output as bytes (for binary output).
  public var data = Data()
}

/// Folder of the built products (`.build/debug`), where the test bundle and `matchscene` live.
public var productsDirectory: URL {
  #if os(macOS)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
    fatalError("no .xctest bundle")
  #else
    return Bundle.main.bundleURL
  #endif
}

/// The `matchscene` binary the integration tier runs: `MATCHSCENE_BINARY` when set (the test command sets
/// it to the release binary it built once, `.build/release/matchscene`), else the debug one beside the tests.
public var matchSceneBinary: URL {
  if let path = ProcessInfo.processInfo.environment["MATCHSCENE_BINARY"], !path.isEmpty {
    return URL(fileURLWithPath: path)
  }
  return productsDirectory.appendingPathComponent("matchscene")
}

/// Runs the built `matchscene` (`matchSceneBinary`) with `arguments`, waiting for it to exit.
/// Standard input is closed; output is captured (so progress output stays off, as when piped).
/// Integration tier: skipped unless `MATCHSCENE_TEST_TIERS` enables it.
public func runMatchScene(_ arguments: [String], in directory: URL? = nil) throws -> CommandResult {
  try requireTier(.integration)
  return try runProgram(matchSceneBinary, arguments, in: directory)
}

/// Runs `program` with `arguments`, waiting for it to exit; standard input closed, output captured.
/// Every spawn goes through here, so a test that spawns belongs to the integration or tools tier.
public func runProgram(_ program: URL, _ arguments: [String], in directory: URL? = nil) throws -> CommandResult {
  if TestTier.enabled == [.unit] {
    throw XCTSkip("spawns \(program.lastPathComponent): set MATCHSCENE_TEST_TIERS=all to run the spawning tiers")
  }
  let process = Process()
  process.executableURL = program
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  let out = Pipe(), err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  // Read both pipes concurrently so a full pipe never blocks the child.
  final class Sink: @unchecked Sendable { var data = Data() }
  let errSink = Sink()
  let group = DispatchGroup()
  group.enter()
  DispatchQueue.global().async {
    errSink.data = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return CommandResult(
    status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errSink.data, as: UTF8.self), data: outData)
}

/// The path of the program `name` on PATH (a tools-tier program: Blender, Chromium, ffmpeg…).
/// - Throws: `XCTSkip` unless the tools tier is enabled; `XCTSkip` saying `hint` when it is missing, but
///   under CI (`CI` set) the test fails instead.
public func programOnPath(_ name: String, hint: String) throws -> String {
  try requireTier(.tools)
  let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  guard let path else {
    let message = "\(name) is not on PATH: \(hint)"
    if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(message) }
    throw XCTSkip(message)
  }
  return path
}
