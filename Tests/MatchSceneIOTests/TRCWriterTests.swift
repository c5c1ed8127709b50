import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class TRCWriterTests: XCTestCase {
  func testHeaderRowsAndYUpRoundTrip() throws {
    var points: [TrackPoint] = []
    for f in 10...12 {
      for (j, joint) in Skeleton.coco17.keypoints.enumerated() where !(f == 11 && j == 3) {
        points.append(TrackPoint(frame: f, time: Double(f) / 50, track: "P1", kind: .player, joint: joint,
                                 position: SIMD3(Double(j) * 0.1, 0.5, 1 + Double(f) * 0.01), reprojectionPx: 1, views: 3))
      }
    }
    let text = TRCWriter.render(track: "P1", points: points, skeleton: .coco17, fps: 50, fileName: "P1.trc")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines[0], "PathFileType\t4\t(X/Y/Z)\tP1.trc")
    XCTAssertEqual(lines[2], "50.0\t50.0\t3\t17\tm\t50.0\t10\t3")
    XCTAssertTrue(lines[3].hasPrefix("Frame#\tTime\tnose\t\t\tleft_eye\t\t\t"))
    XCTAssertTrue(lines[4].hasPrefix("\t\tX1\tY1\tZ1\tX2"))
    XCTAssertEqual(lines[5], "")
    let parsed = try TRCWriter.parse(text, file: "P1.trc")
    XCTAssertEqual(parsed.markers, Skeleton.coco17.keypoints)
    // y-up: (x, y, z) → (x, z, −y).
    assertClose(parsed.frames[12]!["left_shoulder"]!, SIMD3(0.5, 1.12, -0.5), absolute: 1e-6)
    XCTAssertNil(parsed.frames[11]!["left_ear"], "a missing marker stays empty")
  }

  /// OpenSim refuses a row with fewer than 2 + 3 × markers cells once its tokenizer has dropped the line's
  /// trailing empty cell: every table line ends with a tab, so a row whose last marker is missing still
  /// holds all its cells after that drop.
  func testRowsKeepEveryCellWhenTheLastMarkerIsMissing() {
    var points: [TrackPoint] = []
    let k = Skeleton.coco17.keypoints
    for f in 0...1 {
      for joint in k where !(f == 0 && joint == k.last) {
        points.append(TrackPoint(frame: f, time: Double(f) / 50, track: "B1", kind: .person, joint: joint,
                                 position: SIMD3(1, 2, 3), reprojectionPx: 1, views: 2))
      }
    }
    let text = TRCWriter.render(track: "B1", points: points, skeleton: .coco17, fps: 50, fileName: "B1.trc")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    // Cells as OpenSim's tokenizer counts them: the text after the last tab is a cell only when non-empty.
    func openSimCells(_ line: Substring) -> Int {
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false)
      return cells.last == "" ? cells.count - 1 : cells.count
    }
    XCTAssertEqual(openSimCells(lines[6]), 2 + 3 * 17, "frame 0, right_ankle missing")
    XCTAssertEqual(openSimCells(lines[7]), 2 + 3 * 17, "frame 1, complete")
    XCTAssertEqual(openSimCells(lines[4]), 2 + 3 * 17, "X1 … Z17")
  }
}

final class TRCMarkerNamesTests: XCTestCase {
  /// P1 over frames 5…14 with joint 3 missing at 7 and every joint missing at 5 (so the file starts at 6).
  private func motion() -> MotionModel {
    var motion = MotionModel(fps: 60, skeleton: .coco17, frames: 5...14)
    var track = motion.makeTrack(id: "P1", kind: .player)
    for j in 0..<17 {
      for f in 6...14 where !(j == 3 && f == 7) {
        track[joint: j, frame: f] = MotionSample(
          position: SIMD3(Double(j) * 0.1, Double(f) * 0.01, 1 + Double(j) * 0.001), reprojectionPx: 1, views: 2, state: .measured)
      }
    }
    motion.tracks.append(track)
    return motion
  }

  func testKeypointNamesGiveTheSameTextAsTheRowWriter() {
    let m = motion()
    let fromRows = TRCWriter.render(track: "P1", points: m.rows, skeleton: .coco17, fps: 60, fileName: "P1.trc")
    let fromMotion = TRCWriter.render(m.tracks[0], markers: MarkerSet(skeleton: .coco17, naming: .keypoints), fps: 60, fileName: "P1.trc")
    XCTAssertEqual(fromMotion, fromRows)
    XCTAssertTrue(fromMotion.split(separator: "\n")[2].hasSuffix("\t6\t9"), "starts at the first frame with data")
  }

  /// Pose2Sim's `COCO_17` marker set (skeletons.py), in its tree's pre-order: what its OpenSim setup
  /// (`Markers_Coco17.xml`) names, `Hip` and `Neck` being the midpoints Pose2Sim derives.
  func testPose2SimNamesForCOCO17() throws {
    let m = motion()
    let set = MarkerSet(skeleton: .coco17, naming: .pose2sim)
    XCTAssertEqual(set.names, ["Hip", "RHip", "RKnee", "RAnkle", "LHip", "LKnee", "LAnkle", "Neck", "Nose", "RShoulder",
                               "RElbow", "RWrist", "LShoulder", "LElbow", "LWrist"])
    let text = TRCWriter.render(m.tracks[0], markers: set, fps: 60, fileName: "P1.trc")
    let parsed = try TRCWriter.parse(text, file: "P1.trc")
    XCTAssertEqual(parsed.markers, set.names)
    // y-up (x, y, z) → (x, z, −y); Neck is the mid-shoulders (joints 5, 6), Hip the mid-hips (11, 12).
    let k = Skeleton.coco17.keypoints
    let p = { (name: String) in m.tracks[0][joint: k.firstIndex(of: name)!, frame: 9].position }
    let neck = (p("left_shoulder") + p("right_shoulder")) / 2
    assertClose(parsed.frames[9]!["Neck"]!, SIMD3(neck.x, neck.z, -neck.y), absolute: 1e-6)
    let wrist = p("left_wrist")
    assertClose(parsed.frames[9]!["LWrist"]!, SIMD3(wrist.x, wrist.z, -wrist.y), absolute: 1e-6)
  }

  func testPose2SimNamesForOtherSkeletons() {
    XCTAssertEqual(MarkerSet(skeleton: .halpe26, naming: .pose2sim).names, [
      "Hip", "RHip", "RKnee", "RAnkle", "RBigToe", "RSmallToe", "RHeel", "LHip", "LKnee", "LAnkle", "LBigToe",
      "LSmallToe", "LHeel", "Neck", "Head", "Nose", "RShoulder", "RElbow", "RWrist", "LShoulder", "LElbow", "LWrist",
    ])
    let body25b = MarkerSet(skeleton: .body25b, naming: .pose2sim)
    XCTAssertEqual(body25b.names.first, "Hip")
    XCTAssertEqual(body25b.sources[body25b.names.firstIndex(of: "Neck")!], .joint(Skeleton.body25b.keypoints.firstIndex(of: "upper_neck")!))
    XCTAssertEqual(body25b.sources[0], .midpoint(11, 12), "BODY_25B has no mid-hip keypoint: Hip is derived")
    let body25 = MarkerSet(skeleton: .body25, naming: .pose2sim)
    XCTAssertEqual(body25.sources[0], .joint(Skeleton.body25.keypoints.firstIndex(of: "mid_hip")!))
  }
}
