@testable import MatchSceneReconstruction
import MatchSceneCore
import XCTest

/// The tracker's gate for short gaps grows at the speed the match's people were seen moving at
/// (`PersonSpeeds`), not at a fixed sprinting speed: a spurious pose 3.7 m from where a walking
/// bystander was lost half a second earlier (7.7 m/s) does not continue his track (`--faults hard`
/// seed 4: such a pose, taken by the bystander's tracklet, kept his first seconds apart from the rest
/// of him, three identity switches), while the bystander himself, found where he was walking to, does.
final class PersonSpeedTests: XCTestCase {
  let fps = 60.0
  let playerLimbs: [Double?] = [0.30, 0.30, 0.26, 0.26, 0.44, 0.44, 0.42, 0.42, 0.38, 0.26, 0.52, 0.52]
  var bystanderLimbs: [Double?] { playerLimbs.map { $0.map { $0 + 0.03 } } }

  /// A player standing at x = 2 and a bystander walking along y = 4 at `speed` m/s for `frames`
  /// frames; the bystander's place at frame f.
  func walk(_ tracker: inout IdentityTracker, frames: Range<Int>, speed: Double) -> (player: Int, bystander: Int) {
    var ids: [Int?] = []
    for f in frames {
      ids = tracker.assign(
        frame: f, centres: [SIMD3(2, 0, 1), bystander(at: f, speed: speed)], limbs: [playerLimbs, bystanderLimbs],
        canStartTrack: [true, true])
    }
    return (ids[0]!, ids[1]!)
  }

  func bystander(at frame: Int, speed: Double) -> SIMD3<Double> { SIMD3(-4 + speed * Double(frame) / fps, 4, 1) }

  func testTheGatesSpeedIsMeasuredOnTheMatch() {
    var tracker = IdentityTracker(fps: fps, options: ReconstructionOptions())
    XCTAssertEqual(tracker.speedBound, 8, "before any speed is known: maxPersonSpeed")
    _ = walk(&tracker, frames: 0..<600, speed: 1.2)
    // Twice the fastest (1.2 m/s, in 0.05 m/s bins).
    XCTAssertEqual(tracker.speedBound, 2.5, accuracy: 0.11)
    var fast = IdentityTracker(fps: fps, options: ReconstructionOptions())
    _ = walk(&fast, frames: 0..<600, speed: 5)
    XCTAssertEqual(fast.speedBound, 8, "never above maxPersonSpeed")
  }

  func testAPoseFartherThanThePeopleMoveDoesNotContinueATrack() {
    var tracker = IdentityTracker(fps: fps, options: ReconstructionOptions())
    let ids = walk(&tracker, frames: 0..<600, speed: 1.2)
    // The bystander unseen for 28 frames; then a pose with his proportions 3.7 m from his last place.
    let last = bystander(at: 599, speed: 1.2)
    let spurious = last + SIMD3(-3, -2.17, 0.4)
    let next = tracker.assign(
      frame: 628, centres: [SIMD3(2, 0, 1), spurious], limbs: [playerLimbs, bystanderLimbs], canStartTrack: [true, true])
    XCTAssertEqual(next[0], ids.player)
    XCTAssertNotEqual(next[1], ids.bystander, "a pose 3.7 m away 0.48 s later (7.7 m/s) continued a walker's track")
  }

  func testThePersonWhereHeWalkedContinuesHisTrack() {
    var tracker = IdentityTracker(fps: fps, options: ReconstructionOptions())
    let ids = walk(&tracker, frames: 0..<600, speed: 1.2)
    let next = tracker.assign(
      frame: 628, centres: [SIMD3(2, 0, 1), bystander(at: 628, speed: 1.2) + SIMD3(0, 0.1, 0)],
      limbs: [playerLimbs, bystanderLimbs], canStartTrack: [true, true])
    XCTAssertEqual(next[1], ids.bystander)
  }
}
