import Foundation
import TestSupport
import XCTest

/// Who is who and the reference library through the command line: three short simulated sessions of
/// players of given heights (their truth folders, so no reconstruction), suggestions by limb lengths,
/// a contradicted name warned about and corrected; references one per kind, of the right sport.
final class IdentityCLITests: XCTestCase {
  /// Ana 1.62 m and Ben 1.85 m: named in session 1, recognised (each once) in session 2, and a wrong
  /// name in session 3 is flagged with its σ and corrected with `sessions name`.
  func testNamesByProportionsWarningAndCorrection() throws {
    let dir = try makeTemporaryFolder("identity-cli")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("sessions.sqlite").path
    for (seed, heights) in [(1, "P1=1.62,P2=1.85"), (2, "P1=1.85,P2=1.62"), (3, "P1=1.85,P2=1.62")] {
      let sim = try runMatchScene([
        "simulate", "-o", dir.appendingPathComponent("m\(seed)").path, "--duration", "2", "--seed", "\(seed)", "--player-height", heights,
      ])
      XCTAssertEqual(sim.status, 0, sim.stderr)
    }
    let truth = try String(contentsOf: dir.appendingPathComponent("m1/truth/players.json"), encoding: .utf8)
    XCTAssert(truth.contains("\"height\" : 1.62"), truth)
    let first = try runMatchScene(["sessions", "add", dir.appendingPathComponent("m1/truth").path, "--player", "P1=Ana", "--player", "P2=Ben", "--store", store])
    XCTAssertEqual(first.status, 0, first.stderr)
    let second = try runMatchScene(["sessions", "add", dir.appendingPathComponent("m2/truth").path, "--store", store])
    XCTAssertEqual(second.status, 0, second.stderr)
    XCTAssert(second.stdout.contains("P1 looks like Ben"), second.stdout)
    XCTAssert(second.stdout.contains("P2 looks like Ana"), second.stdout)
    XCTAssert(second.stdout.contains("`matchscene sessions name 2 P1 Ben`"), second.stdout)

    let third = try runMatchScene(["sessions", "add", dir.appendingPathComponent("m3/truth").path, "--player", "P1=Ana", "--store", store])
    XCTAssertEqual(third.status, 0, third.stderr)
    XCTAssert(third.stderr.contains("warning: P1 is named Ana, but its limb lengths are"), third.stderr)
    XCTAssert(third.stderr.contains("σ from Ana's"), third.stderr)
    XCTAssertFalse(third.stdout.contains("looks like Ana"), "Ana is named in this session: \(third.stdout)")
    let renamed = try runMatchScene(["sessions", "name", "3", "P1", "Ben", "--store", store])
    XCTAssertEqual(renamed.status, 0, renamed.stderr)
    XCTAssert(renamed.stdout.contains("session 3: P1 is now Ben (was Ana)"), renamed.stdout)
    XCTAssertEqual(renamed.stderr, "", "Ben's lengths fit")
    let list = try runMatchScene(["sessions", "list", "--store", store])
    XCTAssert(list.stdout.contains("P1 Ben, P2 (unnamed)"), list.stdout)
    // One person on two tracks, or one track with two names, is refused before the store is touched.
    let twice = try runMatchScene(["sessions", "add", dir.appendingPathComponent("m3/truth").path, "--player", "P1=Ana", "--player", "P2=ana", "--store", store])
    XCTAssertNotEqual(twice.status, 0)
    XCTAssert(twice.stderr.contains("'ana' is given to both P1 and P2"), twice.stderr)
    let renamedTwice = try runMatchScene(["sessions", "add", dir.appendingPathComponent("m3/truth").path, "--player", "P1=Ana", "--player", "P1=Ben", "--store", store])
    XCTAssertNotEqual(renamedTwice.status, 0)
    XCTAssert(renamedTwice.stderr.contains("track P1 is named twice ('Ana' and 'Ben')"), renamedTwice.stderr)
    XCTAssertEqual(try runMatchScene(["sessions", "list", "--store", store]).stdout, list.stdout, "the store is unchanged")
    let bad = try runMatchScene(["simulate", "-o", dir.appendingPathComponent("x").path, "--player-height", "P3=1.7"])
    XCTAssertNotEqual(bad.status, 0)
    XCTAssert(bad.stderr.contains("--player-height: expected P1=h,P2=h"), bad.stderr)
  }

  /// `form --reference` twice for one kind names both files; a reference of another sport names the file
  /// and both sports; a reference saved from a stored session comes back from the store.
  func testReferencesOnePerKindAndOfTheSport() throws {
    let dir = try makeTemporaryFolder("reference-cli")
    defer { try? FileManager.default.removeItem(at: dir) }
    let sim = try runMatchScene(["simulate", "-o", dir.appendingPathComponent("m").path, "--duration", "8", "--seed", "4"])
    XCTAssertEqual(sim.status, 0, sim.stderr)
    let out = dir.appendingPathComponent("m/truth")
    let fh = dir.appendingPathComponent("fh.json").path
    let save = try runMatchScene(["form", out.path, "--save-reference", fh, "--player", "P1", "--kind", "forehand"])
    XCTAssertEqual(save.status, 0, save.stderr)
    let text = try String(contentsOf: URL(fileURLWithPath: fh), encoding: .utf8)
    XCTAssert(text.contains("\"sport\":\"table-tennis\""), String(text.prefix(300)))
    let copy = dir.appendingPathComponent("fh2.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: copy))
    let twice = try runMatchScene(["form", out.path, "--reference", fh, "--reference", copy])
    XCTAssertNotEqual(twice.status, 0)
    XCTAssert(twice.stderr.contains("\(copy): a second forehand reference: \(fh) is one already"), twice.stderr)
    let tennis = dir.appendingPathComponent("tennis.json").path
    try Data(text.replacingOccurrences(of: "\"sport\":\"table-tennis\"", with: "\"sport\":\"tennis\"").utf8).write(to: URL(fileURLWithPath: tennis))
    let sport = try runMatchScene(["form", out.path, "--reference", tennis])
    XCTAssertNotEqual(sport.status, 0)
    XCTAssert(sport.stderr.contains("\(tennis): is a reference for tennis; this match is table-tennis"), sport.stderr)

    let store = dir.appendingPathComponent("sessions.sqlite").path
    XCTAssertEqual(try runMatchScene(["sessions", "add", out.path, "--player", "P1=Ana", "--store", store]).status, 0)
    let stored = try runMatchScene(["sessions", "reference", "save", "1", "--player", "Ana", "--kind", "forehand", "--name", "ana-fh", "--store", store])
    XCTAssertEqual(stored.status, 0, stored.stderr)
    XCTAssert(stored.stdout.contains("Ana's forehand average"), stored.stdout)
    let list = try runMatchScene(["sessions", "reference", "list", "--store", store])
    XCTAssert(list.stdout.contains("ana-fh\tforehand\tright hand\ttable-tennis\tAna"), list.stdout)
    let scored = try runMatchScene(["form", out.path, "--stored-reference", "ana-fh", "--store", store])
    XCTAssertEqual(scored.status, 0, scored.stderr)
    XCTAssert(scored.stdout.contains("ana-fh"), scored.stdout)
  }
}
