/// The registered time axis of a stroke: `sampleCount` samples with its four landmarks (backswing start,
/// forward swing start, contact, follow-through end) at fixed samples — 0, `forwardSwingSample`,
/// `contactSample`, `sampleCount − 1` — and time mapped linearly between them: landmark registration by
/// piecewise-linear time warping (Ramsay & Silverman, *Functional Data Analysis*, 2nd ed., Springer
/// 2005, §7.3). Each phase is stretched on its own, so strokes whose phases last differently line up
/// phase by phase. The form analysis (`StrokeCurves`) and `compare` (`NormalisedCurves`) share it.
public enum LandmarkRegistration {
  public static let sampleCount = 101
  public static let forwardSwingSample = 30
  public static let contactSample = 50

  /// The fractional frame of each sample for landmarks `l` (four, in time order).
  public static func positions(_ l: [Double]) -> [Double] {
    let knots = [0, forwardSwingSample, contactSample, sampleCount - 1]
    return (0..<sampleCount).map { k in
      let piece = k < forwardSwingSample ? 0 : k < contactSample ? 1 : 2
      let t = Double(k - knots[piece]) / Double(knots[piece + 1] - knots[piece])
      return l[piece] + t * (l[piece + 1] - l[piece])
    }
  }
}
