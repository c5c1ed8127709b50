import MatchSceneCore

extension CameraSync {
  /// `match` with every camera's detections cut to the middle `options.maxFrames` frames of the
  /// reference camera's, widened by `options.searchFrames` on either side for the other cameras (so that
  /// every candidate offset finds its counterparts); `match` itself when it is no longer than that.
  func window(_ match: Match, reference: Int) -> Match {
    guard let maxFrames = options.maxFrames, maxFrames > 0,
      let detections = match.detections[match.cameras[reference].name]
    else { return match }
    let frames = detections.people.keys.map { $0 } + detections.balls.keys.map { $0 }
    guard let lo = frames.min(), let hi = frames.max(), hi - lo + 1 > maxFrames else { return match }
    let start = lo + (hi - lo + 1 - maxFrames) / 2
    let kept = start...(start + maxFrames - 1)
    let widened = (kept.lowerBound - options.searchFrames)...(kept.upperBound + options.searchFrames)
    var out = match
    for (name, cameraDetections) in match.detections {
      let range = name == match.cameras[reference].name ? kept : widened
      out.detections[name] = CameraDetections(
        people: cameraDetections.people.filter { range.contains($0.key) },
        balls: cameraDetections.balls.filter { range.contains($0.key) })
    }
    return out
  }
}
