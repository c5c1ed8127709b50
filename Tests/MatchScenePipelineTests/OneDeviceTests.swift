import Foundation
import MatchSceneBallPlay
import MatchSceneCore
import MatchSceneIO
import MatchScenePipeline
import MatchSceneSimulation
import TestSupport
import XCTest

/// One-device recordings (MediaPipe world landmarks, an ARKit joint export) simulated from the
/// simulator's truth with per-joint noise run through the pipeline: zones and drills give what they give
/// on the truth, and the joints land within a few centimetres of it.
final class OneDeviceTests: XCTestCase {
  /// zones.toml text for `zones` (spheres only, as the touch drill's pads are).
  func zonesTOML(_ zones: [Zone]) -> String {
    zones.map { z -> String in
      guard case .sphere(let r) = z.shape else { return "" }
      var text = "[[zone]]\nname = \"\(z.name)\"\nshape = \"sphere\"\nradius = \(r)\ncenter = [\(z.center.x), \(z.center.y), \(z.center.z)]\n"
      if case .body(let origin, _) = z.attachment { text += "frame = \"body\"\norigin = \"\(origin.rawValue)\"\n" }
      return text + "triggers = [\"left_wrist\", \"right_wrist\"]\n"
    }.joined(separator: "\n")
  }

  func makeFolder(_ sim: SimulatedTouchDrill, format: DeviceConfig.Format, seed: UInt64) throws -> (URL, DeviceConfig) {
    let folder = try makeTemporaryFolder("one-device")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("device"), withIntermediateDirectories: true)
    let file = "device/\(format.rawValue).json"
    // MediaPipe's origin is the hips (the drill's player stands still); ARKit's the session's, here 2.5 m
    // in front of the player, looking back at them.
    let pelvis = sim.truth.tracks[0].position(joint: Skeleton.coco17.index(of: "left_hip")!, frame: 0)!
      / 2 + sim.truth.tracks[0].position(joint: Skeleton.coco17.index(of: "right_hip")!, frame: 0)! / 2
    let device = format == .mediapipe
      ? DeviceConfig(format: format, file: folder.appendingPathComponent(file), origin: pelvis, headingDegrees: 180)
      : DeviceConfig(format: format, file: folder.appendingPathComponent(file), origin: SIMD3(2.5, 0.3, 1.2), headingDegrees: 175)
    let data = format == .mediapipe
      ? try OneDeviceExport.mediapipe(sim.truth, track: "P1", device: device, seed: seed)
      : try OneDeviceExport.arkit(sim.truth, track: "P1", device: device, seed: seed)
    try data.write(to: device.file)
    let o = device.origin
    try """
      fps = \(sim.truth.fps)
      [device]
      format = "\(format.rawValue)"
      file = "\(file)"
      origin = [\(o.x), \(o.y), \(o.z)]
      heading_degrees = \(device.headingDegrees)
      """.write(to: folder.appendingPathComponent("match.toml"), atomically: true, encoding: .utf8)
    try zonesTOML(sim.drill.targets).write(to: folder.appendingPathComponent("zones.toml"), atomically: true, encoding: .utf8)
    return (folder, device)
  }

  func testOneDeviceRecordingsRunThroughZonesAndDrills() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match or rig
    for format in DeviceConfig.Format.allCases {
      var equal = 0, errors: [Double] = [], entries = 0, truthEntries = 0
      let seeds = UInt64(1)...4
      for seed in seeds {
        let sim = TouchDrillSimulator.simulate(seed: seed, order: .sequence, seconds: 10)
        let (folder, _) = try makeFolder(sim, format: format, seed: seed)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try MatchPipeline().run(folder)
        XCTAssertEqual(result.motion.skeleton, format == .mediapipe ? .blazePose33 : .arkitBody)
        // The zone events of the zones.toml in the folder match those of the same zones on the truth:
        // the same zones entered, at most one entry more or fewer per pad (a reach stopping 10 cm short
        // of a pad, seen with a 4 % scale error and 4 cm of drifting wrist error, may reach it).
        let truthZones = ZoneDetector(zones: sim.drill.targets).events(in: sim.truth, venue: result.venue)
        let found = result.events.filter { $0.type == .zoneEnter }
        XCTAssertFalse(found.isEmpty)
        for pad in sim.drill.targets.map(\.name) {
          let n = found.filter { $0.zone == pad }.count, expected = truthZones.filter { $0.zone == pad && $0.type == .zoneEnter }.count
          XCTAssertLessThanOrEqual(abs(n - expected), 1, "\(format) seed \(seed) \(pad)")
          entries += n
          truthEntries += expected
        }
        let score = DrillScorer.score(sim.drill, motion: result.motion, venue: result.venue)
        if score.score == sim.truthResult.score && score.targets == sim.truthResult.targets { equal += 1 }
        // Joint error against the truth, over the joints both skeletons have by role.
        let truth = sim.truth.tracks[0], got = result.motion.tracks[0]
        for role in [JointRole.leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist, .rightWrist, .leftHip, .rightHip, .leftKnee, .rightKnee, .leftAnkle, .rightAnkle, .nose] {
          guard let a = sim.truth.skeleton.index(of: role), let b = result.motion.skeleton.index(of: role) else { continue }
          for frame in stride(from: truth.firstFrame, to: truth.firstFrame + truth.frameCount, by: 5) {
            if let p = truth.position(joint: a, frame: frame), let q = got.position(joint: b, frame: frame) { errors.append(length(p - q)) }
          }
        }
        // The output folder: tracks.csv and events.json as for a camera match.
        if seed == 1 {
          let out = folder.appendingPathComponent("out")
          try result.write(to: out)
          let rows = try TracksCSV.read(from: out.appendingPathComponent("tracks.csv"))
          XCTAssertEqual(Set(rows.map(\.track)), ["P1"])
          let events = try EventsJSON.read(from: out.appendingPathComponent("events.json"))
          XCTAssertEqual(events.filter { $0.type == .zoneEnter }.count, found.count)
        }
      }
      let mean = errors.reduce(0, +) / Double(errors.count)
      print("one device \(format): drills right \(equal)/\(seeds.count), zone entries \(entries) (truth \(truthEntries)), mean joint error \(String(format: "%.1f", mean * 100)) cm over \(errors.count) samples")
      XCTAssertGreaterThanOrEqual(equal, seeds.count - 1, "\(format)")
      XCTAssertLessThan(mean, 0.06, "\(format)")
    }
  }

  func testBadDeviceTableNamesTheKey() throws {
    let folder = try makeTemporaryFolder("one-device-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (table, key) in [("format = \"kinect\"\nfile = \"a.json\"", "device.format"), ("format = \"arkit\"", "device.file"),
                         ("format = \"arkit\"\nfile = \"a.json\"\nscale = 0", "device.scale"), ("format = \"arkit\"\nfile = \"a.json\"\norign = [0, 0, 0]", "device.orign")] {
      try "[device]\n\(table)\n".write(to: folder.appendingPathComponent("match.toml"), atomically: true, encoding: .utf8)
      XCTAssertThrowsError(try MatchPipeline().run(folder)) { error in
        XCTAssertTrue("\(error)".contains("match.toml") && "\(error)".contains(key), "\(key): \(error)")
      }
    }
    try "[device]\nformat = \"arkit\"\nfile = \"a.json\"\n".write(to: folder.appendingPathComponent("match.toml"), atomically: true, encoding: .utf8)
    try "{\"frames\": [{\"time\": 1, \"joints\": {\"left_hand_joint\": [1, 2]}}]}".write(to: folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try MatchPipeline().run(folder)) { error in
      XCTAssertTrue("\(error)".contains("a.json") && "\(error)".contains("frames[0].joints.left_hand_joint"), "\(error)")
    }
  }
}

