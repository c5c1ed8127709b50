import Foundation
@testable import MatchSceneCore
import TestSupport
import XCTest

/// A run that fails or is killed leaves no staging folder for good: the next run into the same output
/// removes its own kind's leftovers (their process gone) and nothing else.
final class OutputLeftoverTests: XCTestCase {
  let fm = FileManager.default

  func contents(_ folder: URL) throws -> [String] { try fm.contentsOfDirectory(atPath: folder.path).sorted() }

  func fill(_ names: [String]) -> (URL) throws -> Void {
    { staging in for name in names { try Data(name.utf8).write(to: staging.appendingPathComponent(name)) } }
  }

  /// A mount point (written into, `replaceInto`): a killed run's `.matchscene.partial-PID-UUID` is removed
  /// by the next run, a live run's is kept, and a failing run leaves none of its own.
  func testAMountPointRunRemovesAKilledRunsStagingFolder() throws {
    let out = try makeTemporaryFolder()
    try OutputFolder.replaceInto(out, force: false, command: "matchscene reconstruct", fill: fill(["tracks.csv"]))
    let killed = ".matchscene.partial-2147483647-\(UUID().uuidString)"
    let older = ".matchscene.partial-\(UUID().uuidString)"
    let live = ".matchscene.partial-1-\(UUID().uuidString)"  // pid 1 never ends
    for name in [killed, older, live] {
      try fm.createDirectory(at: out.appendingPathComponent(name), withIntermediateDirectories: true)
      try Data("half".utf8).write(to: out.appendingPathComponent(name).appendingPathComponent("tracks.csv"))
    }
    XCTAssertNoThrow(try OutputFolder.checkDestination(out, command: "matchscene reconstruct"), "leftovers are MatchScene's")
    struct Failure: Error {}
    XCTAssertThrowsError(
      try OutputFolder.replaceInto(out, force: false, command: "matchscene reconstruct") { staging in
        try Data("x".utf8).write(to: staging.appendingPathComponent("tracks.csv"))
        throw Failure()
      })
    XCTAssertEqual(try contents(out), [".matchscene-output", live, "tracks.csv"], "the failed run left nothing; the killed run's folder went")
    XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("tracks.csv"), encoding: .utf8), "tracks.csv", "kept")
    try OutputFolder.replaceInto(out, force: false, command: "matchscene reconstruct", fill: fill(["tracks.csv"]))
    XCTAssertEqual(try contents(out), [".matchscene-output", live, "tracks.csv"])
  }

  /// Beside an ordinary output: `.out.partial-PID-UUID` and `.out.old-PID-UUID` of ended runs (and the bare
  /// `-UUID` names of earlier versions) go; a user's `.out.partial-notes` stays.
  func testOnlyMatchScenesOwnLeftoversBesideTheOutputAreRemoved() throws {
    let root = try makeTemporaryFolder()
    let out = root.appendingPathComponent("out")
    let ours = [".out.partial-2147483647-\(UUID().uuidString)", ".out.old-2147483647-\(UUID().uuidString)", ".out.partial-\(UUID().uuidString)"]
    let users = [".out.partial-notes", ".out.old-1-not-a-uuid"]
    for name in ours + users { try fm.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true) }
    try OutputFolder.replace(out, marker: "matchscene reconstruct\n", fill: fill(["tracks.csv"]))
    XCTAssertEqual(try contents(root), (users + ["out"]).sorted())
  }
}
