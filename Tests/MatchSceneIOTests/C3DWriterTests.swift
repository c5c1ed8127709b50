import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

/// The C3D file read back by two independent readers from PyPI (`c3d`, pure Python; `ezc3d`, C++).
final class C3DWriterTests: XCTestCase {
  /// Two players and a ball over 40 frames at 120 fps, every position distinct; P1's left ear missing at
  /// frame 105, P2's right wrist filled at frame 110, the ball only on odd frames.
  private func match() -> MotionModel {
    let frames = 100...139
    var motion = MotionModel(fps: 120, skeleton: .coco17, frames: frames)
    for (t, id) in ["P1", "P2"].enumerated() {
      var track = motion.makeTrack(id: id, kind: .player)
      for j in 0..<17 {
        for f in frames {
          let p = SIMD3(Double(t) * 3 - 1.5 + Double(j) * 0.01, 0.3 * Double(j % 5) + Double(f) * 1e-3, 0.1 * Double(j) + 0.123456)
          track[joint: j, frame: f] = MotionSample(position: p, reprojectionPx: 2.5, views: 3, state: .measured)
        }
      }
      if id == "P1" { track[joint: 3, frame: 105] = .missing }
      if id == "P2" { track[joint: 10, frame: 110].state = .filled }
      motion.tracks.append(track)
    }
    var ball = motion.makeTrack(id: "ball", kind: .ball)
    for f in frames where f % 2 == 1 {
      ball[joint: 0, frame: f] = MotionSample(position: SIMD3(0.01 * Double(f - 100), -0.2, 0.9), reprojectionPx: 0.5, views: 2, state: .measured)
    }
    motion.tracks.append(ball)
    return motion
  }

  private let readerScript = """
    import json, sys, warnings
    import numpy as np
    warnings.simplefilter("ignore")
    import c3d, ezc3d
    path = sys.argv[1]
    out = {}
    with open(path, "rb") as h:
        r = c3d.Reader(h)
        out["c3d_labels"] = [l.strip() for l in r.point_labels]
        out["c3d_rate"] = float(r.point_rate)
        out["c3d_first"], out["c3d_last"] = int(r.first_frame), int(r.last_frame)
        frames = []
        for i, points, _ in r.read_frames():
            frames.append(points[:, :4].tolist())
        out["c3d_frames"] = frames
    e = ezc3d.c3d(path)
    out["ez_labels"] = e["parameters"]["POINT"]["LABELS"]["value"]
    out["ez_rate"] = float(e["parameters"]["POINT"]["RATE"]["value"][0])
    pts = e["data"]["points"]  # 4 x markers x frames, NaN where invalid
    out["ez_points"] = np.nan_to_num(pts[:3], nan=1e9).transpose(2, 1, 0).tolist()
    out["ez_units"] = list(e["parameters"]["POINT"]["UNITS"]["value"])
    out["ez_residuals"] = e["data"]["meta_points"]["residuals"][0].T.tolist()  # frames x markers, -1 invalid
    out["ez_labels"] = list(out["ez_labels"])
    json.dump(out, sys.stdout)
    """

  private struct Read: Decodable {
    var c3d_labels: [String]
    var c3d_rate: Double
    var c3d_first: Int
    var c3d_last: Int
    var c3d_frames: [[[Double]]]
    var ez_labels: [String]
    var ez_rate: Double
    var ez_points: [[[Double]]]
    var ez_units: [String]
    var ez_residuals: [[Double]]
  }

  private func readBack(_ url: URL) throws -> Read {
    let json = try PythonEnvironment.readers.run(readerScript, arguments: [url.path])
    return try JSONDecoder().decode(Read.self, from: Data(json.utf8))
  }

