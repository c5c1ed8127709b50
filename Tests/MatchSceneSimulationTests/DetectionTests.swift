import MatchSceneCore
import MatchSceneGeometry
import MatchSceneSimulation
import TestSupport
import XCTest

/// The simulated detectors: their noise and fault statistics match the configuration.
final class DetectionTests: XCTestCase {
  /// Simulates 6 s with only the given faults.
  func simulate(_ noise: DetectionNoise, seed: UInt64 = 11, duration: Double = 6, rig: RigConfig = .default) throws
    -> SimulatedMatch
  {
    try MatchSimulator.simulate(
      SimulationConfig(seed: seed, duration: duration, rig: rig, noise: noise), sport: tableTennis)
  }

  /// Per camera and frame, the true projections of each person's keypoints (nil when outside the image).
  struct Projected {
    var people: [String: [SIMD2<Double>?]]
    var ball: SIMD2<Double>?
  }

  func projections(_ m: SimulatedMatch) -> [String: [Int: Projected]] {
    var out: [String: [Int: Projected]] = [:]
    let points = m.truth.rows
    for camera in m.match.cameras {
      let pixels = camera.project(points.map(\.position))
      var frames: [Int: Projected] = [:]
      for (i, p) in points.enumerated() {
        let px = pixels[i].flatMap { camera.contains($0) ? $0 : nil }
        if p.kind == .ball {
          frames[p.frame, default: Projected(people: [:])].ball = px
        } else {
          frames[p.frame, default: Projected(people: [:])].people[p.track, default: []].append(px)
        }
      }
      out[camera.name] = frames
    }
    return out
  }

  /// The true person a detection belongs to: the one whose projections are closest on average.
  func owner(_ d: PersonDetection2D, _ truth: [String: [SIMD2<Double>?]]) -> String? {
    var best: (String, Double)?
    for (track, pixels) in truth {
      var sum = 0.0, n = 0
      for (k, p) in zip(d.keypoints, pixels) where k.isDetected {
        guard let p else { continue }
        sum += length(SIMD2(k.x, k.y) - p)
        n += 1
      }
      guard n > 0 else { continue }
      if best == nil || sum / Double(n) < best!.1 { best = (track, sum / Double(n)) }
    }
    return best?.0
  }

  func testPerfectDetectorReportsExactProjections() throws {
    let m = try simulate(.none)
    let truth = projections(m)
    var people = 0
    for camera in m.match.cameras {
      for (frame, projected) in truth[camera.name]! {
        let detections = m.match.people(camera: camera.name, frame: frame)
        // Everybody with at least 6 keypoints in the image is detected, nobody else.
        let expected = projected.people.values.filter { $0.compactMap { $0 }.count >= 6 }.count
        XCTAssertEqual(detections.count, expected, "\(camera.name) frame \(frame)")
        for d in detections {
          let track = try XCTUnwrap(owner(d, projected.people))
          for (k, p) in zip(d.keypoints, projected.people[track]!) {
            if let p {
              XCTAssertTrue(k.isDetected)
              XCTAssertLessThan(length(SIMD2(k.x, k.y) - p), 1e-9)
              XCTAssertTrue((0.6...0.95).contains(k.confidence))
            } else {
              XCTAssertEqual(k, .missing, "outside the image")
            }
          }
          people += 1
        }
        let balls = m.match.balls(camera: camera.name, frame: frame)
        if let p = projected.ball {
          XCTAssertEqual(balls.count, 1)
          XCTAssertLessThan(length(SIMD2(balls[0].x, balls[0].y) - p), 1e-9)
        } else {
          XCTAssertTrue(balls.isEmpty)
        }
      }
    }
    XCTAssertGreaterThan(people, 4 * 360)
  }

