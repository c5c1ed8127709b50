import Foundation
import TestSupport
import XCTest

/// The ball's drag estimated per match and its spin fitted per flight, end to end on the built binary:
/// a simulated match whose ball has its own drag (±20 % around the sport's) and spins up to 150 rev/s,
/// reconstructed and evaluated against the simulator's truth (`truth/ball.json`).
final class BallFlightCLITests: XCTestCase {
  /// `evaluate --json` of `reconstruct` on a 20 s match simulated with `flags`.
  func evaluation(_ flags: [String], seed: Int, in folder: URL) throws -> [String: Any] {
    let match = folder.appendingPathComponent("match-\(seed)")
    let out = folder.appendingPathComponent("out-\(seed)")
    let report = folder.appendingPathComponent("report-\(seed).json")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "20", "--seed", String(seed)] + flags)
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let run = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let evaluate = try runMatchScene(
      ["evaluate", out.path, "--truth", match.appendingPathComponent("truth").path, "--json", report.path])
    XCTAssertEqual(evaluate.status, 0, evaluate.stderr)
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report))
    return try XCTUnwrap(object as? [String: Any])
  }

  func testSpinningBallWithItsOwnDrag() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let report = try evaluation(["--max-spin", "150", "--drag-variation", "0.2"], seed: 1, in: folder)
    let ball = try XCTUnwrap((report["tracks"] as? [String: Any])?["ball"] as? [String: Any])
    let p95 = try XCTUnwrap(ball["p95"] as? Double)
    XCTAssertLessThanOrEqual(p95, 0.006, "ball p95 \(p95) m")
    let spin = try XCTUnwrap(report["ballSpin"] as? [String: Any])
    XCTAssertGreaterThan(try XCTUnwrap(spin["matched"] as? Int), 10)
    // Measured on 30 s matches, seeds 1–5: 84–96 % of the flights the cameras saw within 10 rev/s,
    // 95–100 % within 15° (the rest: flights after a rally's last bounce, which the truth counts
    // until the next serve, and short flights whose spin the fit cannot pin down).
    XCTAssertGreaterThanOrEqual(try XCTUnwrap(spin["within10"] as? Double), 0.75, "\(spin)")
    XCTAssertGreaterThanOrEqual(try XCTUnwrap(spin["axisWithin15"] as? Double), 0.75, "\(spin)")
  }

  func testSpinlessBallReportsNoSpin() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let report = try evaluation(["--max-spin", "0"], seed: 2, in: folder)
    let spin = try XCTUnwrap(report["ballSpin"] as? [String: Any])
    XCTAssertEqual(try XCTUnwrap(spin["spinOnSpinlessAboveUncertainty"] as? Int), 0, "\(spin)")
  }
}
