import MatchSceneAssets
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneSimulation
import TestSupport
import XCTest

/// Rigs (default, ring, TOML), configuration checks, and the coverage summary used to plan cameras.
final class RigTests: XCTestCase {
  func testDefaultRigIsRealistic() {
    let rig = RigConfig.default
    XCTAssertEqual(rig.cameras.count, 4)
    for placement in rig.cameras {
      let horizontal = (placement.position.x * placement.position.x + placement.position.y * placement.position.y)
        .squareRoot()
      XCTAssertTrue((4...6).contains(horizontal))
      XCTAssertTrue((2...3).contains(placement.position.z))
      XCTAssertTrue((1300...1500).contains(placement.focalPx))
      XCTAssertEqual(placement.imageSize, ImageSize(width: 1920, height: 1080))
      XCTAssertEqual(placement.distortion[0], -0.1)
      XCTAssertEqual(placement.distortion[1], 0.05)
      XCTAssertLessThan(abs(placement.distortion[2]) + abs(placement.distortion[3]), 0.002)
      // Behind a corner of the table: beyond both the end line and the side line.
      XCTAssertGreaterThan(abs(placement.position.x), 1.37)
      XCTAssertGreaterThan(abs(placement.position.y), 0.7625)
    }
    XCTAssertEqual(Set(rig.cameras.map { $0.position.x > 0 }).count, 2)
    XCTAssertEqual(Set(rig.cameras.map { $0.position.y > 0 }).count, 2)
  }

  func testRingPlacesCamerasEvenlyLookingAtTheTarget() throws {
    let target = SIMD3(0.2, -0.1, 1.0)
    let rig = RigConfig.ring(count: 6, radius: 4, height: 3, target: target, startAngle: 0, distortion: [])
    XCTAssertEqual(rig.cameras.map(\.name), ["cam1", "cam2", "cam3", "cam4", "cam5", "cam6"])
    for (i, placement) in rig.cameras.enumerated() {
      let angle = Double(i) * Double.pi / 3
      assertClose(placement.position, SIMD3(4 * cos(angle), 4 * sin(angle), 3), absolute: 1e-12)
      let camera = placement.camera
      let pixel = try XCTUnwrap(camera.project(target))
      XCTAssertLessThan(length(pixel - SIMD2(camera.cx, camera.cy)), 1e-6, "the target is at the principal point")
      // World up appears upwards in the image.
      let above = try XCTUnwrap(camera.project(target + SIMD3(0, 0, 0.5)))
      XCTAssertLessThan(above.y, pixel.y)
    }
  }

  func testRigReadsFromTOML() throws {
    let folder = try makeTemporaryFolder()
    let url = folder.appendingPathComponent("rig.toml")
    try """
    [[camera]]
    name = "left"
    position = [-4.5, -2.5, 2.4]
    target = [0, 0, 0.9]
    focal_px = 1450
    size = [1280, 720]
    distortion = [-0.08, 0.03, 0.001, 0.0, 0.0]
    frame_offset = 3

    [[camera]]
    position = [4.5, 2.5, 2.4]
    distortions = [-0.1, 0.05, 0, 0]
    """.write(to: url, atomically: true, encoding: .utf8)
    let rig = try RigConfig.read(from: url)
    XCTAssertEqual(rig.cameras.count, 2)
    let a = rig.cameras[0], b = rig.cameras[1]
    XCTAssertEqual(a.name, "left")
    XCTAssertEqual(a.position, SIMD3(-4.5, -2.5, 2.4))
    XCTAssertEqual(a.target, SIMD3(0, 0, 0.9))
    XCTAssertEqual(a.focalPx, 1450)
    XCTAssertEqual(a.imageSize, ImageSize(width: 1280, height: 720))
    XCTAssertEqual(a.distortion, [-0.08, 0.03, 0.001, 0.0, 0.0])
    XCTAssertEqual(a.frameOffset, 3)
    XCTAssertEqual(b.name, "cam2")
    XCTAssertEqual(b.target, SIMD3(0, 0, 0.8))
    XCTAssertEqual(b.focalPx, 1400)
    XCTAssertEqual(b.imageSize, ImageSize(width: 1920, height: 1080))
    XCTAssertEqual(b.distortion, [-0.1, 0.05, 0, 0])
    XCTAssertEqual(b.camera.distortion, [-0.1, 0.05, 0, 0, 0])
    // A simulation runs on it.
    let m = try MatchSimulator.simulate(SimulationConfig(duration: 2, rig: rig, noise: .none), sport: tableTennis)
    XCTAssertEqual(m.match.cameras.map(\.name), ["left", "cam2"])
    XCTAssertEqual(m.match.frameOffsets["left"], 3)
  }

