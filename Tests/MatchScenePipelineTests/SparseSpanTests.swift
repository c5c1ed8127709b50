import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneIO
import MatchScenePipeline
import MatchSceneSimulation
import TestSupport
import XCTest

/// A match whose detections span an hour but hold 4 s: the run's memory and outputs follow the data
/// (`FrameAxis`), and every stage sees what it sees with the gap at the pad's length.
final class SparseSpanTests: XCTestCase {
  static let simulated: SimulatedMatch = try! MatchSimulator.simulate(
    SimulationConfig(seed: 3, duration: 4), sport: try! SportSpec.builtIn("table-tennis"))

  /// The simulated match with its second half moved `shift` frames later, reconstructed and written.
  func run(shift: Int, in folder: URL, name: String) throws -> (MatchResult, URL, halfway: Int) {
    let dense = folder.appendingPathComponent("dense")
    let match = Self.simulated.match
    let range = try XCTUnwrap(match.frameRange)
    if !FileManager.default.fileExists(atPath: dense.path) { try MatchFolder.write(match, to: dense, frames: range) }
    let halfway = (range.lowerBound + range.upperBound) / 2
    let sparse = folder.appendingPathComponent(name)
    try spreadMatchFolder(dense, to: sparse, from: halfway, shift: shift)
    let result = try MatchPipeline().run(sparse)
    let out = folder.appendingPathComponent("\(name)-out")
    try result.write(to: out)
    return (result, out, halfway)
  }

  func testAnHourSpanRunsOnTheDataAndMatchesTheGapAtThePad() throws {
    try requireTier(.integration)  // simulated matches: tens of seconds in a debug build
    let folder = try makeTemporaryFolder()
    let fps = Self.simulated.match.fps
    let pad = FrameAxis.padFrames(fps: fps, longestThreshold: PipelineOptions().analysisOptions.smoothing.maxGap)
    let hour = Int(3600 * fps)
    // The reference: the gap exactly at the pad, which the run does not collapse (identity axis).
    let (near, nearOut, halfway) = try run(shift: pad, in: folder, name: "near")
    XCTAssertTrue(near.frameAxis.isIdentity)
    let (far, farOut, _) = try run(shift: hour, in: folder, name: "far")
    XCTAssertFalse(far.frameAxis.isIdentity)

    // Memory: the model holds the data and one pad, not the hour.
    let dataFrames = try XCTUnwrap(Self.simulated.match.frameRange).count
    let farFrames = try XCTUnwrap(far.motion.frames).count
    XCTAssertLessThanOrEqual(farFrames, dataFrames + pad + 1)
    XCTAssertEqual(farFrames, try XCTUnwrap(near.motion.frames).count)
    let jointsPerTrack = far.motion.tracks.map(\.jointCount).reduce(0, +)
    XCTAssertEqual(far.motion.tracks.reduce(0) { $0 + $1.samples.count }, jointsPerTrack * farFrames)
    XCTAssertEqual(far.frames.upperBound - near.frames.upperBound, hour - pad, "the manifest's real span")

    // tracks.csv: the same rows, the second half's frames and times an hour (less the pad) later.
    let delta = hour - pad
    let nearRows = try TracksCSV.read(from: nearOut.appendingPathComponent("tracks.csv"))
    let farRows = try TracksCSV.read(from: farOut.appendingPathComponent("tracks.csv"))
    XCTAssertEqual(nearRows.count, farRows.count)
    XCTAssertGreaterThan(nearRows.count, 1000)
    for (a, b) in zip(nearRows, farRows) {
      let shift = a.frame > halfway - 1 + pad / 2 ? delta : 0
      XCTAssertEqual(b.frame, a.frame + shift)
      XCTAssertEqual(b.time, a.time + Double(shift) / fps, accuracy: 1e-6)
      XCTAssertEqual(b.track, a.track)
      XCTAssertEqual(b.joint, a.joint)
      XCTAssertEqual(b.position, a.position)
    }
    XCTAssertTrue(farRows.contains { $0.frame > hour }, "rows after the gap carry their real frames")

    // Events: the same, shifted.
    XCTAssertEqual(near.events.count, far.events.count)
    for (a, b) in zip(near.events, far.events) {
      XCTAssertEqual(a.type, b.type)
      XCTAssertEqual(b.frame - a.frame, a.frame > halfway - 1 + pad / 2 ? delta : 0)
    }

    // Files: the scene within 1 % of the reference's size; one C3D per run of data at its real frames;
    // TRC rows at real frames, none in the gap.
    let size = { (url: URL) in try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) }
    let nearGLB = try size(nearOut.appendingPathComponent("scene.glb")), farGLB = try size(farOut.appendingPathComponent("scene.glb"))
    XCTAssertEqual(Double(farGLB), Double(nearGLB), accuracy: 0.01 * Double(nearGLB))
    let files = try FileManager.default.contentsOfDirectory(atPath: farOut.path)
    let c3ds = files.filter { $0.hasSuffix(".c3d") }.sorted()
    XCTAssertEqual(c3ds.count, 2, "\(files)")
    XCTAssertFalse(files.contains("match.c3d"))
    let c3dBytes = try c3ds.map { try size(farOut.appendingPathComponent($0)) }.reduce(0, +)
    XCTAssertLessThan(Double(c3dBytes), 1.2 * Double(try size(nearOut.appendingPathComponent("match.c3d"))))
    let trc = try TRCWriter.parse(
      String(contentsOf: farOut.appendingPathComponent("trc/P1.trc"), encoding: .utf8), file: "P1.trc")
    XCTAssertTrue(trc.frames.keys.contains { $0 > hour })
    XCTAssertFalse(trc.frames.keys.contains { $0 > halfway + pad && $0 < hour })

    // Reading the output back builds the model on the compact axis too.
    let read = try TracksCSV.readMotion(from: farOut.appendingPathComponent("tracks.csv"), fps: fps, skeleton: .coco17)
    XCTAssertLessThanOrEqual(try XCTUnwrap(read.frames).count, dataFrames + pad + 1)
    XCTAssertEqual(read.rows.count, farRows.count)
  }
}
