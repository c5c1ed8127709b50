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
    let missing = SIMD3<Double>(repeating: .nan)
    // Every keypoint of every frame, NaN where it is missing: an angle is empty only where a keypoint
    // it uses is (NaN propagates through `AngleKinematics`).
    var raw = [SIMD3<Double>](repeating: missing, count: 12 * n)
    var sigmas = [Double](repeating: 0, count: 12 * n)
    var points = [BodyPoints?](repeating: nil, count: n)
    var measuredSigmas: [Double] = []
    var filled: [Int] = []
    for i in 0..<n {
      let frame = track.firstFrame + i
      var complete = true
      for (k, j) in joints.enumerated() {
        let sample = track[joint: j, frame: frame]
        guard sample.isPresent else {
          complete = false
          continue
        }
        raw[12 * i + k] = sample.position
        if sample.state == .measured, let sigma = uncertainty.sigma(reprojectionPx: sample.reprojectionPx, views: Int(sample.views)) {
          measuredSigmas.append(sigma)
          sigmas[12 * i + k] = sigma
        } else {
          filled.append(12 * i + k)
        }
      }
      guard complete else { continue }
      let earPoints = ears.compactMap { track.position(joint: $0, frame: frame) }
      let head = earPoints.count == 2 ? 0.5 * (earPoints[0] + earPoints[1]) : nose.flatMap { track.position(joint: $0, frame: frame) }
      points[i] = BodyPoints(points: Array(raw[(12 * i)..<(12 * i + 12)]), head: head)
    }
    measuredSigmas.sort()
    let fallback = measuredSigmas.isEmpty ? 0 : 2 * measuredSigmas[measuredSigmas.count / 2]
    for k in filled { sigmas[k] = fallback }

    var angles = [Double](repeating: .nan, count: angleCount * n)
    var sd = angles
    var scratch = [Double](repeating: .nan, count: angleCount)
    var base = scratch
    for i in 0..<n {
      let p = Array(raw[(12 * i)..<(12 * i + 12)])
      guard p.contains(where: { $0.x.isFinite }) else { continue }
      AngleKinematics.fill(p, into: &base)
      let deviation = uncertainty.angleSD(p, sigmas: Array(sigmas[(12 * i)..<(12 * i + 12)]), base: base, scratch: &scratch)
      for a in 0..<angleCount where base[a].isFinite {
        angles[a * n + i] = base[a]
        sd[a * n + i] = deviation[a]
      }
    }

    // Wrist speeds by central differences (one-sided at the ends of a run of known frames).
    func wrist(_ side: BodySide, _ i: Int) -> SIMD3<Double>? {
      let w = raw[12 * i + (side == .left ? 4 : 5)]
      return w.x.isFinite ? w : nil
    }
    func speed(_ side: BodySide) -> [Double] {
      (0..<n).map { i in
        guard let here = wrist(side, i) else { return .nan }
        let before = i > 0 ? wrist(side, i - 1) : nil
        let after = i + 1 < n ? wrist(side, i + 1) : nil
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
    var hand = [SIMD3<Double>](repeating: missing, count: n)
    for i in 0..<n {
      measures[i] = side == .left ? left[i] : right[i]
      let feet = raw[12 * i + 10] - raw[12 * i + 11]
      measures[n + i] = (feet.x * feet.x + feet.y * feet.y).squareRoot()
      // NaN unless the racket wrist and both hips are there.
      hand[i] = raw[12 * i + (side == .left ? 4 : 5)] - 0.5 * (raw[12 * i + 6] + raw[12 * i + 7])
      guard let b = points[i] else { continue }
      let com = SegmentTable.centreOfMass(b)
      measures[2 * n + i] = com.x
      measures[3 * n + i] = com.y
      measures[4 * n + i] = com.z
    }
    return AngleSeries(
      track: track.id, fps: fps, firstFrame: track.firstFrame, frameCount: n, racketSide: side, angles: angles,
      angleSD: sd, measures: measures, points: points, racketHandFromPelvis: hand)
  }
}
