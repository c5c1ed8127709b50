import Foundation
import MatchSceneAssets
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneAssimp

/// The venues of every built-in sport, and court dimensions checked against the rule books.
final class CourtVenueTests: XCTestCase {
  static let expectedParts: [String: [String]] = [
    "table-tennis": ["floor", "table", "lines", "net", "legs"],
    "tennis": ["floor", "court", "lines", "net", "posts"],
    "badminton": ["floor", "court", "lines", "net", "posts"],
    "volleyball": ["floor", "court", "lines", "net", "posts"],
    "basketball": ["floor", "court", "lines", "rings", "backboards", "supports"],
    "floor": ["floor"],
  ]

  func parts(_ sport: String) throws -> [String: TriangleMesh] {
    Dictionary(uniqueKeysWithValues: try VenueGeometry.parts(of: SportSpec.builtIn(sport)).map { ($0.name, $0.mesh) })
  }

  func bounds(_ mesh: TriangleMesh) -> (lo: SIMD3<Double>, hi: SIMD3<Double>) {
    (
      mesh.positions.reduce(SIMD3(repeating: .infinity)) { pointwiseMin($0, $1) },
      mesh.positions.reduce(SIMD3(repeating: -.infinity)) { pointwiseMax($0, $1) }
    )
  }

  /// Highest vertex of `mesh` whose y is within 1 µm of `y`.
  func top(_ mesh: TriangleMesh, atY y: Double) -> Double? {
    mesh.positions.filter { abs($0.y - y) < 1e-6 }.map(\.z).max()
  }

  func hasVertex(_ mesh: TriangleMesh, x: Double? = nil, y: Double? = nil) -> Bool {
    mesh.positions.contains { p in
      (x.map { abs(p.x - $0) < 1e-9 } ?? true) && (y.map { abs(p.y - $0) < 1e-9 } ?? true)
    }
  }

  func testEverySportBuildsAValidSceneThatAssimpReimports() throws {
    XCTAssertEqual(Set(AssetCatalog.sports), Set(Self.expectedParts.keys))
    let folder = try makeTemporaryFolder("matchscene-venues")
    defer { try? FileManager.default.removeItem(at: folder) }
    for id in AssetCatalog.sports {
      let sport = try SportSpec.builtIn(id)
      let parts = try VenueGeometry.parts(of: sport)
      XCTAssertEqual(parts.map(\.name), Self.expectedParts[id], id)
      for part in parts {
        XCTAssertEqual(part.mesh.normals.count, part.mesh.positions.count, "\(id) \(part.name)")
        XCTAssertTrue(part.mesh.indices.allSatisfy { Int($0) < part.mesh.positions.count }, "\(id) \(part.name)")
        XCTAssertGreaterThan(part.mesh.triangleCount, 0, "\(id) \(part.name)")
      }
      let doc = try MatchSceneGLTF.build(
        motion: SyntheticScene.motion(), cameras: SyntheticScene.cameras, sport: sport, worldUp: SIMD3(0, 0, 1))
      let url = folder.appendingPathComponent("\(id).glb")
      try GLTFWriter.write(doc, to: url)
      XCTAssertEqual(GLTFValidator.validate(fileAt: url), [], id)
      let scene = try AssimpScene(contentsOf: url)
      XCTAssertTrue(scene.nodes.contains { $0.name == "venue" && $0.parent == "matchscene" }, id)
      XCTAssertTrue(scene.nodes.contains { $0.name == "ball" }, id)
      // One assimp mesh per venue part, plus a skinned body per player and the ball.
      XCTAssertEqual(scene.meshes.count, parts.count + 2 + 1, id)
      XCTAssertEqual(scene.animations.map(\.name), ["match"], id)
      let ball = try XCTUnwrap(doc.meshes?.first { $0.name == "ball" })
      let position = doc.accessors![ball.primitives[0].attributes["POSITION"]!]
      assertClose(position.max!.max()!, sport.ball.radius, absolute: 1e-7, "\(id) ball radius")
    }
  }

