@testable import MatchSceneBallPlay
@testable import MatchSceneMotion
import MatchSceneCore
import TestSupport
import XCTest

/// The analysis's parallel and allocation-free paths give exactly what the one-pass, sorting versions
/// gave (issue 16 §1: the 10-minute match's outputs are byte-identical after the speed work).
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
}
