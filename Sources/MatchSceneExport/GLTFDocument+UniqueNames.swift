extension GLTFDocument {
  /// The document with every node name that occurs more than once prefixed by its parent's name:
  /// `nose` under `P2` becomes `P2/nose`; names that occur once are kept.
  ///
  /// For conversions through assimp only. Our own glTF keeps the contract names (each player's keypoint
  /// children are named by keypoint, so they repeat across players), which glTF allows because channels
  /// target nodes by index. assimp binds animation channels by node *name*, so in a converted FBX or
  /// Collada file every player's `nose` channel would drive the first player's `nose` node, and the other
  /// players' joints would not move. A name that still repeats under the same parent name gets `#2`,
  /// `#3`, … in document order.
  public func qualifyingRepeatedNodeNames() -> GLTFDocument {
    guard var nodes, !nodes.isEmpty else { return self }
    var parent = [Int?](repeating: nil, count: nodes.count)
    for (i, node) in nodes.enumerated() {
      for child in node.children ?? [] where nodes.indices.contains(child) { parent[child] = i }
    }
    var count: [String: Int] = [:]
    for node in nodes { if let name = node.name { count[name, default: 0] += 1 } }
    let original = nodes.map(\.name)
    var used = Set(original.compactMap { $0 }.filter { count[$0] == 1 })
    for i in nodes.indices {
      guard let name = original[i], count[name, default: 0] > 1 else { continue }
      let prefix = parent[i].flatMap { original[$0] }.map { "\($0)/" } ?? ""
      var candidate = prefix + name
      var k = 2
      while used.contains(candidate) {
        candidate = "\(prefix)\(name)#\(k)"
        k += 1
      }
      used.insert(candidate)
      nodes[i].name = candidate
    }
    var copy = self
    copy.nodes = nodes
    return copy
  }
}