  func testRigErrorsNameTheFileAndKey() throws {
    func error(_ text: String) -> InputError? {
      do {
        _ = try RigConfig.parse(text: text, file: "my-rig.toml")
        return nil
      } catch let e as InputError {
        return e
      } catch {
        XCTFail("unexpected \(error)")
        return nil
      }
    }
    let missing = try XCTUnwrap(error("[[camera]]\nposition = [1, 2, 3]\n[[camera]]\nfocal_px = 1000\n"))
    XCTAssertEqual(missing.file, "my-rig.toml")
    XCTAssertEqual(missing.location, .key("camera[2].position"))
    let short = try XCTUnwrap(error("[[camera]]\nposition = [1, 2]\n"))
    XCTAssertEqual(short.location, .key("camera[1].position"))
    let focal = try XCTUnwrap(error("[[camera]]\nposition = [1, 2, 3]\nfocal_px = -5\n"))
    XCTAssertEqual(focal.location, .key("camera[1].focal_px"))
    let same = try XCTUnwrap(error("[[camera]]\nposition = [4, 0, 2]\ntarget = [4, 0, 2]\n"))
    XCTAssertEqual(same.location, .key("camera[1].target"))
    XCTAssertTrue(same.message.contains("position"))
    let duplicate = try XCTUnwrap(
      error("[[camera]]\nname = \"a\"\nposition = [4, 0, 2]\n[[camera]]\nname = \"a\"\nposition = [-4, 0, 2]\n"))
    XCTAssertTrue(duplicate.message.contains("duplicate"))
    XCTAssertNotNil(error("camera = 3\n"))
    XCTAssertNotNil(error("title = \"no cameras\"\n"))
    XCTAssertNotNil(error("[[camera]\n"), "syntax error")
  }

  func testConfigurationIsCheckedBeforeWork() {
    func rejects(_ config: SimulationConfig, _ key: String, line: UInt = #line) {
      XCTAssertThrowsError(try MatchSimulator.simulate(config, sport: tableTennis), line: line) { error in
        XCTAssertEqual((error as? InputError)?.location, .key(key), line: line)
      }
    }
    rejects(SimulationConfig(duration: 0), "duration")
    rejects(SimulationConfig(fps: -1), "fps")
    rejects(SimulationConfig(players: [PlayerConfig(height: 1.7)]), "players")
    rejects(SimulationConfig(players: [PlayerConfig(height: 1.7), PlayerConfig(height: 3)]), "players[2].height")
    rejects(SimulationConfig(noise: DetectionNoise(missRate: 1.5)), "noise.miss_rate")
    rejects(SimulationConfig(noise: DetectionNoise(pixelSigma: -1)), "noise.pixel_sigma")
    rejects(SimulationConfig(rig: RigConfig(cameras: [])), "camera")
    rejects(
      SimulationConfig(rig: RigConfig(cameras: [CameraPlacement(name: "c", position: .zero, target: .zero)])),
      "camera c.target")
  }

  func testOnlyTableSportsAreSimulated() throws {
    let folder = try makeTemporaryFolder()
    let url = folder.appendingPathComponent("tennis.toml")
    try """
    sport = "tennis"
    [ball]
    radius = 0.033
    mass = 0.057
    drag_coefficient = 0.55
    restitution_floor = 0.75
    [venue]
    kind = "court"
    length = 23.77
    width = 10.97
    """.write(to: url, atomically: true, encoding: .utf8)
    let tennis = try SportSpec(contentsOf: url)
    XCTAssertThrowsError(try MatchSimulator.simulate(SimulationConfig(duration: 1), sport: tennis))
  }

  func testFrameRateDefaultsToTheSportsAndCanBeSet() throws {
    let a = try MatchSimulator.simulate(SimulationConfig(duration: 1, noise: .none), sport: tableTennis)
    XCTAssertEqual(a.match.fps, tableTennis.defaultFPS)
    XCTAssertEqual(a.truth.frames, 0...59)
    let b = try MatchSimulator.simulate(SimulationConfig(duration: 1, fps: 25, noise: .none), sport: tableTennis)
    XCTAssertEqual(b.match.fps, 25)
    XCTAssertEqual(b.truth.fps, 25)
    XCTAssertEqual(b.truth.frames, 0...24)
    assertClose(b.truth.rows.last!.time, 24.0 / 25, absolute: 1e-12)
  }

  func testCoverageSummaryOfTheDefaultRig() throws {
    let coverage = sharedMatch.coverage
    XCTAssertEqual(coverage.cameras.map(\.camera), sharedMatch.match.cameras.map(\.name))
    for camera in coverage.cameras {
      XCTAssertGreaterThan(try XCTUnwrap(camera.personInside["P1"]), 0.97, camera.camera)
      XCTAssertGreaterThan(try XCTUnwrap(camera.personInside["P2"]), 0.97, camera.camera)
      XCTAssertGreaterThan(camera.ballInside, 0.5)
      XCTAssertTrue((0...1).contains(camera.personInside["B1"]!))
    }
    XCTAssertLessThan(coverage.cameras.map { $0.personInside["B1"]! }.min()!, 0.5, "some camera misses the bystander")
    // Consistent with the truth's view counts.
    let points = sharedMatch.truth.rows
    assertClose(
      coverage.multiViewFraction, Double(points.filter { $0.views >= 2 }.count) / Double(points.count), absolute: 1e-12)
    XCTAssertGreaterThan(coverage.multiViewFraction, 0.9)
    XCTAssertGreaterThan(coverage.multiViewFractionByTrack["P1"]!, 0.99)
    XCTAssertTrue(coverage.summary.contains("cam4"))
    // A rig that looks away from the table sees nobody.
    var blind = SimulationConfig(duration: 2, noise: .none)
    blind.rig = RigConfig(cameras: [CameraPlacement(name: "sky", position: SIMD3(0, 0, 3), target: SIMD3(0, 0, 10))])
    let nothing = try MatchSimulator.simulate(blind, sport: tableTennis).coverage
    XCTAssertEqual(nothing.cameras[0].personInside["P1"], 0)
    XCTAssertEqual(nothing.multiViewFraction, 0)
  }
}
