import Foundation
import MatchSceneCore

/// Whether the match's own data supports refining focal lengths, decided by an information criterion
/// rather than a flag the user must know.
public struct FocalChoice: Sendable, Equatable {
  /// Whether the chosen result refined the free cameras' focal lengths.
  public var refinedFocal: Bool
  /// Robust cost Σ wρ (pixels²) of the pose-only and the pose-and-focal adjustments.
  public var poseOnlyCost: Double
  public var withFocalCost: Double
  /// Residual components n (two per used observation) the criterion was evaluated over.
  public var residualCount: Int
  /// BIC(with focal) − BIC(pose only); negative: the focal lengths are supported by the data.
  public var bicDelta: Double
}

extension CalibrationRefinement {
  /// Refines `cameras` twice — pose only, then pose and focal length — and keeps the focal lengths
  /// only when the Bayesian information criterion says the cost drop pays for the extra parameters
  /// (G. Schwarz, "Estimating the dimension of a model", Ann. Stat. 6(2), 1978): with n residual
  /// components and costs C₀ (pose) and C₁ (pose and focal) of a Gaussian-like loss,
  /// ΔBIC = n · ln(C₁ / C₀) + k · ln n, k = the number of refined focal lengths; ΔBIC < 0 refines them.
  /// A focal length error and a move of the camera along its axis look alike on a small scene, so the
  /// pose-only fit absorbs most of a small focal error and ΔBIC stays positive; a focal error of a
  /// percent at the image's edge does not fit that way and is taken.
  /// - Parameter options: `refineFocal` is ignored (both are tried).
  /// - Throws: as `refine`; when only the focal fit fails, the pose-only result is kept.
  public static func refineChoosingFocal(
    cameras: [Camera], points: [SIMD3<Double>], observations: [CalibrationObservation],
    options: CalibrationRefinementOptions = .init()
  ) throws -> (result: CalibrationRefinementResult, choice: FocalChoice) {
    var poseOptions = options
    poseOptions.refineFocal = false
    let pose = try refine(cameras: cameras, points: points, observations: observations, options: poseOptions)
    var focalOptions = options
    focalOptions.refineFocal = true
    guard let focal = try? refine(cameras: cameras, points: points, observations: observations, options: focalOptions) else {
      return (pose, FocalChoice(refinedFocal: false, poseOnlyCost: pose.finalCost, withFocalCost: .nan, residualCount: 0, bicDelta: .nan))
    }
    let n = 2 * max(1, pose.usedObservationCount)
    let k = pose.corrections.filter { $0.role == .refined || $0.role == .scale }.count
    let delta = Self.bicDelta(poseCost: pose.finalCost, focalCost: focal.finalCost, residuals: n, extraParameters: k)
    let take = delta < 0
    return (
      take ? focal : pose,
      FocalChoice(refinedFocal: take, poseOnlyCost: pose.finalCost, withFocalCost: focal.finalCost, residualCount: n, bicDelta: delta)
    )
  }

  /// n · ln(C₁ / C₀) + k · ln n (Schwarz 1978); +∞ when a cost is not positive and finite.
  static func bicDelta(poseCost: Double, focalCost: Double, residuals n: Int, extraParameters k: Int) -> Double {
    guard poseCost.isFinite, focalCost.isFinite, poseCost > 0, focalCost > 0, n > 1 else { return .infinity }
    return Double(n) * log(focalCost / poseCost) + Double(k) * log(Double(n))
  }
}
