import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// The match's story end to end: `simulate --claims`, `reconstruct --score-policy …`, score.json and
/// the new events; bad flags refused.
final class StoryCLITests: XCTestCase {
  func testSimulateWithClaimsThenReconstructWritesTheStory() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "14", "--seed", "4", "--claims"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let truth = try EventsJSON.read(from: match.appendingPathComponent("truth/events.json"))
    XCTAssertTrue(truth.contains { $0.type == .point && $0.reason != nil && $0.score != nil && $0.server != nil }, "\(truth.map(\.type))")
    XCTAssertTrue(truth.contains { $0.type == .ballAtRest })

    let run = try runMatchScene([
      "reconstruct", match.path, "-o", out.path, "--no-scene", "--score-policy", "override", "--claim-hold", "1",
      "--rest-hold", "0.3",
    ])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("points,") && run.stdout.contains("ball at rest"), run.stdout)
    let events = try EventsJSON.read(from: out.appendingPathComponent("events.json"))
    let points = events.filter { $0.type == .point }
    XCTAssertEqual(points.map(\.track), truth.filter { $0.type == .point }.map(\.track))
    XCTAssertTrue(events.contains { $0.type == .ballAtRest })
    let score = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("score.json"))) as? [String: Any])
    XCTAssertEqual(score["policy"] as? String, "override")
    XCTAssertEqual((score["points"] as? [Any])?.count, events.filter { $0.type == .rallyEnd }.count)
  }

  func testBadStoryFlagsAreRefused() throws {
    try requireTier(.integration)
    for (flag, value) in [("--score-policy", "loudest"), ("--claim-hold", "0"), ("--rest-hold", "-1"), ("--rest-radius", "2m")] {
      let run = try runMatchScene(["reconstruct", "nowhere", "-o", "out", flag, value])
      XCTAssertNotEqual(run.status, 0)
      XCTAssertTrue(run.stderr.contains(flag), "\(flag): \(run.stderr)")
    }
  }
}
