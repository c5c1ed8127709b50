import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneForm
import MatchSceneIO
import MatchSceneSimulation
import TestSupport
import XCTest

/// `form` and `clip` read an output folder in the skeleton its manifest records: BODY_25B and a custom
/// skeleton whose keypoint names say nothing, not only COCO-17.
final class OutputSkeletonTests: XCTestCase {
  /// A clean 12 s simulated match's truth and events.
  static let match: SimulatedMatch = {
    var config = SimulationConfig(seed: 5, duration: 12)
    config.noise = .none
    return try! MatchSimulator.simulate(config, sport: tableTennis)
  }()

  /// Writes `motion` and the match's events as an output folder with its manifest.
  static func writeOutput(_ motion: MotionModel, manifest: Bool = true) throws -> URL {
    let out = try makeTemporaryFolder("matchscene-output-skeleton").appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try MatchOutput.writeTracks(motion, in: out)
    try MatchOutput.writeEvents(match.events, in: out)
    if manifest {
      try MatchOutput.writeManifest(
        MatchManifest(fps: motion.fps, sport: "table-tennis", skeleton: motion.skeleton, venue: nil, frames: motion.frames), in: out)
    }
    return out
  }

  /// Strokes found and a clip built for P1's first stroke, from the folder as `form` and `clip` read it.
  func formAndClip(_ out: URL, skeleton: Skeleton) throws -> Int {
    let input = try FormInput.load(out)
    XCTAssertEqual(input.motion.skeleton, skeleton)
    XCTAssertEqual(input.motion.fps, Self.match.truth.fps)
    let result = try FormAnalysis.run(motion: input.motion, venue: input.venue, events: input.events)
    XCTAssertFalse(result.strokes.isEmpty)
    let clip = try StrokeClip.build(
      ClipRequest(player: "P1"), result: result, venue: input.venue, sport: try SportSpec.builtIn(input.sport))
    XCTAssertEqual(clip.stroke?.number, 1)
    return result.strokes.count
  }

  func testFormAndClipReadBody25BAndCustomSkeletons() throws {
    let coco = Self.match.truth
    let strokes = try formAndClip(try Self.writeOutput(coco), skeleton: .coco17)
    // Every joint of the skeleton comes back, not only COCO-17's.
    let body = coco.inBody25B
    XCTAssertEqual(try formAndClip(try Self.writeOutput(body), skeleton: .body25b), strokes)
    let custom = coco.inCustomSkeleton
    let customOut = try Self.writeOutput(custom)
    XCTAssertEqual(try formAndClip(customOut, skeleton: OtherSkeletons.custom), strokes)
    let read = try MatchOutput.open(customOut).motion()
    let p1 = try XCTUnwrap(read.track("P1")), truthP1 = try XCTUnwrap(custom.track("P1"))
    XCTAssertEqual(p1.samples.filter(\.isPresent).count, truthP1.samples.filter(\.isPresent).count)
  }

  /// Without `match.json`, the documented fallback: the smallest built-in skeleton holding the joint names
  /// (BODY_25B's rows that are all COCO-17's read as COCO-17), else the joints in order of appearance; fps
  /// from the rows.
  func testFolderWithoutManifestFallsBack() throws {
    let coco = Self.match.truth
    let body = try MatchOutput.open(try Self.writeOutput(coco.inBody25B, manifest: false))
    XCTAssertFalse(body.hasManifestFile)
    XCTAssertEqual(try body.skeleton, .coco17)
    XCTAssertEqual(body.manifest.fps, coco.fps, accuracy: 1e-3)
    let custom = try MatchOutput.open(try Self.writeOutput(coco.inCustomSkeleton, manifest: false))
    XCTAssertEqual(try custom.skeleton.name, "custom")
    XCTAssertEqual(try custom.skeleton.keypoints, OtherSkeletons.custom.keypoints)
  }
}
