import Foundation
import MatchSceneCore

/// `compare.html`: the comparison as one self-contained page of inline SVG plots (no script library, no
/// network). Each plot is `<svg class="plot" data-plot="<id>">` with the ids of `SessionComparison.plots`;
/// a small script reports page errors in `<pre id="errors">` and the plots found in `<pre id="status">`.
public enum ComparePage {
  static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]

  static func colour(_ i: Int) -> String { palette[i % palette.count] }

  static func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// `v` to one decimal (as `%.1f`, without its cost: the page writes tens of thousands of coordinates).
  static func f(_ v: Double) -> String {
    guard v.isFinite else { return String(v) }
    let tenths = Int((v * 10).rounded())
    let magnitude = abs(tenths)
    return "\(tenths < 0 ? "-" : "")\(magnitude / 10).\(magnitude % 10)"
  }

  public static func render(_ c: SessionComparison) -> String {
    var body = ""
    let labels = c.sessions.map { "\($0.session) \($0.date) \($0.name)" }
    body += "<p>" + c.sessions.enumerated().map { i, s in
      "<span style=\"color:\(colour(i))\">■ session \(escape(labels[i])), \(escape(s.track))\(s.player.map { " (\(escape($0)))" } ?? "")</span>"
    }.joined(separator: " &nbsp; ") + "</p>\n"
    body += findings(c, labels: labels)
    body += "<details><summary>Every figure that changed</summary><pre id=\"summary\">\(escape(c.summary))</pre></details>\n"
    body += "<h2>Movement</h2>\n"
    body += figure("movement-distance", "Distance covered (m), hip midpoint at 10 Hz", bars(c.sessions.map(\.distanceCovered), labels: labels))
    body += figure(
      "movement-in-play", "Distance per rally in play (m), hip midpoint at 10 Hz from rally start to end; bar: mean",
      strips(c.sessions.map(\.inPlay.distancePerRally), labels: labels, units: "m"))
    for (i, s) in c.sessions.enumerated() {
      let behind = s.inPlay.medianBehindEndLine.map { String(format: "; in rallies %.2f m behind the end line (median)", $0) } ?? ""
      let spread = s.inPlay.lateralSpread.map { String(format: ", %.2f m side to side (IQR)", $0) } ?? ""
      body += figure(
        "heatmap-\(i + 1)", "Where \(s.track) stood, session \(labels[i]) (venue frame, 0.5 m cells, share of time seen)\(behind)\(spread)",
        heatmap(s.heatmap))
    }
    body += "<h2>Ball</h2>\n"
    body += figure("ball-speeds", "Ball speed after the player's own hits in rallies (m/s); bar: mean", strips(c.sessions.map(\.ball.speeds), labels: labels, units: "m/s"))
    body += figure(
      "ball-errors", "The player's own errors: points lost by net, out, serve, missed",
      groupedBars(
        PlayerBall.errorKinds.map { kind in c.sessions.map { Double($0.ball.errors[kind] ?? 0) } }, names: PlayerBall.errorKinds,
        labels: labels))
    for side in ["negative_x", "positive_x"] {
      body += figure("bounces-\(side)", "Where the player's own shots landed on the \(side) half (their first bounce on the opponent's half; venue x, y)", bounceMap(c.sessions, side: side))
    }
    body += "<h2>Score</h2>\n"
    body += figure(
      "score", "Rallies and points won per session",
      groupedBars([c.sessions.map { Double($0.rallies) }, c.sessions.map { Double($0.pointsWon ?? 0) }], names: ["rallies", "points won"], labels: labels))
    let kinds = Set(c.sessions.flatMap { s in s.technique.flatMap { kind, angles in angles.keys.map { "\(kind)/\($0)" } } }).sorted()
    if !kinds.isEmpty { body += "<h2>Technique (time-normalised strokes, mean ± SD)</h2>\n" }
    for key in kinds {
      let parts = key.split(separator: "/").map(String.init)
      let curves = c.sessions.map { $0.technique[parts[0]]?[parts[1]] }
      let clusters: [(session: Int64, permutations: Int, cluster: SPMCluster)] = c.spm.flatMap { r in
        r.clusters.filter { $0.strokeKind == parts[0] && $0.angle == parts[1] }.map { (r.session, r.permutations, $0) }
      }
      let notes = c.technique.filter { $0.strokeKind == parts[0] && $0.angle == parts[1] }.map { t in
        "session \(t.session): RMSE \(f(t.comparison.rmse))°, DTW \(f(t.comparison.dtw))°"
          + (t.comparison.cmc.map { String(format: ", CMC %.3f", $0) } ?? "")
          + clusters.filter { $0.session == t.session }.map { entry in
            let c = entry.cluster
            return " · SPM cluster \(c.fromPercent)–\(c.toPercent) % (\(c.phases.joined(separator: ", "))) "
              + String(format: "%+.1f° (peak %+.1f°), p ", c.meanDifference, c.peakDifference)
              + SessionComparison.pText(c.p, permutations: entry.permutations) + String(format: ", d %.1f", c.effectSize)
          }.joined()
      }.joined(separator: "; ")
      body += figure(
        "technique-\(parts[0])-\(parts[1])", "\(parts[0]): \(parts[1]) (°) over the stroke; shaded: SPM clusters. \(notes)",
        curvesPlot(curves, clusters: clusters.map(\.cluster)))
    }
    return """
      <!DOCTYPE html>
      <html><head><meta charset="utf-8"><title>MatchScene comparison</title>
      <style>body{font:14px sans-serif;margin:1em 2em}figure{display:inline-block;margin:0.5em;vertical-align:top}
      figcaption{max-width:460px}svg{background:#fafafa;border:1px solid #ddd}pre{white-space:pre-wrap}
      #findings ol{font-size:16px;line-height:1.5}.finding{font-size:16px}#headline{border-collapse:collapse;margin:0.5em 0}
      #headline th,#headline td{padding:2px 10px;border-bottom:1px solid #eee;text-align:right}#headline th:first-child{text-align:left;font-weight:normal}
      details{margin:0.8em 0}</style>
      <script>
      window.pageErrors = [];
      window.addEventListener("error", function (e) { window.pageErrors.push(String(e.message)); });
      (function () { var original = console.error; console.error = function () {
        window.pageErrors.push(Array.prototype.map.call(arguments, String).join(" ")); original.apply(console, arguments); }; })();
      </script></head><body>
      <h1>MatchScene comparison</h1>
      \(body)
      <pre id="errors"></pre><pre id="status">loading</pre>
      <script>
      document.addEventListener("DOMContentLoaded", function () {
        var plots = document.querySelectorAll("svg.plot");
        var drawn = Array.prototype.filter.call(plots, function (p) { return p.getBBox().width > 0 && p.childElementCount > 0; });
        document.getElementById("errors").textContent = window.pageErrors.join("\\n");
        document.getElementById("status").textContent = "ready " + drawn.length + " of " + plots.length + " plots drawn";
      });
      </script>
      </body></html>

      """
  }

  static func figure(_ id: String, _ caption: String, _ svg: (width: Int, height: Int, content: String)) -> String {
    "<figure><figcaption>\(escape(caption))</figcaption><svg class=\"plot\" data-plot=\"\(escape(id))\" "
      + "xmlns=\"http://www.w3.org/2000/svg\" width=\"\(svg.width)\" height=\"\(svg.height)\" "
      + "viewBox=\"0 0 \(svg.width) \(svg.height)\">\(svg.content)</svg></figure>\n"
  }

  static func bars(_ values: [Double], labels: [String]) -> (width: Int, height: Int, content: String) {
    groupedBars([values], names: [""], labels: labels)
  }

  static func groupedBars(_ groups: [[Double]], names: [String], labels: [String]) -> (width: Int, height: Int, content: String) {
    let w = 460, h = 220, top = 20.0, bottom = 190.0
    let maxValue = max(1e-9, groups.flatMap { $0 }.max() ?? 1)
    let slot = Double(w - 40) / Double(max(1, labels.count))
    let barWidth = slot * 0.8 / Double(groups.count)
    var s = "<line x1=\"30\" y1=\"\(bottom)\" x2=\"\(w - 5)\" y2=\"\(bottom)\" stroke=\"#444\"/>"
    for (g, values) in groups.enumerated() {
      for (i, v) in values.enumerated() {
        let x = 35 + Double(i) * slot + Double(g) * barWidth
        let height = (bottom - top) * v / maxValue
        s += "<rect x=\"\(f(x))\" y=\"\(f(bottom - height))\" width=\"\(f(barWidth))\" height=\"\(f(max(height, 0.5)))\" "
          + "fill=\"\(colour(i))\" fill-opacity=\"\(g == 0 ? "0.9" : "0.45")\"><title>\(escape(labels[i])) \(escape(names[g])): \(f(v))</title></rect>"
        s += "<text x=\"\(f(x + barWidth / 2))\" y=\"\(f(bottom - height - 3))\" font-size=\"10\" text-anchor=\"middle\">\(f(v))</text>"
      }
    }
    return (w, h, s)
  }

  static func strips(_ values: [[Double]], labels: [String], units: String) -> (width: Int, height: Int, content: String) {
    let w = 460, h = 220, top = 20.0, bottom = 190.0
    let maxValue = max(1, values.flatMap { $0 }.max() ?? 1)
    let slot = Double(w - 40) / Double(max(1, labels.count))
    var s = "<line x1=\"30\" y1=\"\(bottom)\" x2=\"\(w - 5)\" y2=\"\(bottom)\" stroke=\"#444\"/>"
    for (i, speeds) in values.enumerated() {
      let centre = 35 + (Double(i) + 0.5) * slot
      for (k, v) in speeds.enumerated() {
        let jitter = Double(k % 7 - 3) * slot * 0.05
        s += "<circle cx=\"\(f(centre + jitter))\" cy=\"\(f(bottom - (bottom - top) * v / maxValue))\" r=\"2\" fill=\"\(colour(i))\" fill-opacity=\"0.6\"/>"
      }
      let mean = speeds.isEmpty ? 0 : speeds.reduce(0, +) / Double(speeds.count)
      let y = bottom - (bottom - top) * mean / maxValue
      s += "<line x1=\"\(f(centre - slot * 0.35))\" y1=\"\(f(y))\" x2=\"\(f(centre + slot * 0.35))\" y2=\"\(f(y))\" stroke=\"\(colour(i))\" stroke-width=\"3\"><title>\(escape(labels[i])): mean \(f(mean)) \(units) of \(speeds.count)</title></line>"
    }
    return (w, h, s)
  }

  /// Viridis (van der Walt & Smith 2015) at five stops: a colour scale read the same in grey and by
  /// colour-blind readers.
  static let viridis: [(Double, Double, Double)] = [
    (68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37),
  ]

  /// `#rrggbb` of share `v` (0…1) on `viridis`.
  static func scaleColour(_ v: Double) -> String {
    let x = min(1, max(0, v)) * Double(viridis.count - 1)
    let i = min(viridis.count - 2, Int(x)), t = x - Double(i)
    let a = viridis[i], b = viridis[i + 1]
    func c(_ p: Double, _ q: Double) -> Int { Int((p + (q - p) * t).rounded()) }
    return String(format: "#%02x%02x%02x", c(a.0, b.0), c(a.1, b.1), c(a.2, b.2))
  }

  static func heatmap(_ cells: [Double]) -> (width: Int, height: Int, content: String) {
    typealias H = SessionMetrics.Heatmap
    let scale = 18.0, legend = 34.0
    let w = Int(Double(H.columns) * scale), mapHeight = Double(H.rows) * scale
    let h = Int(mapHeight + legend)
    let peak = max(1e-9, cells.max() ?? 1)
    var s = ""
    for r in 0..<H.rows {
      for c in 0..<H.columns where cells[r * H.columns + c] > 0 {
        // Rows drawn with +y up.
        let share = cells[r * H.columns + c]
        s += "<rect x=\"\(f(Double(c) * scale))\" y=\"\(f(Double(H.rows - 1 - r) * scale))\" width=\"\(f(scale))\" height=\"\(f(scale))\" "
          + "fill=\"\(scaleColour(share / peak))\"><title>\(String(format: "%.1f", share * 100)) % of the time</title></rect>"
      }
    }
    // The table, 2.74 × 1.525 m about the origin, and the net.
    let perMetre = scale / H.cell
    let x0 = (-1.37 - H.x.lowerBound) * perMetre, y0 = (H.y.upperBound - 0.7625) * perMetre
    let netX = -H.x.lowerBound * perMetre
    s += "<rect x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(2.74 * perMetre))\" height=\"\(f(1.525 * perMetre))\" fill=\"none\" stroke=\"#333\"/>"
    s += "<line x1=\"\(f(netX))\" y1=\"\(f(y0))\" x2=\"\(f(netX))\" y2=\"\(f(y0 + 1.525 * perMetre))\" stroke=\"#333\"/>"
    // The colour scale: share of the time seen, 0 to the busiest cell.
    let steps = 20, barWidth = Double(w) * 0.5, x1 = Double(w) * 0.12, y1 = mapHeight + 6
    for k in 0..<steps {
      s += "<rect class=\"colour-scale\" x=\"\(f(x1 + barWidth * Double(k) / Double(steps)))\" y=\"\(f(y1))\" width=\"\(f(barWidth / Double(steps) + 0.5))\" "
        + "height=\"10\" fill=\"\(scaleColour((Double(k) + 0.5) / Double(steps)))\"/>"
    }
    s += "<text x=\"\(f(x1 - 4))\" y=\"\(f(y1 + 9))\" font-size=\"10\" text-anchor=\"end\">0 %</text>"
    s += "<text x=\"\(f(x1 + barWidth + 4))\" y=\"\(f(y1 + 9))\" font-size=\"10\">\(String(format: "%.1f", peak * 100)) % of the time (busiest cell)</text>"
    return (w, h, s)
  }

  static func bounceMap(_ sessions: [SessionMetrics], side: String) -> (width: Int, height: Int, content: String) {
    let scale = 150.0, margin = 10.0
    let w = Int(1.37 * scale + 2 * margin), h = Int(1.525 * scale + 2 * margin)
    let xLow = side == "negative_x" ? -1.37 : 0.0
    var s = "<rect x=\"\(f(margin))\" y=\"\(f(margin))\" width=\"\(f(1.37 * scale))\" height=\"\(f(1.525 * scale))\" fill=\"#2a6f4e\" fill-opacity=\"0.15\" stroke=\"#333\"/>"
    for (i, m) in sessions.enumerated() {
      for b in m.ball.landings where TableSide(x: b.x).rawValue == side {
        s += "<circle cx=\"\(f(margin + (b.x - xLow) * scale))\" cy=\"\(f(margin + (0.7625 - b.y) * scale))\" r=\"3\" fill=\"\(colour(i))\" fill-opacity=\"0.7\"/>"
      }
    }
    return (w, h, s)
  }

  static func curvesPlot(_ curves: [NormalisedCurves?], clusters: [SPMCluster] = []) -> (width: Int, height: Int, content: String) {
    let w = 460, h = 240, left = 40.0, right = 450.0, top = 10.0, bottom = 215.0
    let present = curves.compactMap { $0 }
    let low = present.flatMap { c in zip(c.mean, c.sd).map { $0 - $1 } }.min() ?? 0
    let high = present.flatMap { c in zip(c.mean, c.sd).map { $0 + $1 } }.max() ?? 1
    let span = max(1, high - low)
    func x(_ i: Int) -> Double { left + (right - left) * Double(i) / Double(NormalisedCurves.points - 1) }
    func y(_ v: Double) -> Double { bottom - (bottom - top) * (v - low) / span }
    var s = "<line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(right)\" y2=\"\(bottom)\" stroke=\"#444\"/>"
    for c in clusters {
      s += "<rect class=\"spm-cluster\" x=\"\(f(x(c.fromPercent)))\" y=\"\(top)\" width=\"\(f(max(1, x(c.toPercent) - x(c.fromPercent))))\" "
        + "height=\"\(bottom - top)\" fill=\"#f2c200\" fill-opacity=\"0.25\"><title>\(escape(c.phases.joined(separator: ", "))) "
        + "\(String(format: "%+.1f°, p %.3f", c.meanDifference, c.p))</title></rect>"
    }
    s += "<text x=\"\(left)\" y=\"\(bottom + 18)\" font-size=\"10\">0 %</text><text x=\"\(right - 30)\" y=\"\(bottom + 18)\" font-size=\"10\">100 %</text>"
    s += "<text x=\"2\" y=\"\(f(top + 8))\" font-size=\"10\">\(f(high))°</text><text x=\"2\" y=\"\(f(bottom))\" font-size=\"10\">\(f(low))°</text>"
    for (i, c) in curves.enumerated() {
      guard let c else { continue }
      let upper = (0..<c.mean.count).map { "\(f(x($0))),\(f(y(c.mean[$0] + c.sd[$0])))" }
      let lower = (0..<c.mean.count).reversed().map { "\(f(x($0))),\(f(y(c.mean[$0] - c.sd[$0])))" }
      s += "<polygon points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(colour(i))\" fill-opacity=\"0.15\"/>"
      s += "<polyline points=\"\((0..<c.mean.count).map { "\(f(x($0))),\(f(y(c.mean[$0])))" }.joined(separator: " "))\" fill=\"none\" stroke=\"\(colour(i))\" stroke-width=\"2\"><title>n = \(c.count)</title></polyline>"
      let cx = left + (right - left) * c.contactPercent / 100
      s += "<line x1=\"\(f(cx))\" y1=\"\(top)\" x2=\"\(f(cx))\" y2=\"\(bottom)\" stroke=\"\(colour(i))\" stroke-dasharray=\"3 3\"/>"
    }
    return (w, h, s)
  }

  /// What a coach reads first: the technique clusters beyond chance, largest effect first (or that there
  /// are none), then the headline measures (`SessionComparison.headlineMeasures`) per session with the
  /// change of the latest against the baseline.
  static func findings(_ c: SessionComparison, labels: [String]) -> String {
    var html = "<section id=\"findings\"><h2>Findings</h2>\n"
    let clusters = c.spm.flatMap { r in r.clusters.map { (r, $0) } }.sorted { $0.1.effectSize > $1.1.effectSize }
    let tested = c.spm.map(\.curvesTested).reduce(0, +)
    if clusters.isEmpty {
      html += "<p class=\"finding\">"
        + (tested > 0
          ? "Technique: no difference beyond chance (\(tested) curves compared by SPM{t}, family-wise α 0.05)."
          : "Technique: not compared (fewer than 3 strokes of a kind in a session).") + "</p>\n"
    } else {
      html += "<ol class=\"findings\">\n"
      for (r, k) in clusters {
        let versus = c.sessions.count > 2 ? "session \(r.session) vs \(r.baseline): " : ""
        html += "<li class=\"finding\">\(escape(versus))<b>\(escape(k.strokeKind)) \(escape(k.angle.replacingOccurrences(of: "_", with: " ")))</b> "
          + escape(String(format: "%+.1f°", k.meanDifference)) + " over \(k.fromPercent)–\(k.toPercent) % of the stroke ("
          + escape(k.phases.joined(separator: ", ")) + ") — p " + escape(SessionComparison.pText(k.p, permutations: r.permutations))
          + escape(String(format: ", effect size %.1f", k.effectSize)) + "</li>\n"
      }
      html += "</ol>\n"
    }
    let rows = SessionComparison.headlineMeasures(c.sessions).compactMap { name, units, value -> String? in
      let values = c.sessions.map(value)
      guard values.contains(where: { $0?.isFinite == true }) else { return nil }
      let cells = values.map { v in "<td>" + (v.map { escape(String(format: "%.2f", $0)) } ?? "–") + "</td>" }.joined()
      var change = "<td></td>"
      if let a = values.first ?? nil, let b = values.last ?? nil, c.sessions.count > 1 {
        change = "<td>" + escape(String(format: "%+.2f", b - a)) + "</td>"
      }
      return "<tr><th>\(escape(name))\(units.isEmpty ? "" : " (\(escape(units)))")</th>\(cells)\(change)</tr>"
    }
    if !rows.isEmpty {
      html += "<table id=\"headline\"><tr><th></th>" + labels.map { "<th>\(escape($0))</th>" }.joined()
        + "<th>change</th></tr>\n" + rows.joined(separator: "\n") + "\n</table>\n"
    }
    return html + "</section>\n"
  }
}
