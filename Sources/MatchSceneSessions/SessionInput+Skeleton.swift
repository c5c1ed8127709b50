import MatchSceneCore

extension SessionInput {
  /// The skeleton of `tracks.csv`'s rows, so that the session written back (`SessionStore.export`) has its
  /// rows in the same order as the file read (`MotionModel.forEachRow` writes a track's joints in skeleton
  /// order):
  /// 1. `report.json`'s joints (every keypoint of the reconstruction's skeleton, in its order), when they
  ///    name every joint of the rows: the built-in skeleton with exactly those keypoints (its bones with
  ///    it), else a custom skeleton of them.
  /// 2. Else the smallest built-in skeleton holding every joint whose order agrees with the rows'.
  /// 3. Else a custom skeleton of the joints in the order the rows give them (a topological order of
  ///    "joint a came right before joint b in one track's frame", ties by first appearance).
  /// A custom skeleton has no bones: `tracks.csv` does not carry them.
  static func skeleton(of points: [TrackPoint], reportJoints: [String]? = nil) -> Skeleton {
    var names: [String] = []
    var seen = Set<String>()
    for p in points where p.kind != .ball && seen.insert(p.joint).inserted { names.append(p.joint) }
    if let reportJoints, !reportJoints.isEmpty, Set(reportJoints).count == reportJoints.count,
      Set(reportJoints).isSuperset(of: seen)
    {
      return Skeleton.builtInSkeletons.first { $0.keypoints == reportJoints }
        ?? Skeleton(name: "custom", keypoints: reportJoints, bones: [])
    }
    if names.isEmpty { return .coco17 }
    let before = precedence(points, names: names)
    func agrees(_ order: [String]) -> Bool {
      let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
      return before.allSatisfy { (rank[$0.a] ?? .max) < (rank[$0.b] ?? .max) }
    }
    let fitting = Skeleton.builtInSkeletons.filter { Set($0.keypoints).isSuperset(of: seen) && agrees($0.keypoints) }
    if let best = fitting.min(by: { $0.count < $1.count }) { return best }
    return Skeleton(name: "custom", keypoints: rowOrder(names, before: before), bones: [])
  }

  /// Pairs (a, b) of joints where a's row came right before b's in the same track and frame.
  static func precedence(_ points: [TrackPoint], names: [String]) -> Set<Pair> {
    var pairs = Set<Pair>()
    var previous: TrackPoint?
    for p in points where p.kind != .ball {
      if let q = previous, q.frame == p.frame, q.track == p.track, q.joint != p.joint { pairs.insert(Pair(q.joint, p.joint)) }
      previous = p
    }
    return pairs
  }

  struct Pair: Hashable {
    var a: String, b: String
    init(_ a: String, _ b: String) {
      self.a = a
      self.b = b
    }
  }

  /// `names` ordered so that every pair of `before` keeps its order (Kahn's algorithm, taking the
  /// earliest-appearing joint among those ready); joints in a cycle (rows in no single order) follow in
  /// order of appearance.
  static func rowOrder(_ names: [String], before: Set<Pair>) -> [String] {
    var incoming = Dictionary(names.map { ($0, 0) }, uniquingKeysWith: { a, _ in a })
    var next: [String: [String]] = [:]
    for p in before {
      incoming[p.b, default: 0] += 1
      next[p.a, default: []].append(p.b)
    }
    var order: [String] = []
    var placed = Set<String>()
    while order.count < names.count {
      guard let ready = names.first(where: { !placed.contains($0) && incoming[$0] == 0 })
        ?? names.first(where: { !placed.contains($0) })
      else { break }
      order.append(ready)
      placed.insert(ready)
      for b in next[ready] ?? [] { incoming[b, default: 0] -= 1 }
    }
    return order
  }
}
