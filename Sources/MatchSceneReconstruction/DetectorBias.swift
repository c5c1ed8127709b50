import Foundation
import MatchSceneCore
import MatchSceneGeometry

/// A keypoint detector's systematic offset per camera and joint, estimated from the match itself and
/// removed from the detections before the final reconstruction.
///
/// A detector trained on other annotations places a joint a few pixels off, the same way in every frame
/// of a camera. Of each camera's offset the part that is a common 3D shift of the joint cannot be seen
/// (the triangulation absorbs it), but the rest shows as that camera's mean residual for the joint over
/// the match. Removing it makes the views of a joint agree, so that a subset of them — when a view is
/// occluded, missed or gated — triangulates to where all of them do instead of jumping by that subset's
/// own bias. This is the "additional parameters" idea of photogrammetric self-calibration (D. C. Brown,
/// "The bundle adjustment — progress and prospects", 1976; systematic image errors estimated with the
/// network) for a detector instead of a lens.
///
/// Each offset is the median residual, shrunk toward zero by its own uncertainty against the spread of
/// all offsets (empirical Bayes, B. Efron & C. Morris, "Data analysis using Stein's estimator and its
/// generalizations", JASA 70, 1975): offset = m · σ_b² / (σ_b² + SE²), σ_b² = mean(m²) − mean(SE²), the
/// variance component of the bias (method of moments). When the offsets are not significant as a whole
/// (χ² of m / SE against its number of components, one-sided p < 0.001) nothing is changed.
public struct DetectorBias: Equatable, Sendable {
  /// Per camera name, per joint: the offset to subtract from detected keypoints, pixels.
  public var offsets: [String: [Int: SIMD2<Double>]]
  /// √σ_b²: the bias's estimated standard deviation per axis, pixels.
  public var sigmaPx: Double
  /// Σ (m / SE)² and its number of components.
  public var chiSquare: Double
  public var components: Int

  public init(offsets: [String: [Int: SIMD2<Double>]], sigmaPx: Double, chiSquare: Double, components: Int) {
    self.offsets = offsets
    self.sigmaPx = sigmaPx
    self.chiSquare = chiSquare
    self.components = components
  }

  /// Whether the offsets are significant as a whole (χ² above K + 3.09 √(2K), the normal approximation
  /// of the χ² law's upper 0.1 % point).
  public var isSignificant: Bool {
    components > 0 && sigmaPx > 0
      && chiSquare > Double(components) + 3.09 * (2 * Double(components)).squareRoot()
  }

  /// Settings of the estimate.
  public struct Options: Sendable {
    public var gatePx = 120.0
    public var minConfidence = 0.3
    /// People-frames sampled at most (spread evenly over the match).
    public var maxPoses = 4000
    /// A (camera, joint) needs this many residuals to get an offset.
    public var minResiduals = 30
    public init() {}
  }

  /// Estimates the offsets from the residuals of `motion`'s measured joints against every camera's
  /// nearest detection (`CalibrationEvidence.forEachMatchedPose`), whether or not the view was used.
  public static func estimate(match: Match, motion: MotionModel, options: Options = .init())
    -> DetectorBias
  {
    var residuals: [[Int: [SIMD2<Double>]]] = Array(repeating: [:], count: match.cameras.count)
    CalibrationEvidence.forEachMatchedPose(
      match: match, motion: motion, maxPoses: options.maxPoses, minConfidence: options.minConfidence,
      gatePx: options.gatePx
    ) { _, _, matched in
      for m in matched {
        guard let p = m.projected else { continue }
        residuals[m.camera][m.joint, default: []].append(SIMD2(m.keypoint.x, m.keypoint.y) - p)
      }
    }
    return fit(residuals, names: match.cameras.map(\.name), minResiduals: options.minResiduals)
  }

  /// The shrunk offsets of per-(camera, joint) residual samples.
  public static func fit(_ residuals: [[Int: [SIMD2<Double>]]], names: [String], minResiduals: Int)
    -> DetectorBias
  {
    var raw: [(camera: Int, joint: Int, median: SIMD2<Double>, se: SIMD2<Double>)] = []
    for (c, byJoint) in residuals.enumerated() {
      for (j, list) in byJoint where list.count >= minResiduals {
        let xs = list.map(\.x)
        let ys = list.map(\.y)
        let mx = ErrorStatistics(xs).median
        let my = ErrorStatistics(ys).median
        // The median's standard error: √(π/2) σ / √n, σ = 1.4826 MAD (Rousseeuw & Croux 1993).
        let scale = 1.2533 * 1.4826 / Double(list.count).squareRoot()
        let sx = max(1e-6, scale * ErrorStatistics(xs.map { abs($0 - mx) }).median)
        let sy = max(1e-6, scale * ErrorStatistics(ys.map { abs($0 - my) }).median)
        raw.append((c, j, SIMD2(mx, my), SIMD2(sx, sy)))
      }
    }
    let k = 2 * raw.count
    guard k > 0 else { return DetectorBias(offsets: [:], sigmaPx: 0, chiSquare: 0, components: 0) }
    var meanSquare = 0.0
    var meanSE2 = 0.0
    var chi = 0.0
    for r in raw {
      meanSquare += (r.median * r.median).sum()
      meanSE2 += (r.se * r.se).sum()
      chi += (r.median * r.median / (r.se * r.se)).sum()
    }
    let variance = max(0, (meanSquare - meanSE2) / Double(k))
    var offsets: [String: [Int: SIMD2<Double>]] = [:]
    if variance > 0 {
      for r in raw {
        let shrink = SIMD2(repeating: variance) / (SIMD2(repeating: variance) + r.se * r.se)
        offsets[names[r.camera], default: [:]][r.joint] = r.median * shrink
      }
    }
    return DetectorBias(
      offsets: offsets, sigmaPx: variance.squareRoot(), chiSquare: chi, components: k)
  }

  /// `match` with every person keypoint of a camera moved by minus its joint's offset.
  public func removed(from match: Match) -> Match {
    var out = match
    for (name, byJoint) in offsets {
      guard var d = out.detections[name] else { continue }
      for (frame, people) in d.people {
        d.people[frame] = people.map { person in
          var p = person
          for (j, offset) in byJoint where j < p.keypoints.count && p.keypoints[j].isDetected {
            p.keypoints[j].x -= offset.x
            p.keypoints[j].y -= offset.y
          }
          return p
        }
      }
      out.detections[name] = d
    }
    return out
  }

  /// The note that says what was removed.
  public func note(file: String) -> Diagnostic {
    let largest =
      offsets.flatMap { $0.value.values }.map { ($0 * $0).sum().squareRoot() }.max() ?? 0
    return Diagnostic(
      .note,
      InputError(
        file: file,
        "the detector places joints with a systematic offset per camera (σ \(String(format: "%.1f", sigmaPx)) px per axis, "
          + "largest \(String(format: "%.1f", largest)) px, χ² \(Int(chiSquare.rounded())) over \(components) components); "
          + "removed before the final reconstruction"))
  }
}