  func testEveryLineFacesUpAndLiesOnTheCourt() throws {
    for id in ["tennis", "badminton", "volleyball", "basketball"] {
      let p = try parts(id)
      let lines = try XCTUnwrap(p["lines"])
      let court = try XCTUnwrap(p["court"])
      for k in 0..<lines.triangleCount {
        let a = lines.positions[Int(lines.indices[3 * k])]
        let b = lines.positions[Int(lines.indices[3 * k + 1])]
        let c = lines.positions[Int(lines.indices[3 * k + 2])]
        XCTAssertGreaterThan(cross(b - a, c - a).z, 0, "\(id) line triangle \(k) faces up (mirrored ones too)")
      }
      XCTAssertGreaterThan(bounds(lines).lo.z, bounds(court).hi.z, id)
      XCTAssertGreaterThan(bounds(court).lo.z, 0, "\(id): the court lies on the floor")
      XCTAssertLessThan(bounds(lines).hi.z, 0.005, id)
    }
  }

  /// ITF Rules of Tennis, rule 1.
  func testTennisCourtAndNet() throws {
    let p = try parts("tennis")
    let lines = bounds(p["lines"]!)
    assertClose(lines.hi.x, 11.885, absolute: 1e-9, "23.77 m to the outside of the baselines")
    assertClose(lines.lo.x, -11.885, absolute: 1e-9)
    assertClose(lines.hi.y, 5.485, absolute: 1e-9, "10.97 m doubles court")
    assertClose(lines.lo.y, -5.485, absolute: 1e-9)
    XCTAssertTrue(hasVertex(p["lines"]!, y: 4.115), "8.23 m singles court")
    XCTAssertTrue(hasVertex(p["lines"]!, y: -4.115), "8.23 m singles court, mirrored")
    XCTAssertTrue(hasVertex(p["lines"]!, x: 6.40) && hasVertex(p["lines"]!, x: -6.40), "service lines 6.40 m from the net")
    let net = p["net"]!
    assertClose(try XCTUnwrap(top(net, atY: 0)), 0.914, absolute: 1e-3, "0.914 m at the centre")
    let postY = 5.485 + 0.914
    assertClose(try XCTUnwrap(top(net, atY: postY)), 1.07, absolute: 1e-3, "1.07 m at the posts")
    assertClose(try XCTUnwrap(top(net, atY: -postY)), 1.07, absolute: 1e-3)
    XCTAssertEqual(bounds(net).lo.z, 0, "the net reaches the ground")
    XCTAssertEqual(bounds(net).lo.x, 0)
    XCTAssertEqual(bounds(net).hi.x, 0, "a sheet above the centre line")
    let posts = bounds(p["posts"]!)
    assertClose((posts.hi.y + posts.lo.y) / 2, 0, absolute: 1e-12)
    assertClose(posts.hi.y - 0.05, postY, absolute: 1e-9, "post centres 0.914 m outside the doubles sidelines")
    assertClose(posts.hi.z, 1.07, absolute: 1e-9)
  }

  /// BWF Laws of Badminton, law 1.
  func testBadmintonCourtAndNet() throws {
    let p = try parts("badminton")
    let lines = bounds(p["lines"]!)
    assertClose(lines.hi.x, 6.70, absolute: 1e-9, "13.40 m")
    assertClose(lines.hi.y, 3.05, absolute: 1e-9, "6.10 m")
    XCTAssertTrue(hasVertex(p["lines"]!, x: 1.98) && hasVertex(p["lines"]!, x: -1.98), "short service lines 1.98 m from the net")
    XCTAssertTrue(hasVertex(p["lines"]!, x: 6.70 - 0.76), "long service line for doubles 0.76 m inside the back boundary")
    XCTAssertTrue(hasVertex(p["lines"]!, y: 2.59), "5.18 m singles court")
    assertClose(try XCTUnwrap(top(p["net"]!, atY: 0)), 1.524, absolute: 1e-3)
    assertClose(try XCTUnwrap(top(p["net"]!, atY: 3.05)), 1.55, absolute: 1e-3, "1.55 m over the doubles side lines")
    assertClose(bounds(p["net"]!).lo.z, 1.524 - 0.76, absolute: 1e-3, "760 mm deep")
  }

