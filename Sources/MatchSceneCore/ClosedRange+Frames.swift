extension ClosedRange where Bound == Int {
  /// A frame range as a command line writes it: `A-B` (A ≤ B) or a single frame `A`; nil for anything
  /// else (a reversed range, an open end, text).
  public init?(frames text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    if parts.count == 1, let a = parts[0] {
      self = a...a
      return
    }
    guard parts.count == 2, let a = parts[0], let b = parts[1], a <= b else { return nil }
    self = a...b
  }
}
