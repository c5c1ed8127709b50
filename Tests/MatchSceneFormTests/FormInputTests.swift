import Foundation
import MatchSceneCore
import MatchSceneForm
import MatchSceneIO
import TestSupport
import XCTest

/// Reading a `reconstruct` output folder for form analysis.
final class FormInputTests: XCTestCase {
  /// `TracksCSV.readMotion` builds the same model as `MotionModel(points:)` over `TracksCSV.read`, for
  /// the kinds asked for, and its errors name the file and line.
  func testReadMotionMatchesTheRowView() throws {
    let out = FormCommandTests.outFolder
    let url = out.appendingPathComponent("tracks.csv")
    let rows = try TracksCSV.read(from: url)
    let fps = noisyFixture.result.motion.fps
    let expected = MotionModel(points: rows.filter { $0.kind != .person }, fps: fps, skeleton: .coco17)
    let motion = try TracksCSV.readMotion(from: url, fps: fps, skeleton: .coco17, kinds: [.player, .ball])
    XCTAssertEqual(motion.frames, expected.frames)
    XCTAssertEqual(motion.tracks.map(\.id), expected.tracks.map(\.id))
    XCTAssertEqual(motion.tracks.map(\.id), ["P1", "P2", "ball"])
    for (a, b) in zip(motion.tracks, expected.tracks) {
      XCTAssertEqual(a.kind, b.kind)
      XCTAssertEqual(a.samples, b.samples, a.id)
    }
    let all = try TracksCSV.readMotion(from: url, fps: fps, skeleton: .coco17)
    XCTAssertEqual(all.tracks.map(\.id), MotionModel(points: rows, fps: fps, skeleton: .coco17).tracks.map(\.id))

    // In chunks of ~64 kB parsed in parallel: the same model; an error names the earliest bad line.
    let chunked = try TracksCSV.readMotion(from: url, fps: fps, skeleton: .coco17, kinds: [.player, .ball], minimumChunkBytes: 1 << 16)
    XCTAssertEqual(chunked.frames, expected.frames)
    XCTAssertEqual(chunked.tracks.map(\.id), expected.tracks.map(\.id))
    for (a, b) in zip(chunked.tracks, expected.tracks) { XCTAssertEqual(a.samples, b.samples, a.id) }
    var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertGreaterThan(lines.count, 40_000, "enough lines for several chunks")
    for n in [30_000, 12_345] {
      var fields = lines[n - 1].split(separator: ",", omittingEmptySubsequences: false)
      fields[3] = "plyer"
      lines[n - 1] = fields.joined(separator: ",")
    }
    let damaged = out.deletingLastPathComponent().appendingPathComponent("damaged.csv")
    try Data(lines.joined(separator: "\n").utf8).write(to: damaged)
    XCTAssertThrowsError(try TracksCSV.readMotion(from: damaged, fps: fps, skeleton: .coco17, minimumChunkBytes: 1 << 16)) { error in
      XCTAssert("\(error)".contains("damaged.csv") && "\(error)".contains("damaged.csv:12345:") && "\(error)".contains("kind 'plyer'"), "\(error)")
    }

    let bad = out.deletingLastPathComponent().appendingPathComponent("bad.csv")
    try Data((TracksCSV.header + "\n0,0,P1,player,nose,1,2,x,0.5,2\n").utf8).write(to: bad)
    XCTAssertThrowsError(try TracksCSV.readMotion(from: bad, fps: fps, skeleton: .coco17)) { error in
      XCTAssert("\(error)".contains("bad.csv") && "\(error)".contains("z 'x' is not a finite number"), "\(error)")
    }
  }

  /// A folder without tracks.csv is refused with the file named; one without report.json or match.json
  /// reads by the fallback; a malformed report.json or match.json is named with the key.
  func testMissingFilesAreNamed() throws {
    let empty = try makeTemporaryFolder()
    XCTAssertThrowsError(try FormInput.load(empty)) { XCTAssert("\($0)".contains("tracks.csv"), "\($0)") }
    try Data((TracksCSV.header + "\n").utf8).write(to: MatchOutput.url(.tracks, in: empty))
    XCTAssertEqual(try FormInput.load(empty).motion.fps, 60)
    try Data(#"{"fps": "fast"}"#.utf8).write(to: MatchOutput.url(.report, in: empty))
    XCTAssertThrowsError(try FormInput.load(empty)) { XCTAssert("\($0)".contains("report.json") && "\($0)".contains("fps"), "\($0)") }
    try Data(#"{"fps": 50}"#.utf8).write(to: MatchOutput.url(.report, in: empty))
    XCTAssertEqual(try FormInput.load(empty).motion.fps, 50)
    try Data(#"{"format": 1, "fps": 50}"#.utf8).write(to: MatchOutput.url(.manifest, in: empty))
    XCTAssertThrowsError(try FormInput.load(empty)) { XCTAssert("\($0)".contains("match.json"), "\($0)") }
    let future = MatchManifest(fps: 50, sport: "table-tennis", skeleton: .coco17, venue: nil)
    var newer = future
    newer.format = MatchManifest.currentFormat + 1
    try MatchOutput.writeManifest(newer, in: empty)
    XCTAssertThrowsError(try FormInput.load(empty)) { XCTAssert("\($0)".contains("match.json") && "\($0)".contains("newer"), "\($0)") }
  }
}
