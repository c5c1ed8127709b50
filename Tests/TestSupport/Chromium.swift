import Foundation
import XCTest

/// Headless Chromium for tests that load pages (three.js r111 from Debian's `libjs-three`) the way a
/// user opens them from a file manager: `file://`, no flag that relaxes what a page may load (no
/// `--allow-file-access-from-files`). The other flags only make Chromium run here: headless as root
/// (`--no-sandbox`), WebGL without a GPU (SwiftShader), a throwaway profile, virtual time.
public enum Chromium {
  public static let threeFolder = "/usr/share/javascript/three"

  /// The browser's path. - Throws: `XCTSkip` when it is not installed (a failure under CI).
  public static func executable() throws -> String {
    try programOnPath("chromium", hint: "apt-get install -y chromium libjs-three")
  }

  /// Loads `page` and returns the serialised DOM; kills the browser after `timeout` seconds.
  public static func dumpDOM(_ page: URL, timeout: TimeInterval = 60) throws -> String {
    try run(executable(), page: page, timeout: timeout)
  }

  /// Runs the browser at `executable` on `page` and returns the serialised DOM, or takes a 1280 × 720
  /// `screenshot` instead (returning ""). Kills the browser after `timeout` seconds.
  @discardableResult
  public static func run(
    _ executable: String, page: URL, screenshot: URL? = nil, timeout: TimeInterval = 60, windowSize: String? = nil
  ) throws -> String {
    let profile = try makeTemporaryFolder("matchscene-chromium")
    defer { try? FileManager.default.removeItem(at: profile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    // `windowSize` (e.g. "1280,720") also for a DOM dump, so that it matches a screenshot's layout.
    let output =
      screenshot.map { ["--screenshot=\($0.path)", "--window-size=\(windowSize ?? "1280,720")"] }
      ?? ["--dump-dom"] + (windowSize.map { ["--window-size=\($0)"] } ?? [])
    process.arguments =
      [
        "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
        "--user-data-dir=\(profile.path)", "--virtual-time-budget=15000",
        "--no-first-run", "--disable-gpu-sandbox", "--disable-dev-shm-usage",
      ] + output + [page.absoluteString]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    killer.cancel()
    return String(decoding: data, as: UTF8.self)
  }

  /// The text of `<pre id="id">` in `dom`, entities for &, < and > undone.
  public static func pre(_ id: String, in dom: String) -> String? {
    guard let open = dom.range(of: "<pre id=\"\(id)\""), let start = dom[open.upperBound...].range(of: ">"),
      let end = dom[start.upperBound...].range(of: "</pre>")
    else { return nil }
    return String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
  }

  /// The start of a probe page up to an open `<script>`: `<pre id="errors">` collecting page errors and
  /// console errors, `<pre id="result">`, three.js r111 and its GLTFLoader, and the JavaScript helpers
  /// `calibration(v)` (glTF y-up → z-up (x, −z, y)) and `child(parent, name)` (a descendant named `name`,
  /// or `name_<n>` as three.js renames duplicates).
  public static var probePageHead: String {
    let base = URL(fileURLWithPath: threeFolder, isDirectory: true).absoluteString
    return """
      <!DOCTYPE html>
      <html><head><meta charset="utf-8"></head><body>
      <pre id="errors"></pre><pre id="result"></pre>
      <script>
      const report = (text) => { document.getElementById("errors").textContent += text + "\\n"; };
      window.addEventListener("error", (e) => report("error: " + e.message + " (" + e.filename + ":" + e.lineno + ")"));
      const consoleError = console.error.bind(console);
      console.error = function () { report("console.error: " + Array.from(arguments).map(String).join(" ")); consoleError.apply(null, arguments); };
      </script>
      <script src="\(base)three.min.js"></script>
      <script src="\(base)examples/js/loaders/GLTFLoader.js"></script>
      <script>
      const calibration = (v) => [v.x, -v.z, v.y];
      const child = (parent, name) => {
        let found = null;
        parent.traverse((o) => { if (!found && o !== parent && (o.name === name || new RegExp("^" + name + "_\\\\d+$").test(o.name))) found = o; });
        return found;
      };
      """
  }

  /// A probe page: `probePageHead`, then loads `glb` with three.js r111's GLTFLoader, runs `bindJS` (which
  /// defines `matchsceneBindTracksByNode`, `ViewerPage.bindTracksByNodeJS`), binds the tracks, starts
  /// animation `clip` and runs `body`, JavaScript with `gltf`, `clip`, `mixer` and `action` in scope that
  /// writes its result into `<pre id="result">`. Load failures go to `<pre id="errors">`.
  public static func animationProbePage(glb: Data, clip: String, bindJS: String, body: String) -> String {
    probePageHead + """
      \(bindJS)
      new THREE.GLTFLoader().load("data:model/gltf-binary;base64,\(glb.base64EncodedString())", (gltf) => {
        matchsceneBindTracksByNode(gltf, () => {
          const clip = gltf.animations.find((c) => c.name === "\(clip)");
          const mixer = new THREE.AnimationMixer(gltf.scene);
          const action = mixer.clipAction(clip);
          action.play();
      \(body)
        });
      }, undefined, (error) => console.error("load failed:", error && error.message || error));
      </script>
      </body></html>
      """
  }
}
