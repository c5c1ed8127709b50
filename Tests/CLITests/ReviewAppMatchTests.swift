import Foundation
import TestSupport
import XCTest

/// The review app on a simulated 60 s match (one simulate + reconstruct + form + open for the class),
/// opened from file:// in headless Chromium with three.js r111 beside it: what a coach must see.
final class ReviewAppMatchTests: XCTestCase {
  struct State: Decodable {
    struct Video: Decodable {
      var camera: String
      var time: Double
      var ready: Int
      /// The picture's rectangle in the page (x, y, width, height; CSS pixels).
      var picture: [Double]?
    }
    var now: Double
    var frame: Int
    var ballPixel: [Int]?
    var bodies: Int
    var eventsShown: Int
    var latestEventShown: Double?
    var futureEventsShown: Int
    var strokesListed: Int
    var strokes: Int
    var video: Video?
  }

  /// The match written once: its output folder (with the app and a camera video), fps and strokes.json's count.
  struct Match {
    var folder: URL
    var out: URL
    var page: URL
    var fps: Double
    var strokeCount: Int
    var events: [[String: Any]]
  }
  nonisolated(unsafe) private static var shared: Match?
  private static let lock = NSLock()

  override class func tearDown() {
    if let folder = shared?.folder { try? FileManager.default.removeItem(at: folder) }
    shared = nil
    super.tearDown()
  }

