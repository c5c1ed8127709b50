@testable import MatchSceneAnalysis
@testable import MatchSceneBallFlight
@testable import MatchSceneBallPlay
@testable import MatchSceneMotion
import MatchSceneCore
import TestSupport
import XCTest

/// The analysis's parallel and allocation-free paths give exactly what the one-pass, sorting versions
/// gave (the 10-minute match's outputs are byte-identical after the speed work).
final class ParallelAnalysisTests: XCTestCase {
  /// A rally of `frames` frames starting at `start`: a ball served, bouncing on the table and hit back
  /// (60 fps, 3 mm noise, every 17th frame missed).
  func rally(start: Int, frames: Int, seed: UInt64) -> [(frame: Int, position: SIMD3<Double>)] {
    let model = BallModel(drag: 0.126)
    var p = SIMD3<Double>(-1.6, 0.1, 1.0), v = SIMD3<Double>(7, -0.3, 0.5)
    var t = 0.0, frame = 0
    let dt = 1 / 1200.0, fps = 60.0
    var rng = SeededGenerator(seed: seed)
    var out: [(frame: Int, position: SIMD3<Double>)] = []
    while frame < frames {
      (p, v) = model.advance(p, v, by: dt, step: dt)
      t += dt
      if p.z < 0.78, v.z < 0, abs(p.x) < 1.37 { v = SIMD3(v.x * 0.9, v.y * 0.9, -v.z * 0.89) }
      if p.x > 1.8, v.x > 0 { v = SIMD3(-8, 0.4, 1.2) }
      if p.x < -1.8, v.x < 0 { v = SIMD3(8, -0.4, 1.2) }
      if t >= Double(frame) / fps {
        if frame % 17 != 5 {
          out.append((start + frame, p + 0.003 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())))
        }
        frame += 1
      }
    }
    return out
  }

  /// Rallies separated by gaps just below, at and just above the cut (maxGap + the seed's frames: 15 + 3
  /// at 60 fps) and far above it, in shuffled order: the flights found piece by piece in parallel equal,
  /// bit for bit, those of one greedy pass over the whole track.
  func testFlightsFoundInPiecesEqualOnePass() {
    let segmentation = FlightSegmentation(model: BallModel(drag: 0.126), surfaces: BallSurfaces(ballRadius: 0.02, table: nil))
    var observations: [(frame: Int, position: SIMD3<Double>)] = []
    var start = 0
    for (k, gap) in [14, 16, 18, 19, 20, 200, 17, 40].enumerated() {
      let piece = rally(start: start, frames: 50, seed: UInt64(k + 1))
      observations += piece
      start = piece.last!.frame + gap
    }
    var rng = SeededGenerator(seed: 9)
    observations.shuffle(using: &rng)
    let fps = 60.0
    let parallel = segmentation.flights(observations, fps: fps)
    let obs = observations.sorted { $0.frame < $1.frame }
    let onePass = segmentation.mergeUnbroken(segmentation.greedyFlights(obs, obs.indices, fps: fps), obs, fps: fps).map(\.flight)
    XCTAssertGreaterThan(onePass.count, 16, "each rally has several flights")
    XCTAssertEqual(parallel.count, onePass.count)
    for (a, b) in zip(parallel, onePass) {
      let same = a.frames == b.frames && a.position == b.position && a.velocity == b.velocity && a.rms == b.rms
      XCTAssertTrue(same && a.referenceTime == b.referenceTime, "\(a) against \(b)")
    }
  }

  /// The Hampel filter's in-place median equals the sorted median on windows of every length from 1
  /// to 13, with ties and missing samples.
  func testHampelMedianInPlaceEqualsSortedMedian() {
    var rng = SeededGenerator(seed: 3)
    for n in 1...13 {
      for _ in 0..<50 {
        let values = (0..<n).map { _ in (rng.gaussian() * 4).rounded() / 4 }
        let sorted = values.withUnsafeBufferPointer { source in
          withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { buffer in
            for k in 0..<n { buffer[k] = source[k] }
            return HampelFilter.sortedMedian(buffer, count: n)
          }
        }
        XCTAssertEqual(sorted, HampelFilter.median(values), "\(values)")
      }
    }
    // Outliers found on a series with gaps: a spike is flagged, its neighbours are not.
    var series: [Double?] = (0..<60).map { i in 0.01 * sin(Double(i) / 5) }
    series[7] = nil
    series[30] = 5
    series[31] = nil
    XCTAssertEqual(HampelFilter(halfWindow: 5, threshold: 3, floor: 0.05).outliers(series), [30])
  }

  /// Two players (walking, 2 mm noise, a 6-frame gap each) and three rallies of the ball, 60 fps.
  func playersAndBall() -> MotionModel {
    let fps = 60.0, skeleton = Skeleton.coco17
    var ball: [(frame: Int, position: SIMD3<Double>)] = []
    for (k, start) in [0, 160, 330].enumerated() { ball += rally(start: start, frames: 120, seed: UInt64(k + 11)) }
    var motion = MotionModel(fps: fps, skeleton: skeleton, frames: 0...(ball.last!.frame))
    var rng = SeededGenerator(seed: 5)
    var players = [motion.makeTrack(id: "P1", kind: .player), motion.makeTrack(id: "P2", kind: .player)]
    for f in motion.frames! {
      for (k, side) in [-2.2, 2.2].enumerated() where !((100 + 40 * k)..<(106 + 40 * k)).contains(f) {
        for j in 0..<skeleton.count {
          let p = SIMD3(side + 0.3 * sin(Double(f) / 40), 0.2 * Double(k) + 0.01 * Double(j % 5), 0.1 + 0.09 * Double(j))
          players[k][joint: j, frame: f] = MotionSample(
            position: p + 0.002 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()), reprojectionPx: 1, views: 3, state: .measured)
        }
      }
    }
    var track = motion.makeTrack(id: "ball", kind: .ball)
    for o in ball { track[joint: 0, frame: o.frame] = MotionSample(position: o.position, reprojectionPx: 1, views: 2, state: .measured) }
    motion.tracks = players + [track]
    return motion
  }

  /// `MatchAnalyzer.run` analyses the people and the ball side by side: the people equal, sample for
  /// sample, those smoothed and given constant bone lengths alone, and the flights and rests equal
  /// those found on the ball alone, bit for bit.
  func testPeopleAndBallSideBySideEqualOneAfterTheOther() throws {
    try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount < 2, "side by side needs two cores")
    let motion = playersAndBall()
    let table = TableGeometry(length: 2.74, width: 1.525, surfaceHeight: 0.76, netHeight: 0.1525, ballRadius: 0.02)
    let analyzer = MatchAnalyzer(table: table, ball: BallModel(drag: 0.126))
    let result = analyzer.run(motion)
    var people = motion
    TrackSmoother(options: analyzer.options.smoothing).smooth(&people)
    BoneLengthConstraint().apply(to: &people)
    for t in 0..<2 {
      XCTAssertEqual(result.motion.tracks[t].samples, people.tracks[t].samples, "track \(people.tracks[t].id)")
      XCTAssertGreaterThan(result.motion.tracks[t].presentFrameCount, 400)
    }
    let (flights, byFrame, rests, _) = analyzer.ballFlightsAndRests(motion.tracks[2], fps: motion.fps)
    XCTAssertGreaterThan(flights.count, 6, "each rally has several flights")
    XCTAssertEqual(result.flights.count, flights.count)
    for (a, b) in zip(result.flights, flights) {
      XCTAssertTrue(a.frames == b.frames && a.position == b.position && a.velocity == b.velocity && a.referenceTime == b.referenceTime)
    }
    let observations = motion.tracks[2].frames.compactMap { f in motion.tracks[2].position(joint: 0, frame: f).map { (frame: f, position: $0) } }
    let alone = FlightSegmentation(
      model: BallModel(drag: 0.126), surfaces: BallSurfaces(ballRadius: 0.02, table: table), options: analyzer.options.segmentation
    ).flights(observations, fps: motion.fps)
    XCTAssertEqual(alone.map(\.frames), flights.map(\.frames))
    XCTAssertEqual(byFrame.count, observations.count)
    XCTAssertEqual(result.events.filter { $0.type == .ballAtRest }.map(\.frame), rests.map(\.frame))
  }

  /// The ball's track from flights trimmed, refitted and evaluated on all cores equals the one from the
  /// flights one after another (each frame from the last flight reporting it), sample for sample.
  func testBallReplacedFromParallelFlightsEqualsOneAfterTheOther() {
    let motion = playersAndBall(), fps = motion.fps, observed = motion.tracks[2]
    let (flights, _, _, _) = MatchAnalyzer(table: nil, ball: BallModel(drag: 0.126), ballRadius: 0.02)
      .ballFlightsAndRests(observed, fps: fps)
    let keep: (Int, Bool) -> Bool = { frame, fitted in fitted ? frame % 11 != 3 : frame % 2 == 0 }
    // A refit that moves the flight by 1 mm and reports its first kept frame as observed.
    let refit: @Sendable (BallFlight, ClosedRange<Int>, Set<Int>) -> (BallFlight, Set<Int>) = { flight, span, ends in
      var moved = flight
      moved.position += SIMD3(0.001, 0, 0)
      return (moved, ends.union([span.lowerBound]))
    }
    let got = MatchAnalyzer.replacingBall(observed, flights: flights, fps: fps, refit: refit, keep: keep)
    var expected = observed
    expected.samples = Array(repeating: .missing, count: observed.samples.count)
    var fitted = Set<Int>()
    for whole in flights {
      var (flight, ends) = BallFlightEnds.trimmed(whole, observed: observed, fps: fps)
      let kept = flight.frames.filter { !ends.contains($0) && observed.frames.contains($0) && observed[joint: 0, frame: $0].isPresent }
      if let first = kept.first, let last = kept.last { (flight, ends) = refit(flight, first...last, ends) }
      for frame in flight.frames where observed.frames.contains(frame) && keep(frame, true) && !ends.contains(frame) {
        let seen = observed[joint: 0, frame: frame]
        expected[joint: 0, frame: frame] = MotionSample(
          position: flight.position(at: Double(frame) / fps), reprojectionPx: seen.isPresent ? seen.reprojectionPx : -1,
          views: seen.isPresent ? Int(seen.views) : 0, state: seen.isPresent ? seen.state : .filled)
        fitted.insert(frame)
      }
    }
    for frame in observed.frames where !fitted.contains(frame) && observed[joint: 0, frame: frame].isPresent && keep(frame, false) {
      expected[joint: 0, frame: frame] = observed[joint: 0, frame: frame]
    }
    XCTAssertGreaterThan(fitted.count, 200)
    XCTAssertEqual(got.samples, expected.samples)
  }
}
