import Foundation
import TestSupport
import XCTest

/// A flag naming one output file (`clip -f`, `evaluate --json`, `compare --glb`) never overwrites an
/// input or a file MatchScene did not write (unless --force, and never an input); `overlay -o` never
/// adds to a user's folder or into the match folder.
final class SingleOutputFileCLITests: XCTestCase {
  /// Every test here runs `matchscene`: the integration tier.
  override func setUpWithError() throws { try requireTier(.integration) }

  let fm = FileManager.default

  func copyOfTheOutput() throws -> URL {
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    try fm.copyItem(at: PathSafetyCLITests.fixture.out, to: out)
    return out
  }

  func mine(_ url: URL) throws -> URL {
    try "mine".write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  func isMine(_ url: URL) -> Bool { (try? String(contentsOf: url, encoding: .utf8)) == "mine" }

  /// Runs `arguments` without and with --force: refused both times, saying `expected`; `input` unchanged.
  func assertRefusedEvenWithForce(_ arguments: [String], saying expected: String, keeping input: URL) throws {
    let before = try Data(contentsOf: input)
    for force in [[], ["--force"]] {
      let run = try runMatchScene(arguments + force)
      XCTAssertNotEqual(run.status, 0, "\(arguments + force)")
      XCTAssertTrue(run.stderr.contains(expected), run.stderr)
    }
    XCTAssertEqual(try Data(contentsOf: input), before)
  }

  /// `arguments + [users]` (a file of the user's) is refused, naming it, the file kept; `arguments + [own]`
  /// succeeds twice (the second run replaces what the first wrote).
  func assertKeepsAUsersFile(_ arguments: [String], _ users: URL, writesTwice own: URL) throws {
    let refused = try runMatchScene(arguments + [users.path])
    XCTAssertNotEqual(refused.status, 0)
    XCTAssertTrue(refused.stderr.contains(users.lastPathComponent) && refused.stderr.contains("--force"), refused.stderr)
    XCTAssertTrue(isMine(users))
    for _ in 0..<2 {
      let run = try runMatchScene(arguments + [own.path])
      XCTAssertEqual(run.status, 0, run.stderr)
    }
  }

  func testClipFileReplacesOnlyAClip() throws {
    let out = try copyOfTheOutput()
    let tracks = out.appendingPathComponent("tracks.csv")
    let clip = ["clip", out.path, "--player", "P1", "--frames", "10-20", "-f"]
    try assertRefusedEvenWithForce(clip + [tracks.path], saying: "names an input", keeping: tracks)
    let notes = try mine(out.deletingLastPathComponent().appendingPathComponent("notes.glb"))
    try assertKeepsAUsersFile(clip, notes, writesTwice: out.deletingLastPathComponent().appendingPathComponent("stroke.glb"))
    XCTAssertEqual(try runMatchScene(clip + [notes.path, "--force"]).status, 0)
    XCTAssertFalse(isMine(notes))
    let scene = try runMatchScene(clip + [out.appendingPathComponent("scene.glb").path])
    XCTAssertNotEqual(scene.status, 0, "scene.glb is not a clip")
  }

  func testEvaluateJSONReplacesOnlyAnEvaluation() throws {
    let out = try copyOfTheOutput()
    let truth = PathSafetyCLITests.fixture.match.appendingPathComponent("truth")
    let tracks = out.appendingPathComponent("tracks.csv")
    let evaluate = ["evaluate", out.path, "--truth", truth.path, "--json"]
    try assertRefusedEvenWithForce(evaluate + [tracks.path], saying: "names an input", keeping: tracks)
    try assertRefusedEvenWithForce(
      evaluate + [truth.appendingPathComponent("eval.json").path], saying: "never writes into its input",
      keeping: truth.appendingPathComponent("tracks.csv"))
    XCTAssertFalse(fm.fileExists(atPath: truth.appendingPathComponent("eval.json").path))
    let notes = try mine(out.deletingLastPathComponent().appendingPathComponent("notes.json"))
    try assertKeepsAUsersFile(evaluate, notes, writesTwice: out.appendingPathComponent("evaluation.json"))
  }

  func testCompareGLBReplacesOnlyARallyOverlay() throws {
    let root = try makeTemporaryFolder()
    let store = root.appendingPathComponent("s.sqlite")
    XCTAssertEqual(try runMatchScene(["sessions", "add", PathSafetyCLITests.fixture.out.path, "--store", store.path]).status, 0)
    let compare = ["compare", "1", "1", "-o", root.appendingPathComponent("c").path, "--store", store.path, "--glb"]
    try assertRefusedEvenWithForce(compare + [store.path], saying: "names an input", keeping: store)
    try assertKeepsAUsersFile(compare, try mine(root.appendingPathComponent("notes.glb")), writesTwice: root.appendingPathComponent("rallies.glb"))
  }

  /// `view x.glb` beside a user's x.html, `view page.html` (the page would be the scene itself).
  func testViewReplacesOnlyItsOwnPage() throws {
    let root = try makeTemporaryFolder()
    let scene = root.appendingPathComponent("x.glb")
    try fm.copyItem(at: PathSafetyCLITests.fixture.out.appendingPathComponent("scene.glb"), to: scene)
    let page = try mine(root.appendingPathComponent("x.html"))
    let refused = try runMatchScene(["view", scene.path])
    XCTAssertNotEqual(refused.status, 0)
    XCTAssertTrue(refused.stderr.contains("x.html") && refused.stderr.contains("--force"), refused.stderr)
    XCTAssertTrue(isMine(page))
    let html = try mine(root.appendingPathComponent("page.html"))
    XCTAssertNotEqual(try runMatchScene(["view", html.path, "--force"]).status, 0)
    XCTAssertTrue(isMine(html))
    try fm.removeItem(at: page)
    for _ in 0..<2 { XCTAssertEqual(try runMatchScene(["view", scene.path]).status, 0, "its own page is replaced") }
  }

  func testOverlayNeverAddsToAUsersFolderOrTheMatch() throws {
    let root = try makeTemporaryFolder()
    let (match, out) = PathSafetyCLITests.fixture
    let users = root.appendingPathComponent("photos")
    try fm.createDirectory(at: users, withIntermediateDirectories: true)
    _ = try mine(users.appendingPathComponent("a.jpg"))
    let overlay = ["overlay", match.path, "--tracks", out.path, "--frames", "10-10", "-o"]
    let refused = try runMatchScene(overlay + [users.path])
    XCTAssertNotEqual(refused.status, 0)
    XCTAssertTrue(refused.stderr.contains("photos") && refused.stderr.contains("not written by MatchScene"), refused.stderr)
    XCTAssertEqual(try fm.contentsOfDirectory(atPath: users.path), ["a.jpg"])
    let inside = try runMatchScene(overlay + [match.appendingPathComponent("overlay").path, "--force"])
    XCTAssertNotEqual(inside.status, 0)
    XCTAssertFalse(fm.fileExists(atPath: match.appendingPathComponent("overlay").path))
    let mineToo = root.appendingPathComponent("ov")
    for frames in ["10-10", "11-11"] {
      let run = try runMatchScene(["overlay", match.path, "--tracks", out.path, "--frames", frames, "-o", mineToo.path])
      XCTAssertEqual(run.status, 0, run.stderr)
    }
  }
}
