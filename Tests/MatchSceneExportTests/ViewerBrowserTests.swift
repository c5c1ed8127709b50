import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneReview

/// The viewer page in headless Chromium, opened the way a user opens it: from `file://`, with no browser
/// flag that relaxes what a page may load, with Debian's three.js r111 where it is installed and with a
/// copy bundled next to the page. Screenshots of the default view are decoded with ffmpeg and checked:
/// the frame is not blank, the table is there, and hiding the players changes the picture where they are.
/// Needs `apt-get install -y chromium libjs-three ffmpeg`; skipped without them, except under CI.
final class ViewerBrowserTests: XCTestCase {
  /// The clip the page is opened at: frames 20…40 of the synthetic match (which starts at frame 10).
  static let clip = (name: "rally-01", frames: 20...40)

  /// Match time at clip time 0.3 s: (20 + 15) / 50 fps.
  static let matchTimeAtProbe = 0.7

  /// The story around 0.7 s: a point (P1 wins, 3–2, games 1–0, P1 serves), a claim, a zone entry and
  /// exit, the ball at rest; and a later point (4–2) that must not show yet.
  static let events: [MatchEvent] = {
    var point = MatchEvent(type: .point, frame: 25, time: 0.5, track: "P1", rally: 1)
    point.reason = .net
    point.score = ["P1": 3, "P2": 2]
    point.games = ["P1": 1, "P2": 0]
    point.server = "P1"
    var claim = MatchEvent(type: .claim, frame: 30, time: 0.6, track: "P2")
    claim.hand = .left
    var enter = MatchEvent(type: .zoneEnter, frame: 32, time: 0.64, track: "P1")
    enter.joint = "right_wrist"
    enter.zone = "service_box"
    var exit = MatchEvent(type: .zoneExit, frame: 37, time: 0.74, track: "P1")
    exit.joint = "right_wrist"
    exit.zone = "service_box"
    var rest = MatchEvent(type: .ballAtRest, frame: 40, time: 0.8)
    rest.duration = 1.2
    var later = MatchEvent(type: .point, frame: 250, time: 5, track: "P1")
    later.score = ["P1": 4, "P2": 2]
    later.games = ["P1": 1, "P2": 0]
    return [point, claim, enter, exit, rest, later]
  }()

