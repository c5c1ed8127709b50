import MatchSceneCore
import MatchSceneGeometry

/// The reference every multi-view method is measured against: plain confidence-weighted DLT given the
/// true association (each camera's detection is assigned to the true person whose projected joints it
/// lies nearest), with no view rejection, no swap repair and no refinement. Needs ground truth, so it
/// serves evaluation (`matchscene evaluate --baseline`) only.
public enum OracleBaseline {
  /// - Parameters:
  ///   - truth: the true track points (players and ball) of the same frames.
  public static func reconstruct(_ match: Match, truth: [TrackPoint], frames: ClosedRange<Int>) throws -> Reconstruction {
    let triangulator = try Triangulator(cameras: match.cameras, options: TriangulationOptions())
    let skeleton = match.skeleton, m = match.cameras.count, k = skeleton.count
    var truthByFrame: [Int: [String: [Int: SIMD3<Double>]]] = [:]
    var ballByFrame: [Int: SIMD3<Double>] = [:]
    for p in truth where frames.contains(p.frame) {
      if p.kind == .ball { ballByFrame[p.frame] = p.position; continue }
      guard let j = skeleton.index(of: p.joint) else { continue }
      truthByFrame[p.frame, default: [:]][p.track, default: [:]][j] = p.position
    }
    var points: [TrackPoint] = []
    for frame in frames {
      let people = truthByFrame[frame] ?? [:]
      let ids = people.keys.sorted()
      var observations = [Keypoint2D](repeating: .missing, count: ids.count * k * m)
      for (c, camera) in match.cameras.enumerated() {
        let projected = ids.map { id in (0..<k).map { j in people[id]![j].flatMap { camera.project($0) } } }
        for detection in match.people(camera: camera.name, frame: frame) {
          // The true person whose projection this detection is nearest (median over joints).
          var best: (Int, Double)?
          for (p, joints) in projected.enumerated() {
            var d: [Double] = []
            for (j, q) in joints.enumerated() where j < detection.keypoints.count && detection.keypoints[j].isDetected {
              if let q { d.append(((SIMD2(detection.keypoints[j].x, detection.keypoints[j].y) - q) * (SIMD2(detection.keypoints[j].x, detection.keypoints[j].y) - q)).sum().squareRoot()) }
            }
            guard !d.isEmpty else { continue }
            d.sort()
            if best == nil || d[d.count / 2] < best!.1 { best = (p, d[d.count / 2]) }
          }
          guard let (p, _) = best else { continue }
          for j in 0..<min(k, detection.keypoints.count) { observations[(p * k + j) * m + c] = detection.keypoints[j] }
        }
      }
      let batch = try triangulator.triangulate(observations)
      for (p, id) in ids.enumerated() {
        for j in 0..<k {
          guard let point = batch.point(p * k + j) else { continue }
          points.append(TrackPoint(frame: frame, time: Double(frame) / match.fps, track: id, kind: .player, joint: skeleton.keypoints[j],
                                   position: point.position, reprojectionPx: point.meanReprojectionPx, views: point.viewCount))
        }
      }
      // Ball: the candidate nearest the true ball's projection in each camera.
      if let ball = ballByFrame[frame] {
        var row = [Keypoint2D](repeating: .missing, count: m)
        for (c, camera) in match.cameras.enumerated() {
          guard let q = camera.project(ball) else { continue }
          let candidates = match.balls(camera: camera.name, frame: frame)
          if let nearest = candidates.min(by: { ((SIMD2($0.x, $0.y) - q) * (SIMD2($0.x, $0.y) - q)).sum() < ((SIMD2($1.x, $1.y) - q) * (SIMD2($1.x, $1.y) - q)).sum() }) {
            row[c] = Keypoint2D(x: nearest.x, y: nearest.y, confidence: max(nearest.confidence, 0.5))
          }
        }
        if let point = try triangulator.triangulate(row).point(0) {
          points.append(TrackPoint(frame: frame, time: Double(frame) / match.fps, track: "ball", kind: .ball, joint: "ball",
                                   position: point.position, reprojectionPx: point.meanReprojectionPx, views: point.viewCount))
        }
      }
    }
    return Reconstruction(fps: match.fps, skeleton: skeleton, points: points)
  }
}
