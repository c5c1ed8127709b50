import MatchSceneAssets
import MatchSceneCore
import MatchSceneSimulation
import TestSupport
import XCTest

/// The ball model against closed-form results (drag-free parabola, vertical fall with quadratic drag)
/// and against its own contact rules (restitution, tangential keep, net, rolling, rest).
final class SimulatedBallPhysicsTests: XCTestCase {
  let physics = try! BallPhysics(sport: tableTennis)
  let step = 0.001

  /// Advances until the first contact or `limit` seconds; returns the contact with absolute time.
  func firstContact(_ state: inout BallState, limit: Double = 5) -> BallContact? {
    var t = 0.0
    while t < limit {
      if var c = physics.advance(&state, by: step).first {
        c.time += t
        return c
      }
      t += step
    }
    return nil
  }

  func testConstantsComeFromTheAsset() {
    let ball = tableTennis.ball
    XCTAssertEqual(physics.ball, ball)
    assertClose(physics.drag, ball.airDensity * ball.dragCoefficient * Double.pi * 0.02 * 0.02 / (2 * 0.0027), relative: 1e-12)
    XCTAssertEqual(physics.tableLength, 2.74)
    XCTAssertEqual(physics.tableWidth, 1.525)
    XCTAssertEqual(physics.surfaceHeight, 0.76)
    XCTAssertEqual(physics.netHeight, 0.1525)
  }

  func testDragFreeFlightIsTheExactParabola() throws {
    var p = physics
    p.drag = 0
    let g = p.ball.gravity
    let p0 = SIMD3(-1.0, 0.1, 1.2), v0 = SIMD3(3.0, 0.5, 2.0)
    var state = BallState(position: p0, velocity: v0)
    // Position after 0.3 s (300 steps, before any contact).
    for _ in 0..<300 { XCTAssertTrue(p.advance(&state, by: step).isEmpty) }
    let t = 0.3
    assertClose(state.position, p0 + v0 * t + SIMD3(0, 0, -0.5 * g * t * t), absolute: 1e-9)
    assertClose(state.velocity, v0 + SIMD3(0, 0, -g * t), absolute: 1e-9)
    // First contact: the table top, at the analytic time.
    let level = p.surfaceHeight + p.ball.radius
    let tLand = (v0.z + (v0.z * v0.z + 2 * g * (p0.z - level)).squareRoot()) / g
    var fresh = BallState(position: p0, velocity: v0)
    var contact: BallContact?
    var clock = 0.0
    while contact == nil, clock < 2 {
      if var c = p.advance(&fresh, by: step).first {
        c.time += clock
        contact = c
      }
      clock += step
    }
    let c = try XCTUnwrap(contact)
    XCTAssertEqual(c.kind, .table)
    assertClose(c.time, tLand, absolute: 1e-6)
    assertClose(c.position, p0 + v0 * tLand + SIMD3(0, 0, -0.5 * g * tLand * tLand), absolute: 1e-6)
  }

  func testVerticalFallWithDragMatchesTanhLawAndTerminalSpeed() {
    let k = physics.drag, g = physics.ball.gravity
    let terminal = (g / k).squareRoot()
    var state = BallState(position: SIMD3(0, 5, 200), velocity: .zero)
    var t = 0.0
    var energy = g * 200.0
    for i in 1...8000 {
      _ = physics.advance(&state, by: step)
      t = Double(i) * step
      // Mechanical energy per unit mass only decreases under drag.
      let e = 0.5 * length(state.velocity) * length(state.velocity) + g * state.position.z
      XCTAssertLessThan(e, energy + 1e-12)
      energy = e
      if i == 500 {
        // v(t) = v_t · tanh(g t / v_t) for a fall from rest with quadratic drag.
        assertClose(-state.velocity.z, terminal * tanh(g * t / terminal), relative: 1e-8)
        // z(t) = z0 − (v_t² / g) · ln cosh(g t / v_t).
        assertClose(state.position.z, 200 - terminal * terminal / g * log(cosh(g * t / terminal)), absolute: 1e-8)
      }
    }
    assertClose(-state.velocity.z, terminal, relative: 1e-5, "terminal speed √(g/k)")
  }

