import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `reconstruct -o` writes its folder whole: exactly one run's files, never a mix, even when killed.
final class OutputFolderTests: XCTestCase {
  /// A simulated match shared by these tests (4 s, seed 5), made once per process. Integration tier:
  /// without it, a path that is never made (every test using it skips at its first `runMatchScene`).
  static let match: URL = {
    let folder = try! makeTemporaryFolder("matchscene-outputs")
    let match = folder.appendingPathComponent("match")
    guard TestTier.enabled.contains(.integration) else { return match }
    let result = try! runMatchScene(["simulate", "-o", match.path, "--duration", "4", "--seed", "5"])
    precondition(result.status == 0, result.stderr)
    return match
  }()

  /// Relative path → bytes of every file below `folder`.
  static func snapshot(_ folder: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    let base = folder.standardizedFileURL.path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
    for case let path as String in walker {
      var isFolder: ObjCBool = false
      FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder)
      if !isFolder.boolValue { out[path] = try Data(contentsOf: URL(fileURLWithPath: base + "/" + path)) }
    }
    return out
  }

  func testSecondRunLeavesOnlyItsOwnFiles() throws {
    try requireTier(.integration)
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    let first = try runMatchScene(["reconstruct", Self.match.path, "-o", out.path, "--ball-trail", "0.2"])
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("events.json").path))
    let second = try runMatchScene(["reconstruct", Self.match.path, "-o", out.path, "--no-analysis", "--no-scene"])
    XCTAssertEqual(second.status, 0, second.stderr)
    let files = Set(try Self.snapshot(out).keys)
    XCTAssertFalse(files.contains("events.json"), "a --no-analysis run leaves no events.json of the run before")
    XCTAssertFalse(files.contains("scene.glb"))
    XCTAssertTrue(files.contains("tracks.csv") && files.contains("report.json"), "\(files)")
    // Nothing left beside it either.
    let siblings = try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path)
    XCTAssertEqual(siblings, ["out"])
  }

  func testAFolderMatchSceneDidNotWriteIsNotReplaced() throws {
    try requireTier(.integration)
    let out = try makeTemporaryFolder()
    try "mine".write(to: out.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let run = try runMatchScene(["reconstruct", Self.match.path, "-o", out.path, "--no-scene"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains(out.lastPathComponent) && run.stderr.contains("--force"), run.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["notes.txt"])
  }

  /// A bad `-o` is reported before any work: with a match folder that would fail to read, the error is
  /// still the output's (it is checked first), it names the path in the way, and nothing is written.
  func testABadOutputIsReportedBeforeTheRun() throws {
    try requireTier(.integration)
    let root = try makeTemporaryFolder()
    let file = root.appendingPathComponent("a-file")
    try "x".write(to: file, atomically: true, encoding: .utf8)
    let brokenMatch = root.appendingPathComponent("no-such-match")
    for out in [file.appendingPathComponent("out"), file] {
      let run = try runMatchScene(["reconstruct", brokenMatch.path, "-o", out.path])
      XCTAssertNotEqual(run.status, 0)
      XCTAssertTrue(run.stderr.contains(file.path), run.stderr)
      XCTAssertFalse(run.stderr.contains("no-such-match"), "the output is checked before the match is read: \(run.stderr)")
    }
    let mine = root.appendingPathComponent("mine")
    try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
    try "mine".write(to: mine.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let run = try runMatchScene(["reconstruct", brokenMatch.path, "-o", mine.path])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("--force") && !run.stderr.contains("no-such-match"), run.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted(), ["a-file", "mine"])
  }

  /// Kills runs at moments spread over a whole run: the folder always holds the first run's files,
  /// byte for byte, and the next run cleans up what killed runs left beside it.
  func testKilledRunsLeaveThePreviousOutputIntact() throws {
    try requireTier(.integration)
    let parent = try makeTemporaryFolder()
    let out = parent.appendingPathComponent("out")
    let started = Date()
    let first = try runMatchScene(["reconstruct", Self.match.path, "-o", out.path])
    XCTAssertEqual(first.status, 0, first.stderr)
    let runTime = Date().timeIntervalSince(started)
    let before = try Self.snapshot(out)
    XCTAssertFalse(before.isEmpty)
    // What a whole second run writes: a run killed after its swap (a few microseconds before it ends) has
    // put exactly this in place.
    let whole = parent.appendingPathComponent("whole")
    XCTAssertEqual(try runMatchScene(["reconstruct", Self.match.path, "-o", whole.path, "--no-analysis"]).status, 0)
    let after = try Self.snapshot(whole)
    try FileManager.default.removeItem(at: whole)
    var generator = SystemRandomNumberGenerator()
    for k in 0..<8 {
      // Spread over the run, with random jitter: reading, reconstruction, export, the swap itself.
      let delay = runTime * (Double(k) + Double.random(in: 0..<1, using: &generator)) / 8
      let process = Process()
      process.executableURL = matchSceneBinary
      process.arguments = ["reconstruct", Self.match.path, "-o", out.path, "--no-analysis"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .exit {
        // The run finished before the kill: the folder is now the second kind of run; start again.
        XCTAssertEqual(process.terminationStatus, 0)
        let again = try runMatchScene(["reconstruct", Self.match.path, "-o", out.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        continue
      }
      let now = try Self.snapshot(out)
      let intact = Set(now.keys) == Set(before.keys) && now["tracks.csv"] == before["tracks.csv"]
      let swapped = Set(now.keys) == Set(after.keys) && now["tracks.csv"] == after["tracks.csv"]
      XCTAssertTrue(intact || swapped, "killed after \(delay) s: \(now.keys.sorted())")
      if swapped && !intact {
        XCTAssertEqual(try runMatchScene(["reconstruct", Self.match.path, "-o", out.path]).status, 0)
      }
    }
    let last = try runMatchScene(["reconstruct", Self.match.path, "-o", out.path, "--no-scene"])
    XCTAssertEqual(last.status, 0, last.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), ["out"], "killed runs' leftovers removed")
  }

  func testDemoNamesPlayersAndBystander() throws {
    try requireTier(.integration)
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    let run = try runMatchScene(["reconstruct", Self.match.path, "-o", out.path, "--no-scene"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("2 player(s) [P1, P2], 1 other person(s) [B1]"), run.stdout)
    let tracks = try String(contentsOf: out.appendingPathComponent("tracks.csv"), encoding: .utf8)
    XCTAssertTrue(tracks.contains(",B1,person,nose,"))
  }
}
