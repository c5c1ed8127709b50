import MatchSceneCore

/// Computes every player's `AngleSeries` from a motion model already in the venue frame.
public enum AngleAnalysis {
  /// - Parameters:
  ///   - motion: tracks in the venue frame (`motion.transformed(by: venue.venueFromWorld)`).
  ///   - events: the match's events; each player's hits tell the racket hand (`Handedness`).
  ///   - uncertainty: turns reprojection errors into keypoint σ.
  /// - Throws: `InputError` when the skeleton lacks a keypoint the angles need (shoulders, elbows, wrists,
  ///   hips, knees, ankles).
  public static func run(
    _ motion: MotionModel, events: [MatchEvent], uncertainty: AngleUncertainty
  ) throws -> [AngleSeries] {
    let skeleton = motion.skeleton
    let indices = BodyPoints.roles.map { skeleton.index(of: $0) }
    guard indices.allSatisfy({ $0 != nil }) else {
      let missing = zip(BodyPoints.roles, indices).filter { $0.1 == nil }.map(\.0.rawValue)
      throw InputError(
        file: "skeleton \(skeleton.name)",
        "form analysis needs keypoints for \(missing.joined(separator: ", ")); the skeleton has none")
    }
    let joints = indices.map { $0! }
    let ears = skeleton.indices(of: [.leftEar, .rightEar])
    let nose = skeleton.index(of: .nose)
    // One player per core.
    let tracks = motion.playerTracks.map { motion.tracks[$0] }
    let fps = motion.fps
    return try parallelMap(tracks) { track in
      let hits = events.filter { $0.type == .hit && $0.track == track.id }.map(\.frame)
      return series(track, joints: joints, ears: ears, nose: nose, fps: fps, hits: hits, uncertainty: uncertainty)
    }
  }

  static func series(
    _ track: MotionTrack, joints: [Int], ears: [Int], nose: Int?, fps: Double, hits: [Int],
    uncertainty: AngleUncertainty
  ) -> AngleSeries {
    let n = track.frameCount
    let angleCount = FormAngle.allCases.count
    var points = [BodyPoints?](repeating: nil, count: n)
    var sigmas = [[Double]](repeating: [], count: n)
    var measuredSigmas: [Double] = []
    for i in 0..<n {
      let frame = track.firstFrame + i
      var p: [SIMD3<Double>] = []
      p.reserveCapacity(12)
      var s: [Double] = []
      s.reserveCapacity(12)
      for j in joints {
        let sample = track[joint: j, frame: frame]
        guard sample.isPresent else { break }
        p.append(sample.position)
        let sigma = sample.state == .measured ? uncertainty.sigma(reprojectionPx: sample.reprojectionPx, views: Int(sample.views)) : nil
        if let sigma { measuredSigmas.append(sigma) }
        s.append(sigma ?? -1)
      }
      guard p.count == 12 else { continue }
      let earPoints = ears.compactMap { track.position(joint: $0, frame: frame) }
      let head = earPoints.count == 2 ? 0.5 * (earPoints[0] + earPoints[1]) : nose.flatMap { track.position(joint: $0, frame: frame) }
      points[i] = BodyPoints(points: p, head: head)
      sigmas[i] = s
    }
    measuredSigmas.sort()
    let fallback = measuredSigmas.isEmpty ? 0 : 2 * measuredSigmas[measuredSigmas.count / 2]

    var angles = [Double](repeating: .nan, count: angleCount * n)
    var sd = angles
    var scratch = [Double](repeating: .nan, count: angleCount)
    var base = scratch
    for i in 0..<n {
      guard let b = points[i] else { continue }
      let p = b.array
      AngleKinematics.fill(p, into: &base)
      let s = sigmas[i].map { $0 < 0 ? fallback : $0 }
      let deviation = uncertainty.angleSD(p, sigmas: s, base: base, scratch: &scratch)
      for a in 0..<angleCount {
        angles[a * n + i] = base[a]
        sd[a * n + i] = deviation[a]
      }
    }

    // Wrist speeds by central differences (one-sided at the ends of a run of known frames).
    func speed(_ side: BodySide) -> [Double] {
      (0..<n).map { i in
        guard let here = points[i]?.wrist(side) else { return .nan }
        let before = i > 0 ? points[i - 1]?.wrist(side) : nil
        let after = i + 1 < n ? points[i + 1]?.wrist(side) : nil
        switch (before, after) {
        case let (b?, a?): return length(a - b) * fps / 2
        case let (b?, nil): return length(here - b) * fps
        case let (nil, a?): return length(a - here) * fps
        default: return .nan
        }
      }
    }
    let left = speed(.left), right = speed(.right)
    let side = Handedness.estimate(leftSpeed: left, rightSpeed: right, firstFrame: track.firstFrame, fps: fps, hitFrames: hits)
    var measures = [Double](repeating: .nan, count: FormMeasure.allCases.count * n)
    for i in 0..<n {
      measures[i] = side == .left ? left[i] : right[i]
      guard let b = points[i] else { continue }
      let feet = b.leftAnkle - b.rightAnkle
      measures[n + i] = (feet.x * feet.x + feet.y * feet.y).squareRoot()
      let com = SegmentTable.centreOfMass(b)
      measures[2 * n + i] = com.x
      measures[3 * n + i] = com.y
      measures[4 * n + i] = com.z
    }
    return AngleSeries(
      track: track.id, fps: fps, firstFrame: track.firstFrame, frameCount: n, racketSide: side, angles: angles,
      angleSD: sd, measures: measures, points: points)
  }
}
