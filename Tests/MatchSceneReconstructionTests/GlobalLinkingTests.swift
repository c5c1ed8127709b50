@testable import MatchSceneReconstruction
import MatchSceneCore
import XCTest

/// The global tracklet association (`IdentityTracker.globalChains`) on constructed tracklets, and the
/// assignment solver under it.
final class GlobalLinkingTests: XCTestCase {
  let fps = 60.0
  let limbsA: [Double?] = [0.30, 0.30, 0.26, 0.26, 0.44, 0.44, 0.42, 0.42, 0.38, 0.26, 0.52, 0.52]
  /// Another build: every limb 3 cm longer (well beyond `maxLimbDifference`, 1 cm).
  var limbsB: [Double?] { limbsA.map { $0.map { $0 + 0.03 } } }

  /// A tracklet seen from `first` to `last` (60 frames or more: its proportions are known), moving at
  /// `velocity` (m/s, across the ground).
  func tracklet(
    _ id: Int, _ first: Int, _ last: Int, from start: SIMD2<Double>, to end: SIMD2<Double>, limbs: [Double?],
    velocity: SIMD2<Double> = .zero
  ) -> IdentityTracker.Track {
    let v = SIMD3(velocity.x, velocity.y, 0)
    var t = IdentityTracker.Track(
      id: id, lastFrame: last, lastCentre: SIMD3(end.x, end.y, 1), velocity: v, frames: last - first + 1, firstFrame: first,
      firstCentre: SIMD3(start.x, start.y, 1), limbSamples: limbs.map { $0.map { [$0] } ?? [] })
    t.startVelocity = v
    t.updateLimbs()
    return t
  }

  func tracker(_ tracks: [IdentityTracker.Track]) -> IdentityTracker {
    var tracker = IdentityTracker(fps: fps, options: ReconstructionOptions())
    tracker.setTracks(tracks)
    return tracker
  }

  /// Two people of one build lost together; the first tracklet to start again lies between them,
  /// slightly nearer the second person's end, and the next one starts where only the second person
  /// can be. Greedy joining in time order gives the first to the second person and leaves the next
  /// unlinked (an identity split); the global optimum gives each person its own continuation.
  func testTheGlobalOptimumBeatsGreedyJoiningInTimeOrder() {
    let t = tracker([
      tracklet(0, 0, 99, from: [0, 0], to: [0, 0], limbs: limbsA),
      tracklet(1, 0, 99, from: [1.2, 0], to: [1.2, 0], limbs: limbsA),
      // Starts 10 frames later 0.62 m from person 0's end and 0.58 m from person 1's.
      tracklet(2, 110, 300, from: [0.62, 0], to: [0.62, 0], limbs: limbsA),
      // Starts 20 frames later 1.6 m beyond person 1's end: 2.2 m from person 0's (too far for 1/3 s).
      tracklet(3, 120, 300, from: [2.2, 0], to: [2.2, 0], limbs: limbsA),
    ])
    let chains = t.globalChains()
    XCTAssertEqual(chains[2], 0)
    XCTAssertEqual(chains[3], 1)
    XCTAssertEqual(Set(chains.values), [0, 1], "two people, two chains")
  }

  /// Two players of different builds cross: each new tracklet starts where the other player's ended.
  /// Positions alone would swap them; the proportions keep each with its own.
  func testProportionsKeepCrossingPeopleApart() {
    let t = tracker([
      tracklet(0, 0, 199, from: [-1, 0], to: [0, 0], limbs: limbsA, velocity: [0.3, 0]),
      tracklet(1, 0, 199, from: [1.3, 0], to: [0.3, 0], limbs: limbsB, velocity: [-0.3, 0]),
      tracklet(2, 215, 400, from: [0.3, 0], to: [1, 0], limbs: limbsA, velocity: [0.3, 0]),
      tracklet(3, 215, 400, from: [0, 0], to: [-1, 0], limbs: limbsB, velocity: [-0.3, 0]),
    ])
    let chains = t.globalChains()
    XCTAssertEqual(chains[2], 0)
    XCTAssertEqual(chains[3], 1)
  }

  /// A velocity carries a person through a short occlusion: the continuation lies where the person was
  /// heading, and another tracklet standing still near the occlusion's start is not taken.
  func testExtrapolationFollowsTheHeading() {
    let t = tracker([
      tracklet(0, 0, 99, from: [-2, 0], to: [0, 0], limbs: limbsA, velocity: [3, 0]),
      // The walker 0.3 s later, 0.9 m on.
      tracklet(1, 118, 300, from: [0.9, 0], to: [4, 0], limbs: limbsA, velocity: [3, 0]),
      // Someone else of the same build, starting still 0.4 m behind the walker's last place.
      tracklet(2, 118, 300, from: [-0.4, 0.2], to: [-0.4, 0.2], limbs: limbsA),
    ])
    let chains = t.globalChains()
    XCTAssertEqual(chains[1], 0)
    XCTAssertEqual(chains[2], 2)
  }

  /// Degenerate cases: no tracklets; tracklets overlapping in time never link (one person is not in
  /// two places); a person of another build is never linked, however near; after a long gap unknown
  /// proportions (a 12-frame glimpse) do not link either.
  func testDegenerateCases() {
    XCTAssertEqual(tracker([]).globalChains(), [:])
    let overlapping = tracker([
      tracklet(0, 0, 100, from: [0, 0], to: [0, 0], limbs: limbsA),
      tracklet(1, 50, 150, from: [0, 0], to: [0, 0], limbs: limbsA),
    ]).globalChains()
    XCTAssertNotEqual(overlapping[0], overlapping[1])
    let otherBuild = tracker([
      tracklet(0, 0, 100, from: [0, 0], to: [0, 0], limbs: limbsA),
      tracklet(1, 102, 200, from: [0, 0], to: [0, 0], limbs: limbsB),
    ]).globalChains()
    XCTAssertNotEqual(otherBuild[0], otherBuild[1])
    var glimpse = tracklet(1, 200, 211, from: [0, 0], to: [0, 0], limbs: [0.30, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil])
    glimpse.frames = 12
    let unknown = tracker([tracklet(0, 0, 100, from: [0, 0], to: [0, 0], limbs: limbsA), glimpse]).globalChains()
    XCTAssertNotEqual(unknown[0], unknown[1])
  }

  /// The assignment solver against every permutation on small random matrices, and with forbidden
  /// pairs and more columns than rows.
  func testAssignmentIsOptimal() {
    var rng = SeededGenerator(seed: 11)
    func permutations(_ items: [Int]) -> [[Int]] {
      guard items.count > 1 else { return [items] }
      return items.indices.flatMap { i in
        permutations(Array(items[..<i] + items[(i + 1)...])).map { [items[i]] + $0 }
      }
    }
    for _ in 0..<30 {
      let n = 5
      let cost = (0..<n).map { _ in (0..<n).map { _ in rng.uniform(0...10) } }
      let best = permutations(Array(0..<n)).map { p in p.enumerated().map { cost[$0.offset][$0.element] }.reduce(0, +) }.min()!
      let solution = Assignment.solve(cost)
      XCTAssertEqual(Set(solution).count, n)
      XCTAssertEqual(solution.enumerated().map { cost[$0.offset][$0.element] }.reduce(0, +), best, accuracy: 1e-9)
    }
    let f = Assignment.forbidden
    XCTAssertEqual(Assignment.solve([[f, 1, 5], [2, f, 1]]), [1, 2])
    XCTAssertEqual(Assignment.solve([]), [])
  }
}
