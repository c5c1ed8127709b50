import Foundation
import MatchSceneCore

/// Where the viewer page loads Three.js from.
///
/// The page's own code uses only the API common to three.js r111 (Debian's `libjs-three`) and r160, so
/// every source works: ES modules through an import map (`.cdn`, `.folder`) or classic scripts that
/// define the global `THREE` with `THREE.OrbitControls` and `THREE.GLTFLoader` (`.local`, `.bundled`).
///
/// Browsers block ES modules from `file://` pages (a module fetch needs CORS, which `file://` lacks), so
/// a page opened by double-clicking it works with `.cdn` (online), `.local` or `.bundled`; `.folder`
/// needs a web server.
public enum ThreeJSSource: Sendable, Equatable {
  /// A CDN base serving three.js ES modules: `<base>/build/three.module.js` and `<base>/examples/jsm/…`.
  case cdn(String)
  /// A local folder with the ES-module layout of a three.js release (`build/three.module.js`, `examples/jsm/`).
  case folder(String)
  /// A local folder with the classic-script layout of Debian's `libjs-three` (r111):
  /// `three.min.js`, `examples/js/controls/OrbitControls.js`, `examples/js/loaders/GLTFLoader.js`.
  case local(String)
  /// The classic-script files at a path relative to the page (`ThreeJSBundle.copy` puts them there).
  case bundled(String)

  /// three.js r160 (pinned) from a public CDN.
  public static let defaultCDN = ThreeJSSource.cdn("https://unpkg.com/three@0.160.0")
  /// Whether `url` may serve as a CDN base: `http://` or `https://`, a host, and no character that
  /// would need escaping in a page (quotes, `<`, `>`, spaces, control characters).
  public static func isValidCDN(_ url: String) -> Bool {
    guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "https" || scheme == "http",
      parsed.host?.isEmpty == false
    else { return false }
    return !url.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || "\"'<>`\\".unicodeScalars.contains($0) }
  }

  /// Where Debian's `libjs-three` installs three.js.
  public static let debian = ThreeJSSource.local("/usr/share/javascript/three")

  /// The base as a URL string without a trailing slash.
  var base: String {
    switch self {
    case .cdn(let url): return url.hasSuffix("/") ? String(url.dropLast()) : url
    case .folder(let path), .local(let path):
      let url = URL(fileURLWithPath: path, isDirectory: true).absoluteString
      return url.hasSuffix("/") ? String(url.dropLast()) : url
    case .bundled(let path):
      let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
      return escaped.hasSuffix("/") ? String(escaped.dropLast()) : escaped
    }
  }

  /// The `<script>` tags that make three.js, OrbitControls and GLTFLoader available and then call
  /// `matchsceneStart(THREE)` (defined by the page's main script, which comes first). A script that
  /// fails to load calls `matchsceneMissing(url)`, which says so on the page.
  var scriptTags: String {
    switch self {
    case .cdn, .folder:
      return """
        <script type="importmap">
        { "imports": { "three": \(ViewerPage.jsonString(base + "/build/three.module.js")), "three/addons/": \(ViewerPage.jsonString(base + "/examples/jsm/")) } }
        </script>
        <script type="module" onerror="matchsceneMissing('three.js modules')">
        import * as THREE from "three";
        import { OrbitControls } from "three/addons/controls/OrbitControls.js";
        import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
        matchsceneStart(Object.assign({}, THREE, { OrbitControls, GLTFLoader }));
        </script>
        """
    case .local, .bundled:
      return ThreeJSBundle.files.map {
        "<script src=\"\(ViewerPage.htmlEscaped(base + "/" + $0))\" onerror=\"matchsceneMissing(this.src)\"></script>\n"
      }.joined() + "<script>if (window.THREE && THREE.GLTFLoader && THREE.OrbitControls) matchsceneStart(THREE);</script>"
    }
  }

  /// What the page names as the place it loads three.js from, when that fails.
  var displayName: String {
    switch self {
    case .cdn(let url): return url
    case .folder(let path), .local(let path): return path
    case .bundled(let path): return "\(path)/ next to this page"
    }
  }
}

