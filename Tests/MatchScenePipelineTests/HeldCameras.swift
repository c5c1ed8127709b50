import MatchSceneCore
import XCTest

/// Asserts that every camera of `cameras` but the one named `except` stayed where its namesake in
/// `reference` is: rotation within 0.05° and centre within 5 mm (the refinement's own spread, measured
/// ≤ 0.015° and ≤ 0.8 mm), i.e. the trusted cameras held the world frame.
func assertCamerasHeld(
  _ cameras: [Camera], against reference: [Camera], except name: String,
  file: StaticString = #filePath, line: UInt = #line
) {
  for (a, b) in zip(cameras, reference) where a.name != name {
    let degrees = length((a.camFromWorld.rotation * b.camFromWorld.rotation.transposed).rodriguesVector) * 180 / .pi
    XCTAssertLessThan(degrees, 0.05, a.name, file: file, line: line)
    XCTAssertLessThan(length(a.center - b.center), 0.005, a.name, file: file, line: line)
  }
}