  /// FIVB Official Volleyball Rules, rules 1 and 2.
  func testVolleyballCourtAndNet() throws {
    let p = try parts("volleyball")
    let lines = bounds(p["lines"]!)
    assertClose(lines.hi, SIMD3(9, 4.5, lines.hi.z), absolute: 1e-9, "18 × 9 m, lines inside")
    assertClose(lines.lo, SIMD3(-9, -4.5, lines.lo.z), absolute: 1e-9)
    XCTAssertTrue(hasVertex(p["lines"]!, x: 3.0) && hasVertex(p["lines"]!, x: -3.0), "attack lines' rear edge 3 m from the centre line's axis")
    let net = bounds(p["net"]!)
    assertClose(net.hi.z, 2.43, absolute: 1e-9)
    assertClose(net.lo.z, 1.43, absolute: 1e-9, "1 m deep")
    assertClose(net.hi.y, 5.0, absolute: 1e-9, "10 m long")
    assertClose(bounds(p["posts"]!).hi.z, 2.55, absolute: 1e-9)
  }

  /// FIBA Official Basketball Rules, art. 2 and 3.
  func testBasketballCourtAndBaskets() throws {
    let p = try parts("basketball")
    let lines = p["lines"]!
    XCTAssertTrue(hasVertex(lines, x: 14.0) && hasVertex(lines, x: -14.0), "28 m to the inner edges of the end lines")
    XCTAssertTrue(hasVertex(lines, y: 7.5) && hasVertex(lines, y: -7.5), "15 m to the inner edges of the side lines")
    XCTAssertTrue(hasVertex(lines, x: 8.20), "free-throw line's further edge 5.80 m from the end line")
    // The three-point arc's outer edge is 6.75 m from the point below the basket, its apex on the axis.
    let basket = SIMD3(12.425, 0.0, 0.0)
    func planar(_ p: SIMD3<Double>) -> Double { length(SIMD3(p.x, p.y, 0) - basket) }
    XCTAssertTrue(lines.positions.contains { abs($0.y) < 1e-9 && abs($0.x - (12.425 - 6.75)) < 1e-9 })
    let arc = lines.positions.filter {
      let d = planar($0)
      return d > 6.72 && d < 6.8 && $0.x < 11.0
    }
    XCTAssertFalse(arc.isEmpty)
    for v in arc { assertClose(planar(v), 6.75, absolute: 1e-9) }
    // Corner threes: 6.60 m off the axis, meeting the arc.
    XCTAssertTrue(hasVertex(lines, y: 6.60) && hasVertex(lines, y: -6.60))

    let rings = p["rings"]!
    assertClose(bounds(rings).hi.z, 3.05, absolute: 1e-9, "top of the ring 3.05 m above the floor")
    let inner = rings.positions.filter { $0.x > 0 }.map { planar($0) }.min()!
    assertClose(inner, 0.225, absolute: 1e-9, "inner diameter 450 mm")
    let boards = bounds(p["backboards"]!)
    assertClose(boards.lo.z, 2.90, absolute: 1e-9)
    assertClose(boards.hi.z - boards.lo.z, 1.05, absolute: 1e-9)
    assertClose(boards.hi.y - boards.lo.y, 1.80, absolute: 1e-9)
    let front = p["backboards"]!.positions.filter { $0.x > 0 }.map(\.x).min()!
    assertClose(front, 14 - 1.20, absolute: 1e-9, "front face 1.20 m from the end line")
    let supports = p["supports"]!.positions.filter { $0.x > 0 && $0.z < 1 }.map(\.x).min()!
    assertClose(supports, 14.05 + 2.0, absolute: 1e-9, "supports 2 m behind the end line's outer edge")
  }

