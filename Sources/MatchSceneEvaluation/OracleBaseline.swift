import MatchSceneCore
import MatchSceneGeometry

/// The reference every multi-view method is measured against: plain confidence-weighted DLT given the
/// true association (each camera's detection is assigned to the true person whose projected joints it
/// lies nearest), with no view rejection, no swap repair and no refinement. Needs ground truth, so it
/// serves evaluation (`matchscene evaluate --baseline`) only.
public enum OracleBaseline {
  /// - Parameters:
  ///   - truth: the true track points (players and ball) of the same frames.
  /// - Returns: the players and the ball over `frames`, in the match's skeleton and frame rate.
  public static func reconstruct(_ match: Match, truth: MotionModel, frames: ClosedRange<Int>) throws -> MotionModel {
    let triangulator = try Triangulator(cameras: match.cameras, options: TriangulationOptions())
    let skeleton = match.skeleton, m = match.cameras.count, k = skeleton.count
    var truthByFrame: [Int: [String: [Int: SIMD3<Double>]]] = [:]
    var ballByFrame: [Int: SIMD3<Double>] = [:]
    for track in truth.tracks {
      for tj in 0..<track.jointCount {
        let j = track.kind == .ball ? 0 : skeleton.index(of: truth.skeleton.keypoints[tj])
        guard let j else { continue }
        for frame in track.frames where frames.contains(frame) {
          guard let p = track.position(joint: tj, frame: frame) else { continue }
          if track.kind == .ball { ballByFrame[frame] = p } else { truthByFrame[frame, default: [:]][track.id, default: [:]][j] = p }
        }
      }
    }
    var motion = MotionModel(fps: match.fps, skeleton: skeleton, frames: frames)
    var trackIndex: [String: Int] = [:]
    func track(_ id: String, _ kind: TrackKind) -> Int {
      if let t = trackIndex[id] { return t }
      motion.tracks.append(motion.makeTrack(id: id, kind: kind))
      trackIndex[id] = motion.tracks.count - 1
      return motion.tracks.count - 1
    }
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
          motion.tracks[track(id, .player)][joint: j, frame: frame] = MotionSample(
            position: point.position, reprojectionPx: point.meanReprojectionPx, views: point.viewCount, state: .measured)
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
          motion.tracks[track("ball", .ball)][joint: 0, frame: frame] = MotionSample(
            position: point.position, reprojectionPx: point.meanReprojectionPx, views: point.viewCount, state: .measured)
        }
      }
    }
    motion.sortTracks()
    return motion
  }
}
