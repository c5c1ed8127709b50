@testable import MatchSceneReconstruction
import MatchSceneCore
import XCTest

/// Hand-overs between two chains of one person are judged on the person's place, not on one noisy
/// centre (at 2× keypoint noise a bystander seen by two cameras handed over between his
/// own two tracklets 0.51 m apart in one frame, 3 cm beyond the one-frame reach, and stayed two ids).
final class HandOverTests: XCTestCase {
  let fps = 60.0
  let limbs: [Double?] = [0.33, 0.33, 0.26, 0.26, 0.43, 0.43, 0.43, 0.43, 0.37, 0.23, 0.51, 0.51]

  func tracker() -> IdentityTracker {
    var tracker = IdentityTracker(fps: fps, options: ReconstructionOptions())
    func track(_ id: Int, _ first: Int, _ last: Int) -> IdentityTracker.Track {
      var t = IdentityTracker.Track(
        id: id, lastFrame: last, lastCentre: SIMD3(0, -4, 1), velocity: .zero, frames: 60, firstFrame: first,
        firstCentre: SIMD3(0, -4, 1), limbSamples: limbs.map { $0.map { [$0] } ?? [] })
      t.updateLimbs()
      return t
    }
    tracker.setTracks([track(0, 0, 299), track(1, 100, 199)])
    return tracker
  }

  /// A bystander walks at 1 m/s; tracklet 0 has him in frames 0–99 and 200–299, tracklet 1 in between.
  /// Every centre scatters ±5 cm; at the first hand-over tracklet 0's last centre is 0.3 m off one way
  /// and tracklet 1's first 0.25 m the other (0.55 m apart in one frame, beyond the 0.48 m reach), yet
  /// the median places of a few sightings either side agree: one person.
  func testANoisyHandOverDoesNotKeepOnePersonsChainsApart() {
    var state: UInt64 = 7
    func jitter() -> Double {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return 0.1 * (Double(state >> 11) / Double(1 << 53) - 0.5)
    }
    let sightings = (0..<300).map { f -> IdentityTracker.Sighting in
      var centre = SIMD3<Double>(-3 + Double(f) / fps + jitter(), -4 + jitter(), 1)
      if f == 99 { centre.y += 0.3 }
      if f == 100 { centre.y -= 0.25 }
      return .init(frame: f, tracklet: (100..<200).contains(f) ? 1 : 0, centre: centre)
    }
    let joined = tracker().mergedInterleaved([0: 0, 1: 1], sightings: sightings, up: SIMD3(0, 0, 1))
    XCTAssertEqual(joined[0], joined[1])
  }

  /// Two people never seen together whose places at a hand-over are 1.5 m apart in one frame — a
  /// bystander's track ending as another person's starts elsewhere — stay apart, their sightings as
  /// steady as can be.
  func testTwoPeopleHandingOverFarApartStayApart() {
    let sightings = (0..<300).map { f -> IdentityTracker.Sighting in
      let tracklet = (100..<200).contains(f) ? 1 : 0
      return .init(frame: f, tracklet: tracklet, centre: SIMD3(-3 + Double(f) / fps, tracklet == 1 ? -2.5 : -4, 1))
    }
    let joined = tracker().mergedInterleaved([0: 0, 1: 1], sightings: sightings, up: SIMD3(0, 0, 1))
    XCTAssertNotEqual(joined[0], joined[1])
  }
}

/// Two chains' proportions are compared within their own measurement scatter (`limbTolerance`).
final class LimbToleranceTests: XCTestCase {
  let fps = 60.0

