extension ReviewApp {
  /// The page: the 3D stage, the side panel (the match's timeline, the strokes), the play bar and the
  /// keys' help. `__DATA__` is the data script's address, `__SCRIPT__` the app (`script`),
  /// `__THREE_SCRIPTS__` loads three.js and calls `matchsceneStart(THREE)`.
  static let template = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>MatchScene review — __TITLE__</title>
    <style>
      [hidden] { display: none !important; }
      html, body { margin: 0; height: 100%; overflow: hidden; background: #20242a; color: #e8e8e8; font: 14px system-ui, sans-serif; }
      #app { position: absolute; inset: 0; display: grid; grid-template-columns: 1fr 420px; grid-template-rows: 1fr auto; }
      #stage { position: relative; overflow: hidden; grid-column: 1; grid-row: 1; background: #20242a; }
      #stage canvas { display: block; width: 100%; height: 100%; }
      #app.withVideo { grid-template-columns: 1fr 1fr 420px; }
      #videoPane { grid-column: 2; grid-row: 1; position: relative; background: #000; display: flex; flex-direction: column; min-width: 0; }
      #videoPane select { position: absolute; z-index: 2; top: 6px; left: 6px; }
      #videoPane .frame { position: relative; flex: 1; min-height: 0; }
      #videoPane video, #videoPane canvas { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; }
      #side { grid-column: -2 / -1; grid-row: 1 / span 2; display: flex; flex-direction: column; background: #181b20; border-left: 1px solid #333; min-height: 0; }
      #side nav { display: flex; border-bottom: 1px solid #333; }
      #side nav button { flex: 1; padding: 8px; background: none; border: 0; color: #aaa; cursor: pointer; border-bottom: 2px solid transparent; }
      #side nav button.on { color: #fff; border-bottom-color: #ffcc66; }
      .tab { flex: 1; overflow: auto; padding: 6px 10px; min-height: 0; }
      #bar { grid-column: 1 / -2; grid-row: 2; display: flex; gap: 6px; align-items: center; padding: 6px 8px; background: #15181c; flex-wrap: wrap; }
      #bar input[type=range] { flex: 1; min-width: 120px; }
      #range { max-width: 11em; } #view { max-width: 10em; }
      #clock { font-variant-numeric: tabular-nums; min-width: 5.5em; text-align: right; }
      button, select, input { font: inherit; }
      #bar button, #bar select { background: #2b3038; color: #eee; border: 1px solid #444; border-radius: 4px; padding: 2px 8px; }
      #scoreline { position: absolute; top: 8px; left: 8px; padding: 6px 10px; background: rgba(0,0,0,.55); border-radius: 6px; font-size: 18px; font-weight: 600; }
      #scoreline:empty { display: none; }
      #scoreline small { display: block; font-size: 13px; font-weight: 400; opacity: .8; }
      #errors { position: absolute; z-index: 5; bottom: 50px; left: 8px; margin: 0; color: #ff7070; white-space: pre-wrap; max-width: 60%; background: rgba(0,0,0,.6); }
      #errors:empty { display: none; }
      #nothree { position: absolute; z-index: 4; top: 25%; left: 8%; right: 8%; padding: 16px 20px; background: #402020; border: 1px solid #ff7070; border-radius: 8px; font-size: 16px; line-height: 1.5; }
      #nothree code { background: rgba(255,255,255,.1); padding: 1px 4px; }
      .label { position: absolute; transform: translate(-50%, -100%); padding: 1px 6px; border-radius: 4px; background: rgba(0,0,0,.6); font-size: 13px; pointer-events: none; white-space: nowrap; }
      .label.person { opacity: .7; font-size: 11px; }
      #help { position: absolute; z-index: 3; top: 50%; left: 50%; transform: translate(-50%, -50%); background: rgba(10,12,15,.92); border: 1px solid #555; border-radius: 8px; padding: 14px 20px; }
      #help table td:first-child { padding-right: 14px; color: #ffcc66; white-space: nowrap; }
      kbd { background: #333; border-radius: 3px; padding: 0 4px; }
      .rally { margin: 10px 0 4px; padding: 4px 6px; background: #262b33; border-radius: 4px; font-weight: 600; cursor: pointer; }
      .rally small { font-weight: 400; opacity: .75; }
      .ev { display: grid; grid-template-columns: 4.2em 1fr; gap: 6px; padding: 2px 6px; cursor: pointer; border-radius: 3px; }
      .ev:hover, .stroke:hover { background: #2a3038; }
      .ev .t { opacity: .6; font-variant-numeric: tabular-nums; text-align: right; }
      .ev.point { color: #ffcc66; font-weight: 600; }
      .ev.latest { background: #2f3640; }
      .note { opacity: .7; font-style: italic; margin: 8px 0; }
      #filters { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding-bottom: 6px; border-bottom: 1px solid #333; }
      #filters select, #filters input { background: #2b3038; color: #eee; border: 1px solid #444; border-radius: 4px; }
      #filters input[type=number] { width: 4em; }
      .stroke { display: grid; grid-template-columns: 3.2em 1fr; gap: 2px 8px; padding: 5px 6px; border-bottom: 1px solid #2a2e35; cursor: pointer; }
      .stroke.on { background: #33404f; }
      .stroke .sc { grid-row: span 2; font-size: 20px; font-weight: 700; text-align: center; align-self: center; }
      .stroke .c { font-size: 12px; opacity: .75; }
      .good { color: #7bd88f; } .fair { color: #ffcc66; } .poor { color: #ff7b7b; }
      #strokeDetail:empty { display: none; }
      #strokeDetail { border-bottom: 1px solid #444; padding-bottom: 8px; margin-bottom: 6px; }
      #strokeDetail h3 { margin: 6px 0; }
      #strokeDetail table { border-collapse: collapse; font-size: 12px; margin: 4px 0; }
      #strokeDetail td, #strokeDetail th { padding: 1px 6px; text-align: right; } #strokeDetail td:first-child, #strokeDetail th:first-child { text-align: left; }
      #strokeDetail td:last-child { white-space: nowrap; }
      #strokeDetail ul { margin: 4px 0; padding-left: 18px; }
      svg.plot { background: #11141a; border: 1px solid #333; margin: 3px 0; display: block; }
      svg.plot text { fill: #aaa; font-size: 10px; }
      svg.plot .title { fill: #eee; font-size: 11px; }
      svg.plot .axis { stroke: #666; } svg.plot .grid { stroke: #2a2e35; }
      svg.plot .band { fill: rgba(160,170,190,.22); stroke: none; }
      svg.plot .ref { stroke: #b0b6c0; fill: none; stroke-dasharray: 4 3; stroke-width: 1.2; }
      svg.plot .cur { stroke: #ff6b5b; fill: none; stroke-width: 1.8; }
      svg.plot .contact { stroke: #4da3ff; }
    </style>
    </head>
    <body>
    <pre id="warnings" hidden></pre>
    <pre id="status" hidden>loading</pre>
    <pre id="state" hidden></pre>
    <div id="app">
      <div id="stage">
        <div id="labels"></div>
        <div id="scoreline"></div>
        <pre id="errors"></pre>
        <div id="nothree" hidden></div>
        <div id="help" hidden>
          <b>Keys</b>
          <table>
            <tr><td><kbd>space</kbd></td><td>play / pause</td></tr>
            <tr><td><kbd>←</kbd> <kbd>→</kbd></td><td>one frame back / forward (with <kbd>shift</kbd>: 1 s)</td></tr>
            <tr><td><kbd>[</kbd> <kbd>]</kbd></td><td>slower / faster (0.1× … 2×)</td></tr>
            <tr><td><kbd>l</kbd></td><td>loop the rally or stroke on / off</td></tr>
            <tr><td><kbd>1</kbd>–<kbd>9</kbd></td><td>camera views (letterboxed to the camera's shape)</td></tr>
            <tr><td><kbd>0</kbd></td><td>free orbit view</td></tr>
            <tr><td><kbd>f</kbd></td><td>follow the ball</td></tr>
            <tr><td><kbd>n</kbd> <kbd>p</kbd></td><td>next / previous rally</td></tr>
            <tr><td><kbd>?</kbd> <kbd>h</kbd></td><td>this help; <kbd>esc</kbd> closes it</td></tr>
          </table>
          Drag to orbit, right-drag to pan, wheel to zoom. Click an event to go there; click a stroke to loop it.
        </div>
      </div>
      <div id="videoPane" hidden><select id="videoCamera" title="camera video"></select><div class="frame"><video id="video" muted playsinline preload="auto"></video><canvas id="videoOverlay"></canvas></div></div>
      <aside id="side">
        <nav><button id="tabMatch" class="on">Match</button><button id="tabStrokes">Strokes (<span id="strokeCount">0</span>)</button></nav>
        <div class="tab" id="match"><div id="notes"></div><div id="timeline"></div></div>
        <div class="tab" id="strokes" hidden>
          <div id="filters">
            <select id="fPlayer" title="player"><option value="">all players</option></select>
            <select id="fKind" title="kind"><option value="">all kinds</option></select>
            score <input id="fMin" type="number" min="0" max="100" value="0" title="lowest score"> – <input id="fMax" type="number" min="0" max="100" value="100" title="highest score">
            <select id="fSort" title="order"><option value="asc">lowest score first</option><option value="desc">highest score first</option><option value="time">in time order</option></select>
            <span id="fCount"></span>
          </div>
          <div id="strokeDetail"></div>
          <div id="strokeList"></div>
        </div>
      </aside>
      <div id="bar">
        <button id="play" title="play / pause (space)">Play</button>
        <button id="back" title="one frame back (←)">◀︎|</button>
        <button id="fwd" title="one frame forward (→)">|▶︎</button>
        <select id="speed" title="speed ([ and ])"><option value="0.1">0.1×</option><option value="0.25">0.25×</option><option value="0.5">0.5×</option><option value="1" selected>1×</option><option value="1.5">1.5×</option><option value="2">2×</option></select>
        <select id="range" title="what to play"><option value="">whole match</option></select>
        <label title="loop (l)"><input id="loop" type="checkbox"> loop</label>
        <input id="time" type="range" min="0" max="1" step="0.001" value="0">
        <span id="clock">0.00 s</span>
        <select id="view" title="view (0-9, f)"><option value="orbit">orbit view</option><option value="follow">follow the ball</option></select>
        <button id="helpButton" title="keys (?)">?</button>
      </div>
    </div>
    <script src="__DATA__" onerror="matchsceneNoData(this.src)"></script>
    <script>
    __SCRIPT__
    </script>
    __THREE_SCRIPTS__
    </body>
    </html>
    """#
}
