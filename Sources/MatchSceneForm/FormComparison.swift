/// Every stroke of a match scored against a reference: the given one for strokes of its kind, else the
/// mean of the same player's strokes of the same kind (their own average).
public struct FormComparison: Sendable {
  public struct Entry: Sendable {
    public var stroke: FormStroke
    public var curves: StrokeCurves
    public var reference: StrokeCurves
    /// `own average (n strokes)` or the reference's name.
    public var referenceName: String
    public var score: FormScore
  }
  public var entries: [Entry]

  public init(_ result: FormResult, reference: StrokeReference? = nil) {
    var curves: [(FormStroke, StrokeCurves)] = []
    for s in result.strokes {
      guard let series = result.series(s.track), let c = StrokeCurves(s, series: series) else { continue }
      curves.append((s, c))
    }
    var averages: [String: (StrokeCurves, Int)] = [:]
    for (s, _) in curves where averages["\(s.track)/\(s.kind)"] == nil {
      let same = curves.filter { $0.0.track == s.track && $0.0.kind == s.kind }.map(\.1)
      if let mean = StrokeCurves.mean(same) { averages["\(s.track)/\(s.kind)"] = (mean, same.count) }
    }
    entries = curves.compactMap { s, c in
      if let reference, reference.kind == s.kind {
        return Entry(stroke: s, curves: c, reference: reference.curves, referenceName: reference.name,
          score: FormScore.compare(c, with: reference.curves))
      }
      guard let (mean, n) = averages["\(s.track)/\(s.kind)"] else { return nil }
      return Entry(stroke: s, curves: c, reference: mean, referenceName: "own average (\(n) \(s.kind.rawValue)s)",
        score: FormScore.compare(c, with: mean))
    }
  }

  /// The terminal summary: per player and kind the number of strokes and the mean score, then the
  /// lowest-scoring stroke's first comment.
  public var summary: String {
    var lines: [String] = []
    let players = entries.map(\.stroke.track).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    for p in players {
      let mine = entries.filter { $0.stroke.track == p }
      let hand = mine.first?.stroke.hand.rawValue ?? "?"
      lines.append("\(p) (\(hand)-handed): \(mine.count) strokes")
      for kind in StrokeKind.allCases {
        let k = mine.filter { $0.stroke.kind == kind }
        guard !k.isEmpty else { continue }
        let mean = k.reduce(0) { $0 + $1.score.score } / Double(k.count)
        let worst = k.min { $0.score.score < $1.score.score }!
        let note = worst.score.comments.first.map { "; stroke \(worst.stroke.number): \($0)" } ?? ""
        lines.append("  \(kind.rawValue): \(k.count), mean score \(String(format: "%.1f", mean)) vs \(k[0].referenceName)\(note)")
      }
    }
    return lines.joined(separator: "\n")
  }
}
