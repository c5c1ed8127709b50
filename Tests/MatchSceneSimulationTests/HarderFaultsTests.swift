import MatchSceneCore
import MatchSceneGeometry
import MatchSceneSimulation
import TestSupport
import XCTest

/// The harder simulator's faults: each does what its setting says, reproducibly by seed.
final class HarderFaultsTests: XCTestCase {
  func simulate(_ noise: DetectionNoise, rig: RigConfig = .default, seed: UInt64 = 5, duration: Double = 4) throws
    -> SimulatedMatch
  {
    try MatchSimulator.simulate(SimulationConfig(seed: seed, duration: duration, rig: rig, noise: noise), sport: tableTennis)
  }

  /// Per camera, frame and true player: the detection residuals (detected − true projection) of each
  /// keypoint, for a detector without swaps, outliers or misses (so the one detection nearest the truth
  /// is that person's).
  func residuals(_ m: SimulatedMatch) -> [String: [String: [Int: [SIMD2<Double>?]]]] {
    var out: [String: [String: [Int: [SIMD2<Double>?]]]] = [:]
    let players = m.truth.rows.filter { $0.kind == .player }
    for camera in m.match.cameras {
      let pixels = camera.project(players.map(\.position))
      var truth: [Int: [String: [SIMD2<Double>?]]] = [:]
      for (i, p) in players.enumerated() {
        truth[p.frame, default: [:]][p.track, default: []].append(pixels[i].flatMap { camera.contains($0) ? $0 : nil })
      }
      for (frame, tracks) in truth {
        let detected = m.match.people(camera: camera.name, frame: frame)
        for (track, projected) in tracks {
          let best = detected.min { a, b in meanGap(a, projected) < meanGap(b, projected) }
          guard let best, meanGap(best, projected) < 30 else { continue }
          out[camera.name, default: [:]][track, default: [:]][frame] = zip(best.keypoints, projected).map { k, p in
            guard k.isDetected, let p else { return nil }
            return SIMD2(k.x, k.y) - p
          }
        }
      }
    }
    return out
  }

  func meanGap(_ d: PersonDetection2D, _ p: [SIMD2<Double>?]) -> Double {
    var sum = 0.0, n = 0
    for (k, q) in zip(d.keypoints, p) where k.isDetected {
      guard let q else { continue }
      sum += length(SIMD2(k.x, k.y) - q)
      n += 1
    }
    return n > 0 ? sum / Double(n) : .infinity
  }

  func testJointBiasIsFixedPerJointAndCamera() throws {
    var noise = DetectionNoise.none
    noise.jointBiasPx = 3
    let all = residuals(try simulate(noise))
    var biases: [SIMD2<Double>] = []
    for (_, tracks) in all {
      var perJoint: [Int: SIMD2<Double>] = [:]
      for (_, frames) in tracks {
        for (_, joints) in frames {
          for (j, r) in joints.enumerated() {
            guard let r else { continue }
            if let b = perJoint[j] { XCTAssertLessThan(length(r - b), 1e-6, "joint \(j): the same offset in every frame and for both players") }
            else { perJoint[j] = r }
          }
        }
      }
      XCTAssertEqual(perJoint.count, 17)
      biases += perJoint.values
    }
    let rms = (biases.map { ($0 * $0).sum() / 2 }.reduce(0, +) / Double(biases.count)).squareRoot()
    XCTAssertEqual(rms, 3, accuracy: 0.9, "per-axis rms of the biases over 4 cameras × 17 joints")
    XCTAssertGreaterThan(Set(biases.map { Int($0.x * 1000) }).count, 60, "biases differ between joints and cameras")
  }

  func testCorrelatedHeavyTailedNoiseHasTheStatedCorrelationAndSpread() throws {
    var noise = DetectionNoise.none
    noise.pixelSigma = 2
    noise.temporalCorrelation = 0.6
    noise.tailDegreesOfFreedom = 4
    let all = residuals(try simulate(noise, duration: 6))
    var x: [Double] = [], products: [Double] = [], lagged: [Double] = []
    for (_, tracks) in all {
      for (_, frames) in tracks {
        for (frame, joints) in frames {
          guard let next = frames[frame + 1] else { continue }
          for (a, b) in zip(joints, next) {
            guard let a, let b else { continue }
            x.append(a.x)
            products.append(a.x * b.x)
            lagged.append(b.x)
          }
        }
      }
    }
    let n = Double(x.count)
    let variance = x.map { $0 * $0 }.reduce(0, +) / n
    let rho = products.reduce(0, +) / n / variance
    XCTAssertEqual(variance.squareRoot(), 2, accuracy: 0.3, "marginal σ stays pixelSigma")
    XCTAssertEqual(rho, 0.6, accuracy: 0.06, "lag-1 autocorrelation of the AR(1) noise")
    let kurtosis = x.map { $0 * $0 * $0 * $0 }.reduce(0, +) / n / (variance * variance)
    XCTAssertGreaterThan(kurtosis, 4, "Student-t (ν = 4) tails are heavier than a Gaussian's (kurtosis 3)")
    // White Gaussian noise of the same σ for comparison: no correlation, kurtosis about 3.
    noise.temporalCorrelation = 0
    noise.tailDegreesOfFreedom = nil
    noise.jointBiasPx = 0
    var white: [Double] = []
    for (_, tracks) in residuals(try simulate(noise, duration: 2)) {
      for (_, frames) in tracks { for (_, joints) in frames { white += joints.compactMap { $0?.x } } }
    }
    let wv = white.map { $0 * $0 }.reduce(0, +) / Double(white.count)
    XCTAssertEqual(white.map { $0 * $0 * $0 * $0 }.reduce(0, +) / Double(white.count) / (wv * wv), 3, accuracy: 0.4)
  }

