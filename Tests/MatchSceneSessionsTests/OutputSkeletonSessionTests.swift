import Foundation
import MatchSceneCore
import MatchSceneIO
import MatchSceneSessions
import TestSupport
import XCTest

/// `sessions add` takes an output in the skeleton and frame rate its manifest records, not a guess from the
/// joint names and rows.
final class OutputSkeletonSessionTests: XCTestCase {
  func testAddReadsBody25BAndCustomSkeletonOutputs() throws {
    let dir = try makeTemporaryFolder("sessions-skeleton")
    defer { try? FileManager.default.removeItem(at: dir) }
    let match = try simulatedMatch(seed: 3, duration: 4)
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let coco = match.truth
    for (name, motion) in [("body25b", coco.inBody25B), ("custom", coco.inCustomSkeleton)] {
      let out = dir.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      try MatchOutput.writeTracks(motion, in: out)
      try MatchOutput.writeEvents(match.events, in: out)
      // A frame rate the rows would not give (their times are the simulated rate's): the manifest's is taken.
      try MatchOutput.writeManifest(
        MatchManifest(fps: 48, sport: "table-tennis", skeleton: motion.skeleton, venue: nil), in: out)
      let input = try SessionInput.read(outputFolder: out)
      XCTAssertEqual(input.motion.skeleton, motion.skeleton, name)
      XCTAssertEqual(input.motion.fps, 48, name)
      XCTAssertNotNil(input.documents[MatchOutput.File.manifest.rawValue], name)
      let added = try store.add(input)
      let stored = try store.load(added.id)
      XCTAssertEqual(stored.motion.skeleton.keypoints, motion.skeleton.keypoints, name)
      try store.export(added.id, to: dir.appendingPathComponent("\(name)-back"))
      XCTAssertEqual(try MatchOutput.open(dir.appendingPathComponent("\(name)-back")).skeleton, motion.skeleton, name)
    }
  }
}

/// A match folder's hash for the manifest leaves out MatchScene's outputs inside it (and the staging and
/// retired folders of a write under way), so that it is the same before and after a run writes there.
final class InputHashTests: XCTestCase {
  func testOutputsInsideTheMatchFolderAreLeftOut() throws {
    let dir = try makeTemporaryFolder("input-hash")
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data("fps = 60\n".utf8).write(to: dir.appendingPathComponent("match.toml"))
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("pose/cam1"), withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: dir.appendingPathComponent("pose/cam1/0.json"))
    let before = try MatchOutput.hash(folder: dir, skippingOutputs: true)
    for name in ["out", ".out.partial-1", ".out.old-1"] {
      let folder = dir.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("x".utf8).write(to: folder.appendingPathComponent("tracks.csv"))
    }
    try Data("reconstruct\n".utf8).write(to: dir.appendingPathComponent("out/.matchscene-output"))
    XCTAssertEqual(try MatchOutput.hash(folder: dir, skippingOutputs: true), before)
    XCTAssertNotEqual(try MatchOutput.hash(folder: dir), before, "without skipping, the outputs count")
    try Data("{ }".utf8).write(to: dir.appendingPathComponent("pose/cam1/0.json"))
    XCTAssertNotEqual(try MatchOutput.hash(folder: dir, skippingOutputs: true), before, "an input file changed")
  }
}