  func testTableBounceRestitutionFromTheTrajectory() throws {
    // ITTF rule 2.3.4: dropped from 30.5 cm onto the table; drag off so the heights are exact.
    var p = physics
    p.drag = 0
    let level = p.surfaceHeight + p.ball.radius
    var state = BallState(position: SIMD3(0.5, 0.2, level + 0.305), velocity: .zero)
    var apex = -Double.infinity
    var bounced = false
    var sawContact: BallContact?
    for _ in 0..<1000 {
      let contacts = p.advance(&state, by: step)
      if let c = contacts.first { sawContact = c; bounced = true }
      if bounced { apex = max(apex, state.position.z) }
      if bounced, state.velocity.z < 0 { break }
    }
    let c = try XCTUnwrap(sawContact)
    XCTAssertEqual(c.kind, .table)
    assertClose(-c.velocityAfter.z / c.velocityBefore.z, p.ball.restitutionTable, relative: 1e-12)
    // Rebound height over drop height = e².
    assertClose((apex - level) / 0.305, p.ball.restitutionTable * p.ball.restitutionTable, absolute: 1e-4)
  }

  func testFloorBounceKeepsTheTangentialFraction() throws {
    var state = BallState(position: SIMD3(5, 2, 0.5), velocity: SIMD3(2, -1, -1))
    let c = try XCTUnwrap(firstContact(&state))
    XCTAssertEqual(c.kind, .floor)
    assertClose(c.position.z, physics.ball.radius, absolute: 1e-12)
    let keep = physics.ball.tangentialKeepFloor
    assertClose(c.velocityAfter.x, keep * c.velocityBefore.x, absolute: 1e-12)
    assertClose(c.velocityAfter.y, keep * c.velocityBefore.y, absolute: 1e-12)
    assertClose(c.velocityAfter.z, -physics.ball.restitutionFloor * c.velocityBefore.z, absolute: 1e-12)
  }

  func testBallBesideTheTableFallsToTheFloor() throws {
    var state = BallState(position: SIMD3(0.5, 1.0, 1.0), velocity: SIMD3(0, 0, 0))
    XCTAssertEqual(try XCTUnwrap(firstContact(&state)).kind, .floor)
  }

  func testNetStopsTheBall() throws {
    let z = physics.surfaceHeight + physics.netHeight / 2
    var state = BallState(position: SIMD3(-0.8, 0.3, z), velocity: SIMD3(8, 0, 0))
    let c = try XCTUnwrap(firstContact(&state))
    XCTAssertEqual(c.kind, .net)
    assertClose(c.position.x, -physics.ball.radius, absolute: 1e-12)
    XCTAssertLessThan(c.velocityAfter.x, 0)
    assertClose(abs(c.velocityAfter.x), physics.netRestitution * c.velocityBefore.x, relative: 1e-12)
    // A ball well above the tape, or beside the posts, passes.
    var over = BallState(position: SIMD3(-0.8, 0.3, physics.surfaceHeight + 0.4), velocity: SIMD3(8, 0, 0))
    XCTAssertNotEqual(firstContact(&over, limit: 0.15)?.kind, .net)
    var beside = BallState(
      position: SIMD3(-0.8, physics.tableWidth / 2 + physics.netOverhang + 0.05, z), velocity: SIMD3(8, 0, 0))
    XCTAssertNil(firstContact(&beside, limit: 0.15))
  }

  func testBallComesToRestOnTheFloor() {
    var state = BallState(position: SIMD3(3, 0, 1), velocity: SIMD3(1.5, 0.5, 0))
    var t = 0.0
    var rest: BallContact?
    while t < 30, rest == nil {
      rest = physics.advance(&state, by: step).first { $0.kind == .rest }
      t += step
    }
    XCTAssertNotNil(rest, "the ball must come to rest")
    XCTAssertEqual(state.mode, .resting)
    XCTAssertEqual(state.velocity, .zero)
    assertClose(state.position.z, physics.ball.radius, absolute: 1e-12)
    let before = state.position
    _ = physics.advance(&state, by: 0.5)
    XCTAssertEqual(state.position, before)
  }

  func testRollingBallLeavesTheTableAtAnEdge() {
    let level = physics.surfaceHeight + physics.ball.radius
    var state = BallState(position: SIMD3(1.2, 0.0, level), velocity: SIMD3(1.0, 0, 0), mode: .rolling(onTable: true))
    var kinds: [BallContact.Kind] = []
    for _ in 0..<3000 { kinds += physics.advance(&state, by: step).map(\.kind) }
    XCTAssertEqual(kinds.first, .floor, "rolls off the end and lands on the floor")
  }
}
