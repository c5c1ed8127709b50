import MatchSceneCore
import MatchSceneGeometry

/// A metric, upright world for a rig posed up to a similarity (`PlayerRig`), from a stated body height:
///
/// - Scale: the people's limbs. Each limb's length is its median over the people-frames (a limb is rigid:
///   the median ignores poses and most bad keypoints), and the stature they imply is their sum over the
///   sum of their shares of stature (shank 0.246, thigh 0.245, upper arm 0.186, forearm 0.146: Drillis &
///   Contini 1966, in Winter, "Biomechanics and motor control of human movement", 4th ed., 2009, Fig. 4.1).
///   Every person seen counts alike, so the stated height is the people's typical height.
/// - Up: the direction most nearly perpendicular to every camera's x axis (cameras are mounted without
///   roll), signed along the cameras' image-up (−y) axes.
/// - Origin: on the floor below the median of the people's ankles (the floor lies the ankle's height,
///   0.039 of stature, below the ankle's centre); x along the reference camera's view, made horizontal.
public enum StatureScale {
  /// A limb by its two keypoint names, and its share of stature.
  static let limbs: [(String, String, Double)] = [
    ("left_knee", "left_ankle", 0.246), ("right_knee", "right_ankle", 0.246),
    ("left_hip", "left_knee", 0.245), ("right_hip", "right_knee", 0.245),
    ("left_shoulder", "left_elbow", 0.186), ("right_shoulder", "right_elbow", 0.186),
    ("left_elbow", "left_wrist", 0.146), ("right_elbow", "right_wrist", 0.146),
  ]
  static let ankleShare = 0.039

  /// The transform found, and what it measured.
  public struct Outcome: Sendable {
    public var similarity: Similarity3
    /// The people's stature in the rig's own units, before scaling.
    public var measuredStature: Double
    /// Limb lengths measured (people-frames × limbs).
    public var limbSamples: Int
  }

  /// - Parameters:
  ///   - points, keys: the rig's points and their keys (`PlayerRig.Outcome`).
  ///   - stature: the people's height, metres.
  /// - Returns: nil when the skeleton names none of the limbs, or no limb was measured.
  public static func fit(
    cameras: [Camera], reference: Int, points: [SIMD3<Double>], keys: [PlayerRig.Key], skeleton: Skeleton, stature: Double
  ) -> Outcome? {
    var byPerson: [PlayerRig.FramePerson: [Int: SIMD3<Double>]] = [:]
    for (p, key) in zip(points, keys) where key.person >= 0 {
      byPerson[PlayerRig.FramePerson(frame: key.frame, person: key.person), default: [:]][key.joint] = p
    }
    var lengths = 0.0, shares = 0.0, samples = 0
    for (a, b, share) in limbs {
      guard let ia = skeleton.index(of: a), let ib = skeleton.index(of: b) else { continue }
      let measured = byPerson.values.compactMap { joints -> Double? in
        guard let pa = joints[ia], let pb = joints[ib] else { return nil }
        return length(pa - pb)
      }
      guard !measured.isEmpty else { continue }
      lengths += median(measured)
      shares += share
      samples += measured.count
    }
    guard shares > 0, lengths > 0 else { return nil }
    let measuredStature = lengths / shares
    let scale = stature / measuredStature
    // Up: the least eigenvector of Σ x xᵀ over the cameras' x axes.
    let axes = cameras.map { $0.camFromWorld.rotation.transposed * SIMD3<Double>(1, 0, 0) }
    var up = leastDirection(axes)
    let imageUp = cameras.reduce(SIMD3<Double>.zero) { $0 + $1.camFromWorld.rotation.transposed * SIMD3<Double>(0, -1, 0) }
    if dot(up, imageUp) < 0 { up = -up }
    let view = cameras[reference].camFromWorld.rotation.transposed * SIMD3<Double>(0, 0, 1)
    var xAxis = view - dot(view, up) * up
    if length(xAxis) < 1e-9 { xAxis = axes[reference] - dot(axes[reference], up) * up }
    xAxis = normalize(xAxis)
    let yAxis = cross(up, xAxis)
    // Rows: the new axes in the old frame.
    let rotation = Matrix3(rows: xAxis, yAxis, up)
    var ankles: [SIMD3<Double>] = []
    for name in ["left_ankle", "right_ankle"] {
      guard let j = skeleton.index(of: name) else { continue }
      ankles += byPerson.values.compactMap { $0[j] }
    }
    var origin = SIMD3<Double>.zero
    if !ankles.isEmpty {
      let turned = ankles.map { rotation * $0 }
      origin = SIMD3(median(turned.map(\.x)), median(turned.map(\.y)), median(turned.map(\.z)) - ankleShare * measuredStature)
    }
    let similarity = Similarity3(scale: scale, rotation: rotation, translation: -scale * origin)
    return Outcome(similarity: similarity, measuredStature: measuredStature, limbSamples: samples)
  }

  /// The unit vector v minimising Σ (v · a)² over `vectors` (the least eigenvector of their scatter),
  /// by inverse power iteration on the scatter matrix shifted to be well conditioned.
  static func leastDirection(_ vectors: [SIMD3<Double>]) -> SIMD3<Double> {
    // The cross product of the two most different axes is a good start; a few power steps on
    // (trace·I − S) converge to the least eigenvector of S.
    var s = [[Double]](repeating: [0, 0, 0], count: 3)
    for v in vectors { for i in 0..<3 { for j in 0..<3 { s[i][j] += v[i] * v[j] } } }
    let trace = s[0][0] + s[1][1] + s[2][2]
    var v = SIMD3<Double>(0, 0, 1)
    if vectors.count >= 2 {
      var best = 0.0
      for a in vectors { for b in vectors { let c = cross(a, b); if length(c) > best { best = length(c); v = normalize(c) } } }
    }
    for _ in 0..<200 {
      var w = SIMD3<Double>.zero
      for i in 0..<3 { w[i] = trace * v[i] - (s[i][0] * v[0] + s[i][1] * v[1] + s[i][2] * v[2]) }
      guard length(w) > 0 else { break }
      v = normalize(w)
    }
    return v
  }
}
