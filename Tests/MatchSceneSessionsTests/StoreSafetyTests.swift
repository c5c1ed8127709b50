import Foundation
import GRDB
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

@testable import MatchSceneSessions

#if canImport(Glibc)
  import Glibc
#endif

/// The store under careless and hostile use: two processes creating it at once, reading commands on a
/// missing or read-only store, a folder given as the store, a full disk; and a custom skeleton's session
/// written back byte for byte.
final class StoreSafetyTests: XCTestCase {
  /// Reading never creates a store, nor its folder.
  func testReadingAMissingStoreCreatesNothing() throws {
    let dir = try makeTemporaryFolder("store-missing")
    let path = dir.appendingPathComponent("sub/sessions.sqlite").path
    XCTAssertThrowsError(try SessionStore(path: path, access: .readOnly)) { error in
      XCTAssertEqual(error as? SessionStoreError, .noStore(file: path))
      XCTAssert("\(error)".contains("no session store here (nothing was created"), "\(error)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("sub").path))
  }

  /// A folder given as the store says so, for reading and writing.
  func testFolderGivenAsTheStore() throws {
    let dir = try makeTemporaryFolder("store-folder")
    for access in [SessionStore.Access.readOnly, .readWrite] {
      XCTAssertThrowsError(try SessionStore(path: dir.path, access: access)) { error in
        XCTAssert("\(error)".contains("is a folder; expected the session store's file"), "\(error)")
        XCTAssertFalse("\(error)".contains("disk I/O error"), "\(error)")
      }
    }
  }

  /// Eight openers create the same new store at once, ten times: all succeed and see one schema.
  func testConcurrentCreationOfANewStore() throws {
    let dir = try makeTemporaryFolder("store-race")
    for trial in 0..<10 {
      let path = dir.appendingPathComponent("t\(trial)/sessions.sqlite").path
      XCTAssertEqual(failures(of: 8) { _ = try SessionStore(path: path).list() }, [], "trial \(trial)")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("t\(trial)").path)
        .filter { $0.contains(".creating-") }
      XCTAssertEqual(leftovers, [], "no temporary store left behind")
    }
  }

  /// A store of the first schema brought up to date by eight openers at once, five times: each step is
  /// applied once and every opener succeeds.
  func testConcurrentMigrationOfAnOlderStore() throws {
    let dir = try makeTemporaryFolder("store-migrate")
    for trial in 0..<5 {
      let path = dir.appendingPathComponent("v1-\(trial).sqlite").path
      do {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { _ = try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL") }
        try SessionSchema.migrator.migrate(queue, upTo: "v1-sessions")
        try queue.close()
      }
      XCTAssertEqual(failures(of: 8) { _ = try SessionStore(path: path) }, [], "trial \(trial)")
      let applied = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
      XCTAssertEqual(applied.sorted(), ["v1-sessions", "v2-event-story", "v3-player-sigmas", "v4-references"])
    }
  }

  /// angles.csv kept in the store is read back for a track whose name the writer quoted.
  func testAnglesOfAQuotedTrack() {
    let text = "frame,time,track,racket_side,elbow,elbow_sd\n1,0.016667,\"P,1\",right,90.5,1.2\n2,0.033333,'=P2,left,80,1\n"
    XCTAssertEqual(FormFiles.angles(Data(text.utf8), track: "P,1"), ["elbow": [1: 90.5]])
    XCTAssertEqual(FormFiles.angles(Data(text.utf8), track: "=P2"), ["elbow": [2: 80]])
  }

  /// Messages for what SQLite reports as codes: a full disk, a read-only store, a file that is no store.
  func testStoreFailuresAreNamed() throws {
    let dir = try makeTemporaryFolder("store-notdb")
    let path = dir.appendingPathComponent("notes.sqlite").path
    try Data(String(repeating: "not a database\n", count: 200).utf8).write(to: URL(fileURLWithPath: path))
    for access in [SessionStore.Access.readOnly, .readWrite] {
      XCTAssertThrowsError(try SessionStore(path: path, access: access)) { error in
        XCTAssert("\(error)".contains("not a session store (expected a SQLite file"), "\(error)")
      }
    }
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8).count, 15 * 200, "left as it was")
  }

