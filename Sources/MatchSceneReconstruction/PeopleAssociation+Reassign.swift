import MatchSceneCore
import MatchSceneGeometry

extension PeopleAssociation {
  /// Re-forms the clusters from their triangulated poses: each camera's detections are given, one to one,
  /// poses from more cameras first and then best first, to the pose whose projection lies nearest them (median pixel distance over at least
  /// three joints), within `maxRayDistance` at the pose's depth. Pairwise ray distances alone can join
  /// the wrong halves of two people standing close together (the epipolar ambiguity of Dong et al. 2019
  /// §3.2), which splits each into two-camera "people"; a pose triangulated robustly from a cluster
  /// follows its consistent majority, so projecting it back and re-assigning every camera's detections
  /// (an assignment step as in k-means, on the reprojection error) joins the halves again.
  /// Detections left over (a person whose only cluster was a wrong pair) are associated afresh
  /// (`associate`) and added.
  /// - Returns: the new clusters (those with at least `minViewsPerPerson` cameras), or nil when nothing
  ///   changed.
  static func reassigned(
    _ clusters: [PersonCluster], poses: [Pose3D], people: [[PersonDetection2D]], cameras: [Camera],
    options: ReconstructionOptions
  ) throws -> [PersonCluster]? {
    guard clusters.count == poses.count, !clusters.isEmpty else { return nil }
    var members = Array(repeating: [Int: Int](), count: poses.count)
    for (c, camera) in cameras.enumerated() where !people[c].isEmpty {
      var candidates: [(cost: Double, pose: Int, detection: Int)] = []
      for (p, pose) in poses.enumerated() {
        let joints = pose.joints.map { $0?.position }
        let present = joints.compactMap { $0 }
        guard present.count >= 3 else { continue }
        let centre = present.reduce(.zero, +) / Double(present.count)
        let depth = camera.camFromWorld.apply(centre).z
        guard depth > 1e-3 else { continue }
        let gatePx = options.maxRayDistance * max(camera.fx, camera.fy) / depth
        let projected = camera.projectJoints(joints)
        for (d, detection) in people[c].enumerated() {
          guard let median = medianPixelDistance(projected, detection, minConfidence: options.triangulation.minConfidence)
          else { continue }
          if median <= gatePx { candidates.append((median, p, d)) }
        }
      }
      // Poses from more cameras choose first (a two-camera pose fits its own pair of detections
      // whatever they are, so it must not outbid a pose that three or more cameras agree on), then by cost.
      let size = clusters.map(\.members.count)
      var takenPose = Set<Int>(), takenDetection = Set<Int>()
      for candidate in candidates.sorted(by: { size[$0.pose] != size[$1.pose] ? size[$0.pose] > size[$1.pose] : $0.cost < $1.cost })
      where !takenPose.contains(candidate.pose) && !takenDetection.contains(candidate.detection) {
        members[candidate.pose][c] = candidate.detection
        takenPose.insert(candidate.pose)
        takenDetection.insert(candidate.detection)
      }
    }
    var out = members.filter { $0.count >= options.minViewsPerPerson }.map { PersonCluster(members: $0) }
    // Detections no pose took (a person whose only cluster was a wrong pair) are associated afresh.
    var taken = Array(repeating: Set<Int>(), count: cameras.count)
    for cluster in out { for (c, d) in cluster.members { taken[c].insert(d) } }
    let left = cameras.indices.map { c in people[c].indices.filter { !taken[c].contains($0) } }
    let rays = try cameras.indices.map { c -> ViewRays? in
      left[c].isEmpty ? nil
        : try ViewRays(camera: cameras[c], people: left[c].map { people[c][$0] }, minConfidence: options.triangulation.minConfidence)
    }
    for cluster in associate(rays: rays, options: options) {
      out.append(PersonCluster(members: cluster.members.reduce(into: [:]) { $0[$1.key] = left[$1.key][$1.value] }))
    }
    return out == clusters ? nil : out
  }

  /// The upper median of the pixel distances between a pose's projected joints and a detection's
  /// keypoints (detected, at `minConfidence` or more), over at least three joints; nil with fewer. The
  /// distances are sorted without allocating (`withSortedValues`).
  static func medianPixelDistance(
    _ projected: [SIMD2<Double>?], _ detection: PersonDetection2D, minConfidence: Double
  ) -> Double? {
    withSortedValues(capacity: projected.count) { emit in
      for (j, pixel) in projected.enumerated() where j < detection.keypoints.count {
        let k = detection.keypoints[j]
        guard let pixel, k.isDetected, k.confidence >= minConfidence else { continue }
        let dx = pixel.x - k.x, dy = pixel.y - k.y
        emit((dx * dx + dy * dy).squareRoot())
      }
    } _: { sorted in
      sorted.count >= 3 ? sorted[sorted.count / 2] : nil
    }
  }
}
