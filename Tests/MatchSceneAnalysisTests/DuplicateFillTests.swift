import MatchSceneAnalysis
import MatchSceneCore
import XCTest

/// Gap filling never draws one person twice.
final class DuplicateFillTests: XCTestCase {
  /// One person walks along x for 2 s at 60 fps; their identity flips to a second track for 8 frames
  /// (40–47) and back. Track A's 8-frame gap is short enough to fill — but the person is measured there
  /// under track B, so the filled frames must go, while B's measured frames stay. A second person
  /// standing 1.5 m away keeps a filled gap of the same length (nobody else is there).
  func testAFlippedIdentityIsNotFilledIntoADuplicate() {
    let fps = 60.0, skeleton = Skeleton.coco17, frames = 0...119
    var motion = MotionModel(fps: fps, skeleton: skeleton, frames: frames)
    var a = motion.makeTrack(id: "P1", kind: .player)
    var b = motion.makeTrack(id: "P2", kind: .player)
    var c = motion.makeTrack(id: "P3", kind: .person)
    func body(_ x: Double, _ y: Double) -> [SIMD3<Double>] {
      (0..<skeleton.keypoints.count).map { j in SIMD3(x + 0.01 * Double(j % 3), y + 0.01 * Double(j % 5), 0.1 + 0.09 * Double(j)) }
    }
    for f in frames {
      let walker = body(0.5 * Double(f) / fps, 0), still = body(0, 1.5)
      for j in 0..<skeleton.keypoints.count {
        let sample = { (p: SIMD3<Double>) in MotionSample(position: p, reprojectionPx: 1, views: 3, state: .measured) }
        if (40...47).contains(f) { b[joint: j, frame: f] = sample(walker[j]) } else { a[joint: j, frame: f] = sample(walker[j]) }
        if !(70...77).contains(f) { c[joint: j, frame: f] = sample(still[j]) }
      }
    }
    motion.tracks = [a, b, c]
    var options = SmoothingOptions()
    options.maxGap = 0.25
    TrackSmoother(options: options).smooth(&motion)
    let walkerA = motion.tracks[0], walkerB = motion.tracks[1], other = motion.tracks[2]
    for f in 40...47 {
      XCTAssertFalse(walkerA.isPresent(frame: f), "frame \(f): P1 filled where P2 measures the same person")
      XCTAssertTrue(walkerB.isPresent(frame: f), "frame \(f): a measured frame stays")
    }
    for f in 70...77 { XCTAssertTrue(other.isPresent(frame: f), "frame \(f): a gap with nobody else there is filled") }
    XCTAssertTrue(walkerA.isPresent(frame: 39) && walkerA.isPresent(frame: 48))
  }
}
