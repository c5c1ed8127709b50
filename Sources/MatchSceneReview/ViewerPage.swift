import Foundation
import MatchSceneCore

/// Where the viewer page loads Three.js from.
///
/// The page's own code uses only the API common to three.js r111 (Debian's `libjs-three`) and r160, so
/// every source works: ES modules through an import map (`.cdn`, `.folder`) or classic scripts that
/// define the global `THREE` with `THREE.OrbitControls` and `THREE.GLTFLoader` (`.local`).
public enum ThreeJSSource: Sendable, Equatable {
  /// A CDN base serving three.js ES modules: `<base>/build/three.module.js` and `<base>/examples/jsm/…`.
  case cdn(String)
  /// A local folder with the ES-module layout of a three.js release (`build/three.module.js`, `examples/jsm/`).
  case folder(String)
  /// A local folder with the classic-script layout of Debian's `libjs-three` (r111):
  /// `three.min.js`, `examples/js/controls/OrbitControls.js`, `examples/js/loaders/GLTFLoader.js`.
  case local(String)

  /// three.js r160 (pinned) from a public CDN.
  public static let defaultCDN = ThreeJSSource.cdn("https://unpkg.com/three@0.160.0")
  /// Where Debian's `libjs-three` installs three.js.
  public static let debian = ThreeJSSource.local("/usr/share/javascript/three")

  /// The base as a URL string without a trailing slash.
  var base: String {
    switch self {
    case .cdn(let url): return url.hasSuffix("/") ? String(url.dropLast()) : url
    case .folder(let path), .local(let path):
      let url = URL(fileURLWithPath: path, isDirectory: true).absoluteString
      return url.hasSuffix("/") ? String(url.dropLast()) : url
    }
  }

  /// The `<script>` tags that make three.js, OrbitControls and GLTFLoader available and then call
  /// `matchsceneStart(THREE)` (defined by the page's main script, which comes first).
  var scriptTags: String {
    switch self {
    case .cdn, .folder:
      return """
        <script type="importmap">
        { "imports": { "three": "\(base)/build/three.module.js", "three/addons/": "\(base)/examples/jsm/" } }
        </script>
        <script type="module">
        import * as THREE from "three";
        import { OrbitControls } from "three/addons/controls/OrbitControls.js";
        import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
        matchsceneStart(Object.assign({}, THREE, { OrbitControls, GLTFLoader }));
        </script>
        """
    case .local:
      return """
        <script src="\(base)/three.min.js"></script>
        <script src="\(base)/examples/js/controls/OrbitControls.js"></script>
        <script src="\(base)/examples/js/loaders/GLTFLoader.js"></script>
        <script>matchsceneStart(THREE);</script>
        """
    }
  }
}

/// A self-contained HTML viewer for a MatchScene glTF file: orbit controls, play/pause, a timeline to
/// scrub, a clip (rally) picker, any glTF camera's view, and an overlay of the events near the current
/// time and the latest score, both read from the scene's `extras` (`events`, `score`).
///
/// The page exposes `window.matchscene` (`ready`, `gltf`, `mixer`, `THREE`, `scene`, `renderer`,
/// `choose(name)`, `seek(t)`, `view(i)`) for scripting and tests; load errors go to `console.error` and
/// the overlay.
public enum ViewerPage {
  /// Renders the page.
  /// - Parameters:
  ///   - sceneFileName: the .glb next to the page; loaded relative to the page when `sceneData` is nil
  ///     (needs a web server: browsers block fetches from file:// pages).
  ///   - sceneData: GLB bytes to embed as a base64 data URI, so the page works from file://.
  ///   - threeJS: where three.js comes from.
  public static func render(sceneFileName: String, sceneData: Data? = nil, threeJS: ThreeJSSource = .defaultCDN) -> String {
    let source = sceneData.map { "data:model/gltf-binary;base64,\($0.base64EncodedString())" } ?? sceneFileName
    return template
      .replacingOccurrences(of: "__TITLE__", with: htmlEscaped(sceneFileName))
      .replacingOccurrences(of: "__SCENE__", with: jsonString(source))
      .replacingOccurrences(of: "__BIND_TRACKS__", with: bindTracksByNodeJS)
      .replacingOccurrences(of: "__THREE_SCRIPTS__", with: threeJS.scriptTags)
  }

  /// Writes `<name>.html` next to `scene` (embedding the scene when `embed`); returns the page's URL.
  @discardableResult
  public static func write(for scene: URL, embed: Bool = true, threeJS: ThreeJSSource = .defaultCDN) throws -> URL {
    let page = scene.deletingPathExtension().appendingPathExtension("html")
    let data = embed ? try Data(contentsOf: scene) : nil
    try AtomicFile.write(render(sceneFileName: scene.lastPathComponent, sceneData: data, threeJS: threeJS), to: page)
    return page
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
