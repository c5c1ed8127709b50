import MatchSceneCore

/// Which hand holds the racket, from the match: the racket hand's wrist moves much faster than the free
/// hand's around the player's hits (the swing), and over the whole match (the free hand only tosses).
public enum Handedness {
  /// The side whose wrist's mean speed is higher over ±0.15 s around `hitFrames` (all frames when there
  /// are none). Speeds per frame in `leftSpeed`/`rightSpeed` (NaN where unknown), index = frame − first.
  public static func estimate(
    leftSpeed: [Double], rightSpeed: [Double], firstFrame: Int, fps: Double, hitFrames: [Int]
  ) -> BodySide {
    var frames: [Int] = []
    let half = max(1, Int((0.15 * fps).rounded()))
    for f in hitFrames {
      for i in (f - half - firstFrame)...(f + half - firstFrame) where i >= 0 && i < leftSpeed.count { frames.append(i) }
    }
    if frames.isEmpty { frames = Array(leftSpeed.indices) }
    var l = 0.0, r = 0.0
    for i in frames where leftSpeed[i].isFinite && rightSpeed[i].isFinite {
      l += leftSpeed[i]
      r += rightSpeed[i]
    }
    return l > r ? .left : .right
  }
}
