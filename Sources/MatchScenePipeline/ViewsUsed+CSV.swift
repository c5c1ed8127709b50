import MatchSceneCore
import MatchSceneReconstruction

extension ViewsUsed {
  /// `views.csv`: one row per person joint triangulated — `frame,track,joint,mask,cameras` — where bit c
  /// of `mask` is camera c of the calibration (its order) and `cameras` names them, joined by `+`.
  func csv(skeleton: Skeleton) -> String {
    var out = "frame,track,joint,mask,cameras\n"
    out.reserveCapacity(rows.count * 40)
    for row in rows.sorted(by: { ($0.frame, $0.track, $0.joint) < ($1.frame, $1.track, $1.joint) }) {
      let joint = row.joint < skeleton.count ? skeleton.keypoints[row.joint] : String(row.joint)
      let names = cameras.indices.filter { row.mask & (1 << UInt64($0)) != 0 }.map { cameras[$0] }.joined(separator: "+")
      out += "\(row.frame),\(row.track),\(joint),\(row.mask),\(names)\n"
    }
    return out
  }
}
