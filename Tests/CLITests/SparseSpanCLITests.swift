import Foundation
import MatchSceneIO
import TestSupport
import XCTest

/// `reconstruct` on a match whose 4 s of detections span 3 hours (two chunks): the files carry the real
/// frames and times, and their sizes follow the data, not the span.
final class SparseSpanCLITests: XCTestCase {
  func testThreeHourSpanWritesRealFramesAndSmallFiles() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let dense = folder.appendingPathComponent("dense"), sparse = folder.appendingPathComponent("sparse")
    let out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", dense.path, "--duration", "4", "--seed", "3"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let fps = 60.0, shift = 3 * 3600 * 60
    try spreadMatchFolder(dense, to: sparse, from: 120, shift: shift)
    let reconstruct = try runMatchScene(["reconstruct", sparse.path, "-o", out.path, "--tracks-layout", "wide"])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)

    // tracks.csv: rows before and after the gap, at real frames and times; none in the gap.
    let rows = try TracksCSV.read(from: out.appendingPathComponent("tracks.csv"))
    XCTAssertTrue(rows.contains { $0.frame < 120 })
    XCTAssertTrue(rows.contains { $0.frame >= 120 + shift })
    XCTAssertFalse(rows.contains { $0.frame > 1000 && $0.frame < 120 + shift - 1000 })
    for r in rows { XCTAssertEqual(r.time, Double(r.frame) / fps, accuracy: 1e-5) }

    // The report names the runs; events at real frames; the manifest's span is the real one.
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
    let runs = try XCTUnwrap(report?["frameRuns"] as? [[Int]])
    XCTAssertEqual(runs.count, 2)
    XCTAssertGreaterThan(try XCTUnwrap(report?["lastFrame"] as? Int), shift)
    let manifest = try MatchOutput.open(out).manifest
    XCTAssertGreaterThan(try XCTUnwrap(manifest.frames?.range).upperBound, shift)

    // Sizes: a C3D per run, small; the scene, tracks_wide.csv and views.csv small (the dense 4 s match's
    // scene is about 1 MB; the 3 h span dense would be hundreds of MB).
    let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
    let c3ds = files.filter { $0.hasSuffix(".c3d") }.sorted()
    XCTAssertEqual(c3ds, ["match_\(runs[0][0])-\(runs[0][1]).c3d", "match_\(runs[1][0])-\(runs[1][1]).c3d"])
    let size = { (name: String) in
      (try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)[.size] as? Int) ?? 0
    }
    for name in c3ds + ["scene.glb", "tracks_wide.csv", "views.csv", "trc/P1.trc"] {
      XCTAssertLessThan(try size(name), 8_000_000, name)
    }
    let wide = try String(contentsOf: out.appendingPathComponent("tracks_wide.csv"), encoding: .utf8)
    XCTAssertLessThan(wide.split(separator: "\n").count, 240 + 600 + 2)

    // form reads the tracks on the compact axis and writes real frames and times.
    let form = try runMatchScene(["form", out.path])
    XCTAssertEqual(form.status, 0, form.stderr)
    let angles = try String(contentsOf: out.appendingPathComponent("angles.csv"), encoding: .utf8).split(separator: "\n")
    let angleFrames = angles.dropFirst().compactMap { Int($0.prefix { $0 != "," }) }
    XCTAssertTrue(angleFrames.contains { $0 >= 120 + shift })
    XCTAssertFalse(angleFrames.contains { $0 > 1000 && $0 < 120 + shift - 1000 })
    XCTAssertLessThan(angles.count, 2 * (240 + 600) + 2)
    let sessions = try runMatchScene(["sessions", "add", out.path, "--store", folder.appendingPathComponent("s.sqlite").path])
    XCTAssertEqual(sessions.status, 0, sessions.stderr)
  }
}
