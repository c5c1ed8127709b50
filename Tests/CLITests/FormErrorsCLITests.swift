import Foundation
import TestSupport
import XCTest

/// `form` on an output it cannot analyse stops with a non-zero exit and an error naming the file,
/// instead of writing an empty page.
final class FormErrorsCLITests: XCTestCase {
  func testNoPlayersAndASportWithoutStrokesAreErrors() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "4", "--seed", "2"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)

    // A sport without racket strokes.
    let basketball = folder.appendingPathComponent("basketball")
    let run = try runMatchScene(["reconstruct", match.path, "-o", basketball.path, "--sport", "basketball", "--no-scene"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let sport = try runMatchScene(["form", basketball.path])
    XCTAssertNotEqual(sport.status, 0)
    XCTAssertTrue(sport.stderr.contains(basketball.appendingPathComponent("match.json").path), sport.stderr)
    XCTAssertTrue(sport.stderr.contains("'basketball' has no racket strokes"), sport.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: basketball.appendingPathComponent("form.html").path))

    // No player track: the players' rows relabelled as other people.
    let out = folder.appendingPathComponent("out")
    XCTAssertEqual(try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene"]).status, 0)
    let tracks = out.appendingPathComponent("tracks.csv")
    try String(contentsOf: tracks, encoding: .utf8).replacingOccurrences(of: ",player,", with: ",person,")
      .write(to: tracks, atomically: true, encoding: .utf8)
    let none = try runMatchScene(["form", out.path])
    XCTAssertNotEqual(none.status, 0)
    XCTAssertTrue(none.stderr.contains(tracks.path) && none.stderr.contains("no player track"), none.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("form.html").path))
  }
}