final class DeviceSkeletonTests: XCTestCase {
  /// The roles the hand-raise claims, zones and form look up are on both device skeletons, and a
  /// one-device recording has them present.
  func testDeviceSkeletonsHaveTheRolesTheAnalysisNeeds() throws {
    let needed: [JointRole] = [.nose, .leftShoulder, .rightShoulder, .leftElbow, .rightElbow, .leftWrist, .rightWrist, .leftHip, .rightHip]
    for skeleton in [Skeleton.blazePose33, .arkitBody] {
      for role in needed { XCTAssertNotNil(skeleton.index(of: role), "\(skeleton.name) \(role)") }
    }
    XCTAssertNotNil(Skeleton.arkitBody.index(of: .head))
    XCTAssertEqual(Skeleton.covering(jointNames: ["head", "neck", "left_wrist"])?.name, "arkit_body")
    XCTAssertEqual(Skeleton.covering(jointNames: ["nose", "left_wrist"])?.name, "coco17")
    let sim = TouchDrillSimulator.simulate(seed: 1, seconds: 2)
    let folder = try makeTemporaryFolder("device-roles")
    defer { try? FileManager.default.removeItem(at: folder) }
    for format in DeviceConfig.Format.allCases {
      let table = try OneDeviceFolder.writeDevice(sim.truth, track: "P1", format: format, seed: 1, to: folder)
      try "fps = 60\n\(table)".write(to: folder.appendingPathComponent("match.toml"), atomically: true, encoding: .utf8)
      var options = PipelineOptions()
      options.analysis = false
      let result = try MatchPipeline(options: options).run(folder)
      let track = result.motion.tracks[0]
      for role in needed {
        let j = try XCTUnwrap(result.motion.skeleton.index(of: role))
        XCTAssertEqual(track.series(joint: j).filter(\.isPresent).count, track.frameCount, "\(format) \(role)")
      }
    }
  }
}
