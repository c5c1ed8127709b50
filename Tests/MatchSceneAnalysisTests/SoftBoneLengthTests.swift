import MatchSceneCore
import MatchSceneMotion
import XCTest

/// Soft bone lengths on an arm with known truth: lengths become steadier, joints get no
/// worse, and no joint leaves its reprojection tolerance.
final class SoftBoneLengthTests: XCTestCase {
  let skeleton = Skeleton(
    name: "arm", keypoints: ["shoulder", "elbow", "wrist"], bones: [("shoulder", "elbow"), ("elbow", "wrist")])

  /// 300 frames of a moving arm (0.30 m and 0.25 m bones), measured with 4 mm noise per axis, as a track
  /// whose samples say 4 px of reprojection error (1 px = 1 mm here).
  func arm() -> (truth: [[SIMD3<Double>]], motion: MotionModel) {
    var rng = SeededGenerator(seed: 11)
    var motion = MotionModel(fps: 60, skeleton: skeleton, frames: 0...299)
    var track = motion.makeTrack(id: "P1", kind: .player)
    var truth: [[SIMD3<Double>]] = []
    for f in 0..<300 {
      let a = Double(f) / 30
      let shoulder = SIMD3<Double>(0, 0, 1.4), elbow = shoulder + 0.3 * SIMD3(cos(a), sin(a), 0)
      let wrist = elbow + 0.25 * SIMD3(0, cos(a), sin(a))
      truth.append([shoulder, elbow, wrist])
      for (j, p) in [shoulder, elbow, wrist].enumerated() {
        let measured = p + 0.004 * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
        track[joint: j, frame: f] = MotionSample(position: measured, reprojectionPx: 4, views: 3, state: .measured)
      }
    }
    motion.tracks.append(track)
    return (truth, motion)
  }

  func boneCV(_ motion: MotionModel) -> Double {
    let track = motion.tracks[0]
    var cvs: [Double] = []
    for (i, j) in skeleton.bones {
      let l = track.frames.map { length(track[joint: i, frame: $0].position - track[joint: j, frame: $0].position) }
      let mean = l.reduce(0, +) / Double(l.count)
      cvs.append((l.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(l.count)).squareRoot() / mean)
    }
    return cvs.reduce(0, +) / Double(cvs.count)
  }

  func meanError(_ motion: MotionModel, _ truth: [[SIMD3<Double>]]) -> Double {
    let track = motion.tracks[0]
    var sum = 0.0
    for f in 0..<300 { for j in 0..<3 { sum += length(track[joint: j, frame: f].position - truth[f][j]) } }
    return sum / 900
  }

  func testBonesSteadierJointsNoWorseAndWithinTolerance() {
    let (truth, raw) = arm()
    var soft = raw
    let metresPerPixel = 0.001
    SoftBoneLengths(metresPerPixel: { _ in metresPerPixel }).apply(to: &soft)
    XCTAssertLessThan(boneCV(soft), 0.6 * boneCV(raw), "bone lengths steadier")
    XCTAssertLessThanOrEqual(meanError(soft, truth), meanError(raw, truth), "joints no further from the truth")
    // Tolerance: max(4 px, 2 px) × 1 mm/px.
    for f in 0..<300 {
      for j in 0..<3 {
        let moved = length(soft.tracks[0][joint: j, frame: f].position - raw.tracks[0][joint: j, frame: f].position)
        XCTAssertLessThanOrEqual(moved, 4 * metresPerPixel + 1e-12)
      }
    }
  }

  func testATightToleranceHoldsJointsAtTheirEvidence() {
    // With 0.01 mm per pixel the tolerance is 0.04 mm: the bones can hardly move anything.
    let (_, raw) = arm()
    var soft = raw
    SoftBoneLengths(metresPerPixel: { _ in 1e-5 }).apply(to: &soft)
    for f in 0..<300 {
      for j in 0..<3 {
        XCTAssertLessThanOrEqual(
          length(soft.tracks[0][joint: j, frame: f].position - raw.tracks[0][joint: j, frame: f].position), 4e-5 + 1e-12)
      }
    }
  }
}
