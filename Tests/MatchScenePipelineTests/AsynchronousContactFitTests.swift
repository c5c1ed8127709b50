import MatchSceneBallFlight
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneGeometry
import MatchScenePipeline
import MatchSceneReconstruction
import XCTest

/// Two flights meeting at a bounce inside a frame interval, seen by four unsynchronised cameras
/// (`AsynchronousFlightFit.refit(_:)`): the contact's instant is fitted between the
/// flights, every frame near it is reported from the flight on its side, and none is left to the
/// triangulated ball (which mixes instants from both sides of the contact).
final class AsynchronousContactFitTests: XCTestCase {
  typealias Flights = AsynchronousFlightFitTests
  static let fps = Flights.fps
  /// The bounce: 0.37 frame after match frame 15.
  static let contact = 15.37
  /// The flight before the bounce: falling at 1.3 m/s, 4.5 m/s along venue x.
  static let before = BallFlight(
    frames: 0...16, referenceTime: 8 / fps, position: SIMD3(-0.6, 0.1, 0.30), velocity: SIMD3(4.5, 0.3, -1.3),
    rms: 0, model: Flights.model)
  /// The flight after it: from the contact point, the vertical velocity reversed and 0.9 of it kept.
  static var after: BallFlight {
    let t = contact / fps, v = before.velocity(at: t)
    return BallFlight(
      frames: 17...30, referenceTime: t, position: before.position(at: t), velocity: SIMD3(0.9 * v.x, v.y, -0.9 * v.z),
      rms: 0, model: Flights.model)
  }

  static func truth(_ instant: Double) -> SIMD3<Double> {
    (instant <= contact ? before : after).position(at: instant / fps)
  }

  /// Every camera's ball by its own frame: the true ball at the camera's instant, projected, with
  /// ±`noise` px (a fixed LCG).
  static func fit(noise: Double) -> AsynchronousFlightFit {
    var state: UInt64 = 7
    func uniform() -> Double {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Double(state >> 11) / Double(1 << 53) * 2 - 1
    }
    let cameras = Flights.cameras()
    var raw: [String: [Int: [BallDetection2D]]] = [:]
    for (camera, clock) in zip(cameras, Flights.clocks) {
      var balls: [Int: [BallDetection2D]] = [:]
      for k in (-3 + clock.frames)...(33 + clock.frames) {
        let instant = Double(k) - Double(clock.frames) - clock.phase
        guard let px = camera.project(Flights.worldFromVenue.apply(truth(instant))) else { continue }
        balls[k] = [BallDetection2D(x: px.x + noise * uniform(), y: px.y + noise * uniform())]
      }
      raw[camera.name] = balls
    }
    let names = cameras.map(\.name)
    return AsynchronousFlightFit(
      cameras: cameras, rawBalls: raw, frameOffsets: Dictionary(uniqueKeysWithValues: zip(names, Flights.clocks.map(\.frames))),
      phases: Dictionary(uniqueKeysWithValues: zip(names, Flights.clocks.map(\.phase))),
      worldFromVenue: Flights.worldFromVenue, fps: fps)
  }

  /// The flights as the analysis hands them over: segmented one frame late (frame 16, past the
  /// contact, on the first flight), each start a few millimetres off, the two frames at each side of
  /// the contact trimmed as ends.
  static var pieces: [AsynchronousFlightFit.Piece] {
    var a = before, b = after
    a.position += SIMD3(0.004, -0.003, 0.003)
    a.velocity += SIMD3(-0.04, 0.03, 0.03)
    b.position += SIMD3(-0.003, 0.004, -0.002)
    b.velocity += SIMD3(0.03, -0.04, 0.02)
    return [(a, 0...14, [15, 16]), (b, 19...30, [17, 18])]
  }

  /// Each frame of 0...30 with the flight that reports it (nil: left as observed).
  static func reported(_ out: [(flight: BallFlight, ends: Set<Int>)]) -> [Int: BallFlight?] {
    var by: [Int: BallFlight?] = [:]
    for (flight, ends) in out {
      for frame in flight.frames { by[frame] = ends.contains(frame) ? .some(nil) : flight }
    }
    return by
  }

  func testEveryFrameNearTheContactComesFromTheFlightOnItsSide() {
    for noise in [0.0, 0.3] {
      let out = Self.fit(noise: noise).refit(Self.pieces)
      XCTAssertEqual(out.count, 2)
      // The contact lies between frames 15 and 16: the first flight reports up to 15, the second from 16.
      XCTAssertEqual(out[0].flight.frames, 0...15, "noise \(noise)")
      XCTAssertEqual(out[1].flight.frames, 16...30, "noise \(noise)")
      let by = Self.reported(out)
      for frame in 0...30 {
        guard let flight = by[frame] ?? nil else { XCTFail("frame \(frame) left as observed (noise \(noise))"); continue }
        let error = length(flight.position(at: Double(frame) / Self.fps) - Self.truth(Double(frame)))
        // Exact detections: within 0.2 mm (each flight is pulled by its neighbour's contact point as the
        // last of the three rounds left it; 0.12 mm at most); ±0.3 px (about 1 mm at 4.5 m): within a millimetre.
        XCTAssertLessThan(error, noise == 0 ? 2e-4 : 0.001, "frame \(frame), noise \(noise)")
      }
    }
  }

  func testEachFlightAloneLeavesTheFramePastTheContactWrong() {
    // The per-flight refit (spans only, no shared contact): frame 16 stays on the first flight, which
    // is past its contact there — either reported from it (centimetres off) or left as observed.
    let fit = Self.fit(noise: 0)
    let alone = Self.pieces.map { fit.refit($0.flight, span: $0.span!, ends: $0.ends) }
    let at16 = Self.reported(alone.map { (flight: $0.0, ends: $0.1) })[16] ?? nil
    if let at16 {
      XCTAssertGreaterThan(length(at16.position(at: 16 / Self.fps) - Self.truth(16)), 0.005)
    }
  }

  func testAFlightWithoutANeighbourIsRefittedAlone() {
    // One flight: the same as `refit(_:span:ends:)`.
    let fit = Self.fit(noise: 0)
    let piece = Self.pieces[1]
    let together = fit.refit([piece])[0]
    let alone = fit.refit(piece.flight, span: piece.span!, ends: piece.ends)
    XCTAssertEqual(together.flight.position, alone.0.position)
    XCTAssertEqual(together.flight.velocity, alone.0.velocity)
    XCTAssertEqual(together.flight.frames, piece.flight.frames)
    XCTAssertEqual(together.ends, alone.1)
    // A flight without kept observations comes back unchanged.
    let bare = fit.refit([(Self.before, nil, [])])[0]
    XCTAssertEqual(bare.flight.position, Self.before.position)
  }
}
