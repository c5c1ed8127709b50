import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `matchscene opensim` and the TRC files in OpenSim itself (its Python package, `.build/opensim`).
final class OpenSimCLITests: XCTestCase {
  /// A bystander whose last marker is missing in a frame: OpenSim's TRC reader takes every row (it refused
  /// such a row with "Expected 53, Received 52" before every line ended with a tab).
  func testTRCWithTheLastMarkerMissingOpensInOpenSim() throws {
    _ = try PythonEnvironment.openSim.python()
    let k = Skeleton.coco17.keypoints
    var points: [TrackPoint] = []
    for f in 0..<4 {
      for (j, joint) in k.enumerated() where !(f == 1 && joint == k.last) && !(f == 2 && j == 5) {
        points.append(TrackPoint(frame: f, time: Double(f) / 60, track: "B1", kind: .person, joint: joint,
                                 position: SIMD3(Double(j) * 0.1, 1 + Double(f) * 0.01, 1.5), reprojectionPx: 1, views: 2))
      }
    }
    let url = try makeTemporaryFolder("opensim-trc").appendingPathComponent("B1.trc")
    try TRCWriter.render(track: "B1", points: points, skeleton: .coco17, fps: 60, fileName: "B1.trc").write(to: url, atomically: true, encoding: .utf8)
    let script = """
      import sys, math, json
      import opensim
      t = opensim.TimeSeriesTableVec3(sys.argv[1])
      last = t.getRowAtIndex(1)[16]
      ok = t.getRowAtIndex(0)[16]
      print(json.dumps({"rows": t.getNumRows(), "columns": t.getNumColumns(),
                        "lastMissing": math.isnan(last[0]), "okX": ok[0], "okY": ok[1], "okZ": ok[2]}))
      """
    struct Read: Decodable { var rows: Int; var columns: Int; var lastMissing: Bool; var okX, okY, okZ: Double }
    let read = try JSONDecoder().decode(Read.self, from: Data(try PythonEnvironment.openSim.run(script, arguments: [url.path]).utf8))
    XCTAssertEqual(read.rows, 4)
    XCTAssertEqual(read.columns, 17)
    XCTAssertTrue(read.lastMissing)
    // World (1.6, 1.0, 1.5) → OpenSim (x, z, −y).
    assertClose(SIMD3(read.okX, read.okY, read.okZ), SIMD3(1.6, 1.5, -1.0), absolute: 1e-6)
  }

  /// A simulated match end to end: the sized model fits each player's reconstructed markers within 1.5 cm
  /// RMS, and the knee and elbow angles agree within 1° RMS with the same steps run on the true markers.
  func testOpenSimOnASimulatedMatchAgreesWithTheTruth() throws {
    let python = try PythonEnvironment.openSim.python()
    let folder = try makeTemporaryFolder("opensim-sim")
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "6", "--seed", "1"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--no-c3d"])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    let run = try runMatchScene(["opensim", out.path, "--python", python, "--truth", match.appendingPathComponent("truth").path])
    XCTAssertEqual(run.status, 0, run.stderr)
    print("OpenSimCLITests: \(run.stdout)")

    struct Difference: Decodable { var rmsDegrees: Double; var maxDegrees: Double; var frames: Int }
    struct Player: Decodable { var id: String; var markerRMS_m: Double?; var error: String?; var files: [String] }
    struct Summary: Decodable { var players: [Player]; var truth: [String: [String: Difference]]? }
    let data = try Data(contentsOf: out.appendingPathComponent("opensim/summary.json"))
    let summary = try JSONDecoder().decode(Summary.self, from: data)
    XCTAssertEqual(summary.players.map(\.id), ["P1", "P2"])
    for p in summary.players {
      XCTAssertNil(p.error)
      XCTAssertLessThanOrEqual(try XCTUnwrap(p.markerRMS_m), 0.015, p.id)
      for file in p.files {
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("opensim/\(file)").path), file)
      }
      let truth = try XCTUnwrap(summary.truth?[p.id])
      for coordinate in ["knee_angle_r", "knee_angle_l", "elbow_flex_r", "elbow_flex_l"] {
        let d = try XCTUnwrap(truth[coordinate], coordinate)
        XCTAssertGreaterThan(d.frames, 300)
        XCTAssertLessThanOrEqual(d.rmsDegrees, 1, "\(p.id) \(coordinate)")
      }
    }
    // A second run replaces opensim/ (MatchScene's, listed in the folder's marker).
    let again = try runMatchScene(["opensim", out.path, "--python", python, "--players", "P2"])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("opensim/P1").path))
  }

  /// Without OpenSim's Python package the command says how to install it.
  func testAPythonWithoutOpenSimIsNamed() throws {
    let folder = try makeTemporaryFolder("opensim-missing")
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulated = try runMatchScene(["simulate", "-o", match.path, "--duration", "2", "--seed", "3"])
    XCTAssertEqual(simulated.status, 0, simulated.stderr)
    let reconstructed = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--no-c3d"])
    XCTAssertEqual(reconstructed.status, 0, reconstructed.stderr)
    let run = try runMatchScene(["opensim", out.path, "--python", "/bin/false"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("cannot import the package `opensim`"), run.stderr)
    XCTAssertTrue(run.stderr.contains("quickstart.sh opensim"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("opensim").path), "nothing written")
  }
}