  func testBothReadersGetEveryMarkerWithin1e5Metres() throws {
    let dir = try makeTemporaryFolder("c3d")
    let url = dir.appendingPathComponent("match.c3d")
    let motion = match()
    try C3DWriter.write(motion, playerNames: ["P1": "Ana"], to: url)
    let read = try readBack(url)
    let labels = ["P1", "P2"].flatMap { id in Skeleton.coco17.keypoints.map { "\(id):\($0)" } } + ["ball"]
    XCTAssertEqual(read.c3d_labels, labels)
    XCTAssertEqual(read.ez_labels, labels)
    XCTAssertEqual(read.c3d_rate, 120)
    XCTAssertEqual(read.ez_rate, 120)
    XCTAssertEqual(read.ez_units, ["m"])
    XCTAssertEqual(read.c3d_last - read.c3d_first + 1, 40)
    XCTAssertEqual(read.c3d_frames.count, 40)
    XCTAssertEqual(read.ez_points.count, 40)
    var compared = 0
    for (k, f) in (100...139).enumerated() {
      for (m, label) in labels.enumerated() {
        let c = read.c3d_frames[k][m], e = read.ez_points[k][m]
        let truth: MotionSample
        if label == "ball" {
          truth = motion.tracks[2][joint: 0, frame: f]
        } else {
          let t = label.hasPrefix("P1") ? 0 : 1
          truth = motion.tracks[t][joint: m % 17, frame: f]
        }
        let r = read.ez_residuals[k][m]
        guard truth.isPresent else {
          XCTAssertEqual(c[3], -1, "\(label) at frame \(f) is invalid")
          XCTAssertLessThan(r, 0, "\(label) at frame \(f) is invalid in ezc3d")
          XCTAssertEqual(e[0], 1e9, "\(label) at frame \(f) is NaN in ezc3d")
          continue
        }
        for axis in 0..<3 {
          XCTAssertEqual(c[axis], truth.position[axis], accuracy: 1e-5, "\(label) frame \(f) axis \(axis) (c3d)")
          XCTAssertEqual(e[axis], truth.position[axis], accuracy: 1e-5, "\(label) frame \(f) axis \(axis) (ezc3d)")
        }
        if truth.state == .filled {
          XCTAssertEqual(c[3], 0, "a filled sample is modelled: residual 0")
          XCTAssertEqual(r, 0, "a filled sample is modelled: residual 0 (ezc3d)")
        }
        if truth.state == .measured {
          // Without cameras 1 mm a pixel: 2.5 px rounds to 3 mm, the ball's 0.5 px to the 1 mm floor.
          XCTAssertEqual(r, label == "ball" ? 0.001 : 0.003, accuracy: 1e-6, "\(label) residual (ezc3d)")
        }
        compared += 1
      }
    }
    XCTAssertEqual(compared, 40 * 34 - 1 + 20)
  }

  func testResidualsComeFromTheReprojectionErrorAtTheCamerasDistance() throws {
    // A camera 5 m from the points looking down -z... (camera z axis towards the points), f = 1000 px:
    // 2.5 px at 5 m is 12.5 mm.
    var motion = MotionModel(fps: 50, skeleton: .coco17, frames: 0...1)
    var ball = motion.makeTrack(id: "ball", kind: .ball)
    ball[joint: 0, frame: 0] = MotionSample(position: SIMD3(0, 0, 0), reprojectionPx: 2.5, views: 2, state: .measured)
    motion.tracks.append(ball)
    let camera = Camera(
      name: "cam01", imageSize: ImageSize(width: 1920, height: 1080), fx: 1000, fy: 1000, cx: 960, cy: 540,
      camFromWorld: RigidTransform(rotation: .identity, translation: SIMD3(0, 0, 5)))
    let url = try makeTemporaryFolder("c3d").appendingPathComponent("m.c3d")
    try C3DWriter.write(motion, cameras: [camera], to: url)
    let read = try readBack(url)
    XCTAssertEqual(read.ez_residuals[0][0], 0.013, accuracy: 1e-6, "12.5 mm rounds to 13 mm steps")
    XCTAssertLessThan(read.ez_residuals[1][0], 0)
    XCTAssertEqual(read.c3d_frames[1][0][3], -1)
  }

