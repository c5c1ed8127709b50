import Foundation
import MatchSceneSessions
import TestSupport
import XCTest

/// `matchscene compare` end to end, and its page in headless Chromium (as `BrowserTests` runs it).
final class ComparePageTests: XCTestCase {
  /// Two sessions with strokes and angles, compared on the command line: compare.json lists the plots,
  /// and Chromium loads compare.html with no page or console errors and every listed plot drawn.
  func testComparePageLoadsInChromiumWithEveryPlot() throws {
    try requireTier(.integration)
    let dir = try makeTemporaryFolder("sessions-page")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("s.sqlite").path
    let match = try simulatedMatch(seed: 33, duration: 10)
    for (k, change) in [0.0, 6.0].enumerated() {
      let out = try writeOutputFolder(
        match, to: dir.appendingPathComponent("week\(k + 1)/out"), extraFiles: techniqueFiles(elbowChange: change, seed: UInt64(k)))
      let add = try runMatchScene(["sessions", "add", out.path, "--player", "P1=Ana", "--date", "2026-11-0\(k + 1)", "--store", store])
      XCTAssertEqual(add.status, 0, add.stderr)
    }
    let page = dir.appendingPathComponent("cmp")
    let run = try runMatchScene(["compare", "--player", "Ana", "--last", "10", "-o", page.path, "--store", store])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(run.stdout.contains("forehand elbow_flexion +") && run.stdout.contains("(follow-through)"), run.stdout)
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: page.appendingPathComponent("compare.json"))) as? [String: Any]
    let plots = try XCTUnwrap(json?["plots"] as? [String])
    XCTAssertEqual(
      plots.count, 11, "distance, distance per rally, speeds, errors, score, 2 heat maps, 2 bounce maps, 2 technique plots: \(plots)")

    let aa = try runMatchScene(["compare", "1", "1", "-o", dir.appendingPathComponent("aa").path, "--store", store])
    XCTAssertEqual(aa.status, 0, aa.stderr)
    XCTAssertTrue(aa.stdout.contains("no differences"), aa.stdout)

    guard let browser = ["/usr/bin/chromium", "/usr/local/bin/chromium"].first(where: FileManager.default.isExecutableFile) else {
      if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("chromium missing: apt-get install -y chromium") }
      throw XCTSkip("chromium is not installed: apt-get install -y chromium")
    }
    let dom = try dumpDOM(browser, page: page.appendingPathComponent("compare.html"))
    XCTAssertTrue(dom.contains("<pre id=\"errors\"></pre>"), "no page or console errors: \(dom.suffix(500))")
    XCTAssertTrue(dom.contains("<pre id=\"status\">ready \(plots.count) of \(plots.count) plots drawn</pre>"), String(dom.suffix(300)))
    for id in plots { XCTAssertTrue(dom.contains("data-plot=\"\(id)\""), "plot \(id) in the page") }
  }

  /// The DOM after the page's scripts ran (`chromium --headless --dump-dom`), the browser killed after 60 s.
  private func dumpDOM(_ browser: String, page: URL) throws -> String {
    let profile = try makeTemporaryFolder("sessions-chromium")
    defer { try? FileManager.default.removeItem(at: profile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: browser)
    process.arguments = [
      "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)", "--no-first-run",
      "--disable-dev-shm-usage", "--virtual-time-budget=5000", "--dump-dom", page.absoluteString,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return String(decoding: data, as: UTF8.self)
  }
}
