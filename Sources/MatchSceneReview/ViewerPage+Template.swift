extension ViewerPage {
  /// The page. `__THREE_SCRIPTS__` loads three.js and calls `matchsceneStart(THREE)`; the code uses only the
  /// API shared by three.js r111 and r160 (no `outputColorSpace`, no `three/addons` in the main script).
  static let template = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>MatchScene — __TITLE__</title>
    <style>
      html, body { margin: 0; height: 100%; overflow: hidden; background: #20242a; color: #eee; font: 14px system-ui, sans-serif; }
      canvas { display: block; }
      #bar { position: absolute; left: 0; right: 0; bottom: 0; display: flex; gap: 8px; align-items: center; padding: 8px; background: rgba(0,0,0,.55); }
      #time { flex: 1; }
      #overlay { position: absolute; top: 8px; right: 8px; width: 300px; max-height: 60%; overflow: auto; background: rgba(0,0,0,.55); padding: 8px; border-radius: 6px; }
      #score { font-size: 22px; font-weight: 600; margin-bottom: 6px; }
      #errors { position: absolute; top: 8px; left: 8px; margin: 0; color: #ff7070; white-space: pre-wrap; max-width: 50%; }
      #errors:empty { display: none; }
      .event { opacity: .55; } .event.now { opacity: 1; color: #ffcc66; }
      button, select { font: inherit; }
    </style>
    </head>
    <body>
    <pre id="errors"></pre>
    <pre id="status" hidden>loading</pre>
    <div id="overlay"><div id="score">–</div><div id="events"></div></div>
    <div id="bar">
      <button id="play">Pause</button>
      <select id="clip"></select>
      <input id="time" type="range" min="0" max="1" step="0.001" value="0">
      <span id="clock">0.00 s</span>
      <select id="view"><option value="">Orbit view</option></select>
    </div>
    <script>
    "use strict";
    (function () {
      const report = (text) => { document.getElementById("errors").textContent += text + "\n"; };
      window.addEventListener("error", (e) => report("error: " + e.message + (e.filename ? " (" + e.filename + ":" + e.lineno + ")" : "")));
      window.addEventListener("unhandledrejection", (e) => report("error: " + (e.reason && e.reason.message || e.reason)));
      const consoleError = console.error.bind(console);
      console.error = function () { report("console.error: " + Array.from(arguments).map(String).join(" ")); consoleError.apply(null, arguments); };
    })();

    const MATCHSCENE_SOURCE = __SCENE__;
    __BIND_TRACKS__

    function matchsceneStart(THREE) {
      const $ = (id) => document.getElementById(id);
      const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
      renderer.setPixelRatio(window.devicePixelRatio || 1);
      renderer.setSize(innerWidth, innerHeight);
      document.body.insertBefore(renderer.domElement, document.body.firstChild);
      // glTF colours are linear: r152+ write sRGB by default (`outputColorSpace`); older releases need
      // `outputEncoding` (r112+) or `gammaOutput` (r111) set.
      if (!("outputColorSpace" in renderer)) {
        if ("outputEncoding" in renderer && THREE.sRGBEncoding !== undefined) renderer.outputEncoding = THREE.sRGBEncoding;
        renderer.gammaOutput = true;
        renderer.gammaFactor = 2.2;
      }
      // Light units: r155+ no longer scale punctual lights by π (`useLegacyLights` off).
      const lightScale = Number(THREE.REVISION) >= 155 ? Math.PI : 1;
      const scene = new THREE.Scene();
      scene.background = new THREE.Color(0x20242a);
      scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 0.8 * lightScale));
      const sun = new THREE.DirectionalLight(0xffffff, 0.7 * lightScale);
      sun.position.set(3, 8, 4);
      scene.add(sun);
      const orbit = new THREE.PerspectiveCamera(45, innerWidth / innerHeight, 0.05, 200);
      orbit.position.set(0, 5, 7);
      const controls = new THREE.OrbitControls(orbit, renderer.domElement);
      controls.target.set(0, 0.8, 0);
      controls.update();
      let active = orbit, mixer = null, action = null, clips = [], playing = true, extras = {}, clipExtras = {};
      const cameras = [];
      window.matchscene = { ready: false, THREE, scene, renderer };

      function choose(name) {
        const clip = clips.find((c) => c.name === name);
        if (!clip || !mixer) return;
        mixer.stopAllAction();
        action = mixer.clipAction(clip);
        action.play();
        $("clip").value = name;
        $("time").max = String(clip.duration);
        seek(0);
      }
      function seek(t) {
        if (!action) return;
        action.time = t;
        mixer.update(0);
        $("time").value = String(t);
      }
      function view(i) {
        active = i === "" || i === null || i === undefined ? orbit : cameras[Number(i)];
        if (!active) active = orbit;
        controls.enabled = active === orbit;
        $("view").value = active === orbit ? "" : String(i);
        resize();
      }
      function resize() {
        renderer.setSize(innerWidth, innerHeight);
        for (const cam of [orbit, active]) {
          if (cam.isPerspectiveCamera) { cam.aspect = innerWidth / innerHeight; cam.updateProjectionMatrix(); }
        }
      }

      /// Events within 2 s of the current match time, and the latest score at or before it.
      function overlay(t) {
        // Players by name where match.toml's [players] gives one (P1 = "Ana"), else by id.
        const names = extras.players || {};
        const label = (id) => names[id] ? `${names[id]} (${id})` : id;
        const fps = extras.fps || 50;
        const own = clipExtras[action ? action.getClip().name : ""] || {};
        const startFrame = own.firstFrame !== undefined ? own.firstFrame : (extras.firstFrame || 0);
        const matchTime = startFrame / fps + t;
        const near = (extras.events || []).filter((e) => Math.abs(e.time - matchTime) < 2).slice(0, 12);
        $("events").innerHTML = near.map((e) =>
          `<div class="event ${Math.abs(e.time - matchTime) < 0.1 ? "now" : ""}">${Number(e.time).toFixed(2)} s ${e.type}` +
          `${e.track ? " " + label(e.track) : ""}${e.surface ? " " + e.surface : ""}${e.side ? " " + e.side : ""}</div>`).join("");
        const scores = (extras.score || []).filter((s) => s.time <= matchTime);
        const last = scores[scores.length - 1];
        const ids = [...new Set((last && last.score ? Object.keys(last.score) : ["P1", "P2"]).concat(Object.keys(names)))].sort();
        $("score").textContent = ids.map((k) => `${label(k)} ${last && last.score ? last.score[k] : 0}`).join(" : ");
      }

      new THREE.GLTFLoader().load(MATCHSCENE_SOURCE, (gltf) => {
        scene.add(gltf.scene);
        const json = (gltf.parser && gltf.parser.json) || {};
        extras = (json.scenes && json.scenes[0] && json.scenes[0].extras) || gltf.scene.userData || {};
        (json.animations || []).forEach((a) => { if (a.name) clipExtras[a.name] = a.extras || {}; });
        gltf.scene.traverse((o) => { if (o.isCamera) cameras.push(o); });
        cameras.forEach((cam, i) => $("view").appendChild(new Option(cam.name || `camera ${i + 1}`, String(i))));
        mixer = new THREE.AnimationMixer(gltf.scene);
        clips = gltf.animations || [];
        matchsceneBindTracksByNode(gltf, () => finish(gltf));
      }, undefined, (error) => {
        console.error("Could not load the scene:", error && error.message || error);
        $("score").textContent = "Could not load the scene";
        $("status").textContent = "failed";
      });

      function finish(gltf) {
        for (const clip of clips) $("clip").appendChild(new Option(`${clip.name} (${clip.duration.toFixed(1)} s)`, clip.name));
        if (clips.length) choose(clips[0].name);
        // The address may ask for a start state: #clip=rally-01&t=1.5&view=cam_left&paused
        const wanted = new URLSearchParams(location.hash.slice(1));
        if (wanted.has("clip")) choose(wanted.get("clip"));
        if (wanted.has("t")) seek(Number(wanted.get("t")) || 0);
        if (wanted.has("paused")) $("play").onclick();
        if (wanted.has("view")) {
          const i = cameras.findIndex((c) => c.name === wanted.get("view"));
          if (i >= 0) view(String(i));
        }
        Object.assign(window.matchscene, { ready: true, gltf, mixer, cameras, choose, seek, view });
        $("status").textContent = "ready";
      }

      $("view").onchange = () => view($("view").value);
      $("clip").onchange = () => choose($("clip").value);
      $("play").onclick = () => { playing = !playing; $("play").textContent = playing ? "Pause" : "Play"; };
      $("time").oninput = () => seek(Number($("time").value));
      addEventListener("resize", resize);
      const clock = new THREE.Clock();
      renderer.setAnimationLoop(() => {
        const dt = clock.getDelta();
        if (mixer && action && playing) { mixer.update(dt); $("time").value = String(action.time); }
        if (action) { $("clock").textContent = action.time.toFixed(2) + " s"; overlay(action.time); }
        if (active === orbit) controls.update();
        renderer.render(scene, active);
      });
    }
    </script>
    __THREE_SCRIPTS__
    </body>
    </html>
    """#
}

extension ViewerPage {
  /// JavaScript defining `matchsceneBindTracksByNode(gltf, done)`: renames every animation track of
  /// `gltf.animations` to target its node by `uuid` instead of by name, then calls `done()`.
  ///
  /// Workaround: three.js before r118 (Debian's r111 among them) names tracks after the node and binds a
  /// name to the first node carrying it, but every player's keypoints share names (`P1/right_wrist`,
  /// `P2/right_wrist`), so the players' tracks would be averaged onto one node. Newer releases give nodes
  /// unique names, and this only renames tracks when a node's name is shared. Remove once r111 is gone.
  /// Track k is channel k of the same glTF animation (one track per translation/rotation/scale channel);
  /// an animation whose track count differs is left alone.
  public static let bindTracksByNodeJS = #"""
    function matchsceneBindTracksByNode(gltf, done) {
      const json = gltf.parser && gltf.parser.json;
      if (!json || !json.animations || !gltf.animations) { done(); return; }
      const counts = {};
      gltf.scene.traverse((o) => { if (o.name) counts[o.name] = (counts[o.name] || 0) + 1; });
      const inScene = (o) => { for (let p = o; p; p = p.parent) if (p === gltf.scene) return true; return false; };
      const jobs = [];
      gltf.animations.forEach((clip, a) => {
        const channels = (json.animations[a] || {}).channels || [];
        if (channels.length !== clip.tracks.length) return;
        clip.tracks.forEach((track, k) => {
          const dot = track.name.lastIndexOf(".");
          const target = track.name.slice(0, dot);
          if (!(counts[target] > 1) || channels[k].target.node === undefined) return;
          jobs.push(gltf.parser.getDependency("node", channels[k].target.node).then((node) => {
            if (inScene(node)) track.name = node.uuid + track.name.slice(dot);
          }));
        });
      });
      Promise.all(jobs).then(done, (error) => { console.error("Could not bind the animation:", error); done(); });
    }
    """#
}
