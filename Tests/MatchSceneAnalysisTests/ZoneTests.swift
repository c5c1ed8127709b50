import Foundation
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO
import MatchSceneSimulation
import TestSupport
import XCTest

final class ZoneTests: XCTestCase {
  let person = SyntheticPerson()
  let fps = 60.0

  // MARK: - Shapes

  func testSignedDistancesOfTheShapes() {
    let sphere = Zone(name: "s", shape: .sphere(radius: 0.1), center: SIMD3(1, 0, 0), triggers: [.ball])
    assertClose(sphere.signedDistance(SIMD3(1, 0, 0)), -0.1, absolute: 1e-12)
    assertClose(sphere.signedDistance(SIMD3(1.3, 0, 0)), 0.2, absolute: 1e-12)
    let box = Zone(name: "b", shape: .box(size: SIMD3(0.4, 0.2, 0.1)), center: .zero, triggers: [.ball])
    assertClose(box.signedDistance(SIMD3(0.3, 0, 0)), 0.1, absolute: 1e-12)
    assertClose(box.signedDistance(SIMD3(0, 0, 0)), -0.05, absolute: 1e-12)  // nearest face: z
    assertClose(box.signedDistance(SIMD3(0.5, 0.4, 0)), (0.09 + 0.09).squareRoot(), absolute: 1e-12)  // corner
    let cylinder = Zone(name: "c", shape: .cylinder(radius: 0.2, height: 1), center: .zero, triggers: [.ball])
    assertClose(cylinder.signedDistance(SIMD3(0, 0.3, 0)), 0.1, absolute: 1e-12)
    assertClose(cylinder.signedDistance(SIMD3(0, 0, 0.45)), -0.05, absolute: 1e-12)
    assertClose(cylinder.signedDistance(SIMD3(0, 0, 0.7)), 0.2, absolute: 1e-12)
  }

  // MARK: - Hysteresis under noise

  /// A wrist that strikes 10 cm into a venue-fixed sphere at 2 m/s, lingers 1 cm inside the surface, leaves,
  /// and lingers 1 cm outside, ten times, with 2 cm of noise on every joint: every real entry is found
  /// within 2 frames of the frame its true path crossed the surface, and lingering never re-enters.
  func testNoisyLingeringMakesNoFalseReentriesAndEntriesAreFoundWithinTwoFrames() {
    let pose = SyntheticPerson.Pose(pelvis: SIMD3(0, 0, person.pelvisHeight), heading: 0)
    let chest = person.chest(pose)
    let centre = chest.venuePoint(SIMD3(0.15, 0.4, 0))
    let radius = 0.12
    let axis = -chest.forward  // from the centre towards the body
    // Signed-distance waypoints (metres) with the seconds to reach each at the given speed / hold.
    var waypoints: [(time: Double, s: Double)] = [(0, 0.15)]
    func move(to s: Double, speed: Double) { waypoints.append((waypoints.last!.time + abs(s - waypoints.last!.s) / speed, s)) }
    func hold(_ seconds: Double) { waypoints.append((waypoints.last!.time + seconds, waypoints.last!.s)) }
    var trueEntries: [Double] = [], trueExits: [Double] = []
    for _ in 0..<10 {
      hold(0.3)
      trueEntries.append(waypoints.last!.time + 0.15 / 2)
      move(to: -0.10, speed: 2)
      move(to: -0.01, speed: 0.5)
      hold(0.6)  // 1 cm inside the surface
      move(to: -0.10, speed: 0.5)
      trueExits.append(waypoints.last!.time + 0.10 / 2)
      move(to: 0.15, speed: 2)
      move(to: 0.01, speed: 0.5)
      hold(0.6)  // 1 cm outside
      move(to: 0.15, speed: 0.5)
    }
    func s(_ t: Double) -> Double {
      guard let k = waypoints.firstIndex(where: { $0.time >= t }), k > 0 else { return waypoints[0].s }
      let a = waypoints[k - 1], b = waypoints[k]
      return b.time > a.time ? a.s + (b.s - a.s) * (t - a.time) / (b.time - a.time) : b.s
    }
    let frames = 0...Int(waypoints.last!.time * fps)
    let truth = person.motion(fps: fps, frames: frames, pose: { _ in pose }) { t, chest in
      (chest.venuePoint(self.person.restingHand(right: false)), centre + axis * (radius + s(t)))
    }
    let zone = Zone(name: "drum", shape: .sphere(radius: radius), center: centre, triggers: [.role(.rightWrist)])
    for seed in UInt64(1)...5 {
      let noisy = SyntheticPerson.addingNoise(truth, sigma: 0.02, seed: seed)
      let events = ZoneDetector(zones: [zone]).events(in: noisy, venue: .assumed(worldUp: SIMD3(0, 0, 1)))
      let enters = events.filter { $0.type == .zoneEnter }, exits = events.filter { $0.type == .zoneExit }
      XCTAssertEqual(enters.count, trueEntries.count, "seed \(seed): entries")
      XCTAssertEqual(exits.count, trueExits.count, "seed \(seed): exits")
      for (e, t) in zip(enters, trueEntries) {
        // The first frame with the true point inside.
        let truthFrame = (t * fps).rounded(.up)
        XCTAssertLessThanOrEqual(abs(Double(e.frame) - truthFrame), 2, "seed \(seed): entry at frame \(e.frame), truth \(truthFrame)")
        XCTAssertEqual(e.zone, "drum")
        XCTAssertEqual(e.joint, "right_wrist")
        XCTAssertEqual(e.track, "P1")
        // 2 m/s in, slowing to 0.5 m/s inside; noise adds to a difference.
        XCTAssert((0.8...3.5).contains(e.speed ?? 0), "entry speed \(e.speed ?? 0)")
      }
      for (e, t) in zip(exits, trueExits) {
        let truthFrame = (t * fps).rounded(.up)
        XCTAssertLessThanOrEqual(abs(Double(e.frame) - truthFrame), 2, "seed \(seed): exit at frame \(e.frame), truth \(truthFrame)")
      }
    }
  }