  /// The synthetic scene as the command line writes it (normalised SHORT rotations), P1 named Ana,
  /// the events above in its extras, and P2 missing at frames 33…37, so that its node is hidden (scaled to
  /// 1e-5) at frame 35, where the page is opened (three.js r111 warns when it draws a zero-scale mesh).
  private func glb() throws -> Data {
    var points = SyntheticScene.points()
    points.removeAll { $0.track == "P2" && (33...37).contains($0.frame) }
    var options = SceneOptions(clips: [Self.clip])
    options.hideGapsLongerThan = 0
    options.rotationEncoding = .normalizedShort
    options.sceneExtras["players"] = .object(["P1": .string("Ana")])
    options.sceneExtras["events"] = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(Self.events))
    return try GLTFWriter.glbData(try SyntheticScene.document(SyntheticScene.motion(points), options: options))
  }

  private func page(in folder: URL, threeJS: (URL) throws -> ThreeJSSource) throws -> URL {
    let page = folder.appendingPathComponent("scene.html")
    try AtomicFile.write(
      ViewerPage.render(sceneFileName: "scene.glb", sceneData: try glb(), threeJS: try threeJS(folder)), to: page)
    return page
  }

  private func url(_ page: URL, fragment: String) -> URL {
    var components = URLComponents(url: page, resolvingAgainstBaseURL: false)!
    components.fragment = fragment
    return components.url!
  }

  func testLoadsWithDebianThreeJSAndShowsTheMatchStory() throws {
    let browser = try Chromium.executable()
    let folder = try makeTemporaryFolder("matchscene-viewer")
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = try page(in: folder) { _ in .debian }
    let started = Date()
    let dom = try Chromium.run(browser, page: url(page, fragment: "clip=\(Self.clip.name)&t=0.3&paused"))
    print("ViewerBrowserTests: page took \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    XCTAssertEqual(Chromium.pre("errors", in: dom), "", "page errors")
    XCTAssertEqual(Chromium.pre("warnings", in: dom), "", "console warnings (a hidden node must not warn)")
    XCTAssertEqual(Chromium.pre("status", in: dom), "ready")
    XCTAssertTrue(dom.contains("<option value=\"rally-01\">"), "clip picker lists rally-01")
    XCTAssertTrue(dom.contains(">cam_left</option>") && dom.contains(">cam_right</option>"), "camera picker")
    XCTAssertEqual(div("clock", in: dom), "0.70 s", "the clock shows match time, as the event list does")
    XCTAssertEqual(div("score", in: dom), "Ana (P1) 3 : P2 2", "score after the latest point, with names")
    XCTAssertEqual(div("games", in: dom), "games 1 : 0 · serve Ana (P1)")
    let events = try XCTUnwrap(dom.range(of: "<div id=\"events\">").map { String(dom[$0.upperBound...].prefix(3000)) })
    for line in [
      "0.50 s point · Ana (P1) · net · 3–2 · serve Ana (P1) · rally 1", "0.60 s claim · P2 · left hand",
      "0.64 s zone_enter · Ana (P1) · right_wrist · into service_box",
      "0.74 s zone_exit · Ana (P1) · right_wrist · left service_box", "0.80 s ball_at_rest · 1.20 s",
    ] {
      XCTAssertTrue(events.contains(line), "event list lacks \(line): \(events.prefix(1200))")
    }
    XCTAssertFalse(events.contains("5.00 s"), "events more than 2 s away are not listed")
    XCTAssertTrue(dom.contains(">Ana</div>") && dom.contains(">P2</div>"), "players' name labels")
  }

  func testDefaultViewShowsTableAndPlayersWithDebianThreeJS() throws {
    try checkDefaultView { _ in .debian }
  }

  func testDefaultViewShowsTableAndPlayersWithABundledCopy() throws {
    try checkDefaultView { folder in
      let source = try ThreeJSBundle.copy(from: URL(fileURLWithPath: Chromium.threeFolder), to: folder)
      for file in ThreeJSBundle.files {
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("three/\(file)").path), file)
      }
      return source
    }
  }

  func testSaysSoWhenThreeJSCannotLoad() throws {
    let browser = try Chromium.executable()
    let folder = try makeTemporaryFolder("matchscene-viewer")
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = try page(in: folder) { _ in .bundled("three") }  // nothing copied there
    let dom = try Chromium.run(browser, page: page)
    XCTAssertEqual(Chromium.pre("status", in: dom), "no three.js")
    let message = try XCTUnwrap(dom.range(of: "<div id=\"nothree\">").map { String(dom[$0.upperBound...].prefix(800)) })
    XCTAssertTrue(message.contains("Three.js could not be loaded"), message)
    XCTAssertTrue(message.contains("three/three.min.js"), "names the missing file: \(message)")
    XCTAssertTrue(message.contains("--three /usr/share/javascript/three"), "says how to fix it: \(message)")
    XCTAssertThrowsError(try ThreeJSBundle.copy(from: folder, to: folder)) { error in
      XCTAssertTrue("\(error)".contains("three.min.js"), "\(error)")
    }
  }

  /// Screenshots (1280 × 720) of the page as opened, and paused at its start with and without the
  /// players: the frame is not blank, the (blue) table shows, the players change a visible area.
  private func checkDefaultView(_ threeJS: (URL) throws -> ThreeJSSource) throws {
    let browser = try Chromium.executable()
    _ = try FFmpeg.executable()
    let folder = try makeTemporaryFolder("matchscene-viewer")
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = try page(in: folder, threeJS: threeJS)
    let dom = try Chromium.run(browser, page: page)
    XCTAssertEqual(Chromium.pre("errors", in: dom), "", "page errors")
    XCTAssertEqual(Chromium.pre("warnings", in: dom), "", "console warnings")
    XCTAssertEqual(Chromium.pre("status", in: dom), "ready")
    func shot(_ name: String, _ fragment: String?) throws -> FFmpeg.Image {
      let png = folder.appendingPathComponent("\(name).png")
      try Chromium.run(browser, page: fragment.map { url(page, fragment: $0) } ?? page, screenshot: png)
      return try FFmpeg.rgb(of: png)
    }
    let opened = try shot("opened", nil)
    let paused = try shot("paused", "paused")
    let noPlayers = try shot("no-players", "paused&hide=P1,P2")
    let background = SIMD3(0x20, 0x24, 0x2a)
    let scene = 0..<(opened.height - 60)  // above the control bar
    var drawn = 0, table = 0, players = 0
    var playerColumns = Set<Int>()
    for y in scene {
      for x in 0..<opened.width {
        let p = opened[x, y]
        if difference(p, background) > 30 { drawn += 1 }
        let q = noPlayers[x, y]
        if q.z > 150 && q.z > q.x + 60 { table += 1 }  // the table's blue, players hidden
        if difference(paused[x, y], q) > 60 {
          players += 1
          playerColumns.insert(x / 64)
        }
      }
    }
    let total = scene.count * opened.width
    print("ViewerBrowserTests: drawn \(drawn) of \(total) px, table \(table) px, players \(players) px in \(playerColumns.count) of 20 column bands")
    XCTAssertGreaterThan(Double(drawn), 0.3 * Double(total), "the rendered frame is (nearly) blank")
    XCTAssertGreaterThan(Double(table), 0.02 * Double(total), "the table is not in the default view")
    XCTAssertGreaterThan(players, 3000, "the players are not visible in the default view")
    XCTAssertGreaterThanOrEqual(playerColumns.count, 3, "the two players are apart in the view")
  }

  /// The text of `<div id="id">` or `<span id="id">` in `dom` (no nested elements).
  private func div(_ id: String, in dom: String) -> String? {
    guard let open = dom.range(of: " id=\"\(id)\">") else { return nil }
    let rest = dom[open.upperBound...]
    return rest.range(of: "</").map { String(rest[..<$0.lowerBound]) }
  }
}

/// Sum of the absolute channel differences of two RGB pixels.
private func difference(_ a: SIMD3<Int>, _ b: SIMD3<Int>) -> Int { abs(a.x - b.x) + abs(a.y - b.y) + abs(a.z - b.z) }
