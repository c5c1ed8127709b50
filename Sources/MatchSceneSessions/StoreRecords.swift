import MatchSceneCore

/// `session.skeleton`: the skeleton by keypoint names.
struct SkeletonRecord: Codable {
  var name: String
  var keypoints: [String]
  var bones: [[String]]

  init(_ skeleton: Skeleton) {
    name = skeleton.name
    keypoints = skeleton.keypoints
    bones = skeleton.bones.map { [skeleton.keypoints[$0.0], skeleton.keypoints[$0.1]] }
  }

  var skeleton: Skeleton {
    if let builtIn = Skeleton.builtIn[name], builtIn.keypoints == keypoints { return builtIn }
    return Skeleton(name: name, keypoints: keypoints, bones: bones.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil })
  }
}

/// `session.venue`: the venue frame in world coordinates.
struct VenueRecord: Codable {
  var up: [Double]
  var origin: [Double]
  var longAxis: [Double]
  var source: String

  init(_ venue: VenueFrame) {
    up = [venue.up.x, venue.up.y, venue.up.z]
    origin = [venue.origin.x, venue.origin.y, venue.origin.z]
    longAxis = [venue.longAxis.x, venue.longAxis.y, venue.longAxis.z]
    source = venue.source.rawValue
  }

  var venue: VenueFrame? {
    guard up.count == 3, origin.count == 3, longAxis.count == 3 else { return nil }
    return VenueFrame(
      up: SIMD3(up[0], up[1], up[2]), origin: SIMD3(origin[0], origin[1], origin[2]),
      longAxis: SIMD3(longAxis[0], longAxis[1], longAxis[2]), source: VenueFrame.Source(rawValue: source) ?? .given)
  }
}