  /// Tracklets 0 (frames 0–99, 200–299) and 1 (100–199) of one person walking, hand-overs in reach,
  /// never seen together. Their limbs scatter by `scatter` per frame around medians 1.6 cm apart.
  func joined(scatter: Double) -> Bool {
    var state: UInt64 = 5
    func noise() -> Double {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return scatter * 2 * (Double(state >> 11) / Double(1 << 53) - 0.5) * 1.7
    }
    func track(_ id: Int, _ first: Int, _ last: Int, offset: Double) -> IdentityTracker.Track {
      let samples = (0..<12).map { _ in (0..<60).map { _ in 0.4 + offset + noise() } }
      var t = IdentityTracker.Track(
        id: id, lastFrame: last, lastCentre: SIMD3(0, -4, 1), velocity: .zero, frames: 100, firstFrame: first,
        firstCentre: SIMD3(0, -4, 1), limbSamples: samples)
      t.updateLimbs()
      return t
    }
    var tracker = IdentityTracker(fps: fps, options: ReconstructionOptions())
    tracker.setTracks([track(0, 0, 299, offset: 0), track(1, 100, 199, offset: 0.016)])
    let sightings = (0..<300).map { f in
      IdentityTracker.Sighting(
        frame: f, tracklet: (100..<200).contains(f) ? 1 : 0, centre: SIMD3(-3 + Double(f) / fps, -4, 1))
    }
    let chains = tracker.mergedInterleaved([0: 0, 1: 1], sightings: sightings, up: SIMD3(0, 0, 1))
    return chains[0] == chains[1]
  }

  /// A person seen by two cameras on a badly calibrated rig (limbs scatter ±3 cm): one person.
  func testProportionsDifferingWithinTheirScatterAreOnePerson() { XCTAssertTrue(joined(scatter: 0.03)) }

  /// Well-seen people (±2 mm) whose proportions differ by 1.6 cm: two people.
  func testWellMeasuredProportionsThatDifferAreTwoPeople() { XCTAssertFalse(joined(scatter: 0.002)) }

  /// A bystander on a miscalibrated rig: his limbs measure 4 cm longer on one side of the hall than on
  /// the other. Chain A holds a long tracklet from the near side and a short one from the far side;
  /// chain B one from the far side. Their longest tracklets differ by 4 cm, the far-side ones agree
  /// within 2 mm: one person. A chain whose tracklets all differ by 4 cm stays apart.
  func testProportionsAgreeWhereMeasuredAlike() {
    func track(_ id: Int, _ first: Int, _ last: Int, limb: Double) -> IdentityTracker.Track {
      var t = IdentityTracker.Track(
        id: id, lastFrame: last, lastCentre: SIMD3(0, -4, 1), velocity: .zero, frames: last - first + 1, firstFrame: first,
        firstCentre: SIMD3(0, -4, 1), limbSamples: (0..<12).map { _ in [Double](repeating: limb, count: 40) })
      t.updateLimbs()
      return t
    }
    func joined(far: Double) -> Bool {
      var tracker = IdentityTracker(fps: fps, options: ReconstructionOptions())
      tracker.setTracks([track(0, 0, 199, limb: 0.40), track(1, 200, 299, limb: far), track(2, 300, 359, limb: 0.44)])
      let sightings = (0..<360).map { f in
        IdentityTracker.Sighting(frame: f, tracklet: f < 200 ? 0 : f < 300 ? 1 : 2, centre: SIMD3(-3 + Double(f) / fps, -4, 1))
      }
      let chains = tracker.mergedInterleaved([0: 0, 1: 1, 2: 0], sightings: sightings, up: SIMD3(0, 0, 1))
      return chains[1] == chains[0]
    }
    XCTAssertTrue(joined(far: 0.442))
    XCTAssertFalse(joined(far: 0.48))
  }

  /// The spread is the limbs' per-frame standard deviation: uniform noise of half-width w has
  /// standard deviation w / √3, the median absolute deviation w / 2 (× 1.4826 = 0.74 w).
  func testLimbSpreadOfUniformNoise() {
    let samples: [[Double]] = (0..<12).map { (k: Int) -> [Double] in
      (0..<61).map { (i: Int) -> Double in 0.4 + 0.03 * (Double(i) / 30 - 1) + 0.0001 * Double(k) }
    }
    let track = IdentityTracker.Track(
      id: 0, lastFrame: 0, lastCentre: .zero, velocity: .zero, frames: 61, firstFrame: 0, firstCentre: .zero,
      limbSamples: samples)
    XCTAssertEqual(IdentityTracker.limbSpread(track), 1.4826 * 0.015, accuracy: 1e-4)
  }
}
