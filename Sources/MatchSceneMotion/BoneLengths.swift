import MatchSceneCore

/// Makes every player's limbs keep one length over the match.
///
/// Lengths are estimated robustly per player and bone (the median over all frames where both joints
/// exist). Each frame is then projected onto the constraint set by iterated pairwise corrections
/// (nonlinear Gauss–Seidel on the bone constraints, as in position-based dynamics: Müller et al.,
/// "Position Based Dynamics", VRIPHYS 2006): every bone moves its two joints along their line, in
/// proportion to each joint's uncertainty (its reprojection error), so the best-observed joints move
/// least. A few sweeps bring every bone within a fraction of a millimetre of its length.
public struct BoneLengthConstraint: Sendable {
  /// Gauss–Seidel sweeps per frame.
  public var iterations: Int
  /// Stop when every bone is within this of its length, metres.
  public var tolerance: Double

  public init(iterations: Int = 50, tolerance: Double = 1e-4) {
    self.iterations = iterations
    self.tolerance = tolerance
  }

  /// Median length of each bone (skeleton bone index → metres) of one track.
  public static func lengths(of frames: [[SIMD3<Double>?]], skeleton: Skeleton) -> [Int: Double] {
    var out: [Int: Double] = [:]
    for (b, (i, j)) in skeleton.bones.enumerated() {
      var samples: [Double] = []
      for joints in frames { if let p = joints[i], let q = joints[j] { samples.append(length(p - q)) } }
      guard !samples.isEmpty else { continue }
      samples.sort()
      out[b] = samples[samples.count / 2]
    }
    return out
  }

  /// Per frame of `track`, its joints' positions (nil where missing).
  static func framePositions(_ track: MotionTrack, jointCount: Int) -> [[SIMD3<Double>?]] {
    let n = track.frameCount
    return (0..<n).map { f in
      (0..<jointCount).map { j in
        let s = track.samples[j * n + f]
        return s.isPresent ? s.position : nil
      }
    }
  }

  /// Adjusts one frame's joints to the given bone lengths.
  /// - Parameter weights: per joint, how freely it may move (larger moves more); nil = equal.
  public func apply(_ joints: inout [SIMD3<Double>?], lengths: [Int: Double], skeleton: Skeleton, weights: [Double]? = nil) {
    for _ in 0..<iterations {
      var worst = 0.0
      for (b, (i, j)) in skeleton.bones.enumerated() {
        guard let target = lengths[b], let p = joints[i], let q = joints[j] else { continue }
        let d = q - p
        let current = length(d)
        guard current > 1e-9 else { continue }
        let error = current - target
        worst = max(worst, abs(error))
        let wi = weights?[i] ?? 1, wj = weights?[j] ?? 1
        guard wi + wj > 0 else { continue }
        let direction = d / current
        joints[i] = p + direction * error * wi / (wi + wj)
        joints[j] = q - direction * error * wj / (wi + wj)
      }
      if worst <= tolerance { break }
    }
  }

  /// Applies the constraint to every person's track, in place: lengths per track (median over the
  /// match), then each frame adjusted with each joint free in proportion to its reprojection error (at
  /// least 0.5 px; filled samples count as 0.5 px).
  public func apply(to motion: inout MotionModel) {
    let skeleton = motion.skeleton
    for t in motion.personTracks {
      let track = motion.tracks[t]
      let n = track.frameCount
      let positions = Self.framePositions(track, jointCount: skeleton.count)
      let lengths = Self.lengths(of: positions, skeleton: skeleton)
      for f in 0..<n {
        var joints = positions[f]
        // A joint's freedom grows with its reprojection error (at least 0.5 px).
        let weights = (0..<skeleton.count).map { j -> Double in
          let s = track.samples[j * n + f]
          return max(s.isPresent ? s.reprojectionPx : 1, 0.5)
        }
        apply(&joints, lengths: lengths, skeleton: skeleton, weights: weights)
        for j in 0..<skeleton.count {
          guard let position = joints[j], track.samples[j * n + f].isPresent else { continue }
          motion.tracks[t].samples[j * n + f].position = position
        }
      }
    }
  }
}
