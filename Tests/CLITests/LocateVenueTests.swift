import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `locate-venue` on a reconstruction prints a `[venue]` table that match.toml reads, close to where
/// the simulator put the table (its origin and axes are the venue's) within the stated uncertainty.
final class LocateVenueTests: XCTestCase {
  func testLocateVenuePrintsATableMatchTomlReads() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    XCTAssertEqual(try runMatchScene(["simulate", "-o", match.path, "--duration", "24", "--seed", "5"]).status, 0)
    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene"])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    let run = try runMatchScene(["locate-venue", out.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    let config = try MatchConfig.parse(run.stdout, file: "locate-venue output")
    let venue = try XCTUnwrap(config.venue)
    XCTAssertLessThan(acos(min(1, dot(venue.up, SIMD3(0, 0, 1)))) * 180 / .pi, 0.5, run.stdout)
    // The simulator's venue is its world: origin at 0, long axis ±x. Within 3σ of the printed uncertainty.
    let sigmas = try XCTUnwrap(run.stdout.range(of: #"± ([0-9.]+) cm along, ± ([0-9.]+) cm across"#, options: .regularExpression))
    let numbers = run.stdout[sigmas].split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
    XCTAssertEqual(numbers.count, 2, String(run.stdout[sigmas]))
    let allowed = 3 * (numbers.max() ?? 0) / 100 + 0.01
    XCTAssertLessThan(length(SIMD3(venue.origin.x, venue.origin.y, 0)), allowed, run.stdout)
    XCTAssertLessThan(abs(venue.longAxis.y), 0.2, "heading within about 10°: \(run.stdout)")
  }

  func testASportWithoutATableIsAClearError() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    XCTAssertEqual(try runMatchScene(["simulate", "-o", match.path, "--duration", "3", "--seed", "2"]).status, 0)
    XCTAssertEqual(try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--no-analysis"]).status, 0)
    let run = try runMatchScene(["locate-venue", out.path, "--sport", "tennis"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("Tennis has none"), run.stderr)
    let missing = try runMatchScene(["locate-venue", folder.appendingPathComponent("nowhere").path])
    XCTAssertNotEqual(missing.status, 0)
    XCTAssertTrue(missing.stderr.contains("tracks.csv"), missing.stderr)
  }
}