  /// A store on a full file system: a tmpfs of 64 KB mounted here (root only; skipped otherwise).
  func testFullDiskIsNamed() throws {
    let dir = try makeTemporaryFolder("store-full")
    let mountPoint = dir.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    guard "size=64k".withCString({ mount("tmpfs", mountPoint.path, "tmpfs", 0, $0) }) == 0 else {
      throw XCTSkip("cannot mount a tmpfs here (needs root): \(String(cString: strerror(errno)))")
    }
    defer { umount2(mountPoint.path, Int32(MNT_DETACH)) }
    // Fill it, leaving a few KB: too little for a store.
    let filler = mountPoint.appendingPathComponent("filler")
    _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
    let handle = try FileHandle(forWritingTo: filler)
    let block = Data(count: 4096)
    while (try? handle.write(contentsOf: block)) != nil {}
    try? handle.close()
    let path = mountPoint.appendingPathComponent("sessions.sqlite").path
    XCTAssertThrowsError(try SessionStore(path: path)) { error in
      XCTAssert("\(error)".contains("the disk is full"), "\(error)")
      XCTAssertFalse("\(error)".contains("expected a SQLite file"), "\(error)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no half-made store left")
  }

  /// A store on a read-only bind mount (root; skipped otherwise), and a 0444 store: listed, shown,
  /// loaded and exported; adding says the store is read-only.
  func testReadOnlyStoreCanBeRead() throws {
    let dir = try makeTemporaryFolder("store-ro")
    let match = try simulatedMatch(seed: 5, duration: 3)
    let out = try writeOutputFolder(match, to: dir.appendingPathComponent("m/out"))
    let source = dir.appendingPathComponent("src")
    let path = source.appendingPathComponent("sessions.sqlite").path
    let id = try SessionStore(path: path).add(try SessionInput.read(outputFolder: out)).id
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    try readEverything(path: path, id: id, exportTo: dir.appendingPathComponent("back-0444"))

    let mountPoint = dir.appendingPathComponent("ro")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    guard mount(source.path, mountPoint.path, nil, UInt(MS_BIND), nil) == 0 else {
      throw XCTSkip("cannot bind-mount here (needs root): \(String(cString: strerror(errno)))")
    }
    defer { umount2(mountPoint.path, Int32(MNT_DETACH)) }
    guard mount(nil, mountPoint.path, nil, UInt(MS_REMOUNT | MS_BIND | MS_RDONLY), nil) == 0 else {
      throw XCTSkip("cannot make the bind mount read-only: \(String(cString: strerror(errno)))")
    }
    let readOnlyPath = mountPoint.appendingPathComponent("sessions.sqlite").path
    XCTAssertFalse(FileManager.default.isWritableFile(atPath: mountPoint.path), "the mount is read-only")
    try readEverything(path: readOnlyPath, id: id, exportTo: dir.appendingPathComponent("back-ro"))
    XCTAssertThrowsError(try SessionStore(path: readOnlyPath).remove(id)) { error in
      XCTAssert("\(error)".contains("read-only"), "\(error)")
    }
  }

  private func readEverything(path: String, id: Int64, exportTo folder: URL) throws {
    let store = try SessionStore(path: path, access: .readOnly)
    XCTAssertEqual(try store.list().map(\.id), [id])
    XCTAssertEqual(try store.summary(id).id, id)
    XCTAssertFalse(try store.load(id).motion.tracks.isEmpty)
    XCTAssertEqual(try store.comparisonEntries([id, id], player: nil).count, 2)
    try store.export(id, to: folder)
    XCTAssert(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tracks.csv").path))
  }

  /// A custom skeleton's session exports its tracks.csv byte for byte: keypoints that are a subset of
  /// COCO-17 in another order (a built-in used to be chosen, its order reordering the rows), with and
  /// without report.json's joints; and names of no built-in whose first joint is missing at the start.
  func testCustomSkeletonExportIsByteIdentical() throws {
    let dir = try makeTemporaryFolder("store-custom")
    let match = try simulatedMatch(seed: 4, duration: 3)
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let subset = ["right_wrist", "left_wrist", "right_elbow", "left_elbow", "nose"]
    let renamed = ["nose": "tip", "right_wrist": "grip", "left_wrist": "free"]
    let cases: [(label: String, keypoints: [String], rename: [String: String], reportJoints: Bool)] = [
      ("subset, report joints", subset, [:], true),
      ("subset, no report joints", subset, [:], false),
      ("own names, no report joints", ["tip", "grip", "free"], renamed, false),
    ]
    for (n, c) in cases.enumerated() {
      let skeleton = Skeleton(name: "racket", keypoints: c.keypoints, bones: [(c.keypoints[0], c.keypoints[1])])
      var points = match.truth.rows.compactMap { p -> TrackPoint? in
        var q = p
        if q.kind != .ball {
          guard let name = c.rename.isEmpty ? (c.keypoints.contains(q.joint) ? q.joint : nil) : c.rename[q.joint] else { return nil }
          q.joint = name
        }
        return q
      }
      // The first joint is missing over the first ten frames.
      let first = points.map(\.frame).min()!
      points.removeAll { $0.joint == c.keypoints[0] && $0.frame < first + 10 }
      let motion = MotionModel(points: points, fps: match.truth.fps, skeleton: skeleton)
      let out = dir.appendingPathComponent("c\(n)/out")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      try TracksCSV.write(motion.rows, to: out.appendingPathComponent("tracks.csv"))
      let joints = c.reportJoints ? ", \"joints\": [" + c.keypoints.map { "{\"joint\": \"\($0)\"}" }.joined(separator: ", ") + "]" : ""
      try Data("{\"fps\": \(match.truth.fps), \"sport\": \"table-tennis\"\(joints)}".utf8)
        .write(to: out.appendingPathComponent("report.json"))
      let id = try store.add(try SessionInput.read(outputFolder: out)).id
      let back = dir.appendingPathComponent("c\(n)/back")
      try store.export(id, to: back)
      XCTAssertEqual(
        FileManager.default.contents(atPath: back.appendingPathComponent("tracks.csv").path),
        FileManager.default.contents(atPath: out.appendingPathComponent("tracks.csv").path), c.label)
      XCTAssertEqual(try store.load(id).motion.skeleton.keypoints, c.keypoints, c.label)
    }
  }
}

/// Runs `body` on `count` threads at once; the errors thrown, as text.
private func failures(of count: Int, _ body: @escaping @Sendable () throws -> Void) -> [String] {
  final class Messages: @unchecked Sendable {
    let lock = NSLock()
    var list: [String] = []
  }
  let messages = Messages()
  DispatchQueue.concurrentPerform(iterations: count) { _ in
    do {
      try body()
    } catch {
      messages.lock.lock()
      messages.list.append("\(error)")
      messages.lock.unlock()
    }
  }
  return messages.list
}