  func testFloorSportHasOnlyAFloor() throws {
    let p = try parts("floor")
    XCTAssertEqual(Array(p.keys), ["floor"])
    assertClose(bounds(p["floor"]!).hi, SIMD3(20, 10, 0), absolute: 1e-12)
  }

  func testBadMarkingsAreReportedWithTheirKey() throws {
    let folder = try makeTemporaryFolder("matchscene-markings")
    defer { try? FileManager.default.removeItem(at: folder) }
    let base = """
      sport = "test"
      [ball]
      radius = 0.1
      mass = 0.1
      drag_coefficient = 0.5
      restitution_floor = 0.5
      [venue]
      kind = "court"
      length = 10
      width = 5
      floor_length = 12
      floor_width = 7
      [colors]
      floor = [0, 0, 0]
      court = [0, 0, 1]
      lines = [1, 1, 1]
      ball = [1, 1, 0]

      """
    let cases: [(String, String)] = [
      ("[markings.a]\nx = [1, 0]\ny = [0, 1]\n", "markings.a.x"),
      ("[markings.b]\nx = [0, 1]\n", "markings.b.y"),
      ("[markings.c]\nshape = \"arc\"\ncenter = [0, 0]\nradius = 1\nwidth = 2\nangles = [0, 90]\n", "markings.c.width"),
      ("[markings.d]\nshape = \"circle\"\n", "markings.d.shape"),
    ]
    for (marking, key) in cases {
      let url = folder.appendingPathComponent("test.toml")
      try (base + marking).write(to: url, atomically: true, encoding: .utf8)
      XCTAssertThrowsError(try SportSpec(contentsOf: url), key) { error in
        XCTAssertEqual((error as? InputError)?.location, .key(key), "\(error)")
      }
    }
    // A good file: no net, no baskets; the mirrored strip gives two quads.
    let url = folder.appendingPathComponent("good.toml")
    try (base + "[markings.ends]\nx = [4.95, 5]\ny = [-2.5, 2.5]\nmirror_x = true\n").write(
      to: url, atomically: true, encoding: .utf8)
    let sport = try SportSpec(contentsOf: url)
    XCTAssertEqual(sport.venue.markings.map(\.name), ["ends"])
    let parts = try VenueGeometry.parts(of: sport)
    XCTAssertEqual(parts.map(\.name), ["floor", "court", "lines"])
    XCTAssertEqual(parts[2].mesh.triangleCount, 4)
    var noColor = sport
    noColor.venue.colors["lines"] = nil
    XCTAssertThrowsError(try VenueGeometry.parts(of: noColor)) { error in
      XCTAssertEqual((error as? InputError)?.location, .key("colors.lines"))
    }
  }

  func testTorusIsClosedAndOutward() {
    let torus = TriangleMesh.torus(majorRadius: 1, minorRadius: 0.1, segments: 24, sides: 6)
    XCTAssertEqual(torus.positions.count, 24 * 6)
    XCTAssertEqual(torus.triangleCount, 2 * 24 * 6)
    for k in 0..<torus.triangleCount {
      let a = torus.positions[Int(torus.indices[3 * k])]
      let b = torus.positions[Int(torus.indices[3 * k + 1])]
      let c = torus.positions[Int(torus.indices[3 * k + 2])]
      let centre = (a + b + c) / 3
      // Outward: away from the nearest point of the tube's centre circle.
      let axis = normalize(SIMD3(centre.x, centre.y, 0))
      XCTAssertGreaterThan(dot(cross(b - a, c - a), centre - axis), 0, "triangle \(k)")
    }
  }
}
