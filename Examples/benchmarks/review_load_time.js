// Wall-clock load time of the review app (`matchscene open`) in headless Chromium.
// Usage: node Examples/benchmarks/review_load_time.js file:///path/to/out/index.html [timeout-s]
// Starts Chromium (DevTools protocol over a pipe, no package needed), opens the page and waits until
// #status has data-ready-ms; prints the page's performance.now() at ready (from navigation start), the
// page errors and the wall time since the browser was launched, as one JSON line.
const { spawn } = require("child_process");
const fs = require("fs"), os = require("os"), path = require("path");
const url = process.argv[2], timeout = Number(process.argv[3] || 60) * 1000;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "loadtime-"));
const t0 = Date.now();
const chrome = spawn("chromium", ["--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
  "--user-data-dir=" + profile, "--no-first-run", "--disable-gpu-sandbox", "--disable-dev-shm-usage", "--window-size=1280,720",
  "--remote-debugging-pipe", "about:blank"], { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });
const out = chrome.stdio[3], inp = chrome.stdio[4];
out.on("error", () => {}); inp.on("error", () => {});
let id = 0, buf = "", pending = {};
function send(method, params, sessionId) {
  const m = { id: ++id, method, params: params || {} };
  if (sessionId) m.sessionId = sessionId;
  out.write(JSON.stringify(m) + "\0");
  return new Promise((res) => { pending[m.id] = res; });
}
inp.on("data", (d) => {
  buf += d.toString();
  let i;
  while ((i = buf.indexOf("\0")) >= 0) {
    const msg = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1);
    if (msg.id && pending[msg.id]) { pending[msg.id](msg); delete pending[msg.id]; }
  }
});
function done(text, code) { console.log(text); chrome.on("exit", () => { fs.rmSync(profile, { recursive: true, force: true }); process.exit(code); }); chrome.kill(); }
setTimeout(() => done(JSON.stringify({ url, timeout: true, wallMs: Date.now() - t0 }), 1), timeout);
(async () => {
  const { result: { targetInfos } } = await send("Target.getTargets");
  const page = targetInfos.find((t) => t.type === "page");
  const { result: { sessionId } } = await send("Target.attachToTarget", { targetId: page.targetId, flatten: true });
  const tNav = Date.now();
  await send("Page.navigate", { url }, sessionId);
  for (;;) {
    const r = await send("Runtime.evaluate", { expression: "(() => { const s = document.getElementById('status'); const e = document.getElementById('errors'); return s && s.dataset.readyMs ? JSON.stringify({ readyMs: Number(s.dataset.readyMs), status: s.textContent, errors: e ? e.textContent : null }) : ''; })()", returnByValue: true }, sessionId);
    const v = r.result && r.result.result && r.result.result.value;
    if (v) { const o = JSON.parse(v); o.url = url; o.wallMs = Date.now() - t0; o.navigateToReadyWallMs = Date.now() - tNav; done(JSON.stringify(o), 0); }
    await new Promise((res) => setTimeout(res, 50));
  }
})();