  /// A point that flicks through a zone for one frame at a time (a fast ball through the serve-toss
  /// cylinder): each visit is one entry and one exit, the exit never dated before its entry (the 3-sample
  /// means around a one-frame visit all lie outside, and the exit's walk back once ran past the entry,
  /// giving a negative duration), and the events come in time order.
  func testOneFrameVisitsGiveOrderedEntriesAndExits() {
    let pose = SyntheticPerson.Pose(pelvis: SIMD3(0, 0, person.pelvisHeight), heading: 0)
    let chest = person.chest(pose)
    let centre = chest.venuePoint(SIMD3(0.15, 0.4, 0))
    let radius = 0.12
    let axis = -chest.forward
    let visits = [20, 27, 60]  // frames inside, one each; the first two close together
    let truth = person.motion(fps: fps, frames: 0...90, pose: { _ in pose }) { t, chest in
      let frame = Int((t * self.fps).rounded())
      let s = visits.contains(frame) ? -0.05 : 0.3
      return (chest.venuePoint(self.person.restingHand(right: false)), centre + axis * (radius + s))
    }
    let zone = Zone(
      name: "toss", shape: .sphere(radius: radius), center: centre, triggers: [.role(.rightWrist)],
      enterMargin: 0, exitMargin: 0.03, minDwell: 0)
    let events = ZoneDetector(zones: [zone]).events(in: truth, venue: .assumed(worldUp: SIMD3(0, 0, 1)))
    let enters = events.filter { $0.type == .zoneEnter }, exits = events.filter { $0.type == .zoneExit }
    XCTAssertEqual(enters.map(\.frame), visits)
    XCTAssertEqual(exits.map(\.frame), visits.map { $0 + 1 })
    for e in exits { XCTAssertGreaterThan(e.duration ?? -1, 0, "exit at frame \(e.frame)") }
    XCTAssertEqual(events.map(\.frame), events.map(\.frame).sorted())
  }

  // MARK: - Body-attached zones