  /// Simulates 60 s, reconstructs, runs form and writes the app with a 60 fps test video whose frames
  /// carry their number (`frameCodeFilter`) as cam1, once for every test of the class.
  private func match() throws -> Match {
    try requireTier(.tools)
    try requireTier(.integration)
    Self.lock.lock()
    defer { Self.lock.unlock() }
    if let shared = Self.shared { return shared }
    let folder = try makeTemporaryFolder()
    let input = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", input.path, "--duration", "60", "--seed", "5"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let reconstruct = try runMatchScene(["reconstruct", input.path, "-o", out.path])
    guard reconstruct.status == 0 else { throw XCTSkip("reconstruct failed: \(reconstruct.stderr)") }
    let form = try runMatchScene(["form", out.path])
    XCTAssertEqual(form.status, 0, form.stderr)
    let clip = folder.appendingPathComponent("cam1.webm")
    try FFmpeg.run(
      "ffmpeg",
      ["-v", "error", "-f", "lavfi", "-i", "color=c=black:s=192x108:r=60:d=14", "-vf", Self.frameCodeFilter, "-c:v", "libvpx",
       "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M", clip.path])
    let open = try runMatchScene(["open", out.path, "--three", Chromium.threeFolder, "--no-browser", "--video", "cam1=\(clip.path)"])
    XCTAssertEqual(open.status, 0, open.stderr)
    let strokes = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("strokes.json"))) as? [String: Any]
    let events = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("events.json"))) as? [String: Any]
    let match = Match(
      folder: folder, out: out, page: out.appendingPathComponent("index.html"), fps: 60,
      strokeCount: (strokes?["strokes"] as? [Any])?.count ?? -1, events: events?["events"] as? [[String: Any]] ?? [])
    Self.shared = match
    return match
  }

  private func dom(_ match: Match, _ fragment: String) throws -> (dom: String, state: State) {
    let dom = try Chromium.run(try Chromium.executable(), page: url(match.page, fragment: fragment), windowSize: "1280,720")
    XCTAssertEqual(Chromium.pre("errors", in: dom), "", "page errors at #\(fragment)")
    XCTAssertEqual(Chromium.pre("status", in: dom), "ready", "#\(fragment)")
    let state = try JSONDecoder().decode(State.self, from: Data((Chromium.pre("state", in: dom) ?? "").utf8))
    return (dom, state)
  }

  func testPlayersAreDrawnAsBodiesWithTheirNames() throws {
    let match = try match()
    let (dom, state) = try dom(match, "t=20&paused")
    XCTAssertEqual(state.bodies, 3, "P1, P2 and the bystander as bodies")
    for name in ["P1", "P2"] {
      let label = try XCTUnwrap(dom.range(of: "<div class=\"label\"[^>]*>\(name)</div>", options: .regularExpression), "\(name)'s label")
      XCTAssertFalse(dom[label].contains("hidden"), "\(name)'s label shown: \(dom[label])")
    }
  }

  func testNoConsoleErrorAndNoEventBeforeItsTime() throws {
    let match = try match()
    for t in [5.0, 27.5, 55.0] {
      let (dom, state) = try dom(match, "t=\(t)&paused")
      XCTAssertEqual(Chromium.pre("warnings", in: dom), "", "console warnings at \(t) s")
      XCTAssertEqual(state.now, t, accuracy: 1e-6)
      XCTAssertEqual(state.futureEventsShown, 0, "an event ahead of the clock at \(t) s")
      XCTAssertLessThanOrEqual(state.latestEventShown ?? 0, t + 1e-9)
      XCTAssertGreaterThan(state.eventsShown, 0, "events up to \(t) s")
    }
  }

  func testBallTrailIsDrawnNearTheBall() throws {
    let match = try match()
    // 0.25 s after a hit in the middle of the match the ball is in flight with a trail behind it.
    let hits = match.events.filter { $0["type"] as? String == "hit" }.compactMap { ($0["time"] as? NSNumber)?.doubleValue }
    let t = try XCTUnwrap(hits.first { $0 > 20 }) + 0.25
    let fragment = String(format: "t=%.3f&paused", t)
    let (_, state) = try dom(match, fragment)
    let ball = try XCTUnwrap(state.ballPixel, "the ball is in view at \(t) s")
    let browser = try Chromium.executable()
    let shown = match.folder.appendingPathComponent("trail.png"), hidden = match.folder.appendingPathComponent("notrail.png")
    try Chromium.run(browser, page: url(match.page, fragment: fragment), screenshot: shown)
    try Chromium.run(browser, page: url(match.page, fragment: fragment + "&hide=trail"), screenshot: hidden)
    let a = try FFmpeg.rgb(of: shown), b = try FFmpeg.rgb(of: hidden)
    var near = 0, far = 0
    for y in 0..<a.height {
      for x in 0..<a.width where a[x, y] != b[x, y] {
        if abs(x - ball[0]) <= 120 && abs(y - ball[1]) <= 120 { near += 1 } else { far += 1 }
      }
    }
    print("ReviewAppMatchTests: the trail changes \(near) pixels near the ball at \(ball), \(far) elsewhere")
    XCTAssertGreaterThan(near, 20, "the trail is drawn near the ball")
    XCTAssertLessThan(far, near, "hiding the trail changes mostly pixels near the ball")
  }

  func testStrokeBrowserListsEveryStrokeAndPlotsHaveLabelledAxes() throws {
    let match = try match()
    XCTAssertGreaterThan(match.strokeCount, 0)
    let (dom, state) = try dom(match, "t=1&paused&tab=strokes&stroke=1")
    XCTAssertEqual(state.strokes, match.strokeCount, "every stroke of strokes.json")
    XCTAssertEqual(state.strokesListed, match.strokeCount, "every stroke listed")
    let start = try XCTUnwrap(dom.range(of: "<svg class=\"plot\""), "an angle plot of the selected stroke")
    let rest = dom[start.lowerBound...]
    let first = String(rest[..<(rest.range(of: "</svg>")?.upperBound ?? rest.endIndex)])
    XCTAssertTrue(first.contains("(°)</text>"), "the y axis names its angle in degrees")
    XCTAssertTrue(first.contains("°</text>"), "y ticks in degrees")
    for label in ["0 %", "contact", "100 %"] { XCTAssertTrue(first.contains(">\(label)</text>"), "x axis label \(label)") }
  }

  func testVideoPanelShowsThe3DFrame() throws {
    let match = try match()
    for t in [3.0, 8.345, 12.7] {
      let (_, state) = try dom(match, "t=\(t)&paused")
      let video = try XCTUnwrap(state.video, "the video panel at \(t) s")
      XCTAssertEqual(video.camera, "cam1")
      let videoFrame = Int((video.time * match.fps + 1e-4).rounded(.down))
      print("ReviewAppMatchTests: at \(t) s the 3D view shows frame \(state.frame), the video frame \(videoFrame) (\(video.time) s, readyState \(video.ready))")
      XCTAssertLessThanOrEqual(abs(videoFrame - state.frame), 1, "video and 3D within one frame at \(t) s")
    }
  }

  /// The test video's frames carry their number: its top half is `codeBits` bars, bar i (from the left)
  /// white when bit i of the frame number is set, else black; the bottom half grey. Drawn at 192 × 108 and
  /// scaled to 384 × 216 (the calibrated 16:9; a smaller picture encodes in a fraction of the time) without
  /// smoothing.
  static let codeBits = 12
  static let frameCodeFilter =
    "geq=lum='if(lt(Y,54),if(mod(floor(N/pow(2,floor(X/16))),2),235,16),128)':cb=128:cr=128,scale=384:216:flags=neighbor"

  /// The frame number painted in the video panel of `image` (a screenshot), read from the bars' middles
  /// (the median of a 7 × 7 patch, so that a skeleton line drawn over a bar does not flip it). The picture's
  /// columns come from the page's state; its top from the screenshot (a DOM dump's viewport may be shorter):
  /// half a picture above where the grey lower half starts. Nil when no grey half is found.
  private func paintedFrame(_ image: FFmpeg.Image, picture: [Double]) -> Int? {
    var greyTops: [Int] = []
    for fraction in [1.0 / 6, 0.5, 5.0 / 6] {
      let x = Int(picture[0] + fraction * picture[2])
      let grey = (0..<image.height).first { y in
        let p = image[x, y]
        return abs(p.x - 128) <= 24 && abs(p.y - 128) <= 24 && abs(p.z - 128) <= 24
      }
      if let grey { greyTops.append(grey) }
    }
    guard !greyTops.isEmpty else { return nil }
    let top = Double(greyTops.sorted()[greyTops.count / 2]) - picture[3] / 2
    var frame = 0
    for bit in 0..<Self.codeBits {
      let cx = Int(picture[0] + (Double(bit) + 0.5) * picture[2] / Double(Self.codeBits)), cy = Int(top + 0.25 * picture[3])
      var values: [Int] = []
      for y in (cy - 3)...(cy + 3) { for x in (cx - 3)...(cx + 3) { let p = image[x, y]; values.append(p.x + p.y + p.z) } }
      if values.sorted()[values.count / 2] > 3 * 128 { frame |= 1 << bit }
    }
    return frame
  }

  func testVideoPanelPaintsThe3DFrame() throws {
    let match = try match()
    let browser = try Chromium.executable()
    for t in [3.0, 8.345, 12.7] {
      let fragment = "t=\(t)&paused"
      let (_, state) = try dom(match, fragment)
      let picture = try XCTUnwrap(state.video?.picture, "the video's picture at \(t) s")
      let shot = match.folder.appendingPathComponent("video-\(t).png")
      try Chromium.run(browser, page: url(match.page, fragment: fragment), screenshot: shot)
      let painted = try XCTUnwrap(paintedFrame(try FFmpeg.rgb(of: shot), picture: picture), "the video's grey half in the screenshot at \(t) s")
      print("ReviewAppMatchTests: at \(t) s the 3D view shows frame \(state.frame), the video panel paints frame \(painted)")
      XCTAssertLessThanOrEqual(abs(painted - state.frame), 1, "painted video frame and 3D frame within one frame at \(t) s")
    }
  }

  private func url(_ page: URL, fragment: String) -> URL {
    var components = URLComponents(url: page, resolvingAgainstBaseURL: false)!
    components.fragment = fragment
    return components.url!
  }
}
