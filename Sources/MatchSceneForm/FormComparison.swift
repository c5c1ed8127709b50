/// Every stroke of a match scored against a reference: the given one for strokes of its kind, else the
/// player's own strokes of the same kind (their sample-by-sample median, `StrokeCurves.median`). The
/// spread that deviations are measured in is the reference's own (`ReferenceSpread`); a reference file
/// saved without one borrows the player's own strokes' spread about it.
public struct FormComparison: Sendable {
  public struct Entry: Sendable {
    public var stroke: FormStroke
    public var curves: StrokeCurves
    public var reference: StrokeCurves
    /// `own average (n strokes)` or the reference's name.
    public var referenceName: String
    public var spread: ReferenceSpread?
    public var score: FormScore
  }
  public var entries: [Entry]

  public init(_ result: FormResult, reference: StrokeReference? = nil) {
    var set = ReferenceSet()
    if let reference { try? set.add(reference, file: reference.name, sport: reference.sport ?? "") }
    self.init(result, references: set)
  }

  /// Strokes of a kind in `references` are scored against that reference, mirrored when it was saved for
  /// the other hand (`StrokeReference.forHand`; the reference's name then says so); other strokes against
  /// the player's own.
  public init(_ result: FormResult, references: ReferenceSet) {
    var curves: [(FormStroke, StrokeCurves)] = []
    for s in result.strokes {
      guard let series = result.series(s.track), let c = StrokeCurves(s, series: series) else { continue }
      curves.append((s, c))
    }
    struct Group { var centre: StrokeCurves; var spread: ReferenceSpread?; var count: Int; var members: [StrokeCurves] }
    var groups: [String: Group] = [:]
    for (s, _) in curves where groups["\(s.track)/\(s.kind)"] == nil {
      let same = curves.filter { $0.0.track == s.track && $0.0.kind == s.kind }.map(\.1)
      if let centre = StrokeCurves.median(same) {
        groups["\(s.track)/\(s.kind)"] = Group(
          centre: centre, spread: ReferenceSpread(same, centre: centre), count: same.count, members: same)
      }
    }
    entries = curves.compactMap { s, c in
      guard let group = groups["\(s.track)/\(s.kind)"] else { return nil }
      if let given = references[s.kind] {
        let reference = given.forHand(s.hand)
        let spread = reference.spread ?? ReferenceSpread(group.members, centre: reference.curves)
        let name = reference.mirroredFrom.map { "\(reference.name) (mirrored from the \($0.rawValue) hand)" } ?? reference.name
        return Entry(
          stroke: s, curves: c, reference: reference.curves, referenceName: name, spread: spread,
          score: FormScore.compare(c, with: reference.curves, spread: spread, kind: s.kind))
      }
      return Entry(
        stroke: s, curves: c, reference: group.centre, referenceName: "own average (\(group.count) \(s.kind.rawValue)s)",
        spread: group.spread, score: FormScore.compare(c, with: group.centre, spread: group.spread, kind: s.kind))
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