  /// A player turning twice on the spot (90°/s) holds the right wrist 40 cm in front of the chest and
  /// 20 cm to the right: the body-attached drum there holds it the whole time (one entry, no exit),
  /// while a venue-fixed sphere where the drum was at the start is left and found again each turn.
  func testABodyAttachedZoneKeepsItsPlaceAsThePlayerTurns() {
    let drumPoint = SIMD3(0.2, 0.4, 0.0)
    let pelvis = SIMD3(0.5, -1.0, person.pelvisHeight)
    let turnRate = Double.pi / 2
    let poseAt = { (t: Double) in SyntheticPerson.Pose(pelvis: pelvis, heading: turnRate * t) }
    let frames = 0...Int(8 * fps)
    let truth = person.motion(fps: fps, frames: frames, pose: poseAt) { _, chest in
      (chest.venuePoint(self.person.restingHand(right: false)), chest.venuePoint(drumPoint))
    }
    // The body frame from the skeleton's shoulders is the body's own, at every heading.
    let skeleton = truth.skeleton, track = truth.tracks[0]
    for frame in stride(from: 0, through: frames.upperBound, by: 7) {
      let p = { (r: JointRole) in track.position(joint: skeleton.index(of: r)!, frame: frame) }
      let body = BodyFrame(
        leftShoulder: p(.leftShoulder), rightShoulder: p(.rightShoulder), leftHip: p(.leftHip), rightHip: p(.rightHip),
        midHip: nil, origin: .chest)!
      let expected = person.chest(poseAt(Double(frame) / fps))
      assertClose(body.origin, expected.origin, absolute: 1e-9)
      assertClose(body.forward, expected.forward, absolute: 1e-9)
      assertClose(body.bodyPoint(p(.rightWrist)!), drumPoint, absolute: 1e-6, "frame \(frame)")
      assertClose(body.venuePoint(body.bodyPoint(SIMD3(1, 2, 3))), SIMD3(1, 2, 3), absolute: 1e-12)
    }
    let attached = Zone(
      name: "drum", shape: .sphere(radius: 0.1), center: drumPoint, attachment: .body(origin: .chest, track: nil),
      triggers: [.role(.rightWrist)])
    let start = person.chest(poseAt(0)).venuePoint(drumPoint)
    let fixed = Zone(name: "fixed", shape: .sphere(radius: 0.1), center: start, triggers: [.role(.rightWrist)])
    let venue = VenueFrame.assumed(worldUp: SIMD3(0, 0, 1))
    for seed in UInt64(1)...5 {
      let noisy = SyntheticPerson.addingNoise(truth, sigma: 0.02, seed: seed)
      let events = ZoneDetector(zones: [attached, fixed]).events(in: noisy, venue: venue)
      let drum = events.filter { $0.zone == "drum" }
      XCTAssertEqual(drum.map(\.type), [.zoneEnter], "seed \(seed)")
      XCTAssertLessThanOrEqual(drum.first?.frame ?? 99, 2)
      // The fixed sphere: the wrist passes it at the start of each turn (t = 0, 4, 8 s).
      let fixedEnters = events.filter { $0.zone == "fixed" && $0.type == .zoneEnter }.map(\.frame)
      XCTAssertEqual(fixedEnters.count, 3, "seed \(seed): \(fixedEnters)")
      for (frame, turn) in zip(fixedEnters.dropFirst(), [4.0, 8.0]) {
        // The wrist moves 0.45 m × π/2 ≈ 0.7 m/s; it crosses the 10 cm radius ≈ 0.14 s before.
        XCTAssertLessThan(abs(Double(frame) / fps - (turn - 0.1 / (0.45 * turnRate))), 0.1, "seed \(seed)")
      }
    }
    // Limited to another track: no events.
    var other = attached
    other.attachment = .body(origin: .chest, track: "P2")
    XCTAssertTrue(ZoneDetector(zones: [other]).events(in: truth, venue: venue).isEmpty)
  }

  // MARK: - zones.toml

  func testZonesTOMLReadsEveryShapeAndFrame() throws {
    let zones = try ZonesTOML.parse(
      """
      min_dwell = 0.02
      [[zone]]
      name = "snare"
      shape = "sphere"
      radius = 0.12
      center = [0.2, 0.4, 0.0]
      frame = "body"
      origin = "chest"
      triggers = ["left_wrist", "RWrist"]
      [[zone]]
      name = "toss"
      shape = "cylinder"
      radius = 0.15
      height = 0.6
      center = [-1.6, 0, 1.2]
      triggers = "ball"
      exit_margin = 0.05
      [[zone]]
      name = "deep"
      size = [0.5, 0.76, 0.1]
      center = [1.1, 0.38, 0.81]
      triggers = ["ball"]
      """, file: "zones.toml")
    XCTAssertEqual(zones.map(\.name), ["snare", "toss", "deep"])
    XCTAssertEqual(zones[0].attachment, .body(origin: .chest, track: nil))
    XCTAssertEqual(zones[0].triggers, [.role(.leftWrist), .keypoint("RWrist")])
    XCTAssertEqual(zones[0].minDwell, 0.02)
    XCTAssertEqual(zones[1].shape, .cylinder(radius: 0.15, height: 0.6))
    XCTAssertEqual(zones[1].exitMargin, 0.05)
    XCTAssertEqual(zones[1].triggers, [.ball])
    XCTAssertEqual(zones[2].shape, .box(size: SIMD3(0.5, 0.76, 0.1)))
    XCTAssertEqual(ZoneDetector.jointIndex(.keypoint("RWrist"), skeleton: .coco17), Skeleton.coco17.index(of: "right_wrist"))
  }

