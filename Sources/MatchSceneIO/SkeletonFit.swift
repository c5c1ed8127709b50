import MatchSceneCore

/// Whether detections look like the skeleton they are read with, among the built-in skeletons of the
/// same keypoint count (BODY_25 and BODY_25B both have 25): the keypoint count alone cannot tell
/// them apart, and reading one as the other mislabels every joint without any error.
///
/// The measure: a skeleton's bones join neighbouring body parts, so on the right skeleton they are
/// short. For each person with at least half its keypoints detected, the mean length of the bones
/// whose two ends are detected, over the diagonal of the detected keypoints' bounding box; the
/// skeleton's score is the median over people.
enum SkeletonFit {
  /// A better-fitting skeleton must score at most this fraction of the chosen one's to be named.
  static let margin = 0.8
  /// People needed before any conclusion is drawn.
  static let minimumPeople = 10
  /// People looked at, at most (spread over all cameras and frames).
  static let sampleSize = 2000

  /// The median normalised bone length of `skeleton` on `people`, or nil with fewer than
  /// `minimumPeople` usable people.
  static func score(_ skeleton: Skeleton, people: [PersonDetection2D]) -> Double? {
    var scores: [Double] = []
    for person in people where person.keypoints.count == skeleton.count {
      let seen = person.keypoints.filter(\.isDetected)
      guard seen.count * 2 >= skeleton.count, !skeleton.bones.isEmpty else { continue }
      let xs = seen.map(\.x), ys = seen.map(\.y)
      let diagonal = ((xs.max()! - xs.min()!) * (xs.max()! - xs.min()!) + (ys.max()! - ys.min()!) * (ys.max()! - ys.min()!)).squareRoot()
      guard diagonal > 0 else { continue }
      var total = 0.0, count = 0
      for (a, b) in skeleton.bones {
        let p = person.keypoints[a], q = person.keypoints[b]
        guard p.isDetected, q.isDetected else { continue }
        total += ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
        count += 1
      }
      if count > 0 { scores.append(total / Double(count) / diagonal) }
    }
    guard scores.count >= minimumPeople else { return nil }
    return scores.sorted()[scores.count / 2]
  }

  /// A warning when another built-in skeleton with `chosen`'s keypoint count fits the detections
  /// clearly better (its score below `margin` × `chosen`'s), naming it and how to choose it; nil otherwise.
  /// - Parameter file: where the detections are (the pose folder), for the warning.
  static func diagnostic(chosen: Skeleton, people byCamera: [String: [Int: [PersonDetection2D]]], file: String) -> Diagnostic? {
    let rivals = Skeleton.builtInSkeletons.filter { $0.count == chosen.count && $0.name != chosen.name }
    guard !rivals.isEmpty else { return nil }
    let all = byCamera.keys.sorted().flatMap { camera in byCamera[camera]!.keys.sorted().flatMap { byCamera[camera]![$0]! } }
    let stride = max(1, all.count / sampleSize)
    let sample = Swift.stride(from: 0, to: all.count, by: stride).map { all[$0] }
    guard let own = score(chosen, people: sample) else { return nil }
    let scored = rivals.compactMap { rival in score(rival, people: sample).map { (rival, $0) } }
    guard let (best, bestScore) = scored.min(by: { $0.1 < $1.1 }), bestScore < margin * own else { return nil }
    func percent(_ x: Double) -> String { "\(Int((x * 100).rounded())) %" }
    return Diagnostic(.warning, InputError(
      file: file,
      "the keypoints look like \(best.name), not \(chosen.name), the skeleton in use: \(best.name)'s bones are "
        + "\(percent(bestScore)) of a person's size, \(chosen.name)'s \(percent(own)) (median over \(sample.count) detections). "
        + "If the detector wrote \(best.name), set skeleton = \"\(best.name)\" in match.toml or pass --skeleton \(best.name)"))
  }
}
