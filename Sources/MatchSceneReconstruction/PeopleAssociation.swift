import MatchSceneCore

/// One person as seen across cameras in one frame: per camera index, the index of its detection.
struct PersonCluster: Sendable, Equatable {
  var members: [Int: Int]
}

/// Cross-view association of the people detected in one frame.
///
/// Every pair of detections from two different cameras is scored by the median distance between
/// their joints' viewing rays (the 3D form of the epipolar affinity of Dong et al., "Fast and Robust
/// Multi-Person 3D Pose Estimation from Multiple Views", CVPR 2019). Pairs are merged greedily from the
/// best score up, never putting two detections of the same camera into one person, which keeps the
/// matching consistent across all cameras (cycle-consistent by construction) at O(P² C²) per frame.
enum PeopleAssociation {
  /// An unordered pair of detection keys (camera · 4096 + person).
  struct Pair: Hashable {
    let low: Int, high: Int
    init(_ a: Int, _ b: Int) { (low, high) = a < b ? (a, b) : (b, a) }
  }

  static func associate(rays: [ViewRays?], options: ReconstructionOptions) -> [PersonCluster] {
    struct Edge { var cost: Double; var a: (Int, Int); var b: (Int, Int) }
    var edges: [Edge] = []
    var pairDistance: [Pair: Double] = [:]
    for ci in 0..<rays.count {
      guard let ri = rays[ci] else { continue }
      for cj in (ci + 1)..<max(ci + 1, rays.count) {
        guard let rj = rays[cj] else { continue }
        for pa in 0..<ri.directions.count {
          for pb in 0..<rj.directions.count {
            guard let d = ri.distance(person: pa, to: rj, person: pb, minShared: options.minSharedJoints)
            else { continue }
            pairDistance[Pair(ci * 4096 + pa, cj * 4096 + pb)] = d
            guard d <= options.maxRayDistance else { continue }
            edges.append(Edge(cost: d, a: (ci, pa), b: (cj, pb)))
          }
        }
      }
    }
    edges.sort { $0.cost < $1.cost }
    // Union of clusters that never hold two detections of one camera.
    var clusterOf: [Int: Int] = [:]  // key camera * 4096 + person
    var clusters: [[Int: Int]] = []
    func key(_ v: (Int, Int)) -> Int { v.0 * 4096 + v.1 }
    /// A member may join a cluster only if it is not far from any member it can be compared with.
    func compatible(_ member: (Int, Int), _ cluster: [Int: Int]) -> Bool {
      cluster.allSatisfy { camera, person in
        (pairDistance[Pair(key(member), camera * 4096 + person)] ?? 0) <= 2 * options.maxRayDistance
      }
    }
    for edge in edges {
      let ka = clusterOf[key(edge.a)], kb = clusterOf[key(edge.b)]
      switch (ka, kb) {
      case (nil, nil):
        clusters.append([edge.a.0: edge.a.1, edge.b.0: edge.b.1])
        clusterOf[key(edge.a)] = clusters.count - 1
        clusterOf[key(edge.b)] = clusters.count - 1
      case (let c?, nil):
        if clusters[c][edge.b.0] == nil, compatible(edge.b, clusters[c]) {
          clusters[c][edge.b.0] = edge.b.1
          clusterOf[key(edge.b)] = c
        }
      case (nil, let c?):
        if clusters[c][edge.a.0] == nil, compatible(edge.a, clusters[c]) {
          clusters[c][edge.a.0] = edge.a.1
          clusterOf[key(edge.a)] = c
        }
      case (let c1?, let c2?):
        guard c1 != c2, Set(clusters[c1].keys).isDisjoint(with: clusters[c2].keys),
          clusters[c2].allSatisfy({ compatible(($0.key, $0.value), clusters[c1]) })
        else { continue }
        for (camera, person) in clusters[c2] {
          clusters[c1][camera] = person
          clusterOf[camera * 4096 + person] = c1
        }
        clusters[c2] = [:]
      }
    }
    return clusters.filter { $0.count >= options.minViewsPerPerson }.map { PersonCluster(members: $0) }
  }
}
