import MatchSceneCore

/// Points and their detections, ready for `CalibrationRefinement.refine` and
/// `CalibrationSelfCheck.check`.
public struct CalibrationSample: Sendable {
  public var points: [SIMD3<Double>]
  /// Every kept detection of each point, used by the triangulation or not; weight = confidence.
  public var observations: [CalibrationObservation]
  /// For each point, its index in the triangulation batch.
  public var batchIndices: [Int]
}

extension TriangulationBatch {
  /// The well-seen points of this batch with all their confident detections: the sample a calibration is
  /// checked and refined on.
  /// - Parameters:
  ///   - keypoints: the batch's input, point-major (`cameraCount` per point).
  ///   - minViews: a point is kept when the triangulation used at least this many views.
  ///   - minConfidence: detections below this confidence are left out.
  ///   - maxMeanReprojectionPx: a point is kept when its mean error over the used views is at most this.
  public func calibrationSample(
    keypoints: [Keypoint2D], minViews: Int = 2, minConfidence: Double = 0.1,
    maxMeanReprojectionPx: Double = .infinity
  ) -> CalibrationSample {
    precondition(keypoints.count == pointCount * cameraCount, "keypoints must be the batch's input")
    var sample = CalibrationSample(points: [], observations: [], batchIndices: [])
    for p in 0..<pointCount {
      guard let point = point(p), point.viewCount >= minViews, point.meanReprojectionPx <= maxMeanReprojectionPx
      else { continue }
      for c in 0..<cameraCount {
        let k = keypoints[p * cameraCount + c]
        guard k.isDetected, k.confidence >= minConfidence else { continue }
        sample.observations.append(
          CalibrationObservation(camera: c, point: sample.points.count, pixel: SIMD2(k.x, k.y), weight: k.confidence))
      }
      sample.points.append(point.position)
      sample.batchIndices.append(p)
    }
    return sample
  }
}
