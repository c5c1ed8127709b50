import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneReview

/// The review app's page and data script as `matchscene open` writes them (no browser: `OpenCommandTests`
/// opens them in Chromium).
final class ReviewAppTests: XCTestCase {
  func testPageLoadsItsDataAndThreeJSAsClassicScripts() {
    let html = ReviewApp.render(title: "match <1>", threeJS: .bundled("three"))
    XCTAssertTrue(html.contains("<title>MatchScene review — match &lt;1&gt;</title>"))
    XCTAssertTrue(html.contains("<script src=\"review/data.js\""), "the data is a classic script beside the page")
    XCTAssertTrue(html.contains("<script src=\"three/three.min.js\""))
    XCTAssertTrue(html.contains("function matchsceneBindTracksByNode"))
    XCTAssertFalse(html.contains("__"), "every placeholder filled")
    XCTAssertFalse(html.contains("fetch("), "nothing fetched: pages from file:// cannot")
    XCTAssertFalse(html.contains("file://"), "the page refers to its own folder only, so it can be moved")
    // Each key of the help is handled.
    for key in ["\" \"", "\"ArrowLeft\"", "\"ArrowRight\"", "\"[\"", "\"]\"", "\"l\"", "\"f\"", "\"Escape\""] {
      XCTAssertTrue(html.contains("k === \(key)"), key)
    }
  }

  func testDataScriptIsMarkedAndCannotCloseAScript() throws {
    var event = MatchEvent(type: .point, frame: 10, time: 0.2, track: "P1", rally: 1)
    event.score = ["P1": 1, "P2": 0]
    let data = ReviewData(
      title: "m", scene: "data:,", fps: 50, players: ["P1": "</script><b>"], events: [event],
      strokes: [
        ReviewStroke(
          track: "P1", number: 1, kind: "forehand", hand: "right", start: 0.1, contact: 0.3, end: 0.6, rally: 1, score: 88.5,
          referenceName: "own average (5 forehands)", reference: "P1/forehand", comments: ["elbow more bent at contact"],
          contactHeight: 0.9, handSpeed: 8, ballSpeed: nil, joints: [], curves: ["elbow": reviewRounded([90.04, 91.06])])
      ])
    let script = try data.script(scoreJSON: Data("{\"points\": []}".utf8))
    XCTAssertTrue(script.hasPrefix(ReviewApp.dataFileHeader))
    XCTAssertFalse(script.contains("</script>"))
    XCTAssertTrue(script.contains("\\u003c/script>"))
    XCTAssertTrue(script.contains("\"elbow\":[90,91.1]"), "curves rounded to 0.1°")
    XCTAssertTrue(script.contains("window.MATCHSCENE_REVIEW.score = {\"points\": []};"))
    XCTAssertTrue(try data.script(scoreJSON: Data("not json".utf8)).contains("window.MATCHSCENE_REVIEW.score = null;"))

    let folder = try makeTemporaryFolder("matchscene-review")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("data.js"), page = folder.appendingPathComponent("index.html")
    try AtomicFile.write(script, to: file)
    try AtomicFile.write(ReviewApp.render(title: "m", threeJS: .defaultCDN), to: page)
    XCTAssertTrue(ReviewApp.isDataFile(file))
    XCTAssertTrue(ReviewApp.isPage(page))
    XCTAssertFalse(ReviewApp.isPage(file))
    XCTAssertFalse(ReviewApp.isDataFile(page))
  }
}
