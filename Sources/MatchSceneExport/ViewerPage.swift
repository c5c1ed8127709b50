import Foundation
import MatchSceneCore

/// Where the viewer page loads Three.js from.
public enum ThreeJSSource: Sendable, Equatable {
  /// A CDN serving three.js ES modules: `<base>/build/three.module.js` and `<base>/examples/jsm/…`.
  case cdn(String)
  /// A local folder holding the same layout (e.g. an unpacked three.js release), for offline use.
  case folder(String)

  /// three.js r160 from a public CDN.
  public static let defaultCDN = ThreeJSSource.cdn("https://unpkg.com/three@0.160.0")

  var base: String {
    switch self {
    case .cdn(let url): url.hasSuffix("/") ? String(url.dropLast()) : url
    case .folder(let path): URL(fileURLWithPath: path).absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }
  }
}

/// A self-contained HTML viewer for a MatchScene glTF file: orbit controls, play/pause, a timeline to
/// scrub, a clip (rally) picker, any calibrated camera's view, and the events and score kept in the
/// scene's `extras`. Three.js (ES modules, r150 or later) comes from a CDN or a local folder.
public enum ViewerPage {
  /// - Parameters:
  ///   - sceneFileName: the .glb next to the page (used when `sceneData` is nil).
  ///   - sceneData: the GLB bytes to embed (base64), so the page also works from file://, where
  ///     browsers refuse to fetch neighbouring files.
  public static func render(sceneFileName: String, sceneData: Data? = nil, threeJS: ThreeJSSource = .defaultCDN) -> String {
    let source = sceneData.map { "data:model/gltf-binary;base64,\($0.base64EncodedString())" } ?? sceneFileName
    let base = threeJS.base
    return template
      .replacingOccurrences(of: "__THREE__", with: base)
      .replacingOccurrences(of: "__TITLE__", with: sceneFileName)
      .replacingOccurrences(of: "__SCENE__", with: source)
  }

  /// Writes `<name>.html` next to `scene` (embedding the scene when `embed`); returns the page's URL.
  @discardableResult
  public static func write(for scene: URL, embed: Bool = true, threeJS: ThreeJSSource = .defaultCDN) throws -> URL {
    let page = scene.deletingPathExtension().appendingPathExtension("html")
    let data = embed ? try Data(contentsOf: scene) : nil
    try AtomicFile.write(render(sceneFileName: scene.lastPathComponent, sceneData: data, threeJS: threeJS), to: page)
    return page
  }