  /// ezc3d (OpenSim's reader) gets each measured point's residual as documented: tracks.csv's `reproj_px`
  /// × depth ÷ focal length, in whole millimetres within 1…127; filled points 0, missing ones invalid. Also
  /// the plain-label and y-up layouts.
  func testEzc3dReadsTracksReprojPxAsDocumentedResiduals() throws {
    var motion = MotionModel(fps: 50, skeleton: .coco17, frames: 0...29)
    var track = motion.makeTrack(id: "P1", kind: .player)
    for f in 0..<30 {
      for j in 0..<17 {
        let px = 0.3 + Double((f * 17 + j) % 41) * 0.55  // 0.3 … 22.3 px
        track[joint: j, frame: f] = MotionSample(
          position: SIMD3(0.1 * Double(j), 0.05 * Double(f), 1), reprojectionPx: px, views: 2, state: .measured)
      }
    }
    track[joint: 4, frame: 3].state = .filled
    track[joint: 5, frame: 4] = .missing
    motion.tracks.append(track)
    // Depth 4 m (camera at z = 5 looking down −z… its z axis towards the points), f = 800 px: 5 mm a pixel.
    let camera = Camera(
      name: "cam01", imageSize: ImageSize(width: 1920, height: 1080), fx: 800, fy: 800, cx: 960, cy: 540,
      camFromWorld: RigidTransform(rotation: .identity, translation: SIMD3(0, 0, 3)))
    let dir = try makeTemporaryFolder("c3d-residuals")
    let url = dir.appendingPathComponent("m.c3d")
    try C3DWriter.write(motion, cameras: [camera], layout: C3DLayout(plainNames: true, yUp: true), to: url)
    // tracks.csv's text for the reprojection errors, as a user compares them.
    let rows = try TracksCSV.parse(TracksCSV.render(motion.rows), file: "tracks.csv")
    let read = try readBack(url)
    XCTAssertEqual(read.ez_labels, Skeleton.coco17.keypoints, "plain labels, no P1: prefix")
    var compared = 0
    for row in rows {
      let m = Skeleton.coco17.keypoints.firstIndex(of: row.joint)!
      let r = read.ez_residuals[row.frame][m]
      let p = read.ez_points[row.frame][m]
      assertClose(SIMD3(p[0], p[1], p[2]), TRCWriter.openSimFromWorld(row.position), absolute: 1e-5)
      guard row.reprojectionPx >= 0 else {
        XCTAssertEqual(r, 0, "filled: residual 0")
        continue
      }
      let depth = 3 + row.position.z  // camFromWorld z
      let expected = Double(C3DWriter.residualUnits(metres: row.reprojectionPx * depth / 800)) * C3DWriter.residualUnit
      XCTAssertEqual(r, expected, accuracy: 0.01 * expected, "\(row.joint) at \(row.frame): \(row.reprojectionPx) px")
      compared += 1
    }
    XCTAssertEqual(compared, 30 * 17 - 2)
    XCTAssertLessThan(read.ez_residuals[4][5], 0, "missing: invalid")
    XCTAssertEqual(Set(read.ez_residuals.joined().filter { $0 > 0 }).count > 20, true, "residuals 1…22 mm, not a constant")
  }

  func testPose2SimNamesWithDerivedHipAndNeck() throws {
    let url = try makeTemporaryFolder("c3d").appendingPathComponent("p2s.c3d")
    let motion = match()
    try C3DWriter.write(motion, naming: .pose2sim, to: url)
    let read = try readBack(url)
    let names = ["Hip", "RHip", "RKnee", "RAnkle", "LHip", "LKnee", "LAnkle", "Neck", "Nose", "RShoulder", "RElbow",
                 "RWrist", "LShoulder", "LElbow", "LWrist"]
    XCTAssertEqual(read.c3d_labels, ["P1", "P2"].flatMap { id in names.map { "\(id):\($0)" } } + ["ball"])
    // Neck is the mid-shoulders, Hip the mid-hips.
    let p1 = motion.tracks[0]
    let k = Skeleton.coco17.keypoints
    func at(_ name: String) -> SIMD3<Double> { p1[joint: k.firstIndex(of: name)!, frame: 120].position }
    let neck = (at("left_shoulder") + at("right_shoulder")) / 2, hip = (at("left_hip") + at("right_hip")) / 2
    for axis in 0..<3 {
      XCTAssertEqual(read.c3d_frames[20][7][axis], neck[axis], accuracy: 1e-5)
      XCTAssertEqual(read.c3d_frames[20][0][axis], hip[axis], accuracy: 1e-5)
    }
  }

  func testMoreThan65535FramesKeepTheirCount() throws {
    var motion = MotionModel(fps: 120, skeleton: .coco17, frames: 0...69_999)
    var ball = motion.makeTrack(id: "ball", kind: .ball)
    for f in [0, 65_535, 69_999] {
      ball[joint: 0, frame: f] = MotionSample(position: SIMD3(Double(f) * 1e-5, 0, 1), reprojectionPx: 1, views: 2, state: .measured)
    }
    motion.tracks.append(ball)
    let url = try makeTemporaryFolder("c3d").appendingPathComponent("long.c3d")
    try C3DWriter.write(motion, to: url)
    let script = """
      import sys, warnings
      warnings.simplefilter("ignore")
      import c3d, ezc3d
      with open(sys.argv[1], "rb") as h:
          r = c3d.Reader(h)
          n = 0; last = None
          for i, p, _ in r.read_frames():
              n += 1; last = p[0, :3].tolist()
          print(n, r.last_frame, last[0])
      e = ezc3d.c3d(sys.argv[1])
      print(e["data"]["points"].shape[2])
      """
    let lines = try PythonEnvironment.readers.run(script, arguments: [url.path]).split(separator: "\n")
    let first = lines[0].split(separator: " ")
    XCTAssertEqual(first[0], "70000")
    XCTAssertEqual(first[1], "70000")
    XCTAssertEqual(Double(first[2])!, 0.69999, accuracy: 1e-6)
    XCTAssertEqual(lines[1], "70000")
  }

