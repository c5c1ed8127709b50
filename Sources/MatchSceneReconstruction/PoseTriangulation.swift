import MatchSceneCore
import MatchSceneGeometry

/// A person's 3D pose in one frame.
struct Pose3D: Sendable {
  /// Per skeleton keypoint: the triangulated point, or nil.
  var joints: [TriangulatedPoint?]
  /// Cameras that contributed (indices into the camera list).
  var cameras: [Int]
  /// Per joint and camera, joint-major (`viewErrors[joint * cameraCount + camera]`): the pixel
  /// reprojection error, and whether the view was used (nil where the camera had no observation or the
  /// joint failed). One flat array: a 10-minute match holds 100,000 poses until they are linked.
  var viewErrors: [(error: Double, used: Bool)?] = []
  /// Cameras per joint in `viewErrors`.
  var cameraCount = 0

  /// Bones whose lengths make a body's signature: both upper arms, forearms, thighs, shanks, and the
  /// shoulder and hip widths (those the skeleton has).
  static func signatureLimbs(_ skeleton: Skeleton) -> [(Int, Int)] {
    let names = [
      ("left_shoulder", "left_elbow"), ("right_shoulder", "right_elbow"), ("left_elbow", "left_wrist"),
      ("right_elbow", "right_wrist"), ("left_hip", "left_knee"), ("right_hip", "right_knee"),
      ("left_knee", "left_ankle"), ("right_knee", "right_ankle"), ("left_shoulder", "right_shoulder"),
      ("left_hip", "right_hip"), ("left_shoulder", "left_hip"), ("right_shoulder", "right_hip"),
    ]
    return names.compactMap { a, b in
      guard let i = skeleton.index(of: a), let j = skeleton.index(of: b) else { return nil }
      return (i, j)
    }
  }

  /// This pose's length of each limb (nil where a joint is missing).
  func limbLengths(_ limbs: [(Int, Int)]) -> [Double?] {
    limbs.map { i, j in
      guard let a = joints[i]?.position, let b = joints[j]?.position else { return nil }
      return length(a - b)
    }
  }

  /// Coordinate-wise median of the torso joints (shoulders and hips) when at least two are present,
  /// else of all joints. The median, not the mean: one outlying joint (a keypoint detected on the
  /// wrong body part and triangulated a metre away) must not move the centre that tracking follows —
  /// at 2× keypoint noise one such joint moved a player's mean centre 0.33 m in one frame, the
  /// implied 20 m/s threw his track's prediction off, and a bystander's track took him.
  func centre(torso: [Int]) -> SIMD3<Double>? {
    let torsoPoints = torso.compactMap { $0 < joints.count ? joints[$0]?.position : nil }
    let points = torsoPoints.count >= 2 ? torsoPoints : joints.compactMap { $0?.position }
    guard !points.isEmpty else { return nil }
    let median = MatchSceneCore.median
    return SIMD3(median(points.map(\.x)), median(points.map(\.y)), median(points.map(\.z)))
  }
}

/// Triangulates the people of one frame, repairing left/right swaps per view first.
enum PoseTriangulation {
  /// Per cluster, per camera: its detection.
  static func views(clusters: [PersonCluster], people: [[PersonDetection2D]], cameras m: Int) -> [[PersonDetection2D?]] {
    clusters.map { cluster in (0..<m).map { c in cluster.members[c].map { people[c][$0] } } }
  }

  /// Point-major observations (person · keypoints + joint, then camera) of `views`.
  static func observations(_ views: [[PersonDetection2D?]], keypoints k: Int, cameras m: Int) -> [Keypoint2D] {
    var obs = [Keypoint2D](repeating: .missing, count: views.count * k * m)
    for (p, perCamera) in views.enumerated() {
      for c in 0..<m {
        guard let detection = perCamera[c] else { continue }
        for j in 0..<min(k, detection.keypoints.count) { obs[(p * k + j) * m + c] = detection.keypoints[j] }
      }
    }
    return obs
  }

