import Foundation
import MatchSceneAssets
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport

final class VenueAndMeshTests: XCTestCase {
  /// Outward winding: every triangle's normal points away from the centre of a convex mesh.
  func assertOutward(_ mesh: TriangleMesh, centre: SIMD3<Double>, file: StaticString = #filePath, line: UInt = #line) {
    for k in 0..<mesh.triangleCount {
      let a = mesh.positions[Int(mesh.indices[3 * k])]
      let b = mesh.positions[Int(mesh.indices[3 * k + 1])]
      let c = mesh.positions[Int(mesh.indices[3 * k + 2])]
      XCTAssertGreaterThan(
        dot(cross(b - a, c - a), (a + b + c) / 3 - centre), 0, "triangle \(k)", file: file, line: line)
    }
  }

  func testIcosphereHas80OutwardTrianglesOnTheSphere() {
    let sphere = TriangleMesh.icosphere(radius: 0.02, subdivisions: 1)
    XCTAssertEqual(sphere.triangleCount, 80)
    XCTAssertEqual(sphere.positions.count, 42)
    for (p, n) in zip(sphere.positions, sphere.normals) {
      assertClose(length(p), 0.02, absolute: 1e-12)
      assertClose(n, p / 0.02, absolute: 1e-12)
    }
    assertOutward(sphere, centre: .zero)
  }

  func testBoxAndPrismAreClosedAndOutward() {
    let box = TriangleMesh.box(from: SIMD3(-1, -2, 0), to: SIMD3(1, 2, 0.5))
    XCTAssertEqual(box.triangleCount, 12)
    assertOutward(box, centre: SIMD3(0, 0, 0.25))
    let prism = TriangleMesh.prismAlongY(radius: 0.01, sides: 6)
    XCTAssertEqual(prism.triangleCount, 6 * 2 + 2 * 4)
    assertOutward(prism, centre: SIMD3(0, 0.5, 0))
    XCTAssertEqual(prism.positions.map(\.y).min(), 0)
    XCTAssertEqual(prism.positions.map(\.y).max(), 1)
  }

  func testBallMeshHasTheSportsBallRadius() throws {
    let doc = try SyntheticScene.document()
    let mesh = doc.meshes!.first { $0.name == "ball" }!
    let position = doc.accessors![mesh.primitives[0].attributes["POSITION"]!]
    assertClose(position.max!.max()!, 0.020, absolute: 1e-7, "40 mm diameter")
    assertClose(position.min!.min()!, -0.020, absolute: 1e-7)
    XCTAssertEqual(mesh.primitives[0].indices.map { doc.accessors![$0].count }, 240, "80 triangles")
    let material = doc.materials![mesh.primitives[0].material!]
    XCTAssertEqual(material.pbrMetallicRoughness?.baseColorFactor, [1.0, 0.55, 0.0, 1])
  }

  func testVenueFollowsTheSportsDimensions() throws {
    let sport = try SyntheticScene.sport()
    let parts = try VenueGeometry.parts(of: sport)
    XCTAssertEqual(parts.map(\.name), ["floor", "table", "lines", "net", "legs"])
    func bounds(_ name: String) -> (lo: SIMD3<Double>, hi: SIMD3<Double>) {
      let p = parts.first { $0.name == name }!.mesh.positions
      return (
        p.reduce(SIMD3(repeating: .infinity)) { pointwiseMin($0, $1) },
        p.reduce(SIMD3(repeating: -.infinity)) { pointwiseMax($0, $1) }
      )
    }
    let table = bounds("table")
    assertClose(table.hi, SIMD3(1.37, 0.7625, 0.76), absolute: 1e-12)
    assertClose(table.lo, SIMD3(-1.37, -0.7625, 0.735), absolute: 1e-12)
    let net = bounds("net")
    assertClose(net.hi, SIMD3(0, 0.7625 + 0.1525, 0.76 + 0.1525), absolute: 1e-12)
    assertClose(net.lo, SIMD3(0, -(0.7625 + 0.1525), 0.76), absolute: 1e-12)
    let floor = bounds("floor")
    assertClose(floor.hi, SIMD3(7, 3.5, 0), absolute: 1e-12)
    let legs = bounds("legs")
    assertClose(legs.hi.z, 0.735, absolute: 1e-12, "legs reach the underside of the top")
    assertClose(legs.hi.x, 1.37 - 0.30 + 0.025, absolute: 1e-12)
    let lines = bounds("lines")
    XCTAssertGreaterThan(lines.lo.z, 0.76)
    XCTAssertLessThan(lines.hi.z, 0.765)
    XCTAssertEqual(parts.first { $0.name == "lines" }!.mesh.triangleCount, 10, "4 edge lines and the centre line")

    // Every size comes from the sport file: change one and the geometry follows.
    var longer = sport
    longer.venue.dimensions["length"] = 3.0
    assertClose(try VenueGeometry.parts(of: longer)[1].mesh.positions.map(\.x).max()!, 1.5, absolute: 1e-12)
    var missing = sport
    missing.venue.dimensions["net_height"] = nil
    XCTAssertThrowsError(try VenueGeometry.parts(of: missing)) { error in
      XCTAssertEqual((error as? InputError)?.location, .key("venue.net_height"))
    }
    var noColor = sport
    noColor.venue.colors["net"] = nil
    XCTAssertThrowsError(try VenueGeometry.parts(of: noColor))
  }

  func testVenueNodeCarriesOnePrimitivePerPartInItsColour() throws {
    let doc = try SyntheticScene.document()
    let venue = doc.nodes![doc.node("venue")!]
    let mesh = doc.meshes![venue.mesh!]
    XCTAssertEqual(mesh.primitives.count, 5)
    let colors = mesh.primitives.map { doc.materials![$0.material!].pbrMetallicRoughness!.baseColorFactor! }
    XCTAssertTrue(colors.contains([0.05, 0.20, 0.45, 1]), "table colour from [colors]")
    XCTAssertTrue(doc.materials!.contains { $0.name == "net" && $0.doubleSided == true })
  }
}
