import Foundation
import MatchSceneCore
import MatchSceneIO
import MatchSceneSessions
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `kill -9` during `sessions add`: SQLite's WAL commit is atomic, and `add` writes in one transaction.
final class KillSafetyTests: XCTestCase {
  /// 24 times: start `matchscene sessions add`, kill it with SIGKILL at a random moment between its
  /// start and 1.2 × the time a whole add takes (every other one in the stretch where it encodes and
  /// writes, as timed on two whole adds); then the store opens, every earlier session is intact
  /// (same summary, its tracks decode to the same rows), the interrupted one is absent or complete, and
  /// `sqlite3 'PRAGMA integrity_check'` says ok.
  func testKillDuringAddLeavesTheStoreWhole() throws {
    try requireTier(.integration)
    try requireTier(.tools)  // checks the store with the sqlite3 shell
    let dir = try makeTemporaryFolder("sessions-kill")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("store.sqlite").path
    let base = try writeOutputFolder(try simulatedMatch(seed: 12, duration: 12), to: dir.appendingPathComponent("base"))
    let expectedRows = try TracksCSV.read(from: base.appendingPathComponent("tracks.csv")).count

    // Each attempt adds a copy made distinct by one extra file (another input hash).
    func copy(_ k: Int) throws -> URL {
      let folder = dir.appendingPathComponent("attempt\(k)")
      try FileManager.default.copyItem(at: base, to: folder)
      try Data("attempt \(k)\n".utf8).write(to: folder.appendingPathComponent("note.txt"))
      return folder
    }
    func add(_ folder: URL, output: Pipe? = nil) throws -> Process {
      let process = Process()
      process.executableURL = matchSceneBinary
      process.arguments = ["sessions", "add", folder.path, "--store", path]
      process.standardOutput = output ?? FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }

    // Two sessions stored normally: how long a whole add takes, and how long its encoding and write
    // transaction (the end of it, as `add` prints).
    var addSeconds = 0.0, writeSeconds = 0.0
    for k in 0..<2 {
      let output = Pipe()
      let started = Date()
      let p = try add(try copy(k), output: output)
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      p.waitUntilExit()
      XCTAssertEqual(p.terminationStatus, 0)
      addSeconds = max(addSeconds, Date().timeIntervalSince(started))
      let write = text.range(of: #"encode and write [0-9.]+"#, options: .regularExpression).map {
        Double(text[$0].split(separator: " ").last!) ?? 0
      }
      writeSeconds = max(writeSeconds, try XCTUnwrap(write, text))
    }
    var kept = try SessionStore(path: path).list()
    XCTAssertEqual(kept.count, 2)

    var generator = SeededGenerator(seed: 13)
    var absent = 0, complete = 0, absentLate = 0
    for k in 2..<26 {
      let folder = try copy(k)
      // Every other kill in the last part, where it encodes and writes (after reading and hashing).
      let window = k % 2 == 0 ? 0...(1.2 * addSeconds) : max(0, addSeconds - writeSeconds - 0.1)...(addSeconds + 0.05)
      let delay = Double.random(in: window, using: &generator)
      let process = try add(folder)
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      let store = try SessionStore(path: path)
      let now = try store.list()
      XCTAssertEqual(Array(now.prefix(kept.count)), kept, "attempt \(k): earlier sessions intact")
      XCTAssertLessThanOrEqual(now.count, kept.count + 1)
      if now.count == kept.count + 1 {
        complete += 1
        let session = try store.load(now.last!.id)
        XCTAssertEqual(session.summary.source, folder.standardizedFileURL.path)
        XCTAssertEqual(session.motion.rows.count, expectedRows, "attempt \(k): the interrupted session is complete")
      } else {
        absent += 1
        if delay >= addSeconds - writeSeconds - 0.1 { absentLate += 1 }
      }
      kept = now
      XCTAssertEqual(try sqlite3(path, "PRAGMA integrity_check").stdout, "ok\n", "attempt \(k)")
    }
    // Every stored session still decodes whole.
    let store = try SessionStore(path: path)
    for s in kept { XCTAssertEqual(try store.load(s.id).motion.rows.count, expectedRows) }
    XCTAssertEqual(absent + complete, 24)
    print(
      "kill -9 at 24 random moments (whole add \(String(format: "%.2f", addSeconds)) s, of which encode and write "
        + "\(String(format: "%.2f", writeSeconds)) s): \(absent) absent (\(absentLate) of them killed in the encode/write "
        + "stretch), \(complete) complete")
  }
}

/// WAL: `list` and `load` read while another process adds a session.
final class ConcurrentReadTests: XCTestCase {
  func testReadersBesideAWriter() throws {
    try requireTier(.integration)
    let dir = try makeTemporaryFolder("sessions-wal")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("store.sqlite").path
    let store = try SessionStore(path: path)
    let first = try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(try simulatedMatch(seed: 61, duration: 4), to: dir.appendingPathComponent("a"))))
    let second = try writeOutputFolder(try simulatedMatch(seed: 62, duration: 20), to: dir.appendingPathComponent("b"))
    let writer = Process()
    writer.executableURL = matchSceneBinary
    writer.arguments = ["sessions", "add", second.path, "--store", path]
    writer.standardOutput = FileHandle.nullDevice
    try writer.run()
    var reads = 0
    var slowest = 0.0
    while writer.isRunning {
      let started = Date()
      let reader = try SessionStore(path: path)
      XCTAssertTrue(try reader.list().contains { $0.id == first.id })
      XCTAssertFalse(try reader.load(first.id).motion.tracks.isEmpty)
      slowest = max(slowest, Date().timeIntervalSince(started))
      reads += 1
    }
    writer.waitUntilExit()
    XCTAssertEqual(writer.terminationStatus, 0)
    XCTAssertEqual(try store.list().count, 2)
    XCTAssertGreaterThan(reads, 3)
    print("\(reads) reads beside the writer, slowest \(String(format: "%.3f", slowest)) s")
  }
}