  /// Each view's squared reprojection error and its degrees of freedom, per camera, for `CameraNoise`:
  /// every joint of every cluster is triangulated with `triangulator`; a view the fit used has 2 − h
  /// degrees of freedom, h = w · tr(J (Σ wᵢ JᵢᵀJᵢ)⁻¹ Jᵀ) its leverage (the trace of its 2×2 block of the
  /// weighted least-squares hat matrix, weight w = confidence / σ²), a view it did not use has 2. A view
  /// pulls the point towards itself by its leverage, so its error understates its noise, the more so the
  /// more it weighs: E|r|² = σ²(2 − h) when the weights are right (Förstner 1979; Koch, "Parameter
  /// Estimation and Hypothesis Testing in Linear Models", 1999, §3.6: Helmert's variance components).
  static func correctedSquaredErrors(
    clusters: [PersonCluster], people: [[PersonDetection2D]], cameras: [Camera], keypoints k: Int,
    triangulator: Triangulator
  ) throws -> [[CameraNoise.ViewError]] {
    let m = cameras.count
    let obs = observations(views(clusters: clusters, people: people, cameras: m), keypoints: k, cameras: m)
    var out = Array(repeating: [CameraNoise.ViewError](), count: m)
    guard !obs.isEmpty else { return out }
    let batch = try triangulator.triangulate(obs)
    let options = triangulator.options
    for p in 0..<batch.pointCount {
      guard let point = batch.point(p)?.position else { continue }
      var normal = Symmetric3()
      var views: [(camera: Int, residual: SIMD2<Double>, jacobian: (SIMD3<Double>, SIMD3<Double>), weight: Double, used: Bool)] = []
      for c in 0..<m {
        let o = obs[p * m + c]
        guard o.isDetected, o.confidence >= options.minConfidence, o.confidence > 0,
          let jacobian = Self.projectionJacobian(cameras[c], at: point), let pixel = cameras[c].project(point)
        else { continue }
        let sigma = triangulator.noiseScalesPx?[c] ?? 1
        let weight = (options.confidenceWeighting ? o.confidence : 1) / (sigma * sigma)
        let used = batch.isUsed(point: p, camera: c)
        if used { normal.add(jacobian.0, weight: weight); normal.add(jacobian.1, weight: weight) }
        views.append((c, pixel - SIMD2(o.x, o.y), jacobian, weight, used))
      }
      guard views.filter(\.used).count >= 2, let inverse = normal.inverse else { continue }
      for view in views {
        let r = view.residual
        let h = view.used ? view.weight * (inverse.quadratic(view.jacobian.0) + inverse.quadratic(view.jacobian.1)) : 0
        guard 2 - h >= 0.05 else { continue }
        out[view.camera].append(.init(squared: r.x * r.x + r.y * r.y, freedom: 2 - h))
      }
    }
    return out
  }

  /// d(pixel)/d(point) of `camera` at `point`: its two rows (d u / d point, d v / d point), pixels per
  /// metre, by central differences over 1 mm; nil when the point is behind the camera.
  static func projectionJacobian(_ camera: Camera, at point: SIMD3<Double>) -> (SIMD3<Double>, SIMD3<Double>)? {
    let step = 1e-3
    var du = SIMD3<Double>(repeating: 0), dv = SIMD3<Double>(repeating: 0)
    for axis in 0..<3 {
      var d = SIMD3<Double>(repeating: 0)
      d[axis] = step
      guard let plus = camera.project(point + d), let minus = camera.project(point - d) else { return nil }
      du[axis] = (plus.x - minus.x) / (2 * step)
      dv[axis] = (plus.y - minus.y) / (2 * step)
    }
    return (du, dv)
  }