  func testOcclusionDropsKeypointsHiddenBehindATorso() throws {
    var noise = DetectionNoise.none
    noise.occlusionDropRate = 1
    let hidden = try simulate(noise)
    var inside = 0, missing = 0, missingTorso = 0
    for camera in hidden.match.cameras {
      let pixels = camera.project(hidden.truth.rows.map(\.position))
      for (i, p) in hidden.truth.rows.enumerated() where p.kind == .player {
        guard let px = pixels[i], camera.contains(px) else { continue }
        inside += 1
        let detected = hidden.match.people(camera: camera.name, frame: p.frame).contains { d in
          d.keypoints.contains { $0.isDetected && length(SIMD2($0.x, $0.y) - px) < 1e-6 }
        }
        if !detected {
          missing += 1
          if ["left_shoulder", "right_shoulder", "left_hip", "right_hip"].contains(p.joint) { missingTorso += 1 }
        }
      }
    }
    let share = Double(missing) / Double(inside)
    XCTAssertGreaterThan(share, 0.02, "some keypoints are behind a torso in some camera")
    XCTAssertLessThan(share, 0.3)
    XCTAssertLessThan(Double(missingTorso), 0.25 * Double(missing), "a torso's own keypoints are not hidden by it")
    // Reproducible by seed.
    XCTAssertEqual(try simulate(noise).match.detections, hidden.match.detections)
  }

  func testHardCalibrationIsAFewPixelsOffAndOneCameraMuchWorse() throws {
    var rig = RigConfig.default
    rig.calibrationError = .hard
    let m = try simulate(.hard, rig: rig, duration: 1)
    XCTAssertEqual(m.trueCameras.map(\.name), m.match.cameras.map(\.name))
    // Largest reprojection difference over the image corners' rays at 5 m.
    var worst: [Double] = []
    for (truth, written) in zip(m.trueCameras, m.match.cameras) {
      let w = Double(truth.imageSize.width), h = Double(truth.imageSize.height)
      let corners = [SIMD2(0.0, 0.0), SIMD2(w, 0), SIMD2(0, h), SIMD2(w, h), SIMD2(w / 2, h / 2)]
      let rays = try truth.undistort(corners).map { $0! }
      let points = rays.map { truth.worldFromCam.apply(5 * SIMD3($0.x, $0.y, 1)) }
      let a = truth.project(points), b = written.project(points)
      worst.append(zip(a, b).map { length($0.0! - $0.1!) }.max()!)
    }
    let others = worst.enumerated().filter { $0.offset != 2 }.map(\.element)
    for e in others { XCTAssertTrue((0.3...10).contains(e), "a few pixels at the image edge, got \(worst)") }
    XCTAssertGreaterThan(worst[2], 2 * others.max()!, "cam3 is much worse: \(worst)")
    // Reproducible.
    XCTAssertEqual(try simulate(.hard, rig: rig, duration: 1).match.cameras, m.match.cameras)
  }

  func testUnsyncedCamerasNumberTheirOwnFramesAndTheTruthSaysBy() throws {
    var config = SimulationConfig(seed: 9, duration: 3)
    config.unsync.maxFrames = 30
    let m = try MatchSimulator.simulate(config, sport: tableTennis)
    XCTAssertEqual(m.clocks.map(\.camera), ["cam1", "cam2", "cam3", "cam4"])
    XCTAssertEqual(m.clocks[0].offset, 0, "cam1 is the match clock")
    for clock in m.clocks {
      XCTAssertLessThanOrEqual(abs(clock.offset), 30.5)
      XCTAssertTrue((-0.5..<0.5).contains(clock.phase))
      let frames = m.match.detections[clock.camera]!.people.keys
      XCTAssertEqual(frames.min(), clock.frames, "\(clock.camera)'s first frame is its whole-frame offset")
    }
    XCTAssertTrue(m.clocks.dropFirst().contains { abs($0.phase) > 0.01 })
    // With a perfect detector a keypoint of cam2 at its frame k lies where the truth projects at match
    // time k − offset: between the projections of the frames around it.
    config.noise = .none
    let clean = try MatchSimulator.simulate(config, sport: tableTennis)
    let clock = clean.clocks[1], camera = clean.match.cameras[1]
    let nose = Dictionary(uniqueKeysWithValues: clean.truth.rows.filter { $0.track == "P1" && $0.joint == "nose" }.map { ($0.frame, $0.position) })
    var checked = 0, close = 0, compared = 0
    for f in 10..<150 {
      guard let d = clean.match.detections[camera.name]!.people[f + clock.frames], let before = nose[f - 1], let now = nose[f],
        let after = nose[f + 1]
      else { continue }
      // Linear interpolation of the truth at f − phase, projected.
      let t = -clock.phase
      let at = t >= 0 ? now + t * (after - now) : now + (-t) * (before - now)
      guard let expected = camera.project(at), let exact = camera.project(now) else { continue }
      let gaps = d.map { length(SIMD2($0.keypoints[0].x, $0.keypoints[0].y) - expected) }
      compared += 1
      // The truth interpolated linearly is itself off where the head accelerates: most frames within 0.5 px.
      if gaps.min()! < 0.5 { close += 1 }
      if length(expected - exact) > 1, gaps.min()! < 0.5 { checked += 1 }
    }
    XCTAssertGreaterThan(Double(close), 0.9 * Double(compared))
    XCTAssertGreaterThan(checked, 5, "the phase moves the keypoint by more than a pixel in some frames")
  }
}