  func testBadZonesTOMLNamesFileAndKey() {
    let cases: [(String, String)] = [
      ("[[zone]]\nname = \"a\"\nshape = \"sphere\"\ntriggers = [\"ball\"]", "zone[1].radius"),
      ("[[zone]]\nname = \"a\"\nshape = \"cone\"\nradius = 1\ntriggers = [\"ball\"]", "zone[1].shape"),
      ("[[zone]]\nname = \"a\"\nradius = 1\nshape = \"sphere\"", "zone[1].triggers"),
      ("[[zone]]\nname = \"a\"\nsize = [1, 2]\ntriggers = [\"ball\"]", "zone[1].size"),
      ("[[zone]]\nname = \"a\"\nsize = [1, 2, 3]\ntriggers = [\"ball\"]\nexit_margn = 0.1", "zone[1].exit_margn"),
      ("[[zone]]\nname = \"a\"\nsize = [1, 2, 3]\ntriggers = [\"ball\"]\nenter_margin = -1", "zone[1].enter_margin"),
      ("[[zone]]\nname = \"a\"\nsize = [1, 2, 3]\ntriggers = [\"ball\"]\norigin = \"chest\"", "zone[1].origin"),
      ("[[zone]]\nname = \"a\"\nsize = [1, 2, 3]\ntriggers = [\"ball\"]\n[[zone]]\nname = \"a\"\nsize = [1, 2, 3]\ntriggers = [\"ball\"]", "zone[2].name"),
      ("zone = 3", "zone"),
      ("min_dwell = 0.1", "zone"),
    ]
    for (text, key) in cases {
      XCTAssertThrowsError(try ZonesTOML.parse(text, file: "my/zones.toml"), key) { error in
        let message = "\(error)"
        XCTAssertTrue(message.contains("my/zones.toml"), message)
        XCTAssertTrue(message.contains(key), "expected \(key) in: \(message)")
      }
    }
  }

  /// Every zones and drill file in Examples/ reads.
  func testExampleZonesAndDrillsRead() throws {
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Examples")
    let zoneFiles = ["air-drums.toml", "serve-toss.toml", "table-landing.toml"]
    for name in zoneFiles {
      let zones = try ZonesTOML.read(from: examples.appendingPathComponent("zones/\(name)"))
      XCTAssertFalse(zones.isEmpty, name)
    }
    let landing = try ZonesTOML.read(from: examples.appendingPathComponent("zones/table-landing.toml"))
    XCTAssertEqual(landing.count, 4)
    for name in ["table-targets.toml", "touch-sequence.toml"] {
      let drill = try DrillTOML.read(from: examples.appendingPathComponent("drills/\(name)"))
      XCTAssertFalse(drill.targets.isEmpty, name)
    }
  }
}

final class ZonesTOMLWriteTests: XCTestCase {
  /// The writers round-trip through the readers: every shape, attachment, trigger and margin.
  func testZonesAndDrillTextReadBackTheSame() throws {
    let zones = [
      Zone(name: "a \"quoted\" name", shape: .box(size: SIMD3(0.5, 0.25, 0.125)), center: SIMD3(1, -2, 0.8), triggers: [.ball],
           enterMargin: 0, exitMargin: 0.02, minDwell: 0),
      Zone(name: "drum", shape: .sphere(radius: 0.12), center: SIMD3(0.2, 0.4, -0.15), attachment: .body(origin: .chest, track: "P2"),
           triggers: [.role(.leftWrist), .keypoint("RWrist")], enterMargin: 0.01, exitMargin: 0.04, minDwell: 0.03),
      Zone(name: "toss", shape: .cylinder(radius: 0.3, height: 1), center: SIMD3(-1.6, 0, 1.5), attachment: .body(origin: .hips, track: nil),
           triggers: [.ball]),
    ]
    XCTAssertEqual(try ZonesTOML.parse(ZonesTOML.text(zones), file: "written"), zones)
    let targets = zones.map { z -> Zone in
      var t = z
      t.triggers = [.role(.rightWrist)]
      return t
    }
    let drill = Drill(name: "a \"d\"", targets: targets, points: [1, 2.5, 3], order: .sequence, scoring: .targets, start: 1.5, timeLimit: 30, track: "P1")
    XCTAssertEqual(try DrillTOML.parse(DrillTOML.text(drill), file: "written"), drill)
  }
}