  /// A custom skeleton and track ids from the input: spaces, non-ASCII, a control character, 40-character
  /// names that clash once cut, names equal but for case.
  private func hostileMatch() -> MotionModel {
    let long = String(repeating: "x", count: 40)
    let skeleton = Skeleton(
      name: "custom", keypoints: ["left wrist", "tête", "a\u{7}b", long + "1", long + "2", "Knee", "knee", "left_wrist"], bones: [])
    var motion = MotionModel(fps: 60, skeleton: skeleton, frames: 0...1)
    for id in ["P1", "Joueur numéro un, très long"] {
      var track = motion.makeTrack(id: id, kind: .player)
      track[joint: 0, frame: 0] = MotionSample(position: SIMD3(1, 2, 3), reprojectionPx: 1, views: 2, state: .measured)
      motion.tracks.append(track)
    }
    return motion
  }

  /// Labels are at most 32 ASCII letters, digits and `_-.~:`, unique ignoring case, the same every
  /// run; plain names keep their labels; the names as given stay in the descriptions.
  func testLabelsOfHostileNamesAreShortUniqueASCII() throws {
    let motion = hostileMatch()
    let set = MarkerSet(skeleton: motion.skeleton, naming: .keypoints)
    let points = C3DWriter.points(motion, set: set, playerNames: ["P1": "Ana\u{1B}[2J"])
    XCTAssertEqual(points.labels.count, 16)
    for label in points.labels {
      XCTAssertLessThanOrEqual(label.utf8.count, C3DLabels.maxLength, label)
      XCTAssertTrue(label.unicodeScalars.allSatisfy { C3DLabels.isAllowed($0) || $0 == "~" || $0 == ":" }, label)
    }
    XCTAssertEqual(Set(points.labels.map { $0.lowercased() }).count, points.labels.count, "\(points.labels)")
    XCTAssertTrue(points.labels[0].hasPrefix("P1:left_wrist~"), points.labels[0])
    XCTAssertTrue(points.labels[1].hasPrefix("P1:t_te~"), points.labels[1])
    XCTAssertTrue(points.labels[2].hasPrefix("P1:a_b~"), points.labels[2])
    XCTAssertNotEqual(points.labels[3], points.labels[4], "40-character names cut to fit keep their hash apart")
    XCTAssertEqual(points.labels[5...7], ["P1:Knee", "P1:knee-2", "P1:left_wrist"])
    XCTAssertTrue(points.labels[8].hasPrefix("Joueu~"), points.labels[8])
    XCTAssertEqual(points.subjects.map(\.prefix), ["P1:", String(points.labels[8].prefix { $0 != ":" }) + ":"])
    XCTAssertEqual(points.descriptions[1], "Ana [2J tête", "control characters become spaces; UTF-8 kept")
    let again = C3DWriter.points(motion, set: set, playerNames: ["P1": "Ana\u{1B}[2J"])
    XCTAssertEqual(again.labels, points.labels, "deterministic")
    // The built-in names are kept as they are: the outputs of ordinary matches do not change.
    let plain = C3DWriter.points(match(), set: MarkerSet(skeleton: .coco17, naming: .keypoints), playerNames: [:])
    XCTAssertEqual(plain.labels, ["P1", "P2"].flatMap { id in Skeleton.coco17.keypoints.map { "\(id):\($0)" } } + ["ball"])
  }

  /// Both independent readers read the rewritten labels as written.
  func testReadersAcceptTheLabelsOfHostileNames() throws {
    let motion = hostileMatch()
    let url = try makeTemporaryFolder("c3d").appendingPathComponent("custom.c3d")
    try C3DWriter.write(motion, playerNames: ["P1": "Ana\u{1B}[2J é"], to: url)
    let read = try readBack(url)
    let expected = C3DWriter.points(motion, set: MarkerSet(skeleton: motion.skeleton, naming: .keypoints), playerNames: [:]).labels
    XCTAssertEqual(read.c3d_labels, expected)
    XCTAssertEqual(read.ez_labels, expected)
    XCTAssertEqual(read.ez_points[0][0], [1, 2, 3])
  }

  func testAnEmptyMatchIsAnError() {
    let motion = MotionModel(fps: 120, skeleton: .coco17, frames: nil)
    XCTAssertThrowsError(try C3DWriter.render(motion, file: "x.c3d")) { error in
      XCTAssertTrue("\(error)".contains("x.c3d"), "\(error)")
    }
  }
}
