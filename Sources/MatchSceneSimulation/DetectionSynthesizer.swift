import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the truth points of every frame are laid out in one flat array: `people` persons of 17
/// keypoints each, then one ball slot.
struct FrameLayout: Sendable {
  let people: Int
  var keypoints: Int { 17 }
  var slots: Int { people * keypoints + 1 }
  func person(_ frame: Int, _ person: Int) -> Int { frame * slots + person * keypoints }
  func ball(_ frame: Int) -> Int { frame * slots + people * keypoints }
}

/// Turns true projections into what a 2D pose detector (COCO-17, RTMPose/YOLO-pose-like) and a
/// TrackNet-like ball detector would report in one camera, with the faults of `DetectionNoise`.
struct DetectionSynthesizer {
  let camera: Camera
  let noise: DetectionNoise
  let layout: FrameLayout
  /// A person is detected only when at least this many keypoints are inside the image.
  static let minimumVisibleKeypoints = 6

  /// - Parameters:
  ///   - pixels: projections of the truth points (nil behind the camera), laid out by `layout`.
  ///   - ballPresent: per frame, whether the ball exists.
  ///   - offset: camera frame minus match frame.
  ///   - positions: the truth points the pixels project (needed by the occlusion test).
  ///   - faults: the harder faults' state, when `noise.hasHarderFaults`; nil keeps the plain detector.
  func synthesize(
    pixels: [SIMD2<Double>?], ballPresent: [Bool], offset: Int, rng: inout SeededGenerator,
    positions: [SIMD3<Double>] = [], faults: DetectorFaultState? = nil
  ) -> CameraDetections {
    var faults = faults
    let occlusion = TorsoOcclusion()
    let centre = camera.center
    var out = CameraDetections()
    let width = Double(camera.imageSize.width), height = Double(camera.imageSize.height)
    let mirror = Skeleton.coco17.mirrorPairs
    let ankles = [15, 16]
    for frame in 0..<ballPresent.count {
      var people: [PersonDetection2D] = []
      var feet: [SIMD2<Double>] = []
      for person in 0..<layout.people {
        let base = layout.person(frame, person)
        var visible = 0
        for j in 0..<17 where pixels[base + j].map({ camera.contains($0) }) == true { visible += 1 }
        guard visible >= Self.minimumVisibleKeypoints else { continue }
        var keypoints = [Keypoint2D](repeating: .missing, count: 17)
        let bodies = faults == nil || noise.occlusionDropRate == 0
          ? [] : (0..<layout.people).map { positions[layout.person(frame, $0)..<(layout.person(frame, $0) + 17)] }
        for j in 0..<17 {
          guard let p = pixels[base + j], camera.contains(p) else { continue }
          if rng.chance(noise.missRate) { continue }
          if !bodies.isEmpty, faults!.dropsOccluded(),
            occlusion.isHidden(person: person, joint: j, centre: centre, people: bodies)
          {
            continue
          }
          if faults != nil, !rng.chance(noise.outlierRate) {
            let e = faults!.keypointNoise(person: person, joint: j)
            keypoints[j] = Keypoint2D(x: p.x + e.x, y: p.y + e.y, confidence: rng.uniform(0.6...0.95))
          } else if faults != nil || rng.chance(noise.outlierRate) {
            let angle = rng.uniform(0...(2 * Double.pi)), r = rng.uniform(30...150)
            keypoints[j] = Keypoint2D(
              x: p.x + r * cos(angle), y: p.y + r * sin(angle), confidence: rng.uniform(0.45...0.85))
          } else {
            keypoints[j] = Keypoint2D(
              x: p.x + noise.pixelSigma * rng.gaussian(), y: p.y + noise.pixelSigma * rng.gaussian(),
              confidence: rng.uniform(0.6...0.95))
          }
        }
        if rng.chance(noise.swapRate) {
          for (l, r) in mirror { keypoints.swapAt(l, r) }
        }
        for a in ankles { if let p = pixels[base + a], camera.contains(p) { feet.append(p) } }
        people.append(PersonDetection2D(keypoints: keypoints))
      }
      // Detectors list people in no particular order (Fisher–Yates shuffle).
      if people.count > 1 {
        for i in stride(from: people.count - 1, to: 0, by: -1) { people.swapAt(i, rng.integer(0...i)) }
      }
      if !people.isEmpty { out.people[frame + offset] = people }

      // Ball: at most one detection per frame.
      var ball: BallDetection2D?
      if ballPresent[frame], let p = pixels[layout.ball(frame)], camera.contains(p), !rng.chance(noise.ballMissRate) {
        ball = BallDetection2D(
          x: p.x + noise.ballPixelSigma * rng.gaussian(), y: p.y + noise.ballPixelSigma * rng.gaussian(),
          confidence: rng.uniform(0.7...0.99))
      }
      if rng.chance(noise.falseBallRate) {
        // A shoe, a light or a white line: near a player's foot, or anywhere.
        let spot: SIMD2<Double>
        if !feet.isEmpty, rng.chance(0.5) {
          let foot = feet[rng.integer(0...(feet.count - 1))]
          let angle = rng.uniform(0...(2 * Double.pi)), r = rng.uniform(5...40)
          spot = foot + r * SIMD2(cos(angle), sin(angle))
        } else {
          spot = SIMD2(rng.uniform(0...(width - 1)), rng.uniform(0...(height - 1)))
        }
        ball = BallDetection2D(x: spot.x, y: spot.y, confidence: rng.uniform(0.4...0.9))
      }
      if let ball { out.balls[frame + offset] = [ball] }
    }
    return out
  }
}
