import Foundation
import MatchSceneCore
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `AtomicFile` cleans up after killed runs (`.tracks.csv.<UUID>.tmp` files stayed forever).
final class AtomicFileTests: XCTestCase {
  func testAWriteRemovesTheTemporaryFilesOfKilledRunsOnly() throws {
    let folder = try makeTemporaryFolder()
    let uuid = UUID().uuidString
    // A process id above Linux's pid_max (at most 2^22) belongs to no process.
    let dead = ".x.csv.2147483647-\(uuid).tmp", old = ".x.csv.\(uuid).tmp"
    let live = ".x.csv.\(getpid())-\(uuid).tmp", other = ".x.csv.notes.tmp", otherName = ".y.csv.\(uuid).tmp"
    for name in [dead, old, live, other, otherName] {
      try Data("half".utf8).write(to: folder.appendingPathComponent(name))
    }
    try AtomicFile.write("whole\n", to: folder.appendingPathComponent("x.csv"))
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    XCTAssertEqual(left, ["x.csv", live, other, otherName])
    XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("x.csv"), encoding: .utf8), "whole\n")
  }

  /// Many files written into one folder (a simulation writes 36,000 per camera): each write removes
  /// the killed runs' temporary files of its own name, found by one listing of the folder, and leaves
  /// the others' until those are written.
  func testManyWritesIntoOneFolderRemoveEachNamesStaleFilesAtItsWrite() throws {
    let folder = try makeTemporaryFolder()
    let names = (0..<50).map { "frame_\($0).json" }
    for name in names {
      try Data("half".utf8).write(to: folder.appendingPathComponent(".\(name).2147483647-\(UUID().uuidString).tmp"))
    }
    for (k, name) in names.enumerated() {
      try AtomicFile.write("{}", to: folder.appendingPathComponent(name))
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
      XCTAssertEqual(left.count, names.count - k - 1, "after writing \(name)")
      XCTAssertFalse(left.contains { $0.hasPrefix(".\(name).") }, name)
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), names.sorted())
  }

  /// Pieces emitted one after another make the file; a failure part way leaves the previous file and
  /// no temporary file.
  func testAFileWrittenInPiecesIsWholeOrUntouched() throws {
    let folder = try makeTemporaryFolder()
    let url = folder.appendingPathComponent("rows.csv")
    try AtomicFile.write(to: url) { emit in
      for row in 0..<1000 { try Array("\(row),é\n".utf8).withUnsafeBytes { try emit($0) } }
    }
    let whole = (0..<1000).map { "\($0),é\n" }.joined()
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), whole)
    struct Stop: Error {}
    XCTAssertThrowsError(try AtomicFile.write(to: url) { emit in
      try Array("half".utf8).withUnsafeBytes { try emit($0) }
      throw Stop()
    })
    XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), whole)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["rows.csv"])
    // Text goes through the same path, its UTF-8 bytes exactly.
    try AtomicFile.write("ß,∑\n" + whole, to: url)
    XCTAssertEqual(try Data(contentsOf: url), Data(("ß,∑\n" + whole).utf8))
  }
}
