extension ReviewApp {
  /// The app's script. Without three.js the timeline and the strokes still work (`review`);
  /// `matchsceneStart(THREE)` adds the 3D view. Uses only the three.js API shared by r111 and r160.
  ///
  /// The events listed are those at or before the clock; bodies are built from the keypoints each frame
  /// (capsule limbs, a tapered trunk, neck, head, hands and feet); the ball's trail is sampled from its own
  /// animation track over the last 0.4 s; a camera view keeps the camera's aspect, letterboxed.
  /// `<pre id="state">` holds the state as JSON for tests (clock, bodies drawn, events shown, strokes listed).
  static let script = #"""
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

    const MATCHSCENE_THREE = __THREE_NAME__;
    let matchsceneStarted = false;
    const matchsceneMissingFiles = [];
    /// A three.js script did not load: remember it; the page says so once everything has been tried.
    function matchsceneMissing(url) { matchsceneMissingFiles.push(url); }
    /// The data file did not load (moved without its review/ folder).
    function matchsceneNoData(url) { console.error("Could not load the match data " + url + " (keep the review/ folder next to index.html)"); }

    /// The match story and the strokes, which need no three.js: built as soon as the data is there.
    const review = (function () {
      const data = window.MATCHSCENE_REVIEW || { events: [], strokes: [], references: {}, angles: [], phases: [], players: {}, notes: [], fps: 50 };
      const $ = (id) => document.getElementById(id);
      const players = data.players || {};
      const name = (id) => players[id] || id;
      const escape = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
      const fixed = (x, d) => Number(x).toFixed(d === undefined ? 1 : d);
      const events = (data.events || []).slice().sort((a, b) => a.time - b.time);
      const strokes = (data.strokes || []).map((s, i) => Object.assign({ id: i }, s));
      const state = { now: 0, seek: null, loopStroke: null, lastShown: -2, selected: null };

      // Which end each player plays from, per rally: score.json's `ends` after each point; P1 starts at −x.
      const ends = {};
      const scorePoints = (data.score && data.score.points) || [];
      function endsFor(rally) {
        let current = { P1: "negative_x", P2: "positive_x" };
        for (const p of scorePoints) if (p.rally < rally && p.ends) current = p.ends;
        return current;
      }
      function halfOwner(rally, side) {
        const e = endsFor(rally || 1);
        const owner = Object.keys(e).find((k) => e[k] === side);
        return owner ? name(owner) + "'s half" : (side === "negative_x" ? "the −x half" : "the +x half");
      }
      /// The stroke of hit `e` (same player, contact within 0.15 s).
      function strokeOf(e) {
        let best = null;
        for (const s of strokes) if (s.track === e.track && Math.abs(s.contact - e.time) < 0.15 && (!best || Math.abs(s.contact - e.time) < Math.abs(best.contact - e.time))) best = s;
        return best;
      }
      const reasons = {
        off_table: (w, l) => `${l} missed the table`,
        net: (w, l) => `${l} put the ball into the net`,
        bad_serve: (w, l) => `${l} served a fault`,
        double_bounce: (w, l) => `the ball bounced twice on ${l}'s side`,
        missed_return: (w, l) => `${l} missed the return`,
        claim: (w, l) => `${w} claimed it`,
      };
      const speed = (e) => e.speed !== undefined && e.speed !== null ? `, ${fixed(e.speed)} m/s` : "";
      const joint = (j) => String(j || "").replace(/_/g, " ");
      /// An event in words: "P2 wins the point: P1 missed the table", "forehand by Ana, 14.2 m/s". Null: not listed.
      function describe(e) {
        switch (e.type) {
          case "hit": {
            const s = strokeOf(e);
            const serve = events.some((o) => o.type === "rally_start" && o.frame === e.frame);
            return `${s ? s.kind : serve ? "serve" : "hit"} by ${name(e.track)}${speed(e)}`;
          }
          case "bounce":
            // The dead ball's bounces after a rally is decided (no rally) are not part of the story.
            if (e.rally === undefined || e.rally === null) return null;
            if (e.surface === "floor") return "the ball hits the floor";
            return `bounce on ${e.side ? halfOwner(e.rally, e.side) : "the table"}${speed(e)}`;
          case "net": return "the ball touches the net";
          case "rally_start": return null;
          case "rally_end": return events.some((o) => o.type === "point" && o.rally === e.rally) ? null : "the rally ends";
          case "point": {
            const ids = Object.keys(e.score || {});
            const loser = ids.find((k) => k !== e.track);
            const why = reasons[e.reason] ? reasons[e.reason](name(e.track), loser ? name(loser) : "the other player") : joint(e.reason);
            const score = ids.length ? " — " + scoreText(e).pts : "";
            return e.track ? `${name(e.track)} wins the point: ${why}${score}` : `point not decided (${why})`;
          }
          case "claim": return `${name(e.track)} raises the ${e.hand || ""} hand to claim the point${e.duration ? ` (${fixed(e.duration)} s)` : ""}`;
          case "zone_enter": return `${name(e.track)}'s ${joint(e.joint)} enters ${joint(e.zone)}${speed(e)}`;
          case "zone_exit": return `${name(e.track)}'s ${joint(e.joint)} leaves ${joint(e.zone)}${e.duration ? ` after ${fixed(e.duration)} s` : ""}`;
          case "ball_at_rest": return `the ball is at rest${e.duration ? ` (${fixed(e.duration)} s)` : ""}`;
          default: return joint(e.type) + (e.track ? " · " + name(e.track) : "");
        }
      }
      /// The score before time `t`: the latest point before it (points in the game, games, server).
      function scoreBefore(t, inclusive) {
        let last = null;
        for (const e of events) if (e.type === "point" && (inclusive ? e.time <= t : e.time < t)) last = e;
        return last;
      }
      function scoreText(p) {
        const ids = [...new Set(Object.keys((p && p.score) || {}).concat(Object.keys(players)))].sort();
        if (!ids.length) ids.push("P1", "P2");
        const pts = ids.map((k) => `${name(k)} ${p && p.score && p.score[k] !== undefined ? p.score[k] : 0}`).join(" : ");
        const games = ids.map((k) => (p && p.games && p.games[k]) || 0).join(" : ");
        return { pts, games, server: p && p.server ? name(p.server) : null };
      }

      // The timeline: one header per rally with the score as it stood, then its events; rows appear only
      // once the clock reaches them. Built once the scene is drawn (`buildTimeline`), not before.
      const rows = [];
      let timelineBuilt = false;
      function buildTimeline() {
        if (timelineBuilt) return;
        timelineBuilt = true;
        const notes = (data.notes || []).map((n) => `<div class="note">${escape(n)}</div>`).join("");
        $("notes").innerHTML = notes + (events.length ? "" : `<div class="note">No events (the output has no events.json).</div>`);
        const box = $("timeline");
        for (const e of events) {
          if (e.type === "rally_start") {
            const s = scoreText(scoreBefore(e.time));
            const head = document.createElement("div");
            head.className = "rally";
            head.innerHTML = `Rally ${escape(e.rally)} <small>· ${escape(s.pts)} · games ${escape(s.games)} · ${escape(name(e.track))} serves</small>`;
            head.onclick = () => state.seek && state.seek(e.time, "rally", e.rally);
            box.appendChild(head);
            rows.push({ time: e.time, el: head, event: e });
          }
          const text = describe(e);
          if (text === null) continue;
          const row = document.createElement("div");
          row.className = "ev " + e.type;
          row.innerHTML = `<span class="t">${fixed(e.time, 2)} s</span><span>${escape(text)}</span>`;
          row.title = "go to " + fixed(e.time, 2) + " s";
          row.onclick = () => state.seek && state.seek(e.time);
          box.appendChild(row);
          rows.push({ time: e.time, el: row, event: e });
        }
        rows.forEach((r) => { r.el.hidden = true; });
        state.lastShown = -2;
        showUntil(state.now);
      }

      /// Shows the events at or before match time `now` (never one still to come), the latest marked.
      function showUntil(now) {
        state.now = now;
        if (!timelineBuilt) return;
        // Rows are in time order: the shown ones are a prefix.
        let lo = 0, hi = rows.length;
        while (lo < hi) { const mid = (lo + hi) >> 1; if (rows[mid].time <= now + 1e-9) lo = mid + 1; else hi = mid; }
        const last = lo - 1;
        if (last === state.lastShown) return;
        for (let i = 0; i < rows.length; i++) {
          rows[i].el.hidden = i > last;
          rows[i].el.classList.toggle("latest", i === last);
        }
        if (last > state.lastShown && last >= 0) rows[last].el.scrollIntoView({ block: "nearest" });
        state.lastShown = last;
        const p = scoreBefore(now, true);
        const scored = events.some((e) => e.type === "point");
        if (scored) {
          const s = scoreText(p);
          $("scoreline").innerHTML = `${escape(s.pts)}<small>games ${escape(s.games)}${s.server ? " · serve " + escape(s.server) : ""}</small>`;
        }
      }

      // Strokes: filter by player, kind and score; sorted by score; one selected shows its card and curves.
      const angles = data.angles || [];
      let scales = null;
      /// Each angle's scale over every stroke and reference, computed when the first plot is drawn.
      function sharedScales() {
        scales = {};
        for (const a of angles) {
          let lo = Infinity, hi = -Infinity;
          const take = (v) => { for (const x of v || []) { if (x < lo) lo = x; if (x > hi) hi = x; } };
          for (const s of strokes) take(s.curves[a.key]);
          for (const key of Object.keys(data.references || {})) {
            const r = data.references[key];
            const c = r.curves[a.key], sp = (r.spread || {})[a.key];
            if (!c) continue;
            take(c.map((x, k) => x + bandAt(sp, k)));
            take(c.map((x, k) => x - bandAt(sp, k)));
          }
          if (!(hi > lo)) { lo = 0; hi = 90; }
          const step = niceStep((hi - lo) / 5);
          scales[a.key] = { lo: Math.floor(lo / step) * step, hi: Math.ceil(hi / step) * step, step };
        }
      }
      function niceStep(raw) {
        for (const s of [1, 2, 5, 10, 15, 20, 30, 45, 60, 90]) if (raw <= s) return s;
        return 180;
      }
      /// The reference's band half-width at sample k: its spread in that sample's phase (3° when unknown).
      function bandAt(spread, k) {
        const phases = data.phases || [];
        const i = phases.findIndex((p) => k >= p.first && k <= p.last);
        const v = spread && i >= 0 ? spread[i] : null;
        return v !== null && v !== undefined && isFinite(v) ? Math.max(v, 0.5) : 3;
      }
      const grade = (x) => x >= 80 ? "good" : x >= 60 ? "fair" : "poor";

      (function buildFilters() {
        $("strokeCount").textContent = String(strokes.length);
        for (const id of [...new Set(strokes.map((s) => s.track))].sort()) $("fPlayer").appendChild(new Option(name(id) + (players[id] ? ` (${id})` : ""), id));
        for (const k of [...new Set(strokes.map((s) => s.kind))].sort()) $("fKind").appendChild(new Option(k, k));
        for (const id of ["fPlayer", "fKind", "fMin", "fMax", "fSort"]) $(id).oninput = $(id).onchange = listStrokes;
      })();
      function listStrokes() {
        const player = $("fPlayer").value, kind = $("fKind").value, sort = $("fSort").value;
        const min = Number($("fMin").value) || 0, max = $("fMax").value === "" ? 100 : Number($("fMax").value);
        const shown = strokes.filter((s) => (!player || s.track === player) && (!kind || s.kind === kind) && s.score >= min && s.score <= max);
        shown.sort((a, b) => sort === "time" ? a.contact - b.contact : sort === "desc" ? b.score - a.score : a.score - b.score);
        $("fCount").textContent = `${shown.length} of ${strokes.length}`;
        $("strokeList").innerHTML = shown.map((s) =>
          `<div class="stroke${state.selected === s.id ? " on" : ""}" data-id="${s.id}"><span class="sc ${grade(s.score)}">${fixed(s.score, 0)}</span>` +
          `<span>${escape(name(s.track))} · ${escape(s.kind)} ${s.number} · ${fixed(s.contact, 2)} s${s.rally ? " · rally " + s.rally : ""}${s.ballSpeed ? ` · ${fixed(s.ballSpeed)} m/s` : ""}</span>` +
          `<span class="c">${escape(s.comments[0] || "no comment")}</span></div>`).join("");
        for (const el of $("strokeList").querySelectorAll(".stroke")) el.onclick = () => select(Number(el.dataset.id), true);
      }
      /// Shows stroke `id`'s card and curves; `loop`: loop it in the 3D view.
      function select(id, loop) {
        const s = strokes[id];
        if (!s) return;
        state.selected = id;
        for (const el of $("strokeList").querySelectorAll(".stroke")) el.classList.toggle("on", Number(el.dataset.id) === id);
        const ref = (data.references || {})[s.reference] || { curves: {}, spread: {} };
        const facts = [`contact ${fixed(s.contact, 2)} s`, `contact height ${fixed(s.contactHeight, 2)} m`];
        if (s.handSpeed) facts.push(`hand ${fixed(s.handSpeed)} m/s`);
        if (s.ballSpeed) facts.push(`ball ${fixed(s.ballSpeed)} m/s after`);
        $("strokeDetail").innerHTML =
          `<h3><span class="${grade(s.score)}">${fixed(s.score)}</span> / 100 · ${escape(name(s.track))} ${escape(s.kind)} ${s.number} (${escape(s.hand)}-handed)</h3>` +
          `<div>${escape(facts.join(" · "))}; against ${escape(s.referenceName)}</div>` +
          `<ul>${s.comments.length ? s.comments.map((c) => `<li>${escape(c)}</li>`).join("") : "<li>no comment: every joint within its usual range</li>"}</ul>` +
          `<table><tr><th>joint</th><th>weight</th><th>sub-score</th><th>spreads</th><th>largest</th></tr>` +
          s.joints.map((j) => `<tr><td>${escape(joint(j.joint))}</td><td>${fixed(j.weight)}</td><td class="${grade(j.subScore)}">${fixed(j.subScore)}</td><td>${fixed(j.deviation)}</td><td>${fixed(j.largestDegrees)}° ${escape(joint(j.largestPhase))}</td></tr>`).join("") +
          `</table>` + angles.map((a) => plot(a, s.curves[a.key], ref.curves[a.key], (ref.spread || {})[a.key])).join("");
        if (loop && state.loopStroke) state.loopStroke(s);
      }
      /// One angle over the stroke (0–100 %, contact at 50 %) on the angle's shared scale: the reference's
      /// band (± its spread per phase), the reference (dashed) and the stroke.
      function plot(angle, cur, ref, spread) {
        if (!cur) return "";
        const W = 390, H = 150, L = 38, R = 8, T = 16, B = 22;
        if (!scales) sharedScales();
        const sc = scales[angle.key];
        const x = (k) => L + (W - L - R) * k / 100;
        const y = (v) => T + (H - T - B) * (sc.hi - v) / (sc.hi - sc.lo);
        const path = (v) => v.map((p, k) => `${k ? "L" : "M"}${x(k).toFixed(1)},${y(p).toFixed(1)}`).join("");
        let svg = `<svg class="plot" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" data-angle="${escape(angle.key)}">`;
        svg += `<text class="title" x="${L}" y="11">${escape(angle.label)} (°)</text>`;
        for (let v = sc.lo; v <= sc.hi + 1e-9; v += sc.step) {
          svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>`;
          svg += `<text x="${L - 4}" y="${(y(v) + 3).toFixed(1)}" text-anchor="end">${v}°</text>`;
        }
        for (const [k, t] of [[0, "0 %"], [30, "fwd swing"], [50, "contact"], [100, "100 %"]]) {
          svg += `<line class="axis" x1="${x(k)}" x2="${x(k)}" y1="${H - B}" y2="${H - B + 4}"/>`;
          svg += `<text x="${x(k)}" y="${H - 6}" text-anchor="${k === 0 ? "start" : k === 100 ? "end" : "middle"}">${t}</text>`;
        }
        svg += `<line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`;
        if (ref) {
          const up = ref.map((v, k) => v + bandAt(spread, k)), down = ref.map((v, k) => v - bandAt(spread, k));
          svg += `<path class="band" d="${path(up)}${down.map((p, i) => ref.length - 1 - i).map((k) => `L${x(k).toFixed(1)},${y(down[k]).toFixed(1)}`).join("")}Z"/>`;
          svg += `<path class="ref" d="${path(ref)}"/>`;
        }
        svg += `<line class="contact" x1="${x(50)}" x2="${x(50)}" y1="${T}" y2="${H - B}"/>`;
        svg += `<path class="cur" d="${path(cur)}"/></svg>`;
        return svg;
      }
      listStrokes();
      for (const [tab, panel] of [["tabMatch", "match"], ["tabStrokes", "strokes"]]) {
        $(tab).onclick = () => {
          for (const [t, p] of [["tabMatch", "match"], ["tabStrokes", "strokes"]]) { $(t).classList.toggle("on", t === tab); $(p).hidden = p !== panel; }
        };
      }
      return { data, events, strokes, rows, state, showUntil, select, name, listStrokes, buildTimeline };
    })();

    window.addEventListener("load", () => {
      if (matchsceneStarted) return;
      const box = document.getElementById("nothree");
      box.hidden = false;
      box.innerHTML = "<b>Three.js could not be loaded</b>, so the 3D scene cannot be shown (the match story and the strokes still can).<br>" +
        "Looked in: <code></code><br>" +
        "Offline, or opened from a folder without three.js? Write the app with a local copy, which is put next to it:<br>" +
        "<code>apt-get install libjs-three</code> then <code>matchscene open OUT --three /usr/share/javascript/three</code><br>" +
        "(or pass a three.js release up to r147; online, the default loads three.js from a CDN).";
      box.querySelector("code").textContent = MATCHSCENE_THREE + (matchsceneMissingFiles.length ? " (missing: " + matchsceneMissingFiles.join(", ") + ")" : "");
      document.getElementById("status").textContent = "no three.js";
      review.buildTimeline();
      review.showUntil(Infinity);
    });
    __BIND_TRACKS__
    __PLACE_ORBIT__

    function matchsceneStart(THREE) {
      matchsceneStarted = true;
      const $ = (id) => document.getElementById(id);
      const data = review.data;
      const stage = $("stage");
      const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
      renderer.setPixelRatio(window.devicePixelRatio || 1);
      stage.insertBefore(renderer.domElement, stage.firstChild);
      if (!("outputColorSpace" in renderer)) {
        if ("outputEncoding" in renderer && THREE.sRGBEncoding !== undefined) renderer.outputEncoding = THREE.sRGBEncoding;
        renderer.gammaOutput = true;
        renderer.gammaFactor = 2.2;
      }
      // Soft shadows of the players and the ball on the floor and the table (PCF, one 2048² map).
      renderer.shadowMap.enabled = true;
      renderer.shadowMap.type = THREE.PCFSoftShadowMap;
      const lightScale = Number(THREE.REVISION) >= 155 ? Math.PI : 1;
      const background = 0x20242a;
      const scene = new THREE.Scene();
      scene.background = new THREE.Color(background);
      scene.add(new THREE.HemisphereLight(0xffffff, 0x404040, 0.75 * lightScale));
      const sun = new THREE.DirectionalLight(0xffffff, 0.75 * lightScale);
      sun.castShadow = true;
      sun.shadow.mapSize.set(2048, 2048);
      sun.shadow.radius = 3;
      scene.add(sun);
      scene.add(sun.target);
      const orbit = new THREE.PerspectiveCamera(45, 16 / 9, 0.05, 200);
      orbit.position.set(5, 4, 5);
      const controls = new THREE.OrbitControls(orbit, renderer.domElement);
      controls.target.set(0, 0.8, 0);
      controls.maxPolarAngle = 0.47 * Math.PI;
      controls.update();
      // The lit surfaces' one shader (`sharedLook`) is linked now, while the scene loads: without the
      // check of each link right after it, the GPU process compiles it alongside the page's own work and
      // the first frame waits only for what is left.
      renderer.debug.checkShaderErrors = false;
      const white = new THREE.DataTexture(new Uint8Array([255, 255, 255, 255]), 1, 1, THREE.RGBAFormat);
      white.needsUpdate = true;
      (function linkEarly() {
        const warm = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), new THREE.MeshStandardMaterial({ map: white, side: THREE.DoubleSide }));
        warm.castShadow = warm.receiveShadow = true;
        scene.add(warm);
        renderer.compile(scene, orbit);
        scene.remove(warm);
      })();

      let mixer = null, action = null, base = null, offset = 0, duration = 0, fps = data.fps || 50;
      let playing = true, speed = 1, loop = false, range = null, mode = "orbit", camera = null, now = 0, floorY = 0;
      const cameras = [], people = [], hidden = new Set(), trail = [];
      let ball = null, ballTracks = null, followLast = null, motion = null;
      window.matchscene = { ready: false, THREE, scene, renderer };

      /// Seconds of match time ↔ time in the base animation (the whole match).
      const clipTime = (t) => Math.min(duration, Math.max(0, t - offset));
      function setTime(t) {
        now = Math.min(offset + duration, Math.max(offset, t));
        if (action) { action.time = clipTime(now); mixer.update(0); }
        else if (motion) applyMotion(clipTime(now));
        $("time").value = String(now);
      }
      function seek(t, kind, rally) {
        if (kind === "rally" && ranges.some((r) => r.value === "rally:" + rally)) { chooseRange("rally:" + rally); return; }
        // An event outside the rally or stroke being played: back to the whole match.
        if (range && (t < range.start || t > range.end)) chooseRange("");
        setTime(t);
      }
      function setPlaying(on) { playing = on; $("play").textContent = playing ? "Pause" : "Play"; }
      const speeds = [0.1, 0.25, 0.5, 1, 1.5, 2];
      function setSpeed(s) {
        speed = speeds.reduce((a, b) => Math.abs(b - s) < Math.abs(a - s) ? b : a);
        $("speed").value = String(speed);
      }
      /// What plays: "" the whole match, "rally:N" a rally (its clip's frames), or a stroke's span.
      function chooseRange(value, span) {
        if (span) range = span;
        else if (!value) range = null;
        else range = ranges.find((r) => r.value === value) || null;
        $("range").value = range && !span ? range.value : span ? "stroke" : "";
        if (range) { $("time").min = String(range.start); $("time").max = String(range.end); setTime(range.start); }
        else { $("time").min = String(offset); $("time").max = String(offset + duration); }
      }
      const ranges = [];
      function loopStroke(s) {
        const opt = [...$("range").options].find((o) => o.value === "stroke") || $("range").appendChild(new Option("", "stroke"));
        opt.textContent = `${review.name(s.track)} ${s.kind} ${s.number}`;
        chooseRange("stroke", { value: "stroke", start: Math.max(offset, s.start - 0.2), end: Math.min(offset + duration, s.end + 0.2) });
        loop = true; $("loop").checked = true;
        setPlaying(true);
      }
      review.state.seek = seek;
      review.state.loopStroke = loopStroke;

      /// The view: "orbit", "follow" (the orbit's centre follows the ball) or "cam:i" (a calibrated camera).
      function view(v) {
        mode = v && (v === "follow" || /^cam:\d+$/.test(v)) ? v : "orbit";
        camera = mode.startsWith("cam:") ? cameras[Number(mode.slice(4))] || null : null;
        if (mode.startsWith("cam:") && !camera) mode = "orbit";
        controls.enabled = !camera;
        $("view").value = mode;
        followLast = null;
      }
      const active = () => camera || orbit;
      /// The drawing rectangle: the whole stage, or a camera's own aspect letterboxed inside it.
      function viewport() {
        const W = stage.clientWidth, H = stage.clientHeight;
        if (!camera) return { x: 0, y: 0, w: W, h: H, W, H };
        const a = camera.aspect || 16 / 9;
        const w = W / H > a ? H * a : W, h = W / H > a ? H : W / a;
        return { x: (W - w) / 2, y: (H - h) / 2, w, h, W, H };
      }
      function resize() {
        renderer.setSize(stage.clientWidth, stage.clientHeight, false);
        orbit.aspect = stage.clientWidth / Math.max(1, stage.clientHeight);
        orbit.updateProjectionMatrix();
      }

      // Bodies: limbs as capsules, a tapered trunk, a neck and one head, built from the keypoints every
      // frame (the scene's own skinned stick figures are hidden once a body can be built).
      const unitCylinder = new THREE.CylinderGeometry(1, 1, 1, 14, 1, true);
      const trunkGeometry = new THREE.CylinderGeometry(1, 0.82, 1, 20, 1, false);
      const sphere = new THREE.SphereGeometry(1, 18, 12);
      const footGeometry = new THREE.BoxGeometry(1, 1, 1);
      const limbs = [
        ["left_shoulder", "left_elbow", 0.05], ["left_elbow", "left_wrist", 0.04], ["right_shoulder", "right_elbow", 0.05], ["right_elbow", "right_wrist", 0.04],
        ["left_hip", "left_knee", 0.07], ["left_knee", "left_ankle", 0.052], ["right_hip", "right_knee", 0.07], ["right_knee", "right_ankle", 0.052],
      ];
      const balls = [["left_shoulder", 0.058], ["right_shoulder", 0.058], ["left_elbow", 0.045], ["right_elbow", 0.045], ["left_wrist", 0.042], ["right_wrist", 0.042],
        ["left_hip", 0.07], ["right_hip", 0.07], ["left_knee", 0.056], ["right_knee", 0.056], ["left_ankle", 0.048], ["right_ankle", 0.048]];
      const Y = new THREE.Vector3(0, 1, 0);
      function makeBody(person, color, faded) {
        const material = new THREE.MeshStandardMaterial({ color, roughness: 0.65, metalness: 0.05, transparent: faded, opacity: faded ? 0.55 : 1 });
        const skin = new THREE.MeshStandardMaterial({ color: 0xe0b89a, roughness: 0.8, transparent: faded, opacity: faded ? 0.55 : 1 });
        const group = new THREE.Group();
        group.name = person.track + " (review body)";
        const mesh = (geometry, m) => { const o = new THREE.Mesh(geometry, m || material); o.castShadow = true; o.receiveShadow = false; group.add(o); return o; };
        person.parts = {
          limbs: limbs.map(([a, b, r]) => ({ a, b, r, mesh: mesh(unitCylinder) })),
          balls: balls.map(([a, r]) => ({ a, r, mesh: mesh(sphere) })),
          trunk: mesh(trunkGeometry), neck: mesh(unitCylinder, skin), head: mesh(sphere, skin),
          feet: ["left_ankle", "right_ankle"].map((a) => ({ a, mesh: mesh(footGeometry, material) })),
          hands: ["left_wrist", "right_wrist"].map((a) => ({ a, mesh: mesh(sphere, skin) })),
        };
        scene.add(group);
        person.body = group;
      }
      const tmp = { a: new THREE.Vector3(), b: new THREE.Vector3(), c: new THREE.Vector3(), d: new THREE.Vector3(), m: new THREE.Matrix4(), s: new THREE.Vector3() };
      /// Puts `o` (a unit cylinder) between points a and b with radius r.
      function capsule(o, a, b, r) {
        if (!a || !b) { o.visible = false; return; }
        const d = tmp.d.subVectors(b, a), len = d.length();
        if (len < 1e-4) { o.visible = false; return; }
        o.visible = true;
        o.position.addVectors(a, b).multiplyScalar(0.5);
        o.quaternion.setFromUnitVectors(Y, d.divideScalar(len));
        o.scale.set(r, len, r);
      }
      function at(o, p, r) {
        if (!p) { o.visible = false; return; }
        o.visible = true; o.position.copy(p); o.scale.set(r, r, r);
      }
      const mid = (a, b) => a && b ? a.clone().add(b).multiplyScalar(0.5) : null;
      /// The person's keypoints now, in the three.js world (a keypoint without data now is left out).
      function keypoints(person) {
        const out = {};
        for (const [k, node] of Object.entries(person.joints)) {
          if (!node.visible || node.getWorldScale(tmp.s).x <= 5e-5) continue;
          out[k] = node.getWorldPosition(new THREE.Vector3());
        }
        return out;
      }
      function poseBody(person) {
        const show = person.node.visible && !hidden.has(person.track);
        const p = show ? keypoints(person) : {};
        const parts = person.parts;
        const any = Object.keys(p).length > 0;
        person.body.visible = any;
        person.now = p;
        if (!any) return;
        for (const l of parts.limbs) capsule(l.mesh, p[l.a], p[l.b], l.r);
        for (const b of parts.balls) at(b.mesh, p[b.a], b.r);
        const sm = mid(p.left_shoulder, p.right_shoulder), hm = mid(p.left_hip, p.right_hip);
        const ears = mid(p.left_ear, p.right_ear) || mid(p.left_eye, p.right_eye) || p.nose || null;
        const head = ears && p.nose ? ears.clone().lerp(p.nose, 0.3) : ears;
        // Which way the person faces: the nose ahead of the ears, else across the shoulders.
        const right = p.left_shoulder && p.right_shoulder ? tmp.a.subVectors(p.right_shoulder, p.left_shoulder).clone() : new THREE.Vector3(1, 0, 0);
        if (sm && hm) {
          const up = tmp.b.subVectors(sm, hm), len = up.length();
          const width = Math.max(0.1, right.length() * 0.42 + 0.02);
          const t = parts.trunk;
          t.visible = len > 1e-3;
          if (t.visible) {
            up.divideScalar(len);
            const side = right.clone().addScaledVector(up, -right.dot(up)).normalize();
            const forward = new THREE.Vector3().crossVectors(side, up);
            tmp.m.makeBasis(side, up, forward);
            t.quaternion.setFromRotationMatrix(tmp.m);
            t.position.addVectors(sm, hm).multiplyScalar(0.5);
            t.scale.set(width, len + 0.02, 0.1);
          }
        } else parts.trunk.visible = false;
        if (head) {
          at(parts.head, head, 0.105);
          const chin = head.clone().add(new THREE.Vector3(0, -0.09, 0));
          capsule(parts.neck, sm, chin, 0.045);
        } else { parts.head.visible = false; parts.neck.visible = false; }
        const facing = p.nose && ears ? new THREE.Vector3().subVectors(p.nose, ears) : new THREE.Vector3().crossVectors(Y, right);
        facing.y = 0;
        if (facing.lengthSq() < 1e-8) facing.set(1, 0, 0);
        facing.normalize();
        for (const f of parts.feet) {
          const a = p[f.a];
          if (!a) { f.mesh.visible = false; continue; }
          f.mesh.visible = true;
          f.mesh.position.copy(a).addScaledVector(facing, 0.06);
          f.mesh.position.y = Math.max(floorY + 0.03, a.y - 0.05);
          f.mesh.rotation.set(0, Math.atan2(facing.x, facing.z), 0);
          f.mesh.scale.set(0.08, 0.06, 0.2);
        }
        for (const h of parts.hands) {
          const w = p[h.a], e = p[h.a.replace("wrist", "elbow")];
          if (!w) { h.mesh.visible = false; continue; }
          const hand = e ? w.clone().addScaledVector(tmp.c.subVectors(w, e).normalize(), 0.06) : w;
          at(h.mesh, hand, 0.045);
        }
      }

      /// A floor that fades into the background (a radial gradient's alpha), receiving shadows, with a faint
      /// 1 m grid near the middle for scale (drawn into its texture: no shader of its own to compile).
      function makeFloor(center, y, size) {
        const canvas = document.createElement("canvas"), S = 1024;
        canvas.width = canvas.height = S;
        const g = canvas.getContext("2d");
        const grad = g.createRadialGradient(S / 2, S / 2, 0, S / 2, S / 2, S / 2);
        grad.addColorStop(0, "rgba(92,98,108,1)");
        grad.addColorStop(0.45, "rgba(80,86,96,0.95)");
        grad.addColorStop(1, "rgba(80,86,96,0)");
        g.fillStyle = grad;
        g.fillRect(0, 0, S, S);
        const perMetre = S / size, half = Math.floor(Math.min(size * 0.5, 24) / 2);
        g.strokeStyle = "rgba(120,128,140,0.35)";
        g.lineWidth = Math.max(1, perMetre / 20);
        g.beginPath();
        for (let k = -half; k <= half; k++) {
          const at = S / 2 + k * perMetre;
          g.moveTo(at, S / 2 - half * perMetre); g.lineTo(at, S / 2 + half * perMetre);
          g.moveTo(S / 2 - half * perMetre, at); g.lineTo(S / 2 + half * perMetre, at);
        }
        g.stroke();
        const texture = new THREE.CanvasTexture(canvas);
        const floor = new THREE.Mesh(new THREE.PlaneGeometry(size, size), new THREE.MeshStandardMaterial({ map: texture, transparent: true, roughness: 0.95, depthWrite: false }));
        floor.rotation.x = -Math.PI / 2;
        floor.position.set(center.x, y - 0.002, center.z);
        floor.receiveShadow = true;
        floor.renderOrder = -1;
        floor.name = "review floor";
        scene.add(floor);
      }
      /// A glowing, unlit-looking material on the lit surfaces' shader (`sharedLook`): black, emitting `color`.
      const glow = (color, opacity) => new THREE.MeshStandardMaterial({ color: 0x000000, emissive: color, roughness: 1, metalness: 0, transparent: true, opacity, depthWrite: false });

      /// The ball's trail: where it was over the last 0.4 s, fading (sampled from its animation tracks).
      function makeTrail(ballNode) {
        const color = ballNode.material && ballNode.material.color ? ballNode.material.color.clone() : new THREE.Color(1, 0.55, 0);
        ballNode.castShadow = true;
        if (ballNode.material && ballNode.material.emissive) ballNode.material.emissive = color.clone().multiplyScalar(0.5);
        // A halo makes the 40 mm ball visible from across the hall.
        const halo = new THREE.Mesh(new THREE.SphereGeometry(ballRadius(), 12, 8), glow(color, 0.35));
        halo.scale.setScalar(2.2);
        halo.userData.review = true;
        ballNode.add(halo);
        for (let i = 0; i < 24; i++) {
          const m = new THREE.Mesh(sphere, glow(color, 0.55 * (1 - i / 24)));
          m.visible = false;
          m.userData.review = true;
          ballNode.parent.add(m);
          trail.push(m);
        }
      }
      function updateTrail() {
        if (!ballTracks || !ballTracks.position) { trail.forEach((m) => { m.visible = false; }); return; }
        const r = ballRadius();
        for (let i = 0; i < trail.length; i++) {
          const t = clipTime(now) - (i + 1) * 0.4 / trail.length;
          const m = trail[i];
          if (t < 0 || !ball.visible || hidden.has("ball") || hidden.has("trail")) { m.visible = false; continue; }
          const s = ballTracks.scale ? ballTracks.scale.evaluate(t)[0] : 1;
          if (Math.abs(s) <= 5e-5) { m.visible = false; continue; }
          const v = ballTracks.position.evaluate(t);
          m.position.set(v[0], v[1], v[2]);
          m.scale.setScalar(r * (1 - 0.6 * i / trail.length));
          m.visible = true;
        }
      }
      let radius = null;
      function ballRadius() {
        if (radius === null) {
          ball.geometry.computeBoundingSphere();
          radius = ball.geometry.boundingSphere ? ball.geometry.boundingSphere.radius : 0.02;
        }
        return radius;
      }

      /// The motion (`data.motion`): millimetres and "has data" per frame and point, packed in chunks of
      /// frames (`ReviewMotionCodec`), each decoded when first needed (`motionChunk`) or while the page idles.
      function decodeMotion(m) {
        const n = (m.points || []).length;
        return { fps: m.fps, firstFrame: m.firstFrame, frames: m.frames, points: m.points || [], clips: m.clips || [],
          chunkFrames: m.chunkFrames, chunks: m.positionChunks, visibleChunks: m.visibleChunks, decoded: new Uint8Array(m.positionChunks.length),
          positions: new Int16Array(m.frames * n * 3), visible: new Uint8Array(m.frames * n), nodes: [] };
      }
      const base64Bytes = (text) => { const s = atob(text), out = new Uint8Array(s.length); for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i); return out; };
      /// Decodes chunk c of the motion into `motion.positions` and `motion.visible` (once): per point and
      /// axis the second differences as signed nibbles, nibble 8 escaping a whole Int16.
      function motionChunk(c) {
        const M = motion;
        if (M.decoded[c]) return;
        M.decoded[c] = 1;
        const n = M.points.length, f0 = c * M.chunkFrames, count = Math.min(M.chunkFrames, M.frames - f0), P = M.positions;
        const bytes = base64Bytes(M.chunks[c]);
        let q = 0;
        for (let p = 0; p < n; p++) for (let a = 0; a < 3; a++) {
          let x1 = 0, x2 = 0;
          for (let k = 0; k < count; k++) {
            let v = (q & 1 ? bytes[q >> 1] >> 4 : bytes[q >> 1] & 15), x;
            q++;
            if (v === 8) {
              x = 0;
              for (let s = 0; s < 16; s += 4, q++) x |= (q & 1 ? bytes[q >> 1] >> 4 : bytes[q >> 1] & 15) << s;
              if (x >= 32768) x -= 65536;
            } else x = (k === 0 ? 0 : k === 1 ? x1 : 2 * x1 - x2) + (v >= 8 ? v - 16 : v);
            P[((f0 + k) * n + p) * 3 + a] = x;
            x2 = x1; x1 = x;
          }
        }
        const bits = base64Bytes(M.visibleChunks[c]);
        for (let k = 0; k < count * n; k++) M.visible[f0 * n + k] = (bits[k >> 3] >> (k & 7)) & 1;
        M.chunks[c] = M.visibleChunks[c] = null;
      }
      /// Decodes the chunks not yet needed, one per idle moment after the scene is drawn.
      function decodeMotionWhenIdle() {
        if (!motion) return;
        const next = motion.decoded.indexOf(0);
        if (next < 0) return;
        motionChunk(next);
        setTimeout(decodeMotionWhenIdle, 0);
      }
      /// The frame shown at time t of the match's clip (STEP: the frame at or before t), its chunk decoded.
      const motionFrame = (t) => {
        const f = Math.max(0, Math.min(motion.frames - 1, Math.floor(t * motion.fps + 1e-4)));
        motionChunk(Math.floor(f / motion.chunkFrames));
        return f;
      };
      /// Puts every moving point where it is at clip time t; a point without data then is scaled to 1e-5.
      function applyMotion(t) {
        const f = motionFrame(t), n = motion.points.length, P = motion.positions;
        for (let p = 0; p < n; p++) {
          const node = motion.nodes[p];
          if (!node) continue;
          const i = (f * n + p) * 3;
          node.position.set(P[i] / 1000, P[i + 1] / 1000, P[i + 2] / 1000);
          node.scale.setScalar(motion.visible[f * n + p] ? 1 : 1e-5);
        }
      }
      /// The ball's position and scale at clip time t, as the animation's interpolants give them.
      function motionTracks(p) {
        const n = motion.points.length, P = motion.positions;
        return {
          position: { evaluate: (t) => { const i = (motionFrame(t) * n + p) * 3; return [P[i] / 1000, P[i + 1] / 1000, P[i + 2] / 1000]; } },
          scale: { evaluate: (t) => [motion.visible[motionFrame(t) * n + p] ? 1 : 1e-5] },
        };
      }

      /// Hides nodes scaled to 1e-5 at this frame (no data there) and what the address hides.
      function updateVisibility(root) {
        root.traverse((o) => {
          if (o === root || o.userData.review) return;
          const s = o.scale;
          const body = /^(.+?)\/?body$/.exec(o.name);
          const track = body ? body[1] : o.name;
          // With `motion` the scene's skinned stick figures do not move: the bodies replace them.
          const own = !(body && (bodyTracks.has(track) || motion));
          o.visible = own && !hidden.has(track) && Math.abs(s.x) > 5e-5 && Math.abs(s.y) > 5e-5 && Math.abs(s.z) > 5e-5;
        });
      }
      const bodyTracks = new Set();

      /// Frames the table and the players from 35° off the table's long axis, 28° up.
      function frame(root) {
        root.updateMatrixWorld(true);
        const box = new THREE.Box3(), part = new THREE.Box3();
        root.traverse((o) => {
          const venue = o.isMesh && o.material && /^(table|net|lines|legs|court|posts)$/.test(o.material.name);
          if (venue) box.union(part.setFromObject(o));
        });
        for (const person of people) if (person.kind === "player") for (const p of Object.values(keypoints(person))) box.expandByPoint(p);
        return matchscenePlaceOrbit(box, root, orbit, controls) || { center: new THREE.Vector3(), size: new THREE.Vector3(10, 2, 10) };
      }

      /// Each person's name over their head, in whichever view is drawn.
      function drawLabels(rect) {
        const top = new THREE.Vector3();
        // While a stroke loops, its player's label names it.
        const looped = range && range.value === "stroke" ? review.strokes[review.state.selected] : null;
        for (const person of people) {
          const text = person.name + (looped && looped.track === person.track ? ` · ${looped.kind} ${looped.number} · ${looped.score.toFixed(1)}` : "");
          if (person.label.textContent !== text) person.label.textContent = text;
          let best = -Infinity;
          for (const p of Object.values(person.now || {})) if (p.y > best) { best = p.y; top.copy(p); }
          const shown = best > -Infinity && person.body.visible;
          if (shown) top.y += 0.3;
          const ndc = top.clone().project(active());
          const inView = shown && ndc.z > -1 && ndc.z < 1 && Math.abs(ndc.x) <= 1 && Math.abs(ndc.y) <= 1;
          person.label.hidden = !inView;
          if (inView) {
            person.label.style.left = `${rect.x + (ndc.x + 1) / 2 * rect.w}px`;
            person.label.style.top = `${rect.y + (1 - ndc.y) / 2 * rect.h}px`;
          }
        }
      }

      const loader = new THREE.GLTFLoader();
      loader.load(data.scene, (gltf) => {
        const lights = [];
        gltf.scene.traverse((o) => { if (o.isLight) lights.push(o); });
        lights.forEach((o) => o.parent.remove(o));
        scene.add(gltf.scene);
        const json = (gltf.parser && gltf.parser.json) || {};
        const extras = (json.scenes && json.scenes[0] && json.scenes[0].extras) || {};
        if (extras.players) for (const [k, v] of Object.entries(extras.players)) if (!data.players[k]) data.players[k] = v;
        gltf.scene.traverse((o) => { if (o.isCamera) cameras.push(o); });
        cameras.forEach((cam, i) => $("view").appendChild(new Option(`${i < 9 ? i + 1 + ": " : ""}${cam.name || "camera " + (i + 1)}`, "cam:" + i)));
        // The venue casts and receives shadows; its own flat floor gives way to the fading one.
        let floorBox = null;
        gltf.scene.updateMatrixWorld(true);
        gltf.scene.traverse((o) => {
          if (!o.isMesh || o.isSkinnedMesh) return;
          if (o.material && o.material.name === "floor") { floorBox = new THREE.Box3().setFromObject(o); o.userData.review = true; o.visible = false; return; }
          o.castShadow = true; o.receiveShadow = true;
        });
        gltf.scene.traverse((o) => {
          if (o.isMesh && o.name === "ball" || (o.isMesh && o.material && o.material.name === "ball")) ball = ball || o;
          const kind = o.userData && o.userData.kind;
          if (kind !== "player" && kind !== "person") return;
          const track = o.userData.track || o.name;
          const joints = {};
          // Its keypoints: the children that are not limbs (`P1/left_elbow-left_wrist`) or meshes; three.js
          // may have made duplicate names unique (`nose_1`).
          for (const j of o.children) {
            if (j.isMesh || /[\/-]/.test(j.name)) continue;
            const key = j.name.replace(/_\d+$/, "");
            if (!(key in joints)) joints[key] = j;
          }
          const div = document.createElement("div");
          div.className = "label" + (kind === "person" ? " person" : "");
          div.textContent = data.players[track] || extras.players && extras.players[track] || track;
          $("labels").appendChild(div);
          people.push({ node: o, track, kind, joints, label: div, name: div.textContent });
        });
        // Each person's colour: their body's material in the scene.
        for (const person of people) {
          let color = person.kind === "person" ? new THREE.Color(0.6, 0.6, 0.6) : new THREE.Color(0.3, 0.5, 0.9);
          gltf.scene.traverse((o) => { if (o.isSkinnedMesh && o.material && o.material.name === person.track) color = o.material.color.clone(); });
          makeBody(person, color, person.kind === "person");
          if (person.joints.left_shoulder && person.joints.left_hip) bodyTracks.add(person.track);
        }
        mixer = new THREE.AnimationMixer(gltf.scene);
        const clips = data.motion ? [] : gltf.animations || [];
        base = clips.find((c) => c.name === "match") || clips.slice().sort((a, b) => b.duration - a.duration)[0] || null;
        const clipExtras = {};
        (json.animations || []).forEach((a) => { if (a.name) clipExtras[a.name] = a.extras || {}; });
        const own = (base && clipExtras[base.name]) || {};
        fps = own.fps || data.fps || 50;
        offset = (own.firstFrame !== undefined ? own.firstFrame : 0) / fps;
        duration = base ? base.duration : 0;
        for (const clip of clips) {
          if (clip === base) continue;
          const e = clipExtras[clip.name] || {};
          const start = e.firstFrame !== undefined ? e.firstFrame / fps : offset;
          const rally = /(\d+)$/.exec(clip.name);
          ranges.push({ value: rally ? "rally:" + Number(rally[1]) : "clip:" + clip.name, start, end: start + clip.duration, label: clip.name });
        }
        if (data.motion) {
          motion = decodeMotion(data.motion);
          fps = motion.fps || fps;
          offset = motion.firstFrame / fps;
          duration = Math.max(0, motion.frames - 1) / fps;
          for (const c of motion.clips) {
            const rally = /(\d+)$/.exec(c.name);
            ranges.push({ value: rally ? "rally:" + Number(rally[1]) : "clip:" + c.name, start: c.firstFrame / fps, end: c.lastFrame / fps, label: c.name });
          }
          motion.points.forEach((p, i) => {
            if (!p.key) { if (ball && (ball.name === p.track || ball.userData.track === p.track)) motion.nodes[i] = ball; return; }
            const person = people.find((q) => q.track === p.track);
            motion.nodes[i] = person && person.joints[p.key] || null;
          });
        }
        for (const r of ranges) $("range").appendChild(new Option(`${r.label.replace(/^rally-0*/, "rally ")} (${r.start.toFixed(1)}–${r.end.toFixed(1)} s)`, r.value));
        matchsceneBindTracksByNode(gltf, () => {
          if (base) { action = mixer.clipAction(base); action.play(); }
          if (ball && motion && motion.nodes.indexOf(ball) >= 0) {
            ballTracks = motionTracks(motion.nodes.indexOf(ball));
            makeTrail(ball);
          } else if (ball && base) {
            ballTracks = {};
            for (const track of base.tracks) {
              const dot = track.name.lastIndexOf(".");
              const target = track.name.slice(0, dot), property = track.name.slice(dot + 1);
              if ((target === ball.uuid || target === ball.name) && (property === "position" || property === "scale")) ballTracks[property] = track.createInterpolant();
            }
            makeTrail(ball);
          }
          finish(gltf, floorBox);
        });
      }, undefined, (error) => {
        console.error("Could not load the scene:", error && error.message || error);
        $("status").textContent = "failed";
      });

      function finish(gltf, floorBox) {
        const wanted = new URLSearchParams(location.hash.slice(1));
        (wanted.get("hide") || "").split(",").filter(Boolean).forEach((n) => hidden.add(n));
        chooseRange("");
        setTime(offset);
        updateVisibility(gltf.scene);
        for (const person of people) poseBody(person);
        if ((data.videos || []).length) makeVideo();
        const framed = frame(gltf.scene);
        floorY = floorBox ? floorBox.max.y : 0;
        const center = floorBox ? floorBox.getCenter(new THREE.Vector3()) : framed.center;
        const extent = Math.max(30, 3 * Math.max(framed.size.x, framed.size.z));
        makeFloor(center, floorY, extent);
        sun.position.set(center.x + 4, floorY + 10, center.z + 3);
        sun.target.position.set(center.x, floorY, center.z);
        const half = Math.max(6, 0.6 * Math.max(framed.size.x, framed.size.z));
        Object.assign(sun.shadow.camera, { left: -half, right: half, top: half, bottom: -half, near: 0.5, far: 30 });
        sun.shadow.camera.updateProjectionMatrix();
        // The address may ask for a state: #t=12.3&paused&speed=0.5&view=cam1&rally=2&stroke=4&tab=strokes&hide=P1
        if (wanted.has("rally")) chooseRange("rally:" + Number(wanted.get("rally")));
        if (wanted.has("stroke")) {
          const n = Number(wanted.get("stroke")) - 1;
          review.select(n, true);
        }
        if (wanted.has("t")) setTime(Number(wanted.get("t")) || 0);
        if (wanted.has("speed")) setSpeed(Number(wanted.get("speed")));
        if (wanted.has("paused")) setPlaying(false);
        if (wanted.get("tab") === "strokes") $("tabStrokes").onclick();
        if (wanted.has("view")) {
          const v = wanted.get("view");
          const i = cameras.findIndex((c) => c.name === v);
          view(i >= 0 ? "cam:" + i : v);
        }
        if (wanted.has("help")) $("help").hidden = false;
        sharedLook(scene);
        Object.assign(window.matchscene, { ready: true, gltf, mixer, cameras, seek: setTime, view, orbit, controls, people, matchTime: () => now });
      }
      /// Ready: the scene drawn once (its shaders compiled); then the rest of the motion is decoded.
      function markReady() {
        readyAt = performance.now();
        $("status").dataset.readyMs = readyAt.toFixed(0);
        $("status").textContent = "ready";
        setTimeout(() => { review.buildTimeline(); decodeMotionWhenIdle(); }, 0);
      }
      /// One shader program for every lit surface: each standard material gets a map (white where it had
      /// none) and both sides (casting shadows from the side it cast before), so that the first frame compiles
      /// one program instead of one per variant (each takes ~0.5 s in a software renderer).
      function sharedLook(root) {
        root.traverse((o) => {
          const m = o.material;
          if (!o.isMesh || !m || !m.isMeshStandardMaterial || m.userData.shared) return;
          m.userData.shared = true;
          if (!m.map) m.map = white;
          if (m.side !== THREE.DoubleSide) { m.shadowSide = m.side === THREE.BackSide ? THREE.FrontSide : THREE.BackSide; m.side = THREE.DoubleSide; }
          m.needsUpdate = true;
        });
      }

      // Camera videos (`open --video cam1=FILE`) beside the 3D view, kept on the clock, with the skeletons
      // and the ball projected into them through the scene's calibrated camera of that name.
      let video = null, readyAt = null;
      const bones = limbs.map(([a, b]) => [a, b]).concat([["left_shoulder", "right_shoulder"], ["left_hip", "right_hip"],
        ["left_shoulder", "left_hip"], ["right_shoulder", "right_hip"], ["nose", "left_eye"], ["nose", "right_eye"], ["left_eye", "left_ear"], ["right_eye", "right_ear"]]);
      function makeVideo() {
        $("app").classList.add("withVideo");
        $("videoPane").hidden = false;
        data.videos.forEach((v, i) => $("videoCamera").appendChild(new Option(v.camera, String(i))));
        $("videoCamera").onchange = () => chooseVideo(Number($("videoCamera").value));
        chooseVideo(0);
        resize();
      }
      function chooseVideo(i) {
        const v = data.videos[i];
        const cam = cameras.find((c) => c.name === v.camera) || null;
        if (!cam) console.warn(`no calibrated camera ${v.camera} in the scene: the video is shown without the skeletons`);
        video = { spec: v, cam, element: $("video") };
        video.element.src = v.src;
      }
      function drawVideo() {
        if (!video) return;
        const el = video.element, want = Math.max(0, now + (video.spec.offset || 0));
        // Before its metadata has loaded this sets the video's start position, so it opens on the clock too.
        if (Math.abs(el.currentTime - want) > 0.5 / fps) el.currentTime = want;
        const canvas = $("videoOverlay");
        const W = canvas.clientWidth, H = canvas.clientHeight;
        if (canvas.width !== W || canvas.height !== H) { canvas.width = W; canvas.height = H; }
        const g = canvas.getContext("2d");
        g.clearRect(0, 0, W, H);
        // The picture's rectangle inside the element (object-fit: contain), at the video's or camera's aspect.
        const a = el.videoWidth && el.videoHeight ? el.videoWidth / el.videoHeight : (video.cam && video.cam.aspect || 16 / 9);
        const w = W / H > a ? H * a : W, h = W / H > a ? H : W / a, x0 = (W - w) / 2, y0 = (H - h) / 2;
        const box = canvas.getBoundingClientRect();
        video.picture = [box.left + x0, box.top + y0, w, h].map((v) => Math.round(v * 10) / 10);
        if (!video.cam) return;
        const pixel = (p) => { const n = p.clone().project(video.cam); return n.z < -1 || n.z > 1 ? null : [x0 + (n.x + 1) / 2 * w, y0 + (1 - n.y) / 2 * h]; };
        g.lineWidth = 2;
        for (const person of people) {
          if (!person.body.visible || !person.now) continue;
          const c = person.parts.trunk.material.color;
          g.strokeStyle = g.fillStyle = `rgb(${Math.round(255 * Math.sqrt(c.r))},${Math.round(255 * Math.sqrt(c.g))},${Math.round(255 * Math.sqrt(c.b))})`;
          for (const [a, b] of bones) {
            const p = person.now[a] && pixel(person.now[a]), q = person.now[b] && pixel(person.now[b]);
            if (!p || !q) continue;
            g.beginPath(); g.moveTo(p[0], p[1]); g.lineTo(q[0], q[1]); g.stroke();
          }
        }
        if (ball && ball.visible) {
          const p = pixel(ball.getWorldPosition(new THREE.Vector3()));
          if (p) { g.strokeStyle = "#ffb000"; g.beginPath(); g.arc(p[0], p[1], 6, 0, 2 * Math.PI); g.stroke(); }
        }
      }

      function step(frames) { setPlaying(false); setTime(now + frames / fps); }
      function rallyStep(d) {
        const rallies = ranges.filter((r) => r.value.startsWith("rally:"));
        if (!rallies.length) return;
        const i = rallies.findIndex((r) => range && r.value === range.value);
        const next = i < 0 ? (d > 0 ? rallies.findIndex((r) => r.start > now) : rallies.length - 1) : i + d;
        if (next >= 0 && next < rallies.length) chooseRange(rallies[next].value);
      }
      $("play").onclick = () => setPlaying(!playing);
      $("back").onclick = () => step(-1);
      $("fwd").onclick = () => step(1);
      $("speed").onchange = () => setSpeed(Number($("speed").value));
      $("range").onchange = () => chooseRange($("range").value === "stroke" ? "" : $("range").value);
      $("loop").onchange = () => { loop = $("loop").checked; };
      $("time").oninput = () => setTime(Number($("time").value));
      $("view").onchange = () => view($("view").value);
      $("helpButton").onclick = () => { $("help").hidden = !$("help").hidden; };
      addEventListener("keydown", (e) => {
        if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName) && e.target.type !== "range" && e.target.type !== "checkbox") return;
        const k = e.key;
        if (k === " ") setPlaying(!playing);
        else if (k === "ArrowLeft") step(e.shiftKey ? -fps : -1);
        else if (k === "ArrowRight") step(e.shiftKey ? fps : 1);
        else if (k === "[" || k === "]") setSpeed(speeds[Math.max(0, Math.min(speeds.length - 1, speeds.indexOf(speed) + (k === "]" ? 1 : -1)))]);
        else if (k === "l" || k === "L") { loop = !loop; $("loop").checked = loop; }
        else if (k === "f" || k === "F") view("follow");
        else if (k === "0") view("orbit");
        else if (/^[1-9]$/.test(k)) view("cam:" + (Number(k) - 1));
        else if (k === "n") rallyStep(1);
        else if (k === "p") rallyStep(-1);
        else if (k === "?" || k === "h" || k === "H") $("help").hidden = !$("help").hidden;
        else if (k === "Escape") $("help").hidden = true;
        else return;
        e.preventDefault();
      });
      addEventListener("resize", resize);
      resize();

      const clock = new THREE.Clock();
      const ballWorld = new THREE.Vector3();
      renderer.setAnimationLoop(() => {
        const dt = Math.min(0.1, clock.getDelta());
        // Nothing is drawn before the scene is complete: a draw would compile shaders that `sharedLook` replaces.
        if (!window.matchscene.ready) return;
        if (playing) {
          let t = now + dt * speed;
          const end = range ? range.end : offset + duration, start = range ? range.start : offset;
          if (t > end) { if (loop) t = start + ((t - end) % Math.max(1e-3, end - start)); else { t = end; setPlaying(false); } }
          setTime(t);
        }
        $("clock").textContent = now.toFixed(2) + " s";
        review.showUntil(now);
        updateVisibility(window.matchscene.gltf.scene);
        scene.updateMatrixWorld();
        for (const person of people) poseBody(person);
        updateTrail();
        if (mode === "follow" && ball && ball.visible) {
          ball.getWorldPosition(ballWorld);
          const goal = ballWorld.clone();
          const move = goal.sub(controls.target).multiplyScalar(1 - Math.exp(-dt * 2.5));
          controls.target.add(move);
          orbit.position.add(move);
        }
        if (!camera) {
          if (controls.target.y < floorY) controls.target.y = floorY;
          controls.update();
        }
        const rect = viewport();
        renderer.setScissorTest(true);
        renderer.setViewport(0, 0, rect.W, rect.H);
        renderer.setScissor(0, 0, rect.W, rect.H);
        renderer.setClearColor(0x000000);
        renderer.clear();
        renderer.setViewport(rect.x, rect.y, rect.w, rect.h);
        renderer.setScissor(rect.x, rect.y, rect.w, rect.h);
        scene.background.setHex(background);
        renderer.render(scene, active());
        renderer.setScissorTest(false);
        if (readyAt === null) markReady();
        drawLabels(rect);
        drawVideo();
        let bodies = 0;
        for (const person of people) if (person.body.visible) bodies++;
        // Where the ball is drawn (CSS pixels in the stage), for checks of what is drawn around it.
        let ballPixel = null;
        if (ball && ball.visible) {
          const n = ball.getWorldPosition(ballWorld).project(active());
          if (n.z > -1 && n.z < 1) ballPixel = [Math.round(rect.x + (n.x + 1) / 2 * rect.w), Math.round(rect.y + (1 - n.y) / 2 * rect.h)];
        }
        const shownEvents = review.rows.filter((r) => !r.el.hidden);
        $("state").textContent = JSON.stringify({
          now: Number(now.toFixed(4)), frame: motion ? motion.firstFrame + motionFrame(clipTime(now)) : Math.floor(now * fps + 1e-4), ballPixel, playing, speed, loop, view: mode, bodies,
          eventsShown: shownEvents.length, latestEventShown: shownEvents.length ? shownEvents[shownEvents.length - 1].time : null,
          futureEventsShown: shownEvents.filter((r) => r.time > now + 1e-9).length,
          strokesListed: document.querySelectorAll("#strokeList .stroke").length, strokes: review.strokes.length,
          video: video ? { camera: video.spec.camera, time: video.element.currentTime, ready: video.element.readyState, projected: !!video.cam, picture: video.picture || null } : null,
          selectedStroke: review.state.selected, readyMs: readyAt === null ? null : Math.round(readyAt), range: range ? [range.start, range.end] : null,
        });
      });
    }
    """#
}
