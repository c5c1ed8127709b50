import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneReview

/// Loads generated scenes and the viewer page in headless Chromium (WebGL through SwiftShader) with
/// Debian's three.js r111 (`libjs-three`), and checks what three.js makes of the scene.
/// Needs `apt-get install -y chromium libjs-three`; skipped when `chromium` is not on PATH, except under CI.
final class BrowserTests: XCTestCase {
  static let threeFolder = Chromium.threeFolder

  /// The clip the tests play: frames 20…40 of the synthetic match (which starts at frame 10).
  static let clip = (name: "rally-01", frames: 20...40)

  private func chromium() throws -> String {
    let path = try Chromium.executable()
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: "\(Self.threeFolder)/three.min.js"),
      "three.js r111 missing: apt-get install -y libjs-three")
    return path
  }

  @discardableResult
  private func runChromium(_ executable: String, page: URL, screenshot: URL? = nil) throws -> String {
    try Chromium.run(executable, page: page, screenshot: screenshot)
  }

  private func pre(_ id: String, in dom: String) -> String? { Chromium.pre(id, in: dom) }

  /// The synthetic scene as the command line writes scene.glb: rotations as normalised SHORTs.
  private func glb() throws -> Data {
    var options = SceneOptions(clips: [Self.clip])
    options.rotationEncoding = .normalizedShort
    options.sceneExtras["players"] = .object(["P1": .string("Ana")])
    return try GLTFWriter.glbData(try SyntheticScene.document(options: options))
  }

  struct Probe: Decodable {
    var ball: [Double]
    var wrists: [String: [[Double]]]
    var forearmEnds: [String: [[Double]]]
    var changedPixels: Int
    var totalPixels: Int
    var clipDuration: Double
  }

  /// Plays `rally-01` at two times and reports the ball and both right wrists in the calibration frame,
  /// then renders the first glTF camera's view and counts pixels differing from the clear colour.
  func testThreeJSPlaysTheSceneWhereTheReconstructionPutIt() throws {
    let browser = try chromium()
    let folder = try makeTemporaryFolder("matchscene-browser")
    defer { try? FileManager.default.removeItem(at: folder) }
    let times = [0.1, 0.3]  // seconds into the clip: frames 25 and 35
    let page = folder.appendingPathComponent("probe.html")
    try AtomicFile.write(probePage(glb: try glb(), times: times), to: page)
    let started = Date()
    let dom = try runChromium(browser, page: page)
    let elapsed = Date().timeIntervalSince(started)
    print("BrowserTests: probe page took \(String(format: "%.1f", elapsed)) s")
    XCTAssertEqual(pre("errors", in: dom) ?? "", "", "page errors")
    let json = try XCTUnwrap(pre("result", in: dom), "no result in the DOM:\n\(dom.prefix(2000))")
    let probe = try JSONDecoder().decode(Probe.self, from: Data(json.utf8))

    XCTAssertEqual(probe.clipDuration, Double(Self.clip.frames.count - 1) / SyntheticScene.fps, accuracy: 1e-6)
    // (a) The ball at the second time, against the input reconstruction, within 1 mm.
    let k = Self.clip.frames.lowerBound - SyntheticScene.firstFrame + Int((times[1] * SyntheticScene.fps).rounded())
    let ball = SyntheticScene.ball(t: Double(k) / SyntheticScene.fps)
    XCTAssertEqual(probe.ball.count, 3)
    for i in 0..<3 { XCTAssertEqual(probe.ball[i], ball[i], accuracy: 1e-3, "ball axis \(i)") }
    // (b) Each player's right wrist is where the reconstruction has it at both times, and so moves;
    // so is the forearm prism's far end (+y scaled by its length, turned by the de-normalised SHORT
    // rotation).
    for (index, track) in ["P1", "P2"].enumerated() {
      let wrist = try XCTUnwrap(probe.wrists[track])
      let ends = try XCTUnwrap(probe.forearmEnds[track])
      XCTAssertEqual(wrist.count, times.count)
      XCTAssertEqual(ends.count, times.count)
      for (j, t) in times.enumerated() {
        let k = Self.clip.frames.lowerBound - SyntheticScene.firstFrame + Int((t * SyntheticScene.fps).rounded())
        let expected = SyntheticScene.playerJoint(index, "right_wrist", t: Double(k) / SyntheticScene.fps)
        for i in 0..<3 {
          XCTAssertEqual(wrist[j][i], expected[i], accuracy: 1e-3, "\(track) right_wrist t=\(t) axis \(i)")
          XCTAssertEqual(ends[j][i], expected[i], accuracy: 1e-3, "\(track) forearm end t=\(t) axis \(i)")
        }
      }
      let moved = zip(wrist[0], wrist[1]).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
      XCTAssertGreaterThan(moved, 0.05, "\(track)'s right wrist moves between the two times")
    }
    // (c) Something is drawn.
    XCTAssertGreaterThan(probe.totalPixels, 0)
    XCTAssertGreaterThan(Double(probe.changedPixels), 0.01 * Double(probe.totalPixels), "rendered frame is empty")
  }

  /// A page that loads `glb` with three.js r111 and writes `{ball, wrists, changedPixels, …}` into
  /// `<pre id="result">`, in the calibration frame (glTF (x, y, z) = world (x, z, −y)).
  private func probePage(glb: Data, times: [Double]) -> String {
    Chromium.animationProbePage(
      glb: glb, clip: Self.clip.name, bindJS: ViewerPage.bindTracksByNodeJS,
      body: """
          const times = \(times);
          const at = (t) => { action.time = t; mixer.update(0); gltf.scene.updateMatrixWorld(true); };
          const world = (o) => calibration(new THREE.Vector3().setFromMatrixPosition(o.matrixWorld));
          const wrists = { P1: [], P2: [] }, forearmEnds = { P1: [], P2: [] };
          // Limb nodes are named P1/right_elbow-right_wrist; three.js drops the "/" from node names.
          const forearm = (track) => {
            let found = null;
            gltf.scene.getObjectByName(track).traverse((o) => { if (!found && /right_elbow-right_wrist$/.test(o.name)) found = o; });
            return found;
          };
          for (const t of times) {
            at(t);
            for (const track of ["P1", "P2"]) {
              wrists[track].push(world(child(gltf.scene.getObjectByName(track), "right_wrist")));
              forearmEnds[track].push(calibration(new THREE.Vector3(0, 1, 0).applyMatrix4(forearm(track).matrixWorld)));
            }
          }
          const ball = world(gltf.scene.getObjectByName("ball"));

          const width = 320, height = 240;
          const renderer = new THREE.WebGLRenderer({ preserveDrawingBuffer: true });
          renderer.setSize(width, height);
          renderer.setPixelRatio(1);
          renderer.setClearColor(0x000000, 1);
          document.body.appendChild(renderer.domElement);
          const scene = new THREE.Scene();
          scene.add(gltf.scene);
          scene.add(new THREE.AmbientLight(0xffffff, 1.0));
          let camera = null;
          gltf.scene.traverse((o) => { if (!camera && o.isCamera) camera = o; });
          camera.aspect = width / height;
          camera.updateProjectionMatrix();
          renderer.render(scene, camera);
          const gl = renderer.getContext();
          const pixels = new Uint8Array(width * height * 4);
          gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
          let changed = 0;
          for (let i = 0; i < pixels.length; i += 4) if (pixels[i] || pixels[i + 1] || pixels[i + 2]) changed++;
          document.getElementById("result").textContent = JSON.stringify({
            ball, wrists, forearmEnds, changedPixels: changed, totalPixels: width * height, clipDuration: clip.duration });
      """)
  }
}
