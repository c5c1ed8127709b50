import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// One device is enough for the story: a simulated match with hand-raise claims, recorded for P1 as a
/// MediaPipe world-landmarks file and as an ARKit-style joint export (each with its noise), runs through
/// `reconstruct` and gives P1's claims with the same definition as a camera match.
final class OneDeviceClaimsTests: XCTestCase {
  func testClaimsFromOneDevice() throws {
    try requireTier(.integration)
    for format in ["arkit", "mediapipe"] {
      let folder = try makeTemporaryFolder("one-device-claims")
      defer { try? FileManager.default.removeItem(at: folder) }
      let match = folder.appendingPathComponent("m"), out = folder.appendingPathComponent("out")
      let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "40", "--seed", "11", "--claims", "--one-device", format])
      XCTAssertEqual(simulate.status, 0, simulate.stderr)
      let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene"])
      XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
      let truth = try EventsJSON.read(from: match.appendingPathComponent("truth/events.json"))
        .filter { $0.type == .claim && $0.track == "P1" }
      let found = try EventsJSON.read(from: out.appendingPathComponent("events.json")).filter { $0.type == .claim }
      XCTAssertGreaterThanOrEqual(truth.count, 2, "the simulated match has claims by P1")
      XCTAssertEqual(found.count, truth.count, "\(format): one claim per true claim, none false: \(found.map(\.time)) vs \(truth.map(\.time))")
      for t in truth {
        XCTAssertTrue(found.contains { abs($0.time - t.time) <= 0.5 && $0.track == "P1" }, "\(format): claim at \(t.time) s found within 0.5 s")
      }
    }
  }
}
