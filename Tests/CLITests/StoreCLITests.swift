import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// The session store and the CSV writers through the command line: reading commands create no store;
/// two `sessions add` create a new store at once; a keypoint named `no,se` or holding a line end is read
/// back by `form`, `evaluate` and `sessions add`.
final class StoreCLITests: XCTestCase {
  func testReadingCommandsCreateNoStore() throws {
    let dir = try makeTemporaryFolder("store-cli-missing")
    let store = dir.appendingPathComponent("none/sessions.sqlite").path
    let list = try runMatchScene(["sessions", "list", "--store", store])
    XCTAssertEqual(list.status, 0, list.stderr)
    XCTAssert(list.stdout.contains("no sessions in \(store) (no store there yet)"), list.stdout)
    for arguments in [
      ["sessions", "show", "1"], ["sessions", "export", "1", "-o", dir.appendingPathComponent("back").path],
      ["compare", "1", "2", "-o", dir.appendingPathComponent("cmp").path],
    ] {
      let run = try runMatchScene(arguments + ["--store", store])
      XCTAssertNotEqual(run.status, 0, arguments.joined(separator: " "))
      XCTAssert(run.stderr.contains("no session store here (nothing was created"), run.stderr)
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "nothing created")
  }

  /// Ten trials of two `sessions add` creating the same new store at once: all succeed.
  func testTwoAddsCreateANewStoreAtOnce() throws {
    let dir = try makeTemporaryFolder("store-cli-race")
    for seed in 1...2 {
      let sim = try runMatchScene(["simulate", "-o", dir.appendingPathComponent("m\(seed)").path, "--duration", "1", "--seed", "\(seed)"])
      XCTAssertEqual(sim.status, 0, sim.stderr)
    }
    final class Results: @unchecked Sendable {
      let lock = NSLock()
      var failures: [String] = []
    }
    let results = Results()
    for trial in 0..<10 {
      let store = dir.appendingPathComponent("t\(trial)/sessions.sqlite").path
      DispatchQueue.concurrentPerform(iterations: 2) { k in
        let folder = dir.appendingPathComponent("m\(k + 1)/truth").path
        let run = Result { try runMatchScene(["sessions", "add", folder, "--store", store]) }
        results.lock.lock()
        defer { results.lock.unlock() }
        switch run {
        case .success(let r) where r.status != 0: results.failures.append("trial \(trial): \(r.stderr)")
        case .failure(let e): results.failures.append("trial \(trial): \(e)")
        default: break
        }
      }
      let list = try runMatchScene(["sessions", "list", "--store", store])
      XCTAssertEqual(list.stdout.split(separator: "\n").count, 2, list.stdout)
    }
    XCTAssertEqual(results.failures, [])
  }

  /// Joints named `no,se` and `left\neye`, a track named `=P1`: tracks.csv quotes and neutralises them,
  /// and `form`, `evaluate` and `sessions add` read the file.
  func testHostileNamesInTracksAreReadBack() throws {
    let dir = try makeTemporaryFolder("store-cli-names")
    let match = dir.appendingPathComponent("m"), out = dir.appendingPathComponent("out")
    let sim = try runMatchScene(["simulate", "-o", match.path, "--duration", "2", "--seed", "3"])
    XCTAssertEqual(sim.status, 0, sim.stderr)
    let rec = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--no-c3d"])
    XCTAssertEqual(rec.status, 0, rec.stderr)
    let tracks = out.appendingPathComponent("tracks.csv")
    let renamed = try TracksCSV.read(from: tracks).map { p -> TrackPoint in
      var q = p
      if q.joint == "nose" { q.joint = "no,se" }
      if q.joint == "left_eye" { q.joint = "left\neye" }
      if q.track == "P2" { q.track = "=P2" }
      return q
    }
    try TracksCSV.write(renamed, to: tracks)
    let text = try String(contentsOf: tracks, encoding: .utf8)
    XCTAssert(text.contains(",'=P2,player,\"no,se\","), "quoted and neutralised")
    XCTAssertEqual(try TracksCSV.read(from: tracks).map(\.joint), renamed.map(\.joint))

    let form = try runMatchScene(["form", out.path])
    XCTAssertEqual(form.status, 0, form.stderr)
    let evaluate = try runMatchScene(["evaluate", out.path, "--truth", match.appendingPathComponent("truth").path])
    XCTAssertEqual(evaluate.status, 0, evaluate.stderr)
    let add = try runMatchScene(["sessions", "add", out.path, "--store", dir.appendingPathComponent("s.sqlite").path])
    XCTAssertEqual(add.status, 0, add.stderr)
    XCTAssert(add.stdout.contains("=P2"), add.stdout)
  }
}
