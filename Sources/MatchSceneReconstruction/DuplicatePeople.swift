import MatchSceneCore

/// Whether two 3D poses of one frame are one person triangulated twice.
///
/// A person whose views never paired up directly in the cross-view association (swapped or outlying
/// keypoints at high noise) comes out as two poses from complementary camera sets — at 2× keypoint
/// noise a player's four views made a two-camera pose of 13 joints and another of 7 whose centres
/// stood 0.38 m apart (the partial pose's centre is that of its legs), the two were tracked as two
/// people and his identity split. Two different people cannot interpenetrate: their corresponding
/// joints lie at least about a body width apart (shoulder to shoulder, one shoulder width). So two poses
/// are one person when most of the joints both have lie within half a body scale of each other, the
/// scale estimated from the poses themselves (the median of their signature limb lengths, about 0.4 m
/// for an adult), not a constant.
enum DuplicatePeople {
  /// The median length of the signature limbs present in either pose (metres), or nil with none.
  static func bodyScale(_ a: Pose3D, _ b: Pose3D, limbs: [(Int, Int)]) -> Double? {
    let lengths = (a.limbLengths(limbs) + b.limbLengths(limbs)).compactMap { $0 }.sorted()
    guard !lengths.isEmpty else { return nil }
    return lengths[lengths.count / 2]
  }

  /// True when at least 3 joints are present in both poses and more than half of them lie within half
  /// of `bodyScale` of each other.
  static func overlap(_ a: Pose3D, _ b: Pose3D, limbs: [(Int, Int)]) -> Bool {
    guard let scale = bodyScale(a, b, limbs: limbs) else { return false }
    var shared = 0, close = 0
    for (x, y) in zip(a.joints, b.joints) {
      guard let p = x?.position, let q = y?.position else { continue }
      shared += 1
      if length(p - q) < 0.5 * scale { close += 1 }
    }
    return shared >= 3 && 2 * close > shared
  }
}