  func testPixelNoiseHasTheConfiguredSigma() throws {
    let sigma = 2.0, ballSigma = 1.0
    var noise = DetectionNoise.none
    noise.pixelSigma = sigma
    noise.ballPixelSigma = ballSigma
    let m = try simulate(noise)
    let truth = projections(m)
    var sum = 0.0, sumSquares = 0.0, n = 0
    var ballSum = 0.0, ballN = 0
    for camera in m.match.cameras {
      for (frame, projected) in truth[camera.name]! {
        for d in m.match.people(camera: camera.name, frame: frame) {
          let track = try XCTUnwrap(owner(d, projected.people))
          for (k, p) in zip(d.keypoints, projected.people[track]!) where k.isDetected {
            let e = length(SIMD2(k.x, k.y) - p!)
            sum += e
            sumSquares += e * e
            n += 1
          }
        }
        if let p = projected.ball, let b = m.match.balls(camera: camera.name, frame: frame).first {
          ballSum += length(SIMD2(b.x, b.y) - p)
          ballN += 1
        }
      }
    }
    XCTAssertGreaterThan(n, 40_000)
    // The distance of an isotropic 2D Gaussian error is Rayleigh distributed: mean σ·√(π/2), E[d²] = 2σ².
    assertClose(sum / Double(n), sigma * (Double.pi / 2).squareRoot(), relative: 0.02)
    assertClose(sumSquares / Double(n), 2 * sigma * sigma, relative: 0.03)
    assertClose(ballSum / Double(ballN), ballSigma * (Double.pi / 2).squareRoot(), relative: 0.08)
  }

  func testKeypointFaultRatesMatchTheSettings() throws {
    var noise = DetectionNoise.none
    noise.missRate = 0.2
    noise.outlierRate = 0.1
    noise.swapRate = 0.1
    let m = try simulate(noise)
    let truth = projections(m)
    var inImage = 0, missed = 0, outliers = 0, detected = 0, people = 0, swapped = 0
    func exact(_ k: Keypoint2D, _ p: SIMD2<Double>?) -> Bool {
      guard k.isDetected, let p else { return false }
      return length(SIMD2(k.x, k.y) - p) < 1e-6
    }
    for camera in m.match.cameras {
      for (frame, projected) in truth[camera.name]! {
        for d in m.match.people(camera: camera.name, frame: frame) {
          let track = try XCTUnwrap(owner(d, projected.people))
          var pixels = projected.people[track]!
          // A swapped detection has each left keypoint exactly at the right one's projection.
          var direct = 0, mirrored = 0
          for (l, r) in Skeleton.coco17.mirrorPairs {
            if exact(d.keypoints[l], pixels[l]) { direct += 1 }
            if exact(d.keypoints[r], pixels[r]) { direct += 1 }
            if exact(d.keypoints[l], pixels[r]) { mirrored += 1 }
            if exact(d.keypoints[r], pixels[l]) { mirrored += 1 }
          }
          if direct + mirrored > 0 {
            people += 1
            if mirrored > direct { swapped += 1 }
          }
          if mirrored > direct { for (l, r) in Skeleton.coco17.mirrorPairs { pixels.swapAt(l, r) } }
          for (k, p) in zip(d.keypoints, pixels) {
            guard let p else { continue }
            inImage += 1
            guard k.isDetected else { missed += 1; continue }
            detected += 1
            let e = length(SIMD2(k.x, k.y) - p)
            if e > 1e-6 {
              outliers += 1
              XCTAssertTrue((30...150).contains(e), "outliers are displaced 30–150 px, got \(e)")
              XCTAssertTrue((0.45...0.85).contains(k.confidence), "outlier confidence 0.45–0.85")
            }
          }
        }
      }
    }
    assertClose(Double(missed) / Double(inImage), 0.2, absolute: 0.01, "miss rate")
    assertClose(Double(outliers) / Double(detected), 0.1, absolute: 0.01, "outlier rate")
    assertClose(Double(swapped) / Double(people), 0.1, absolute: 0.025, "swap rate")
  }