  /// - Parameters:
  ///   - clusters: associated detections.
  ///   - people: per camera, that camera's detections this frame.
  static func triangulate(
    clusters: [PersonCluster], people: [[PersonDetection2D]], cameras: [Camera], skeleton: Skeleton,
    triangulator: Triangulator
  ) throws -> [Pose3D] {
    let m = cameras.count, k = skeleton.count
    guard !clusters.isEmpty else { return [] }
    // One batch for every joint of every person in the frame.
    func observations(_ views: [[PersonDetection2D?]]) -> [Keypoint2D] { Self.observations(views, keypoints: k, cameras: m) }
    var views = Self.views(clusters: clusters, people: people, cameras: m)
    let firstObservations = observations(views)
    var batch = try triangulator.triangulate(firstObservations)
    // Left/right swap repair (in the kernel): a view whose keypoints fit the 3D pose better mirrored is
    // mirrored, for people seen by at least three cameras (with two, the estimate follows either view).
    if !skeleton.mirrorPairs.isEmpty {
      let mirrored = try triangulator.mirroredViews(
        firstObservations, batch: batch, keypointCount: k, pairs: skeleton.mirrorPairs)
      var repaired = false
      for p in 0..<views.count where views[p].compactMap({ $0 }).count >= 3 {
        for c in 0..<m where mirrored[p * m + c] {
          guard var detection = views[p][c] else { continue }
          for (l, r) in skeleton.mirrorPairs where l < detection.keypoints.count && r < detection.keypoints.count {
            detection.keypoints.swapAt(l, r)
          }
          views[p][c] = detection
          repaired = true
        }
      }
      if repaired { batch = try triangulator.triangulate(observations(views)) }
    }
    // Per person: the batch holding its points and where they start in it.
    var own: [(batch: TriangulationBatch, first: Int)] = (0..<views.count).map { (batch, $0 * k) }
    if let cameraScales = triangulator.noiseScalesPx, triangulator.options.robust, m >= PersonNoise.minCameras {
      let finalObservations = observations(views)
      // Only the points the gate failed, triangulated again without it.
      var fallback: (batch: TriangulationBatch, index: [Int])?
      let failed = (0..<batch.pointCount).filter { batch.status($0) != .ok }
      if !failed.isEmpty {
        var plain = triangulator.options
        plain.robust = false
        var index = [Int](repeating: -1, count: batch.pointCount)
        for (i, p) in failed.enumerated() { index[p] = i }
        let subset = failed.flatMap { p in finalObservations[(p * m)..<((p + 1) * m)] }
        fallback = (try Triangulator(cameras: cameras, options: plain, noiseScalesPx: cameraScales).triangulate(subset), index)
      }
      let errors = PersonNoise.viewErrors(
        batch: batch, fallback: fallback, observations: finalObservations, keypoints: k, cameraScales: cameraScales,
        options: triangulator.options)
      for (p, scales) in PersonNoise.scales(errors, cameraScales: cameraScales).enumerated() {
        guard let scales else { continue }
        let widened = try Triangulator(cameras: cameras, options: triangulator.options, noiseScalesPx: scales)
        own[p] = (try widened.triangulate(Array(finalObservations[(p * k * m)..<((p + 1) * k * m)])), 0)
      }
    }
    return (0..<views.count).map { p in
      let (batch, first) = own[p]
      return Pose3D(
        joints: (0..<k).map { batch.point(first + $0) },
        cameras: (0..<m).filter { views[p][$0] != nil },
        viewErrors: (0..<(k * m)).map { i in
          let (j, c) = i.quotientAndRemainder(dividingBy: m)
          return batch.reprojectionPx(point: first + j, camera: c).map { ($0, batch.isUsed(point: first + j, camera: c)) }
        },
        cameraCount: m)
    }
  }
}

/// A symmetric 3×3 matrix (upper triangle), for the hat-matrix leverages of `correctedSquaredErrors`.
struct Symmetric3 {
  var a00 = 0.0, a01 = 0.0, a02 = 0.0, a11 = 0.0, a12 = 0.0, a22 = 0.0

  /// Adds weight · v vᵀ.
  mutating func add(_ v: SIMD3<Double>, weight w: Double) {
    a00 += w * v.x * v.x; a01 += w * v.x * v.y; a02 += w * v.x * v.z
    a11 += w * v.y * v.y; a12 += w * v.y * v.z; a22 += w * v.z * v.z
  }

  /// The inverse by cofactors; nil when (nearly) singular relative to the matrix's size.
  var inverse: Symmetric3? {
    let c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11
    let det = a00 * c00 + a01 * c01 + a02 * c02
    let scale = max(a00, a11, a22)
    guard det.isFinite, det > 1e-12 * scale * scale * scale else { return nil }
    var out = Symmetric3()
    out.a00 = c00 / det; out.a01 = c01 / det; out.a02 = c02 / det
    out.a11 = (a00 * a22 - a02 * a02) / det
    out.a12 = (a01 * a02 - a00 * a12) / det
    out.a22 = (a00 * a11 - a01 * a01) / det
    return out
  }

  /// vᵀ A v.
  func quadratic(_ v: SIMD3<Double>) -> Double {
    a00 * v.x * v.x + a11 * v.y * v.y + a22 * v.z * v.z + 2 * (a01 * v.x * v.y + a02 * v.x * v.z + a12 * v.y * v.z)
  }
}
