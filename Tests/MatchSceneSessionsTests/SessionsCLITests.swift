import Foundation
import MatchSceneIO
import MatchSceneSessions
import TestSupport
import XCTest

/// `matchscene sessions …` end to end on the built binary.
final class SessionsCLITests: XCTestCase {
  func testAddListShowExportRemove() throws {
    try requireTier(.integration)
    let dir = try makeTemporaryFolder("sessions-cli")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("s.sqlite").path
    let out = try writeOutputFolder(try simulatedMatch(seed: 9, duration: 5), to: dir.appendingPathComponent("week1/out"))

    let add = try runMatchScene(["sessions", "add", out.path, "--player", "P1=Ana", "--date", "2026-11-02", "--store", store])
    XCTAssertEqual(add.status, 0, add.stderr)
    XCTAssertTrue(add.stdout.contains("added session 1 'week1' (2026-11-02"), add.stdout)
    XCTAssertTrue(add.stdout.contains("P1 Ana, P2 (unnamed)"), add.stdout)

    let again = try runMatchScene(["sessions", "add", out.path, "--store", store])
    XCTAssertNotEqual(again.status, 0)
    XCTAssertTrue(again.stderr.contains("already stored as session 1"), again.stderr)

    let list = try runMatchScene(["sessions", "list", "--store", store])
    XCTAssertEqual(list.stdout.split(separator: "\n").count, 1, list.stdout)
    XCTAssertTrue(list.stdout.hasPrefix("1\t2026-11-02\tweek1\t5.0 s"), list.stdout)

    let show = try runMatchScene(["sessions", "show", "1", "--store", store])
    XCTAssertTrue(show.stdout.contains("sport table-tennis, 60.0 fps"), show.stdout)
    XCTAssertTrue(show.stdout.contains(try SessionInput.hash(folder: out)), show.stdout)

    let export = try runMatchScene(["sessions", "export", "1", "-o", dir.appendingPathComponent("back").path, "--store", store])
    XCTAssertEqual(export.status, 0, export.stderr)
    XCTAssertEqual(
      FileManager.default.contents(atPath: dir.appendingPathComponent("back/tracks.csv").path),
      FileManager.default.contents(atPath: out.appendingPathComponent("tracks.csv").path))

    let bad = try runMatchScene(["sessions", "add", out.path, "--player", "P1", "--store", store])
    XCTAssertNotEqual(bad.status, 0)
    XCTAssertTrue(bad.stderr.contains("--player: expected TRACK=NAME"), bad.stderr)
    let notPlayer = try runMatchScene(["sessions", "add", out.path, "--player", "B7=Al", "--store", store])
    XCTAssertNotEqual(notPlayer.status, 0)
    XCTAssertTrue(notPlayer.stderr.contains("no player track B7 in tracks.csv (players: P1, P2)"), notPlayer.stderr)
    let badDay = try runMatchScene(["sessions", "add", out.path, "--date", "2026-02-30", "--store", store])
    XCTAssertTrue(badDay.stderr.contains("--date: expected yyyy-MM-dd"), badDay.stderr)

    XCTAssertEqual(try runMatchScene(["sessions", "remove", "1", "--store", store]).status, 0)
    let missing = try runMatchScene(["sessions", "show", "1", "--store", store])
    XCTAssertNotEqual(missing.status, 0)
    XCTAssertTrue(missing.stderr.contains("no session 1"), missing.stderr)
  }
}

