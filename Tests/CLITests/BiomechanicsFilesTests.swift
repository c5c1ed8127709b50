import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// `reconstruct --marker-names pose2sim`: match.c3d read by ezc3d and trc/ by our TRC reader hold the
/// positions tracks.csv holds, under Pose2Sim's names.
final class BiomechanicsFilesTests: XCTestCase {
  func testC3DAndTRCAgreeWithTracksCSV() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "3", "--seed", "5"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--marker-names", "pose2sim"])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    XCTAssertTrue(reconstruct.stdout.contains("match.c3d"), reconstruct.stdout)

    let rows = try TracksCSV.read(from: out.appendingPathComponent("tracks.csv"))
    let frames = rows.map(\.frame)
    let firstFrame = try XCTUnwrap(frames.min())
    var byKey: [String: SIMD3<Double>] = [:]
    for r in rows { byKey["\(r.frame) \(r.track) \(r.joint)"] = r.position }

    // C3D through ezc3d: labels `P1:LWrist`; C3D frame k is match frame firstFrame + k.
    let script = """
      import sys, json, warnings
      warnings.simplefilter("ignore")
      import ezc3d, numpy as np
      e = ezc3d.c3d(sys.argv[1])
      labels = list(e["parameters"]["POINT"]["LABELS"]["value"])
      first = float(e["parameters"]["MATCHSCENE"]["FIRST_FRAME"]["value"][0])
      pts = np.nan_to_num(e["data"]["points"][:3], nan=1e9)
      json.dump({"labels": labels, "first": first, "points": pts.transpose(2, 1, 0).tolist()}, sys.stdout)
      """
    struct Read: Decodable { var labels: [String]; var first: Double; var points: [[[Double]]] }
    let read = try JSONDecoder().decode(
      Read.self, from: Data(try PythonEnvironment.readers.run(script, arguments: [out.appendingPathComponent("match.c3d").path]).utf8))
    XCTAssertEqual(Int(read.first), firstFrame)
    XCTAssertTrue(read.labels.contains("P1:LWrist") && read.labels.contains("P2:Neck") && read.labels.contains("ball"), "\(read.labels)")
    var compared = 0
    for (m, label) in read.labels.enumerated() {
      let (track, marker): (String, String) = label == "ball" ? ("ball", "ball") : {
        let parts = label.split(separator: ":").map(String.init)
        return (parts[0], parts[1])
      }()
      let joint = ["LWrist": "left_wrist", "RAnkle": "right_ankle", "Nose": "nose", "ball": "ball"][marker]
      guard let joint else { continue }
      for k in stride(from: 0, to: read.points.count, by: 7) {
        let p = read.points[k][m]
        guard let truth = byKey["\(firstFrame + k) \(track) \(joint)"] else {
          XCTAssertEqual(p[0], 1e9, "\(label) at frame \(firstFrame + k): no data in tracks.csv, none in the C3D")
          continue
        }
        for axis in 0..<3 { XCTAssertEqual(p[axis], truth[axis], accuracy: 1e-5, "\(label) frame \(firstFrame + k)") }
        compared += 1
      }
    }
    XCTAssertGreaterThan(compared, 100)

    // TRC: Pose2Sim's names, y-up.
    let trc = try TRCWriter.parse(String(contentsOf: out.appendingPathComponent("trc/P1.trc"), encoding: .utf8), file: "P1.trc")
    XCTAssertEqual(Array(trc.markers.prefix(4)), ["Hip", "RHip", "RKnee", "RAnkle"])
    let (frame, position) = try XCTUnwrap(trc.frames.sorted { $0.key < $1.key }.first.flatMap { f in f.value["LWrist"].map { (f.key, $0) } })
    let wrist = try XCTUnwrap(byKey["\(frame) P1 left_wrist"])
    assertClose(position, SIMD3(wrist.x, wrist.z, -wrist.y), absolute: 1e-6)
  }
}