  static let template = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>MatchScene — __TITLE__</title>
    <style>
      html, body { margin: 0; height: 100%; overflow: hidden; background: #20242a; color: #eee; font: 14px system-ui, sans-serif; }
      #bar { position: absolute; left: 0; right: 0; bottom: 0; display: flex; gap: 8px; align-items: center; padding: 8px; background: rgba(0,0,0,.55); }
      #time { flex: 1; }
      #overlay { position: absolute; top: 8px; right: 8px; width: 300px; max-height: 60%; overflow: auto; background: rgba(0,0,0,.55); padding: 8px; border-radius: 6px; }
      #score { font-size: 22px; font-weight: 600; margin-bottom: 6px; }
      .event { opacity: .55; } .event.now { opacity: 1; color: #ffcc66; }
      button, select { font: inherit; }
    </style>
    <script type="importmap">
    { "imports": { "three": "__THREE__/build/three.module.js", "three/addons/": "__THREE__/examples/jsm/" } }
    </script>
    </head>
    <body>
    <div id="overlay"><div id="score">–</div><div id="events"></div></div>
    <div id="bar">
      <button id="play">Pause</button>
      <select id="clip"></select>
      <input id="time" type="range" min="0" max="1" step="0.001" value="0">
      <span id="clock">0.00 s</span>
      <select id="view"><option value="">Orbit view</option></select>
    </div>
    <script type="module">
    import * as THREE from "three";
    import { OrbitControls } from "three/addons/controls/OrbitControls.js";
    import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";

    const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    renderer.setPixelRatio(window.devicePixelRatio);
    renderer.setSize(innerWidth, innerHeight);
    document.body.prepend(renderer.domElement);
    const scene = new THREE.Scene();
    scene.background = new THREE.Color(0x20242a);
    scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    const sun = new THREE.DirectionalLight(0xffffff, 1.5); sun.position.set(3, 8, 4); scene.add(sun);
    const orbit = new THREE.PerspectiveCamera(45, innerWidth / innerHeight, 0.05, 200);
    orbit.position.set(0, 5, 7);
    const controls = new OrbitControls(orbit, renderer.domElement);
    controls.target.set(0, 0.8, 0);
    let active = orbit, mixer = null, action = null, clips = [], playing = true, extras = {};
    const $ = (id) => document.getElementById(id);
    window.matchscene = { ready: false };

    new GLTFLoader().load("__SCENE__", (gltf) => {
      scene.add(gltf.scene);
      extras = (gltf.parser && gltf.parser.json.scenes && gltf.parser.json.scenes[0].extras) || gltf.scene.userData || {};
      mixer = new THREE.AnimationMixer(gltf.scene);
      clips = gltf.animations;
      for (const clip of clips) $("clip").add(new Option(`${clip.name} (${clip.duration.toFixed(1)} s)`, clip.name));
      gltf.cameras.forEach((cam, i) => $("view").add(new Option(cam.name || `camera ${i + 1}`, String(i))));
      $("view").onchange = () => {
        const i = $("view").value;
        active = i === "" ? orbit : gltf.cameras[Number(i)];
        controls.enabled = active === orbit;
        resize();
      };
      $("clip").onchange = () => choose($("clip").value);
      if (clips.length) choose(clips[0].name);
      window.matchscene = { ready: true, gltf, mixer, THREE, scene, renderer, choose, seek };
    }, undefined, (error) => { console.error(error); $("score").textContent = "Could not load the scene: " + error; });

    function choose(name) {
      const clip = clips.find((c) => c.name === name);
      if (!clip || !mixer) return;
      mixer.stopAllAction();
      action = mixer.clipAction(clip); action.play();
      $("time").max = String(clip.duration);
    }
    function seek(t) { if (action) { action.time = t; mixer.update(0); } }
    $("play").onclick = () => { playing = !playing; $("play").textContent = playing ? "Pause" : "Play"; };
    $("time").oninput = () => { seek(Number($("time").value)); };

    /// Events and score near the current match time (the clip's frames carry their match frame in extras).
    function overlay(t) {
      const fps = extras.fps || 60, first = extras.firstFrame || 0;
      const clipExtras = action && action.getClip().userData;
      const startFrame = (clipExtras && clipExtras.firstFrame) || first;
      const matchTime = startFrame / fps + t;
      const events = extras.events || [];
      const near = events.filter((e) => Math.abs(e.time - matchTime) < 2).slice(0, 12);
      $("events").innerHTML = near.map((e) =>
        `<div class="event ${Math.abs(e.time - matchTime) < 0.1 ? "now" : ""}">${e.time.toFixed(2)} s ${e.type}` +
        `${e.track ? " " + e.track : ""}${e.surface ? " " + e.surface : ""}${e.side ? " " + e.side : ""}</div>`).join("");
      const scores = (extras.score || []).filter((s) => s.time <= matchTime);
      const last = scores[scores.length - 1];
      $("score").textContent = last ? Object.entries(last.score).map(([k, v]) => `${k} ${v}`).join(" : ") : "0 : 0";
    }

    function resize() {
      renderer.setSize(innerWidth, innerHeight);
      for (const cam of [orbit, active]) { if (cam.isPerspectiveCamera) { cam.aspect = innerWidth / innerHeight; cam.updateProjectionMatrix(); } }
    }
    addEventListener("resize", resize);
    const clock = new THREE.Clock();
    renderer.setAnimationLoop(() => {
      const dt = clock.getDelta();
      if (mixer && action && playing) { mixer.update(dt); $("time").value = String(action.time); }
      if (action) { $("clock").textContent = action.time.toFixed(2) + " s"; overlay(action.time); }
      controls.update();
      renderer.render(scene, active);
    });
    </script>
    </body>
    </html>
    """#
}
