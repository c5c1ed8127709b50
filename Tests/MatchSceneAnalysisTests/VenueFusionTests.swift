import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneBallPlay

/// `VenueFusion`: sources weighed by their stated uncertainties, with each one's residual and weight.
final class VenueFusionTests: XCTestCase {
  func testWeighsSourcesByTheirUncertainty() throws {
    let degree = Double.pi / 180
    let bounces = VenueFusion.Clue(
      source: "bounces", heading: (2 * degree, 2 * degree), centre: (SIMD2(0.04, -0.03), 0.04, 0.03), height: (0.76, 0.002))
    // Corners four times as certain as the bounces on every parameter: 16 times the weight.
    let corners = VenueFusion.Clue(
      source: "corners", heading: (-0.5 * degree, 0.5 * degree), centre: (SIMD2(0.0, 0.0), 0.01, 0.0075), height: (0.761, 0.0005))
    // A contact with the net at the centre, across the table, good to 1 cm along.
    let net = VenueFusion.Clue(source: "net contacts", netPoints: [(SIMD2(0.0, 0.5), 0.01)])
    let result = try XCTUnwrap(VenueFusion.combine([bounces, corners, net]))
    assertClose(result.heading / degree, (2 + 16 * -0.5) / 17, absolute: 1e-9)
    assertClose(result.headingSigma / degree, 2 / 17.0.squareRoot(), absolute: 1e-9)
    assertClose(result.height, (0.76 + 16 * 0.761) / 17, absolute: 1e-9)
    // Along: bounces (1/0.04²), corners (1/0.01²) and the net (1/0.01²); across: bounces and corners.
    let axis = SIMD2(cos(result.heading), sin(result.heading)), normal = SIMD2(-axis.y, axis.x)
    let alongWeights = [1 / 0.0016, 1 / 0.0001, 1 / 0.0001]
    let alongValues = [(SIMD2(0.04, -0.03) * axis).sum(), 0, (SIMD2(0.0, 0.5) * axis).sum()]
    let along = zip(alongWeights, alongValues).map(*).reduce(0, +) / alongWeights.reduce(0, +)
    assertClose((result.centre * axis).sum(), along, absolute: 1e-12)
    assertClose(result.alongSigma, (1 / alongWeights.reduce(0, +)).squareRoot(), absolute: 1e-12)
    let across = (1 / 0.0009 * (SIMD2(0.04, -0.03) * normal).sum()) / (1 / 0.0009 + 1 / 0.00005625)
    assertClose((result.centre * normal).sum(), across, absolute: 1e-12)
    // Reports: one per source and parameter; weights of a parameter sum to 1.
    let heading = result.reports.filter { $0.parameter == .heading }
    XCTAssertEqual(heading.map(\.source), ["bounces", "corners"])
    assertClose(heading.map(\.weight).reduce(0, +), 1, absolute: 1e-12)
    assertClose(heading[0].residual, 2 - result.heading / degree, absolute: 1e-9)
    XCTAssertEqual(result.reports.filter { $0.parameter == .along }.map(\.source), ["bounces", "corners", "net contacts"])
    XCTAssertEqual(result.reports.filter { $0.parameter == .across }.map(\.source), ["bounces", "corners"])
  }

  /// Headings are compared modulo 180° (the table's ends look alike).
  func testHeadingsWrapAtAHalfTurn() throws {
    let degree = Double.pi / 180
    let a = VenueFusion.Clue(source: "a", heading: (89 * degree, degree), centre: (.zero, 0.01, 0.01), height: (0.76, 0.01))
    let b = VenueFusion.Clue(source: "b", heading: (-89 * degree, degree))
    let result = try XCTUnwrap(VenueFusion.combine([a, b]))
    assertClose(abs(result.heading / degree), 90, absolute: 1e-9)
  }

  /// No heading, or no centre across, is no estimate.
  func testMissingParametersGiveNoEstimate() {
    XCTAssertNil(VenueFusion.combine([]))
    XCTAssertNil(VenueFusion.combine([VenueFusion.Clue(source: "net", heading: (0, 0.01), netPoints: [(.zero, 0.01)], height: (0.76, 0.01))]))
  }
}
