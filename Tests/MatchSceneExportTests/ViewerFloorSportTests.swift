import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneReview
import TestSupport
import XCTest

@testable import MatchSceneExport

/// The viewer on a sport with no table and no score (Pose2Sim's demo is such a scene: `--sport floor`):
/// the default view frames the people, not the 20 m floor, and no "P1 0 : P2 0" score is shown.
final class ViewerFloorSportTests: XCTestCase {
  /// Two people 1.5 m apart near the floor's centre, swaying; no ball, no events.
  private func glb() throws -> Data {
    let points = SyntheticScene.points(skip: { track, _ in track == "ball" }).map { point in
      var p = point
      p.position.x *= 1.5 / 4.4  // the players stood 4.4 m apart across a table
      return p
    }
    var options = SceneOptions(clips: [(name: "match", frames: 10...59)])
    options.rotationEncoding = .normalizedShort
    options.sceneExtras["events"] = .array([])
    options.sceneExtras["score"] = .array([])
    let document = try MatchSceneGLTF.build(
      motion: SyntheticScene.motion(points), cameras: SyntheticScene.cameras, sport: try SportSpec.builtIn("floor"),
      worldUp: SIMD3(0, 0, 1), options: options)
    return try GLTFWriter.glbData(document)
  }

  func testFramesThePeopleAndShowsNoScore() throws {
    let browser = try Chromium.executable()
    _ = try FFmpeg.executable()
    let folder = try makeTemporaryFolder("matchscene-viewer-floor")
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("scene.html")
    try AtomicFile.write(ViewerPage.render(sceneFileName: "scene.glb", sceneData: try glb(), threeJS: .debian), to: page)
    let dom = try Chromium.run(browser, page: page)
    XCTAssertEqual(Chromium.pre("errors", in: dom), "", "page errors")
    XCTAssertEqual(Chromium.pre("status", in: dom), "ready")
    XCTAssertTrue(dom.contains("<div id=\"score\"></div>"), "no score for a match without points")

    // The people, found as what changes when they are hidden, span a good part of the frame.
    var paused = URLComponents(url: page, resolvingAgainstBaseURL: false)!
    paused.fragment = "paused"
    var hidden = paused
    hidden.fragment = "paused&hide=P1,P2"
    let withPeople = folder.appendingPathComponent("people.png"), without = folder.appendingPathComponent("none.png")
    try Chromium.run(browser, page: paused.url!, screenshot: withPeople)
    try Chromium.run(browser, page: hidden.url!, screenshot: without)
    let a = try FFmpeg.rgb(of: withPeople), b = try FFmpeg.rgb(of: without)
    var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
    for y in 0..<(a.height - 60) {
      for x in 0..<a.width {
        let p = a[x, y], q = b[x, y]
        guard abs(p.x - q.x) + abs(p.y - q.y) + abs(p.z - q.z) > 60 else { continue }
        minX = min(minX, x)
        maxX = max(maxX, x)
        minY = min(minY, y)
        maxY = max(maxY, y)
      }
    }
    XCTAssertLessThan(minX, maxX, "the people are not visible")
    let width = maxX - minX, height = maxY - minY
    print("ViewerFloorSportTests: people span \(width) × \(height) px of 1280 × 660")
    // Framed with the whole 40 m × 20 m floor, the two people spanned 40 × 51 px.
    XCTAssertGreaterThan(height, 200, "the people are tiny: the view frames more than them")
    XCTAssertGreaterThan(width, 250, "the people are tiny: the view frames more than them")
  }
}
