import Foundation
import MatchSceneIO

/// `form.html`: per stroke its score against the reference, the per-joint detail, the comments and SVG
/// plots of each joint's angle against the reference's over the registered stroke (`StrokeCurves`:
/// contact marked at 50 %). Self-contained: nothing fetched; its one script only reports page errors into `<pre id="errors">`
/// and sets `<pre id="status">` to `ready` once loaded (as the scene viewer does).
public enum FormPage {
  public static func render(_ comparison: FormComparison, title: String) -> String {
    var html = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
      <style>
      body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
      section { border-top: 1px solid #ccc; padding: 0.8em 0; }
      table { border-collapse: collapse; } td, th { padding: 0.15em 0.6em; text-align: right; }
      td:first-child, th:first-child { text-align: left; }
      .score { font-size: 1.6em; font-weight: bold; }
      .plots { display: flex; flex-wrap: wrap; gap: 0.5em; }
      svg { background: #fafafa; border: 1px solid #ddd; }
      .stroke { stroke: #c62828; fill: none; stroke-width: 1.5; }
      .reference { stroke: #555; fill: none; stroke-width: 1.2; stroke-dasharray: 4 3; }
      .contact { stroke: #1565c0; stroke-width: 1; }
      #errors:empty, #status { display: none; }
      </style>
      <script>
      window.addEventListener("error", (e) => {
        document.getElementById("errors").textContent += "error: " + e.message + "\\n";
      });
      window.addEventListener("load", () => { document.getElementById("status").textContent = "ready"; });
      </script></head><body>
      <pre id="errors"></pre><pre id="status">loading</pre>
      <h1>\(escape(title))</h1>
      <p>Strokes are registered at four landmarks (backswing start, forward swing start, contact, follow-through
      end; Ramsay &amp; Silverman's landmark registration). Per joint and phase the mean deviation from the reference
      is measured in the reference's own stroke-to-stroke spread (at least the angle's measurement σ); a joint's
      sub-score is 100/(1 + (Z/4)²) of its phase-weighted deviation Z (contact 0.4, forward swing 0.3, backswing and
      follow-through 0.15), the score the mean of the sub-scores weighted by the joint's role (racket arm 3, trunk
      rotation 2, trunk lean 1.5, racket-side leg 1, free leg 0.5). Comments only where a deviation is at least
      3.5 spreads and 5°. Every figure is also in form.json. Red: the stroke; dashed grey: the reference; blue:
      contact.</p>

      """
    for (i, e) in comparison.entries.enumerated() {
      let s = e.stroke
      html += """
        <section id="stroke-\(i + 1)">
        <h2>\(escape(s.track)) stroke \(s.number): \(s.kind.rawValue) at \(String(format: "%.2f", s.contactTime)) s (frame \(s.contactFrame))</h2>
        <p><span class="score">\(String(format: "%.1f", e.score.score))</span> / 100 against \(escape(e.referenceName)).
        Contact height \(String(format: "%.2f", s.contactHeight)) m\(s.handSpeedAtContact.map { String(format: ", hand speed %.1f m/s", $0) } ?? "")\(s.ballSpeedAfter.map { String(format: ", ball speed after %.1f m/s", $0) } ?? "").</p>
        <ul>\(e.score.comments.map { "<li>\(escape($0))</li>" }.joined())</ul>
        <table><tr><th>joint</th><th>weight</th><th>sub-score</th><th>deviation (spreads)</th><th>largest in</th><th>by °</th><th>RMS °</th></tr>
        \(e.score.joints.map { d in "<tr><td>\(d.joint.rawValue)</td><td>\(String(format: "%.1f", d.weight))</td><td>\(String(format: "%.1f", d.subScore))</td><td>\(String(format: "%.1f", d.deviation))</td><td>\(d.largestPhase.rawValue)</td><td>\(String(format: "%+.1f", d.largestDeviation))</td><td>\(String(format: "%.1f", d.rmsDeviation))</td></tr>" }.joined(separator: "\n"))
        </table>
        <div class="plots">\(FormJoint.allCases.map { plot($0, e) }.joined())</div>
        <p class="clip">3D clip of this stroke: <code>matchscene clip &lt;out&gt; --player \(escape(s.track)) --stroke \(s.number)</code>
        (add <code>--reference &lt;file&gt;</code> for the reference as a ghost).</p>
        </section>

        """
    }
    return html + "</body></html>\n"
  }

  /// One joint's angle (stroke and reference) over 0…100 % of the stroke, 240 × 130 px.
  static func plot(_ joint: FormJoint, _ e: FormComparison.Entry) -> String {
    guard let a = e.curves.values[joint], let r = e.reference.values[joint] else { return "" }
    let w = 240.0, h = 130.0, pad = 18.0
    var lo = min(a.min()!, r.min()!), hi = max(a.max()!, r.max()!)
    if hi - lo < 10 { let m = (hi + lo) / 2; lo = m - 5; hi = m + 5 }
    func x(_ k: Int) -> Double { pad + (w - 2 * pad) * Double(k) / Double(StrokeCurves.sampleCount - 1) }
    func y(_ v: Double) -> Double { h - pad - (h - 2 * pad) * (v - lo) / (hi - lo) }
    func line(_ v: [Double]) -> String {
      var text = TextBuffer(capacity: 12 * v.count)
      for (k, value) in v.enumerated() {
        if k > 0 { text.append(byte: UInt8(ascii: " ")) }
        text.appendFixed(x(k), decimals: 1)
        text.append(byte: UInt8(ascii: ","))
        text.appendFixed(y(value), decimals: 1)
      }
      return text.string
    }
    let cx = x(StrokeCurves.contactSample)
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(w))" height="\(Int(h))" viewBox="0 0 \(Int(w)) \(Int(h))" data-joint="\(joint.rawValue)">
      <text x="\(pad)" y="12" font-size="11">\(joint.rawValue) (°)</text>
      <text x="\(w - pad)" y="12" font-size="10" text-anchor="end">\(String(format: "%.0f…%.0f", lo, hi))</text>
      <line class="contact" x1="\(String(format: "%.1f", cx))" y1="\(pad)" x2="\(String(format: "%.1f", cx))" y2="\(h - pad)"/>
      <polyline class="reference" points="\(line(r))"/>
      <polyline class="stroke" points="\(line(a))"/>
      <text x="\(pad)" y="\(h - 4)" font-size="10">0 %</text><text x="\(String(format: "%.1f", cx))" y="\(h - 4)" font-size="10" text-anchor="middle">contact</text><text x="\(w - pad)" y="\(h - 4)" font-size="10" text-anchor="end">100 %</text>
      </svg>
      """
  }

  static func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
