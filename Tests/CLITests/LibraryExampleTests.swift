import Foundation
import TestSupport
import XCTest

/// The README's "Using MatchScene from Swift" example is `Examples/LibraryUsage/main.swift`, compiled
/// with the package: it must be in the README word for word, and it must run.
final class LibraryExampleTests: XCTestCase {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  func testReadmeExampleIsTheCompiledExample() throws {
    let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("Examples/LibraryUsage/main.swift"), encoding: .utf8)
    XCTAssertTrue(readme.contains("```swift\n" + example + "```"), "README.md's Swift example differs from Examples/LibraryUsage/main.swift")
  }

  func testExampleRunsThePipeline() throws {
    try requireTier(.integration)
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent("matchscene-library-example")
    process.arguments = [OutputFolderTests.match.path, out.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, output)
    XCTAssertTrue(output.contains("players P1, P2"), output)
    XCTAssertTrue(output.contains("P1 right wrist at frame"), output)
    for file in ["tracks.csv", "events.json", "scene.glb", "report.json"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), file)
    }
  }
}
