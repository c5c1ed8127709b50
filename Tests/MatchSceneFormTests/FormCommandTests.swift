import Foundation
import MatchSceneCore
import MatchSceneExport
import MatchSceneForm
import MatchSceneIO
import MatchSceneReview
import TestSupport
import XCTest

/// `matchscene form` and `matchscene clip` end to end on the built binary, and their outputs in headless
/// Chromium with three.js r111.
final class FormCommandTests: XCTestCase {
  /// The 20 s default-noise reconstruction written as `reconstruct` writes it.
  static let outFolder: URL = {
    let out = try! makeTemporaryFolder("matchscene-form-cli").appendingPathComponent("out")
    try! noisyFixture.result.write(to: out)
    return out
  }()

  func testFormWritesItsOutputsAndTheReference() throws {
    try requireTier(.integration)
    let out = Self.outFolder
    let reference = out.deletingLastPathComponent().appendingPathComponent("ref.json")
    let run = try runMatchScene(["form", out.path, "--save-reference", reference.path, "--player", "P1", "--kind", "forehand"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssert(run.stdout.contains("P1 (right-handed):"), run.stdout)
    XCTAssert(run.stdout.contains("mean score"), run.stdout)
    let strokes = try StrokesJSON.read(from: out.appendingPathComponent("strokes.json"))
    XCTAssertGreaterThan(strokes.count, 10)
    for track in ["P1", "P2"] {
      XCTAssert(FileManager.default.fileExists(atPath: out.appendingPathComponent("mot/\(track).mot").path))
    }
    let csv = try String(contentsOf: out.appendingPathComponent("angles.csv"), encoding: .utf8)
    XCTAssert(csv.hasPrefix(AnglesCSV.header + "\n"))
    let html = try String(contentsOf: out.appendingPathComponent("form.html"), encoding: .utf8)
    XCTAssertEqual(html.components(separatedBy: "<section id=\"stroke-").count - 1, strokes.count)
    XCTAssertEqual(html.components(separatedBy: "<svg ").count - 1, strokes.count * FormJoint.allCases.count)
    let saved = try StrokeReference.read(from: reference)
    XCTAssertEqual(saved.kind, .forehand)
    XCTAssertEqual(saved.sources.count, strokes.filter { $0.track == "P1" && $0.kind == .forehand }.count)

    // Against the saved reference: a forehand that is one of its sources scores high, in form.html too.
    let again = try runMatchScene(["form", out.path, "--reference", reference.path])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssert(try String(contentsOf: out.appendingPathComponent("form.html"), encoding: .utf8).contains("against P1 forehand average"))

    // form.html in the browser: no errors, loaded.
    let dom = try Chromium.dumpDOM(out.appendingPathComponent("form.html"))
    XCTAssertEqual(Chromium.pre("errors", in: dom), "", "page errors")
    XCTAssertEqual(Chromium.pre("status", in: dom), "ready")
  }

  /// `simulate --left-handed P2` plays P2 left-handed and writes the true strokes.
  func testSimulateLeftHandedWritesTrueStrokes() throws {
    try requireTier(.integration)
    let folder = try makeTemporaryFolder().appendingPathComponent("match")
    let run = try runMatchScene(["simulate", "-o", folder.path, "--duration", "6", "--seed", "3", "--left-handed", "P2"])
    XCTAssertEqual(run.status, 0, run.stderr)
    struct Stroke: Decodable { var track: String; var kind: String; var hand: String; var contactFrame: Int }
    let strokes = try JSONDecoder().decode(
      [Stroke].self, from: Data(contentsOf: folder.appendingPathComponent("truth/strokes.json")))
    XCTAssertFalse(strokes.isEmpty)
    XCTAssertEqual(Set(strokes.filter { $0.track == "P2" }.map(\.hand)), ["left"])
    XCTAssertEqual(Set(strokes.filter { $0.track == "P1" }.map(\.hand)), ["right"])
    let bad = try runMatchScene(["simulate", "-o", folder.path + "2", "--left-handed", "P3"])
    XCTAssertNotEqual(bad.status, 0)
    XCTAssert(bad.stderr.contains("--left-handed takes P1 or P2"), bad.stderr)
  }

  /// `simulate --technique P1:…` changes P1's true motion and nothing when it repeats the defaults; a bad
  /// value names the flag and the accepted keys with their ranges.
  func testSimulateTechniqueFlag() throws {
    try requireTier(.integration)
    let root = try makeTemporaryFolder()
    func truth(_ name: String, _ extra: [String]) throws -> String {
      let folder = root.appendingPathComponent(name)
      let run = try runMatchScene(["simulate", "-o", folder.path, "--duration", "4", "--seed", "5", "--clean"] + extra)
      XCTAssertEqual(run.status, 0, run.stderr)
      return try String(contentsOf: folder.appendingPathComponent("truth/tracks.csv"), encoding: .utf8)
    }
    func rows(_ csv: String, _ track: String) -> [Substring] {
      csv.split(separator: "\n").filter { $0.split(separator: ",").contains(Substring(track)) }
    }
    let plain = try truth("plain", [])
    let defaults = try truth("defaults", ["--technique", "P1:trunk-rotation=1,backswing-size=1,backswing-time=0.16"])
    XCTAssertEqual(plain, defaults, "the default knobs give the default match")
    let turned = try truth("turned", ["--technique", "P1:trunk-rotation=1.6", "--technique", "P2:backswing-size=1.2,backswing-time=0.2"])
    XCTAssertNotEqual(rows(plain, "P1"), rows(turned, "P1"))
    XCTAssertNotEqual(rows(plain, "P2"), rows(turned, "P2"))

    for (value, expected) in [
      ("P3:trunk-rotation=1", "must start with P1: or P2:"),
      ("P1:twist=2", "unknown key 'twist'"),
      ("P1:trunk-rotation=4", "trunk-rotation must lie in 0.0…3.0, got 4"),
      ("P1:backswing-time=fast", "backswing-time must be a number"),
      ("P1:trunk-rotation", "'trunk-rotation' is not key=value"),
    ] {
      let bad = try runMatchScene(["simulate", "-o", root.appendingPathComponent("bad").path, "--technique", value])
      XCTAssertNotEqual(bad.status, 0, value)
      XCTAssert(bad.stderr.contains("--technique '\(value)'") && bad.stderr.contains(expected), bad.stderr)
      XCTAssert(bad.stderr.contains("backswing-size (0.3…2.0)") && bad.stderr.contains("backswing-time (0.08…0.3 s)"), bad.stderr)
    }
    let twice = try runMatchScene([
      "simulate", "-o", root.appendingPathComponent("bad").path, "--technique", "P1:trunk-rotation=1.2", "--technique", "P1:backswing-size=1.1",
    ])
    XCTAssertNotEqual(twice.status, 0)
    XCTAssert(twice.stderr.contains("--technique is given twice for P1"), twice.stderr)
  }

  func testClipErrorsNameTheFlag() throws {
    try requireTier(.integration)
    let out = Self.outFolder
    let noPlayer = try runMatchScene(["clip", out.path, "--player", "P9"])
    XCTAssertNotEqual(noPlayer.status, 0)
    XCTAssert(noPlayer.stderr.contains("--player") && noPlayer.stderr.contains("P1"), noPlayer.stderr)
    let noStroke = try runMatchScene(["clip", out.path, "--player", "P1", "--stroke", "999"])
    XCTAssertNotEqual(noStroke.status, 0)
    XCTAssert(noStroke.stderr.contains("--stroke 999 must lie in 1…"), noStroke.stderr)
    let badFrames = try runMatchScene(["clip", out.path, "--player", "P1", "--frames", "9-3"])
    XCTAssertNotEqual(badFrames.status, 0)
    XCTAssert(badFrames.stderr.contains("--frames must be A-B"), badFrames.stderr)
    // A single frame is a range, as `reconstruct --frames` takes it.
    let single = FileManager.default.temporaryDirectory.appendingPathComponent("clip-single-\(UUID().uuidString).glb")
    defer { try? FileManager.default.removeItem(at: single) }
    let oneFrame = try runMatchScene(["clip", out.path, "--player", "P1", "--frames", "60", "-f", single.path])
    XCTAssertEqual(oneFrame.status, 0, oneFrame.stderr)
    XCTAssert(oneFrame.stdout.contains("frames 60-60"), oneFrame.stdout)
  }

  struct Probe: Decodable {
    var wrists: [[Double]]
    var ghostWrist: [Double]?
    var duration: Double
    var translucent: [String]
  }

  /// The clip passes the glTF checks and plays in three.js with P1's right wrist where tracks.csv has
  /// it (through extras.clipFromWorld) within 1 mm; the ghost is drawn translucent.
  func testClipPlaysWithTheWristWhereTracksCSVSaysIt() throws {
    try requireTier(.integration)
    let out = Self.outFolder
    let reference = out.deletingLastPathComponent().appendingPathComponent("ref-stroke.json")
    let save = try runMatchScene(["form", out.path, "--save-reference", reference.path, "--player", "P2", "--stroke", "1"])
    XCTAssertEqual(save.status, 0, save.stderr)
    let glb = out.deletingLastPathComponent().appendingPathComponent("clip.glb")
    let run = try runMatchScene(["clip", out.path, "--player", "P1", "--stroke", "2", "--reference", reference.path, "-f", glb.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    let data = try Data(contentsOf: glb)
    XCTAssertEqual(GLTFValidator.validate(glb: data), [])

    // What the clip should show: tracks.csv's wrist in clip coordinates.
    let input = try FormInput.load(out)
    let result = try FormAnalysis.run(motion: input.motion, venue: input.venue, events: input.events)
    let stroke = try XCTUnwrap(result.strokes.filter { $0.track == "P1" }.dropFirst().first)
    let clip = try StrokeClip.build(
      ClipRequest(player: "P1", stroke: 2), result: result, venue: input.venue, sport: try .builtIn("table-tennis"))
    XCTAssertEqual(clip.frames, stroke.backswingStartFrame...stroke.followThroughEndFrame)
    let rows = try TracksCSV.read(from: out.appendingPathComponent("tracks.csv"))
    let wristRows = Dictionary(
      uniqueKeysWithValues: rows.filter { $0.track == "P1" && $0.joint == "right_wrist" }.map { ($0.frame, $0.position) })
    let fps = input.motion.fps
    let frames = [clip.frames.lowerBound + 3, stroke.contactFrame, clip.frames.upperBound - 2]
    let times = frames.map { Double($0 - clip.frames.lowerBound) / fps }

    let page = out.deletingLastPathComponent().appendingPathComponent("clip-probe.html")
    try AtomicFile.write(probePage(glb: data, times: times), to: page)
    let dom = try Chromium.dumpDOM(page)
    XCTAssertEqual(Chromium.pre("errors", in: dom) ?? "", "", "page errors")
    let json = try XCTUnwrap(Chromium.pre("result", in: dom), "no result:\n\(dom.prefix(1500))")
    let probe = try JSONDecoder().decode(Probe.self, from: Data(json.utf8))
    XCTAssertEqual(probe.duration, Double(clip.frames.count - 1) / fps, accuracy: 1e-4)
    for (k, frame) in frames.enumerated() {
      let expected = clip.clipFromWorld.apply(try XCTUnwrap(wristRows[frame]))
      for axis in 0..<3 {
        XCTAssertEqual(probe.wrists[k][axis], expected[axis], accuracy: 1e-3, "frame \(frame) axis \(axis)")
      }
    }
    // The clip is centred on the player: the hip centre at contact is above the origin.
    let hips = rows.filter { $0.track == "P1" && $0.frame == stroke.contactFrame && $0.joint.hasSuffix("_hip") }
    XCTAssertEqual(hips.count, 2)
    let hip = clip.clipFromWorld.apply(0.5 * (hips[0].position + hips[1].position))
    XCTAssertEqual(hip.x, 0, accuracy: 1e-9)
    XCTAssertEqual(hip.y, 0, accuracy: 1e-9)
    XCTAssertNotNil(probe.ghostWrist)
    XCTAssertFalse(probe.translucent.isEmpty, "ghost materials are BLEND")
    XCTAssert(probe.translucent.allSatisfy { $0.hasSuffix("ghost") || $0.contains("ghost") }, "\(probe.translucent)")
  }

  /// Loads `glb` with three.js r111, plays its `match` animation at `times` and writes P1's right wrist (z-up
  /// clip coordinates), the ghost's and the names of translucent materials into `<pre id="result">`.
  func probePage(glb: Data, times: [Double]) -> String {
    Chromium.animationProbePage(
      glb: glb, clip: "match", bindJS: ViewerPage.bindTracksByNodeJS,
      body: """
          const wrists = [];
          let ghostWrist = null;
          for (const t of \(times)) {
            action.time = t; mixer.update(0); gltf.scene.updateMatrixWorld(true);
            wrists.push(calibration(new THREE.Vector3().setFromMatrixPosition(child(gltf.scene.getObjectByName("P1"), "right_wrist").matrixWorld)));
            const ghost = gltf.scene.getObjectByName("ghost");
            if (ghost) ghostWrist = calibration(new THREE.Vector3().setFromMatrixPosition(child(ghost, "right_wrist").matrixWorld));
          }
          const translucent = [];
          gltf.scene.traverse((o) => { if (o.material && o.material.transparent && !translucent.includes(o.material.name)) translucent.push(o.material.name); });
          document.getElementById("result").textContent = JSON.stringify({ wrists, ghostWrist, duration: clip.duration, translucent });
      """)
  }
}
