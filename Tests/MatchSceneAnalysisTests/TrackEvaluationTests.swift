import MatchSceneAnalysis
import MatchSceneCore
import TestSupport
import XCTest
import MatchSceneEvaluation
import MatchSceneIO

final class TrackEvaluationTests: XCTestCase {
  func testErrorStatistics() {
    let s = ErrorStatistics([4, 1, 3, 2])
    XCTAssertEqual(s.count, 4)
    XCTAssertEqual(s.mean, 2.5)
    XCTAssertEqual(s.median, 2.5)
    XCTAssertEqual(s.max, 4)
    XCTAssertEqual(ErrorStatistics((1...100).map(Double.init)).p95, 95)
    XCTAssertEqual(ErrorStatistics([]).count, 0)
  }

  func point(_ frame: Int, _ track: String, _ joint: String, _ p: SIMD3<Double>, kind: TrackKind = .player) -> TrackPoint {
    TrackPoint(frame: frame, time: Double(frame) / 60, track: track, kind: kind, joint: joint, position: p, reprojectionPx: 0, views: 3)
  }

  /// The motion holding `points` (COCO-17, 60 fps).
  func motion(_ points: [TrackPoint]) -> MotionModel { MotionModel(points: points, fps: 60, skeleton: .coco17) }

  func testKnownOffsetsAndRenamedTracks() {
    var truth: [TrackPoint] = [], estimate: [TrackPoint] = []
    for f in 0..<100 {
      for (j, joint) in ["nose", "left_hip"].enumerated() {
        let a = SIMD3<Double>(-2, Double(j), 1), b = SIMD3<Double>(2, Double(j), 1)
        truth += [point(f, "P1", joint, a), point(f, "P2", joint, b)]
        // Estimated ids are swapped in name and off by 1 cm and 2 cm.
        estimate += [point(f, "P2", joint, a + SIMD3(0.01, 0, 0)), point(f, "P1", joint, b + SIMD3(0, 0.02, 0))]
      }
      truth.append(point(f, "ball", "ball", SIMD3(0, 0, 1), kind: .ball))
      if f % 2 == 0 { estimate.append(point(f, "ball", "ball", SIMD3(0, 0, 1.003), kind: .ball)) }
    }
    estimate.append(point(200, "ball", "ball", SIMD3(5, 5, 5), kind: .ball))  // a false ball
    let e = TrackEvaluation(estimate: motion(estimate), truth: motion(truth))
    XCTAssertEqual(e.playerMatches, ["P2": "P1", "P1": "P2"])
    assertClose(e.players.mean, 0.015, absolute: 1e-12)
    assertClose(e.players.max, 0.02, absolute: 1e-12)
    XCTAssertEqual(e.playerCoverage, 1)
    XCTAssertEqual(e.identitySwitches, 0)
    XCTAssertEqual(e.mergedFrames, 0)
    assertClose(e.ball.median, 0.003, absolute: 1e-12)
    assertClose(e.ballCoverage, 0.5, absolute: 1e-12)
    assertClose(e.falseBallRate, 1.0 / 51, absolute: 1e-12)
  }

  func testIdentitySwitchIsCounted() {
    var truth: [TrackPoint] = [], estimate: [TrackPoint] = []
    for f in 0..<10 {
      let a = SIMD3<Double>(-2, 0, 1), b = SIMD3<Double>(2, 0, 1)
      truth += [point(f, "P1", "nose", a), point(f, "P2", "nose", b)]
      // From frame 5 on, the estimated ids trade places.
      estimate += f < 5 ? [point(f, "A", "nose", a), point(f, "B", "nose", b)] : [point(f, "B", "nose", a), point(f, "A", "nose", b)]
    }
    let e = TrackEvaluation(estimate: motion(estimate), truth: motion(truth))
    XCTAssertEqual(e.identitySwitches, 2)
    XCTAssertTrue(e.playerMatches.isEmpty, "neither estimated track follows one person throughout")
  }
}