/// A self-contained HTML viewer for a MatchScene glTF file: orbit controls, play/pause, a timeline to
/// scrub, a clip (rally) picker, any glTF camera's view, player names over their heads, the score line
/// from the `point` events, and the events near the current match time, read from the scene's `extras`
/// (`events`, `score`, `players`) or from `events.json` embedded beside it.
///
/// The default view frames the table and the players from 35° off the table's long axis, 28° above the
/// floor; the orbit stays above the floor. The clock shows match time (seconds since match frame 0),
/// the time the event list uses. A node scaled to zero at a frame (no data there) is not drawn.
///
/// The page exposes `window.matchscene` (`ready`, `gltf`, `mixer`, `THREE`, `scene`, `renderer`,
/// `choose(name)`, `seek(t)`, `view(i)`, `matchTime()`) for scripting and tests; load errors go to
/// `<pre id="errors">`, console warnings to the hidden `<pre id="warnings">`. The address may ask for a
/// start state: `#clip=rally-01&t=1.5&view=cam_left&paused&hide=P1,P2`.
public enum ViewerPage {
  /// Renders the page.
  /// - Parameters:
  ///   - sceneFileName: the .glb next to the page; loaded relative to the page when `sceneData` is nil
  ///     (needs a web server: browsers block fetches from file:// pages).
  ///   - sceneData: GLB bytes to embed as a base64 data URI, so the page works from file://.
  ///   - threeJS: where three.js comes from.
  ///   - events: events to show instead of the scene's `extras.events` (e.g. a newer `events.json`).
  public static func render(
    sceneFileName: String, sceneData: Data? = nil, threeJS: ThreeJSSource = .defaultCDN, events: [MatchEvent]? = nil
  ) -> String {
    let source = sceneData.map { "data:model/gltf-binary;base64,\($0.base64EncodedString())" } ?? sceneFileName
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let eventsJSON = events.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "null"
    return template
      .replacingOccurrences(of: "__TITLE__", with: htmlEscaped(sceneFileName))
      .replacingOccurrences(of: "__SCENE__", with: jsonString(source))
      .replacingOccurrences(of: "__EVENTS__", with: eventsJSON.replacingOccurrences(of: "<", with: "\\u003c"))
      .replacingOccurrences(of: "__THREE_NAME__", with: jsonString(threeJS.displayName))
      .replacingOccurrences(of: "__BIND_TRACKS__", with: bindTracksByNodeJS)
      .replacingOccurrences(of: "__PLACE_ORBIT__", with: placeOrbitJS)
      .replacingOccurrences(of: "__THREE_SCRIPTS__", with: threeJS.scriptTags)
  }

  /// Writes `<name>.html` next to `scene` (embedding the scene when `embed`); returns the page's URL.
  /// A `.local` three.js is used where it is; `ThreeJSBundle.copy` first to bundle it with the page.
  @discardableResult
  public static func write(
    for scene: URL, embed: Bool = true, threeJS: ThreeJSSource = .defaultCDN, events: [MatchEvent]? = nil
  ) throws -> URL {
    let page = scene.deletingPathExtension().appendingPathExtension("html")
    let data = embed ? try Data(contentsOf: scene) : nil
    try AtomicFile.write(
      render(sceneFileName: scene.lastPathComponent, sceneData: data, threeJS: threeJS, events: events), to: page)
    return page
  }

  /// Whether `url` holds a page `write(for:)` wrote (its title starts `MatchScene — `), which a later
  /// `view` may replace.
  public static func isPage(_ url: URL) -> Bool {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
    defer { try? handle.close() }
    let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
    return head.contains("<title>MatchScene — ")
  }

  /// `text` as a JSON (and so JavaScript) string literal, with `<` escaped so it cannot close a script.
  static func jsonString(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    let data = (try? encoder.encode(text)) ?? Data("\"\"".utf8)
    return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
  }

  static func htmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
