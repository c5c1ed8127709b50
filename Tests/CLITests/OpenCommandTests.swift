import Foundation
import TestSupport
import XCTest

/// `matchscene open --no-browser` as a coach runs it after `reconstruct`: the app written into the output,
/// opened from file:// in headless Chromium with no page-relaxing flag (three.js r111 copied beside it).
final class OpenCommandTests: XCTestCase {
  /// The state the app writes into `<pre id="state">`.
  struct State: Decodable {
    var now: Double
    var bodies: Int
    var eventsShown: Int
    var latestEventShown: Double?
    var futureEventsShown: Int
    var strokesListed: Int
    var strokes: Int
  }

  func testOpenWritesAnAppShowingBodiesThePastEventsAndEveryStroke() throws {
    try requireTier(.tools)
    try requireTier(.integration)
    let browser = try Chromium.executable()
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    XCTAssertEqual(try runMatchScene(["simulate", "-o", match.path, "--duration", "20", "--seed", "3"]).status, 0)
    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    let form = try runMatchScene(["form", out.path])
    XCTAssertEqual(form.status, 0, form.stderr)
    let formJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("form.json"))) as? [String: Any]
    let strokeCount = (formJSON?["strokes"] as? [Any])?.count ?? -1
    XCTAssertGreaterThan(strokeCount, 0)

    let open = try runMatchScene(["open", out.path, "--three", Chromium.threeFolder, "--no-browser"])
    XCTAssertEqual(open.status, 0, open.stderr)
    XCTAssertTrue(open.stdout.contains("\(strokeCount) strokes"), open.stdout)
    let page = out.appendingPathComponent("index.html")
    for file in ["index.html", "review/data.js", "three/three.min.js"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), file)
    }
    let marker = try String(contentsOf: out.appendingPathComponent(".matchscene-output"), encoding: .utf8)
    XCTAssertTrue(marker.contains("\nindex.html") && marker.contains("\nreview"), marker)

    // At 3 s into the match, paused: every body drawn, no event after the clock listed, every stroke listed.
    let dom = try Chromium.run(browser, page: url(page, fragment: "t=3&paused"))
    XCTAssertEqual(Chromium.pre("errors", in: dom), "", "page errors")
    XCTAssertEqual(Chromium.pre("status", in: dom), "ready")
    let state = try JSONDecoder().decode(State.self, from: Data((Chromium.pre("state", in: dom) ?? "").utf8))
    XCTAssertEqual(state.now, 3, accuracy: 1e-6)
    XCTAssertEqual(state.bodies, 3, "P1, P2 and the bystander")
    XCTAssertGreaterThan(state.eventsShown, 0)
    XCTAssertEqual(state.futureEventsShown, 0, "no event ahead of the clock")
    XCTAssertLessThanOrEqual(state.latestEventShown ?? 0, 3)
    XCTAssertEqual(state.strokes, strokeCount)
    XCTAssertEqual(state.strokesListed, strokeCount)

    // The bodies are drawn: hiding the players changes the picture.
    let shown = folder.appendingPathComponent("shown.png"), hidden = folder.appendingPathComponent("hidden.png")
    try Chromium.run(browser, page: url(page, fragment: "t=3&paused"), screenshot: shown)
    try Chromium.run(browser, page: url(page, fragment: "t=3&paused&hide=P1,P2,B1"), screenshot: hidden)
    let a = try FFmpeg.rgb(of: shown), b = try FFmpeg.rgb(of: hidden)
    var changed = 0
    for y in 0..<a.height { for x in 0..<a.width where a[x, y] != b[x, y] { changed += 1 } }
    print("OpenCommandTests: \(changed) pixels change when the people are hidden")
    XCTAssertGreaterThan(changed, 5_000)

    // A camera's video beside the 3D view, the skeletons projected through the scene's camera of that name.
    let clip = folder.appendingPathComponent("cam1.webm")
    try FFmpeg.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=60", "-t", "5", "-c:v", "libvpx", clip.path])
    let withVideo = try runMatchScene(["open", out.path, "--three", Chromium.threeFolder, "--no-browser", "--video", "cam1=\(clip.path)"])
    XCTAssertEqual(withVideo.status, 0, withVideo.stderr)
    let videoDOM = try Chromium.run(browser, page: url(page, fragment: "t=3&paused"))
    XCTAssertEqual(Chromium.pre("errors", in: videoDOM), "", "page errors")
    XCTAssertEqual(Chromium.pre("warnings", in: videoDOM), "", "console warnings (a camera not in the scene)")
    XCTAssertTrue(Chromium.pre("state", in: videoDOM)?.contains("\"video\":{\"camera\":\"cam1\"") == true, Chromium.pre("state", in: videoDOM) ?? "")
    XCTAssertTrue(Chromium.pre("state", in: videoDOM)?.contains("\"projected\":true") == true)
    let badVideo = try runMatchScene(["open", out.path, "--no-browser", "--video", "cam1"])
    XCTAssertNotEqual(badVideo.status, 0)
    XCTAssertTrue(badVideo.stderr.contains("expected <camera>=<file>"), badVideo.stderr)

    // A page MatchScene did not write is not replaced.
    try "my notes".write(to: page, atomically: true, encoding: .utf8)
    let refused = try runMatchScene(["open", out.path, "--no-browser"])
    XCTAssertNotEqual(refused.status, 0)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), "my notes")
  }

  private func url(_ page: URL, fragment: String) -> URL {
    var components = URLComponents(url: page, resolvingAgainstBaseURL: false)!
    components.fragment = fragment
    return components.url!
  }
}
