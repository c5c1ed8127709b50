import Foundation
import MatchSceneCore
@testable import MatchScenePipeline
import MatchSceneReconstruction
import TestSupport
import XCTest

/// The pipeline keeps only the detections the all-views error samples once the reconstruction is done
/// (memory): on them the error is the same, distance for distance, as on all of them.
final class AllViewsSampleTests: XCTestCase {
  func testTheSampledDetectionsGiveTheSameDistances() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    var match = MatchPipelineTests.simulated.match
    // One camera counts its frames from 7: the sample is taken in match frames.
    let shifted = match.cameras[1].name
    match.frameOffsets[shifted] = 7
    let people = match.detections[shifted]!.people
    match.detections[shifted]!.people = Dictionary(uniqueKeysWithValues: people.map { ($0.key + 7, $0.value) })
    let motion = MatchPipelineTests.simulated.truth
    let frames = try XCTUnwrap(motion.frames)
    for maxFrames in [100, 6000] {
      var allViews = AllViewsReprojection()
      allViews.maxFrames = maxFrames
      let step = allViews.step(frames: frames)
      XCTAssertEqual(step, maxFrames == 100 ? (frames.count + 99) / 100 : 1)
      let sampled = allViews.sampledDetections(match, frames: frames)
      var thin = match
      thin.detections = sampled
      let full = allViews.errors(match: match, motion: motion)
      XCTAssertGreaterThan(full.values.flatMap { $0.flatMap { $0 } }.count, 1000)
      XCTAssertEqual(allViews.errors(match: thin, motion: motion), full)
      // Every k-th frame's people only, no balls.
      let kept = sampled.values.reduce(0) { $0 + $1.people.count }
      let all = match.detections.values.reduce(0) { $0 + $1.people.count }
      XCTAssertLessThanOrEqual(kept, (all + step - 1) / step + match.cameras.count)
      if step > 1 { XCTAssertLessThan(kept, all / 2) }
      XCTAssertTrue(sampled.values.allSatisfy { $0.balls.isEmpty })
      XCTAssertEqual(sampled[shifted]!.people.keys.map { ($0 - 7 - frames.lowerBound) % step }.filter { $0 != 0 }, [])
    }
  }
}