  func testBallFaultRatesMatchTheSettings() throws {
    var noise = DetectionNoise.none
    noise.ballMissRate = 0.3
    noise.falseBallRate = 0.1
    let m = try simulate(noise, duration: 12)
    let truth = projections(m)
    var visible = 0, found = 0, absentFrames = 0, falseWhenAbsent = 0, falseWhenVisible = 0
    for camera in m.match.cameras {
      for (frame, projected) in truth[camera.name]! {
        let balls = m.match.balls(camera: camera.name, frame: frame)
        XCTAssertLessThanOrEqual(balls.count, 1, "one detection per frame at most")
        if let p = projected.ball {
          visible += 1
          if let b = balls.first {
            if length(SIMD2(b.x, b.y) - p) < 1e-6 { found += 1 } else { falseWhenVisible += 1 }
          }
        } else {
          absentFrames += 1
          if !balls.isEmpty { falseWhenAbsent += 1 }
        }
      }
    }
    XCTAssertGreaterThan(visible, 500)
    XCTAssertGreaterThan(absentFrames, 500)
    // Found: not missed and not replaced, (1 − 0.3)(1 − 0.1).
    assertClose(Double(found) / Double(visible), 0.7 * 0.9, absolute: 0.04)
    assertClose(Double(falseWhenVisible) / Double(visible), 0.1, absolute: 0.03)
    assertClose(Double(falseWhenAbsent) / Double(absentFrames), 0.1, absolute: 0.03)
  }

  func testPeopleAreListedInRandomOrder() throws {
    let m = try simulate(.none)
    let truth = projections(m)
    var firstIsP1 = 0, both = 0
    for camera in m.match.cameras {
      for (frame, projected) in truth[camera.name]! {
        let d = m.match.people(camera: camera.name, frame: frame)
        guard d.count == 2 else { continue }
        both += 1
        if owner(d[0], projected.people) == "P1" { firstIsP1 += 1 }
      }
    }
    XCTAssertGreaterThan(both, 1000)
    assertClose(Double(firstIsP1) / Double(both), 0.5, absolute: 0.05)
  }

  func testBystanderIsSeenBySomeCamerasOnly() throws {
    let m = sharedMatch
    let cameras = m.match.cameras.count
    let views = m.truth.rows.filter { $0.track == "B1" && $0.joint == "nose" }.map(\.views)
    XCTAssertEqual(views.count, 1200)
    XCTAssertLessThan(Double(views.filter { $0 == cameras }.count) / Double(views.count), 0.5)
    XCTAssertGreaterThan(views.filter { $0 > 0 }.count, 300, "some cameras do see the bystander")
    // Somewhere a camera reports three people.
    let threes = m.match.cameras.map { c in m.match.detections[c.name]!.people.values.filter { $0.count == 3 }.count }
    XCTAssertGreaterThan(threes.max()!, 100)
    XCTAssertLessThan(threes.min()!, 600, "not every camera sees the bystander all the time")
  }

  func testFrameOffsetsShiftTheCameraFrameNumbers() throws {
    var rig = RigConfig.default
    rig.cameras[1].frameOffset = 7
    var noise = DetectionNoise.none
    noise.pixelSigma = 1
    let shifted = try simulate(noise, rig: rig)
    let plain = try simulate(noise)
    let name = rig.cameras[1].name
    XCTAssertEqual(shifted.match.frameOffsets[name], 7)
    XCTAssertEqual(shifted.match.frameOffsets[rig.cameras[0].name], 0)
    let a = shifted.match.detections[name]!, b = plain.match.detections[name]!
    XCTAssertEqual(Set(a.people.keys), Set(b.people.keys.map { $0 + 7 }))
    for (frame, people) in b.people { XCTAssertEqual(a.people[frame + 7], people) }
    XCTAssertEqual(shifted.match.people(camera: name, frame: 100), plain.match.people(camera: name, frame: 100))
  }
}
