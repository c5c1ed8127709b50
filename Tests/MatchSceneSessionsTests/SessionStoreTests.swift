import Foundation
import MatchSceneCore
import MatchSceneIO
import MatchSceneSessions
import TestSupport
import XCTest

final class SessionStoreTests: XCTestCase {
  /// add → export gives tracks.csv back byte for byte (so every position within 1e-6 m) and equal events.
  func testExportGivesTheSameTracksAndEvents() throws {
    let dir = try makeTemporaryFolder("sessions")
    defer { try? FileManager.default.removeItem(at: dir) }
    let match = try simulatedMatch(seed: 3)
    let out = try writeOutputFolder(match, to: dir.appendingPathComponent("week1/out"), names: ["P1": "Ana"], noise: 0.01)
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let added = try store.add(try SessionInput.read(outputFolder: out))
    XCTAssertEqual(added.players["P1"], .some("Ana"))
    XCTAssertEqual(added.players["P2"], .some(nil))
    try store.export(added.id, to: dir.appendingPathComponent("back"))

    let original = try TracksCSV.read(from: out.appendingPathComponent("tracks.csv"))
    let exported = try TracksCSV.read(from: dir.appendingPathComponent("back/tracks.csv"))
    XCTAssertEqual(original.count, exported.count)
    var worst = 0.0
    for (a, b) in zip(original, exported) {
      XCTAssertEqual([a.track, a.joint, a.kind.rawValue], [b.track, b.joint, b.kind.rawValue])
      XCTAssertEqual(a.frame, b.frame)
      XCTAssertEqual(a.views, b.views)
      XCTAssertEqual(a.reprojectionPx, b.reprojectionPx, accuracy: 5e-4)
      let d = a.position - b.position
      worst = max(worst, (d * d).sum().squareRoot())
    }
    XCTAssertLessThanOrEqual(worst, 1e-6, "positions within 1e-6 m")
    XCTAssertEqual(
      try String(contentsOf: out.appendingPathComponent("tracks.csv"), encoding: .utf8),
      try String(contentsOf: dir.appendingPathComponent("back/tracks.csv"), encoding: .utf8), "the same file")
    XCTAssertFalse(match.events.isEmpty)
    XCTAssertEqual(try EventsJSON.read(from: dir.appendingPathComponent("back/events.json")), match.events)
    XCTAssertEqual(
      FileManager.default.contents(atPath: dir.appendingPathComponent("back/report.json").path),
      FileManager.default.contents(atPath: out.appendingPathComponent("report.json").path))
  }

  /// The same output added twice is refused by its hash; a changed file makes it a new session.
  func testSameOutputTwiceIsDetected() throws {
    let dir = try makeTemporaryFolder("sessions")
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = try writeOutputFolder(try simulatedMatch(seed: 4, duration: 4), to: dir.appendingPathComponent("m"))
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let first = try store.add(try SessionInput.read(outputFolder: out))
    XCTAssertThrowsError(try store.add(try SessionInput.read(outputFolder: out))) { error in
      XCTAssertEqual(error as? SessionStoreError, .duplicate(existing: first.id, name: "m", hash: (try? SessionInput.hash(folder: out)) ?? ""))
    }
    XCTAssertEqual(try store.list().count, 1)
    try Data("{\"events\": []}".utf8).write(to: out.appendingPathComponent("events.json"))
    XCTAssertNoThrow(try store.add(try SessionInput.read(outputFolder: out)))
    XCTAssertEqual(try store.list().count, 2)
  }

  /// remove deletes the session and its rows; the others stay readable.
  func testRemove() throws {
    let dir = try makeTemporaryFolder("sessions")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let a = try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(try simulatedMatch(seed: 5, duration: 3), to: dir.appendingPathComponent("a"))))
    let b = try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(try simulatedMatch(seed: 6, duration: 3), to: dir.appendingPathComponent("b"))))
    try store.remove(a.id)
    XCTAssertEqual(try store.list().map(\.id), [b.id])
    XCTAssertThrowsError(try store.load(a.id))
    XCTAssertThrowsError(try store.remove(a.id))
    XCTAssertFalse(try store.load(b.id).motion.tracks.isEmpty)
  }

  /// A store holding a schema step this build does not know is refused, and its bytes are not touched.
  func testNewerSchemaIsRefusedWithoutDamage() throws {
    try requireTier(.tools)  // checks the file with the sqlite3 shell
    let dir = try makeTemporaryFolder("sessions")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("store.sqlite").path
    do {
      let store = try SessionStore(path: path)
      try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(try simulatedMatch(seed: 7, duration: 3), to: dir.appendingPathComponent("a"))))
    }
    // What a newer MatchScene would leave: another schema step and a higher user_version.
    let sql = "PRAGMA journal_mode=DELETE; INSERT INTO grdb_migrations VALUES ('v2-future'); CREATE TABLE future (x); PRAGMA user_version = 2;"
    XCTAssertEqual(try sqlite3(path, sql).status, 0)
    let before = FileManager.default.contents(atPath: path)
    XCTAssertThrowsError(try SessionStore(path: path)) { error in
      guard case .newerSchema(let file, let unknown) = error as? SessionStoreError else { return XCTFail("\(error)") }
      XCTAssertEqual(file, path)
      XCTAssertEqual(unknown, ["v2-future"])
      XCTAssertTrue("\(error)".contains("newer MatchScene"))
    }
    XCTAssertEqual(FileManager.default.contents(atPath: path), before, "the file is left as it was")
    XCTAssertEqual(try sqlite3(path, "PRAGMA integrity_check").stdout, "ok\n")
  }
}

/// Runs the `sqlite3` command-line shell on `file` (tools tier: skipped unless it is enabled).
func sqlite3(_ file: String, _ sql: String) throws -> (status: Int32, stdout: String) {
  let result = try runProgram(URL(fileURLWithPath: try programOnPath("sqlite3", hint: "apt-get install -y sqlite3")), [file, sql])
  return (result.status, result.stdout)
}
