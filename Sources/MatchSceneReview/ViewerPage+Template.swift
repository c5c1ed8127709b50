extension ViewerPage {
  /// The page. `__THREE_SCRIPTS__` loads three.js and calls `matchsceneStart(THREE)`; the code uses only the
  /// API shared by three.js r111 and r160 (no `outputColorSpace`, no `three/addons` in the main script).
  /// When three.js does not load, the page says where it looked and how to fix it.
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
      #overlay { position: absolute; top: 8px; right: 8px; width: 320px; max-height: 60%; overflow: auto; background: rgba(0,0,0,.55); padding: 8px; border-radius: 6px; }
      #score { font-size: 20px; font-weight: 600; margin-bottom: 2px; }
      #score:empty { display: none; }
      #overlay:has(> #score:empty):has(> #games:empty):has(> #events:empty) { display: none; }
      #games { opacity: .8; margin-bottom: 6px; }
      #errors { position: absolute; top: 8px; left: 8px; margin: 0; color: #ff7070; white-space: pre-wrap; max-width: 50%; }
      #errors:empty { display: none; }
      #nothree { position: absolute; top: 30%; left: 10%; right: 10%; padding: 16px 20px; background: #402020; border: 1px solid #ff7070; border-radius: 8px; font-size: 16px; line-height: 1.5; }
      #nothree code { background: rgba(255,255,255,.1); padding: 1px 4px; }
      .event { opacity: .55; } .event.now { opacity: 1; color: #ffcc66; }
      .label { position: absolute; transform: translate(-50%, -100%); padding: 1px 6px; border-radius: 4px; background: rgba(0,0,0,.6); font-size: 13px; pointer-events: none; white-space: nowrap; }
      button, select { font: inherit; }
    </style>
    </head>
    <body>
    <pre id="errors"></pre>
    <pre id="warnings" hidden></pre>
    <pre id="status" hidden>loading</pre>
    <div id="nothree" hidden></div>
    <div id="labels"></div>
    <div id="overlay"><div id="score">–</div><div id="games"></div><div id="events"></div></div>
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
      window.addEventListener("error", (e) => { if (e.message) report("error: " + e.message + (e.filename ? " (" + e.filename + ":" + e.lineno + ")" : "")); });
      window.addEventListener("unhandledrejection", (e) => report("error: " + (e.reason && e.reason.message || e.reason)));
      const consoleError = console.error.bind(console);
      console.error = function () { report("console.error: " + Array.from(arguments).map(String).join(" ")); consoleError.apply(null, arguments); };
      const consoleWarn = console.warn.bind(console);
      console.warn = function () {
        document.getElementById("warnings").textContent += Array.from(arguments).map(String).join(" ") + "\n";
        consoleWarn.apply(null, arguments);
      };
    })();

    const MATCHSCENE_SOURCE = __SCENE__;
    const MATCHSCENE_EVENTS = __EVENTS__;
    const MATCHSCENE_THREE = __THREE_NAME__;
    let matchsceneStarted = false;
    const matchsceneMissingFiles = [];
    /// A three.js script did not load: remember it; the page says so once everything has been tried.
    function matchsceneMissing(url) { matchsceneMissingFiles.push(url); }
    window.addEventListener("load", () => {
      if (matchsceneStarted) return;
      const box = document.getElementById("nothree");
      box.hidden = false;
      box.innerHTML = "<b>Three.js could not be loaded</b>, so the scene cannot be shown.<br>" +
        "Looked in: <code></code><br>" +
        "Offline, or opened from a folder without three.js? Write the page with a local copy, which is put next to it:<br>" +
        "<code>apt-get install libjs-three</code> then <code>matchscene view scene.glb --three /usr/share/javascript/three</code><br>" +
        "(or pass a three.js release up to r147; online, the default loads three.js from a CDN).";
      box.querySelector("code").textContent = MATCHSCENE_THREE + (matchsceneMissingFiles.length ? " (missing: " + matchsceneMissingFiles.join(", ") + ")" : "");
      document.getElementById("status").textContent = "no three.js";
      document.getElementById("score").textContent = "Three.js could not be loaded";
    });
    __BIND_TRACKS__
    __PLACE_ORBIT__

    function matchsceneStart(THREE) {
      matchsceneStarted = true;
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
      orbit.position.set(5, 4, 5);
      const controls = new THREE.OrbitControls(orbit, renderer.domElement);
      controls.target.set(0, 0.8, 0);
      // Keep the orbit above the floor (glTF is y-up; the floor is y = 0).
      controls.maxPolarAngle = 0.47 * Math.PI;
      controls.update();
      let active = orbit, mixer = null, action = null, clips = [], playing = true, extras = {}, clipExtras = {};
      let events = [], people = [];
      const cameras = [], hidden = new Set();
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

      /// Seconds since match frame 0 at clip time `t` (`extras.firstFrame` of the clip, else of the scene).
      function matchTime(t) {
        const fps = extras.fps || 50;
        const own = clipExtras[action ? action.getClip().name : ""] || {};
        const startFrame = own.firstFrame !== undefined ? own.firstFrame : (extras.firstFrame || 0);
        return startFrame / fps + (t === undefined ? (action ? action.time : 0) : t);
      }

      // Players by name where match.toml's [players] gives one (P1 = "Ana"), else by id.
      const label = (id) => { const names = extras.players || {}; return names[id] ? `${names[id]} (${id})` : id; };
      const escape = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      const number = (x) => Number.isInteger(x) ? String(x) : Number(x).toFixed(2);
      /// The fields of an event worth reading, after its time and kind: who, where, why.
      function details(e) {
        const parts = [];
        if (e.track) parts.push(label(e.track));
        if (e.hand) parts.push(e.hand + " hand");
        if (e.joint) parts.push(e.joint);
        if (e.zone) parts.push((e.type === "zone_exit" ? "left " : e.type === "zone_enter" ? "into " : "") + e.zone);
        if (e.surface) parts.push(e.surface);
        if (e.side) parts.push(e.side);
        if (e.reason) parts.push(e.reason.replace(/_/g, " "));
        if (e.score) parts.push(Object.keys(e.score).sort().map((k) => e.score[k]).join("–"));
        if (e.server) parts.push("serve " + label(e.server));
        if (e.speed !== undefined && e.speed !== null) parts.push(number(e.speed) + " m/s");
        if (e.duration !== undefined && e.duration !== null) parts.push(number(e.duration) + " s");
        if (e.rally) parts.push("rally " + e.rally);
        return parts.join(" · ");
      }

      /// Events within 2 s of match time `now`; the score after the latest `point` at or before it
      /// (points and games per player, who serves), else the latest `extras.score` entry.
      function overlay(now) {
        const near = events.filter((e) => Math.abs(e.time - now) < 2).slice(0, 14);
        $("events").innerHTML = near.map((e) =>
          `<div class="event ${e.type} ${Math.abs(e.time - now) < 0.1 ? "now" : ""}">${Number(e.time).toFixed(2)} s ${escape(e.type)}` +
          `${details(e) ? " · " + escape(details(e)) : ""}</div>`).join("");
        const points = events.filter((e) => e.type === "point" && e.time <= now);
        const point = points[points.length - 1];
        const scores = (extras.score || []).filter((s) => s.time <= now);
        const last = point || scores[scores.length - 1];
        const names = extras.players || {};
        const ids = [...new Set((last && last.score ? Object.keys(last.score) : ["P1", "P2"]).concat(Object.keys(names)))].sort();
        // A match with no point anywhere (a floor sport, a drill) has no score to show.
        const scored = events.some((e) => e.type === "point") || (extras.score || []).length > 0;
        $("score").textContent = !scored ? "" :
          ids.map((k) => `${label(k)} ${last && last.score && last.score[k] !== undefined ? last.score[k] : 0}`).join(" : ");
        const games = point && point.games ? "games " + ids.map((k) => point.games[k] || 0).join(" : ") : "";
        $("games").textContent = [games, point && point.server ? "serve " + label(point.server) : ""].filter(Boolean).join(" · ");
      }

      /// Hides what the address asks to hide and every node scaled to 1e-5 at this frame (a track with
      /// no data there; `MatchSceneGLTF.hiddenScale`, older scenes 0): anything at most 5e-5 is hidden,
      /// every shown scale is at least 1e-4 (`MatchSceneGLTF.hiddenScaleLimit`).
      function updateVisibility(root) {
        root.traverse((o) => {
          if (o === root) return;
          const s = o.scale;
          // A player's skinned body (`P1/body`, which three.js names `P1body`) goes with the player.
          const body = /^(.+?)\/?body$/.exec(o.name);
          const track = body ? body[1] : o.name;
          o.visible = !hidden.has(track) && Math.abs(s.x) > 5e-5 && Math.abs(s.y) > 5e-5 && Math.abs(s.z) > 5e-5;
        });
      }

      /// Puts the orbit camera where it sees the table (the venue without its floor) and the players: from
      /// 35° off the long axis of their box and 28° above the floor, at the distance that fits them.
      function frame(root) {
        root.updateMatrixWorld(true);
        const box = new THREE.Box3(), part = new THREE.Box3(), point = new THREE.Vector3(), scale = new THREE.Vector3();
        root.traverse((o) => {
          const venue = o.isMesh && o.material && /^(table|net|lines|legs|court|posts)$/.test(o.material.name);
          if (venue) box.union(part.setFromObject(o));
          if (!o.userData || o.userData.kind !== "player") return;
          // A person's extent is where its joints are now (a skinned body's bounds are those of its
          // bind pose, which framed a floor sport's whole 40 m floor with the players tiny in it);
          // joints without data now (scaled to 1e-5, or 0 in older scenes) do not count; people hidden by the address do.
          o.traverse((joint) => {
            if (joint.isMesh || joint.getWorldScale(scale).x <= 5e-5) return;
            box.expandByPoint(joint.getWorldPosition(point));
          });
        });
        matchscenePlaceOrbit(box, root, orbit, controls);
      }

      /// Each player's name above their head (the highest keypoint), in the orbit or camera view.
      function drawLabels() {
        const width = renderer.domElement.clientWidth, height = renderer.domElement.clientHeight;
        const p = new THREE.Vector3(), top = new THREE.Vector3();
        for (const person of people) {
          let best = -Infinity;
          person.node.traverse((o) => {
            if (o === person.node || !o.visible || o.children.length) return;
            p.setFromMatrixPosition(o.matrixWorld);
            if (p.y > best) { best = p.y; top.copy(p); }
          });
          const shown = best > -Infinity && person.node.visible;
          if (shown) top.y += 0.25;
          const ndc = top.clone().project(active);
          const inView = shown && ndc.z > -1 && ndc.z < 1 && Math.abs(ndc.x) <= 1 && Math.abs(ndc.y) <= 1;
          person.label.hidden = !inView;
          if (inView) {
            person.label.style.left = `${(ndc.x + 1) / 2 * width}px`;
            person.label.style.top = `${(1 - ndc.y) / 2 * height}px`;
          }
        }
      }

      new THREE.GLTFLoader().load(MATCHSCENE_SOURCE, (gltf) => {
        // The page lights the scene itself: a light from the file (KHR_lights_punctual, in lux for
        // physically based renderers) would wash out three.js r111's non-physical lighting.
        const lights = [];
        gltf.scene.traverse((o) => { if (o.isLight) lights.push(o); });
        lights.forEach((o) => o.parent.remove(o));
        scene.add(gltf.scene);
        const json = (gltf.parser && gltf.parser.json) || {};
        extras = (json.scenes && json.scenes[0] && json.scenes[0].extras) || gltf.scene.userData || {};
        events = (MATCHSCENE_EVENTS || extras.events || []).slice().sort((a, b) => a.time - b.time);
        (json.animations || []).forEach((a) => { if (a.name) clipExtras[a.name] = a.extras || {}; });
        gltf.scene.traverse((o) => { if (o.isCamera) cameras.push(o); });
        cameras.forEach((cam, i) => $("view").appendChild(new Option(cam.name || `camera ${i + 1}`, String(i))));
        gltf.scene.traverse((o) => {
          if (!o.userData || o.userData.kind !== "player") return;
          const names = extras.players || {};
          const div = document.createElement("div");
          div.className = "label";
          div.textContent = names[o.userData.track] || o.userData.track || o.name;
          $("labels").appendChild(div);
          people.push({ node: o, label: div });
        });
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
        // The address may ask for a start state: #clip=rally-01&t=1.5&view=cam_left&paused&hide=P1,P2
        const wanted = new URLSearchParams(location.hash.slice(1));
        if (wanted.has("clip")) choose(wanted.get("clip"));
        if (wanted.has("t")) seek(Number(wanted.get("t")) || 0);
        if (wanted.has("paused")) $("play").onclick();
        (wanted.get("hide") || "").split(",").filter(Boolean).forEach((name) => hidden.add(name));
        updateVisibility(gltf.scene);
        frame(gltf.scene);
        if (wanted.has("view")) {
          const i = cameras.findIndex((c) => c.name === wanted.get("view"));
          if (i >= 0) view(String(i));
        }
        Object.assign(window.matchscene, { ready: true, gltf, mixer, cameras, choose, seek, view, matchTime, orbit, controls });
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
        if (action) { const now = matchTime(); $("clock").textContent = now.toFixed(2) + " s"; overlay(now); }
        if (active === orbit) {
          // Panning must not take the orbit's centre under the floor either.
          if (controls.target.y < 0) controls.target.y = 0;
          controls.update();
        }
        if (window.matchscene.gltf) {
          updateVisibility(window.matchscene.gltf.scene);
          scene.updateMatrixWorld();
          drawLabels();
        }
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
  /// The orbit camera framing `box` (the venue and the players; the whole scene when that is empty),
  /// grown by 0.3 m, from 35° off its long axis and 28° up, at the distance that fits it in the camera's
  /// field of view (both pages, `view` and `open`). Returns `{center, size}`, or null for an empty scene.
  public static let placeOrbitJS = #"""
    function matchscenePlaceOrbit(box, root, orbit, controls) {
      if (!box.isEmpty()) box.expandByScalar(0.3);
      if (box.isEmpty()) box.setFromObject(root);
      if (box.isEmpty()) return null;
      const center = box.getCenter(new THREE.Vector3()), size = box.getSize(new THREE.Vector3());
      const radius = Math.max(0.5, 0.5 * size.length());
      const along = size.x >= size.z ? new THREE.Vector3(1, 0, 0) : new THREE.Vector3(0, 0, 1);
      const across = new THREE.Vector3(0, 1, 0).cross(along);
      const azimuth = 35 * Math.PI / 180, elevation = 28 * Math.PI / 180;
      const direction = along.clone().multiplyScalar(Math.cos(azimuth)).addScaledVector(across, Math.sin(azimuth))
        .multiplyScalar(Math.cos(elevation)).add(new THREE.Vector3(0, Math.sin(elevation), 0));
      const halfFov = 0.5 * orbit.fov * Math.PI / 180;
      const fit = Math.min(Math.tan(halfFov), Math.tan(halfFov) * orbit.aspect);
      const distance = 1.05 * radius / fit;
      controls.target.copy(center);
      orbit.position.copy(center).addScaledVector(direction, distance);
      orbit.near = Math.max(0.01, distance / 200);
      orbit.far = distance * 20 + 100;
      orbit.updateProjectionMatrix();
      controls.maxDistance = distance * 6;
      controls.update();
      return { center, size };
    }
    """#

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
