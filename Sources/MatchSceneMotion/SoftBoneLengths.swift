import MatchSceneCore

/// Bone lengths as a weighted term rather than a hard constraint: each frame's joints minimise
///
///   Σⱼ |xⱼ − x̂ⱼ|² / σⱼ²  +  Σ_b (|xᵢ − xⱼ| − L_b)² / σ_b²,
///
/// where x̂ⱼ is the measured (smoothed) joint, σⱼ its uncertainty in metres (its reprojection error, at
/// least `minJointPx`, times the metres one pixel spans there), L_b the bone's median length over the
/// track and σ_b the bone's robust spread over the track (1.4826 × MAD). The minimiser is found by
/// extended position-based dynamics with one quasi-static step — the constraint compliance α = σ_b²
/// and each joint's inverse mass σⱼ² (Macklin, Müller & Chentanez, "XPBD: Position-Based Simulation of
/// Compliant Constrained Dynamics", MIG 2016, eqs. 17–18) — whose Gauss–Seidel sweeps converge to that
/// weighted least-squares point. After each sweep a joint further than its tolerance (`tolerancePx`
/// reprojection pixels, or its own error if larger) from its measurement is put back on that sphere, so
/// no joint leaves its reprojection tolerance in the views that made it.
public struct SoftBoneLengths: Sendable {
  /// Metres that one pixel spans at a point of the motion's frame (the strictest camera's depth / focal
  /// length there).
  public var metresPerPixel: @Sendable (SIMD3<Double>) -> Double
  /// Least uncertainty of a joint, pixels (a joint that fits its views exactly is still not exact).
  public var minJointPx = 0.5
  /// How far a joint may move from its measurement, pixels (its own reprojection error if larger).
  public var tolerancePx = 2.0
  /// Gauss–Seidel sweeps per frame.
  public var iterations = 30
  /// σ_b as a share of the bone's measured spread over the track (1: the spread itself, estimated from
  /// the data; smaller holds lengths stiffer, within each joint's tolerance).
  public var boneSpreadScale = 1.0

  public init(metresPerPixel: @escaping @Sendable (SIMD3<Double>) -> Double) {
    self.metresPerPixel = metresPerPixel
  }

  /// Robust spread of each bone's length over a track (1.4826 × the median absolute deviation), metres;
  /// at least 1 mm.
  public static func spreads(of frames: [[SIMD3<Double>?]], lengths: [Int: Double], skeleton: Skeleton) -> [Int: Double] {
    var out: [Int: Double] = [:]
    for (b, (i, j)) in skeleton.bones.enumerated() {
      guard let median = lengths[b] else { continue }
      var deviations: [Double] = []
      for joints in frames { if let p = joints[i], let q = joints[j] { deviations.append(abs(length(p - q) - median)) } }
      guard !deviations.isEmpty else { continue }
      deviations.sort()
      out[b] = max(1e-3, 1.4826 * deviations[deviations.count / 2])
    }
    return out
  }

  /// Adjusts one frame's joints.
  /// - Parameters:
  ///   - sigmas: per joint, its uncertainty, metres (> 0).
  ///   - radii: per joint, how far it may move, metres.
  public func apply(
    _ joints: inout [SIMD3<Double>?], lengths: [Int: Double], spreads: [Int: Double], sigmas: [Double], radii: [Double],
    skeleton: Skeleton
  ) {
    let bones = skeleton.bones.indices.map { b in lengths[b].flatMap { l in spreads[b].map { (l, $0) } } }
    apply(&joints, bones: bones, sigmas: sigmas, radii: radii, skeleton: skeleton)
  }

  /// `apply(_:lengths:spreads:sigmas:radii:skeleton:)` with each bone's (length, spread) in an array by
  /// bone index (nil: the bone is left free), so that the per-frame loop does no hashing.
  func apply(
    _ joints: inout [SIMD3<Double>?], bones: [(length: Double, spread: Double)?], sigmas: [Double], radii: [Double],
    skeleton: Skeleton
  ) {
    let measured = joints
    var lambdas = [Double](repeating: 0, count: skeleton.bones.count)
    for _ in 0..<iterations {
      for (b, (i, j)) in skeleton.bones.enumerated() {
        guard let (target, spread) = bones[b], let p = joints[i], let q = joints[j] else { continue }
        let d = q - p
        let current = length(d)
        guard current > 1e-9 else { continue }
        let n = d / current
        // C = |q − p| − L; ∇_p C = −n, ∇_q C = n; inverse masses σ², compliance α = σ_b².
        let wi = sigmas[i] * sigmas[i], wj = sigmas[j] * sigmas[j], alpha = spread * spread * boneSpreadScale * boneSpreadScale
        let dLambda = (-(current - target) - alpha * lambdas[b]) / (wi + wj + alpha)
        lambdas[b] += dLambda
        joints[i] = p - wi * dLambda * n
        joints[j] = q + wj * dLambda * n
      }
      for k in joints.indices {
        guard let x = joints[k], let m = measured[k] else { continue }
        let offset = x - m
        let distance = length(offset)
        if distance > radii[k] { joints[k] = m + offset * (radii[k] / distance) }
      }
    }
  }

  /// Applies the soft bone term to every person's track, in place (lengths and spreads per track).
  /// Frames are independent of each other: they are adjusted in parallel blocks, each frame exactly as
  /// alone, so the result does not depend on the number of threads.
  public func apply(to motion: inout MotionModel) {
    let skeleton = motion.skeleton
    for t in motion.personTracks {
      let track = motion.tracks[t]
      let n = track.frameCount
      let positions = BoneLengthConstraint.framePositions(track, jointCount: skeleton.count)
      let lengths = BoneLengthConstraint.lengths(of: positions, skeleton: skeleton)
      let spreads = Self.spreads(of: positions, lengths: lengths, skeleton: skeleton)
      let bones = skeleton.bones.indices.map { b in lengths[b].flatMap { l in spreads[b].map { (length: l, spread: $0) } } }
      let block = 256
      let blocks = Array(stride(from: 0, to: n, by: block))
      let adjusted = try! parallelMap(blocks) { start in
        (start..<min(n, start + block)).map { f in adjustedFrame(f, track: track, positions: positions, bones: bones, skeleton: skeleton) }
      }
      for (start, frames) in zip(blocks, adjusted) {
        for (k, joints) in frames.enumerated() {
          let f = start + k
          for j in 0..<skeleton.count {
            guard let position = joints[j], track.samples[j * n + f].isPresent else { continue }
            motion.tracks[t].samples[j * n + f].position = position
          }
        }
      }
    }
  }

  /// Frame `f` of `track` adjusted (its joints from `positions`).
  func adjustedFrame(
    _ f: Int, track: MotionTrack, positions: [[SIMD3<Double>?]], bones: [(length: Double, spread: Double)?], skeleton: Skeleton
  ) -> [SIMD3<Double>?] {
    let n = track.frameCount
    var joints = positions[f]
    var sigmas = [Double](repeating: 1, count: skeleton.count), radii = [Double](repeating: 0, count: skeleton.count)
    for j in 0..<skeleton.count {
      guard let x = joints[j] else { continue }
      let s = track.samples[j * n + f]
      let scale = metresPerPixel(x)
      // Filled samples have no reprojection error of their own: they count as one pixel.
      let px = s.state == .measured && s.reprojectionPx >= 0 ? s.reprojectionPx : 1
      sigmas[j] = max(px, minJointPx) * scale
      radii[j] = max(px, tolerancePx) * scale
    }
    apply(&joints, bones: bones, sigmas: sigmas, radii: radii, skeleton: skeleton)
    return joints
  }
}
