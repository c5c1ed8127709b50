import Foundation
import MatchSceneAnalysis
import MatchSceneCore
import MatchSceneExport
import MatchSceneIO
import TestSupport
import XCTest
import MatchSceneAssimp
import MatchSceneEvaluation

/// simulate → reconstruct → evaluate on the built binary, as a user runs them.
final class EndToEndTests: XCTestCase {
  func testSimulateReconstructEvaluate() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder()
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "6", "--seed", "3"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    for path in ["calibration/calibration.toml", "match.toml", "truth/tracks.csv", "truth/events.json", "ball/cam1.csv"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: match.appendingPathComponent(path).path), path)
    }
    // A second simulate into the same folder needs --force.
    let again = try runMatchScene(["simulate", "-o", match.path, "--duration", "1"])
    XCTAssertNotEqual(again.status, 0)
    XCTAssertTrue(again.stderr.contains("--force"), again.stderr)

    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    XCTAssertTrue(reconstruct.stdout.contains("scene.glb") && reconstruct.stdout.contains("tracks.csv"), reconstruct.stdout)
    XCTAssertFalse(reconstruct.stderr.contains("\r"), "no progress line when not on a terminal")

    // tracks.csv: the contract header, players and the ball, metres close to the truth.
    let tracksText = try String(contentsOf: out.appendingPathComponent("tracks.csv"), encoding: .utf8)
    XCTAssertTrue(tracksText.hasPrefix("frame,time,track,kind,joint,x,y,z,reproj_px,views\n"))
    let estimate = try MatchOutput.readMotion(tracks: out)
    let truth = try MatchOutput.readMotion(tracks: match.appendingPathComponent("truth"))
    let evaluation = TrackEvaluation(estimate: estimate, truth: truth)
    XCTAssertLessThan(evaluation.players.mean, 0.02, evaluation.summary)
    XCTAssertEqual(evaluation.identitySwitches, 0, evaluation.summary)
    XCTAssertLessThan(evaluation.ball.median, 0.01, evaluation.summary)

    // scene.glb: valid, re-imports with assimp with the contract names and one `match` clip of the frames.
    let glb = out.appendingPathComponent("scene.glb")
    XCTAssertEqual(GLTFValidator.validate(fileAt: glb), [])
    let scene = try AssimpScene(contentsOf: glb)
    let names = Set(scene.nodes.map(\.name))
    for name in ["matchscene", "ball", "P1", "P2", "nose", "left_wrist", "right_ankle", "cam1"] {
      XCTAssertTrue(names.contains(name), "node \(name) missing")
    }
    let clip = try XCTUnwrap(scene.animations.first { $0.name == "match" })
    let frames = try XCTUnwrap(estimate.frames)
    let expected = Double(frames.upperBound - frames.lowerBound) / 60
    XCTAssertEqual(try XCTUnwrap(clip.durationSeconds), expected, accuracy: 1e-3)
    // Limb rotations as normalised SHORTs; the time of every stage and of the whole run printed.
    XCTAssertEqual(try rotationComponentTypes(glb), [5122])
    for stage in ["Time: read ", "reconstruct ", "analyse ", "export ", "write ", "other ", "whole run "] {
      XCTAssertTrue(reconstruct.stdout.contains(stage), reconstruct.stdout)
    }
    // The stages add up to the whole run (each rounded to 0.01 s), which the summary line counts too.
    let timeLine = try XCTUnwrap(reconstruct.stdout.split(separator: "\n").first { $0.hasPrefix("Time: ") })
    let seconds = timeLine.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ",)."))) }
    let whole = try XCTUnwrap(seconds.last)
    XCTAssertEqual(seconds.dropLast().reduce(0, +), whole, accuracy: 0.005 * Double(seconds.count), String(timeLine))
    // The summary's seconds (0.1 s) round the same total as the time line's (0.01 s): 5.2549 s prints
    // as 5.25 there and 5.3 here.
    let summary = try XCTUnwrap(reconstruct.stdout.split(separator: "\n").first { $0.hasPrefix("Reconstructed ") })
    let summarySeconds = try XCTUnwrap(
      summary.components(separatedBy: " frames in ").last?.split(separator: " ").first.flatMap { Double($0) }, String(summary))
    XCTAssertEqual(summarySeconds, whole, accuracy: 0.05 + 0.005 + 1e-9, String(summary))
    // The old "Scene export took 0.0 s, 112 % of the reconstruction's 0.0 s" is gone for good.
    XCTAssertFalse(reconstruct.stdout.contains("% of the reconstruction"), reconstruct.stdout)
    try checkReducedAssimpFormats(match: match, folder: folder, duration: expected)

    // overlay: one SVG per camera and frame, and the players' reprojections within a few pixels of
    // their detections (1.5 px detector noise; the median over images ignores the rare outlier).
    let overlay = try runMatchScene(["overlay", match.path, "--tracks", out.path, "--camera", "cam1", "--camera", "cam2", "--frames", "100-104"])
    XCTAssertEqual(overlay.status, 0, overlay.stderr)
    for camera in ["cam1", "cam2"] {
      for frame in 100...104 {
        let svg = out.appendingPathComponent("overlay/\(camera)/\(camera)_\(frame).svg")
        let text = try String(contentsOf: svg, encoding: .utf8)
        XCTAssertTrue(text.contains("<svg") && text.contains("id=\"reprojections\""), svg.path)
      }
    }
    let rows = try String(contentsOf: out.appendingPathComponent("overlay/disagreement.csv"), encoding: .utf8)
      .split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    XCTAssertEqual(rows.first?.joined(separator: ","), "frame,camera,track,mean_px")
    let playerPx = rows.dropFirst().filter { $0[2].hasPrefix("P") }.compactMap { Double($0[3]) }.sorted()
    XCTAssertGreaterThanOrEqual(playerPx.count, 10, "both players in both cameras over 5 frames")
    XCTAssertLessThan(playerPx[playerPx.count / 2], 4, "median player disagreement, px")
    let unknown = try runMatchScene(["overlay", match.path, "--tracks", out.path, "--camera", "nope"])
    XCTAssertNotEqual(unknown.status, 0)
    XCTAssertTrue(unknown.stderr.contains("nope") && unknown.stderr.contains("cam1"), unknown.stderr)

    let evaluate = try runMatchScene(["evaluate", out.path, "--truth", match.appendingPathComponent("truth").path])
    XCTAssertEqual(evaluate.status, 0, evaluate.stderr)
    XCTAssertTrue(evaluate.stdout.contains("players: mean"), evaluate.stdout)
  }

  /// The componentTypes of the rotation outputs of scene.glb's animations.
  func rotationComponentTypes(_ glb: URL) throws -> Set<Int> {
    let data = try Data(contentsOf: glb)
    let length = data.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self))) }
    let doc = try JSONDecoder().decode(GLTFDocument.self, from: data.subdata(in: 20..<(20 + length)))
    var types = Set<Int>()
    for a in doc.animations ?? [] {
      for c in a.channels where c.target.path == "rotation" { types.insert(doc.accessors![a.samplers[c.sampler].output].componentType) }
    }
    return types
  }

  /// `--format fbx-ascii|dae` (assimp) with keyframe reduction re-import with the match's duration and reduced ball keys;
  /// `--float-rotations` writes Float32 rotations into scene.glb.
  func checkReducedAssimpFormats(match: URL, folder: URL, duration: Double) throws {
    for flag in ["fbx-ascii", "dae"] {
      let format = flag == "fbx-ascii" ? "fbx" : flag
      let out = folder.appendingPathComponent("out-\(format)")
      let run = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--format", flag, "--keyframe-tolerance", "1mm"])
      XCTAssertEqual(run.status, 0, run.stderr)
      let scene = try AssimpScene(contentsOf: out.appendingPathComponent("scene.\(format)"))
      let names = Set(scene.nodes.map(\.name))
      // Keypoints are qualified by their player for assimp (`P1/nose`); its Collada exporter escapes `/`
      // in node ids as `l`, and its importer names nodes by id.
      let joints = ["P1/nose", "P2/right_ankle"].map { format == "dae" ? $0.replacingOccurrences(of: "/", with: "l") : $0 }
      for name in ["ball", "P1", "P2"] + joints { XCTAssertTrue(names.contains(name), "\(format): \(name)") }
      let first = try XCTUnwrap(scene.animations.first, format)
      let ball = try XCTUnwrap(scene.positionKeys(animation: first.name, node: "ball"), format)
      XCTAssertGreaterThan(ball.count, 2, format)
      XCTAssertLessThan(ball.count, Int((duration * 60).rounded()) + 1, "\(format): the ball's keys are reduced")
      if format == "dae" {
        XCTAssertEqual(scene.animations.count, 1, "Collada: the match only")
        XCTAssertEqual(try XCTUnwrap(first.durationSeconds), duration, accuracy: 1e-3, format)
      } else {
        // assimp 5.2's FBX exporter writes the stack's length in whole seconds: rounded up for it
        // (AssimpSceneEdits), the keys all survive.
        XCTAssertEqual(scene.animations.map(\.name).prefix(2), ["match", "rally-01"], "FBX keeps the clips")
        XCTAssertEqual(try XCTUnwrap(first.durationSeconds), duration.rounded(.up), accuracy: 1e-3, format)
        XCTAssertEqual(try XCTUnwrap(ball.last).time, duration, accuracy: 1e-3, "FBX: the last key is kept")
      }
    }
    let out = folder.appendingPathComponent("out-float")
    let run = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--float-rotations", "--no-analysis"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(try rotationComponentTypes(out.appendingPathComponent("scene.glb")), [5126])
  }
}
