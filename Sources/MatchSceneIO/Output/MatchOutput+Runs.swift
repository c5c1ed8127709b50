import Foundation
import MatchSceneCore

extension MatchOutput {
  /// The C3D file of one run of data of a sparse match (`FrameAxis`): `match_<first>-<last>.c3d`, the
  /// run's real first and last frames. C3D is continuous (one frame rate, frames one after another), so a
  /// match whose data has empty stretches gets one file per run instead of `match.c3d`.
  public static func c3dRunName(_ frames: ClosedRange<Int>) -> String { "match_\(frames.lowerBound)-\(frames.upperBound).c3d" }
}
