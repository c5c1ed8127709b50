import Foundation
@testable import MatchSceneCore
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `OutputFolder` replaces only what MatchScene wrote: the marker lists it; a user's file, another
/// command's output, an input, a link's target are never deleted.
final class OutputOwnershipTests: XCTestCase {
  let fm = FileManager.default

  func write(_ folder: URL, _ names: [String], command: String = "matchscene reconstruct", force: Bool = false, inputs: [URL] = []) throws {
    try OutputFolder.replace(folder, force: force, marker: command + "\n", inputs: inputs) { staging in
      for name in names { try Data(name.utf8).write(to: staging.appendingPathComponent(name)) }
    }
  }

  func contents(_ folder: URL) throws -> [String] { try fm.contentsOfDirectory(atPath: folder.path).sorted() }

  func testTheMarkerListsWhatTheRunWrote() throws {
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    try write(out, ["tracks.csv", "scene.glb"])
    XCTAssertEqual(OutputMarker.read(in: out), OutputMarker(command: "matchscene reconstruct", files: ["scene.glb", "tracks.csv"]))
    try write(out, ["tracks.csv"])
    XCTAssertEqual(try contents(out), [".matchscene-output", "tracks.csv"], "the run's own earlier files go")
  }

  /// A user's notes.txt or a session store kept in an output: the next run is refused before it starts,
  /// naming them, and they are kept.
  func testUnknownFilesAreKeptAndNamed() throws {
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    try write(out, ["tracks.csv"])
    try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
    try Data("db".utf8).write(to: out.appendingPathComponent("sessions.sqlite"))
    var filled = false
    XCTAssertThrowsError(try OutputFolder.replace(out, marker: "matchscene reconstruct\n") { _ in filled = true }) { error in
      XCTAssertTrue("\(error)".contains("notes.txt") && "\(error)".contains("sessions.sqlite"), "\(error)")
    }
    XCTAssertFalse(filled, "refused before the run")
    XCTAssertEqual(try contents(out), [".matchscene-output", "notes.txt", "sessions.sqlite", "tracks.csv"])
  }

  /// The batch's done marker and a killed write's temporary file are MatchScene's.
  func testMatchScenesBookkeepingIsNotTheUsers() throws {
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    try write(out, ["tracks.csv"])
    try Data("{}".utf8).write(to: out.appendingPathComponent(".matchscene-batch.json"))
    try Data("half".utf8).write(to: out.appendingPathComponent(".tracks.csv.2147483647-\(UUID().uuidString).tmp"))
    XCTAssertNoThrow(try write(out, ["tracks.csv"]))
    try Data("mine".utf8).write(to: out.appendingPathComponent(".notes.tmp"))
    XCTAssertThrowsError(try write(out, ["tracks.csv"]))
  }

  /// A folder whose marker predates the list: the names MatchScene writes are its, anything else the user's.
  func testAnOlderMarkerIsReadConservatively() throws {
    let out = try makeTemporaryFolder()
    try Data("matchscene reconstruct\n".utf8).write(to: out.appendingPathComponent(".matchscene-output"))
    try Data("old".utf8).write(to: out.appendingPathComponent("tracks.csv"))
    try write(out, ["tracks.csv"])
    try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
    try Data("matchscene reconstruct\n".utf8).write(to: out.appendingPathComponent(".matchscene-output"))
    XCTAssertThrowsError(try write(out, ["tracks.csv"]))
    XCTAssertTrue(fm.fileExists(atPath: out.appendingPathComponent("notes.txt").path))
  }

  /// `compare -o` or `sessions export -o` into a reconstruction's output would delete scene.glb.
  func testAnotherCommandsOutputIsNotReplaced() throws {
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    try write(out, ["tracks.csv", "scene.glb"])
    XCTAssertThrowsError(try write(out, ["compare.json"], command: "matchscene compare")) { error in
      XCTAssertTrue("\(error)".contains("matchscene reconstruct"), "\(error)")
    }
    XCTAssertThrowsError(try write(out, ["tracks.csv"], command: "matchscene sessions export 1"))
    XCTAssertEqual(try contents(out), [".matchscene-output", "scene.glb", "tracks.csv"])
    // Exporting another session over an export is the same command.
    let export = try makeTemporaryFolder().appendingPathComponent("export")
    try write(export, ["tracks.csv"], command: "matchscene sessions export 1")
    XCTAssertNoThrow(try write(export, ["tracks.csv"], command: "matchscene sessions export 2"))
  }

  /// `reconstruct m -o m`, `-o m/pose`, `reconstruct res/match -o res`: refused with or without force.
  func testAnOutputOverlappingAnInputIsRefusedEvenWithForce() throws {
    let root = try makeTemporaryFolder()
    let match = root.appendingPathComponent("m")
    try fm.createDirectory(at: match.appendingPathComponent("pose"), withIntermediateDirectories: true)
    try Data("x".utf8).write(to: match.appendingPathComponent("pose/cam1.json"))
    for (out, input) in [(match, match), (match.appendingPathComponent("pose"), match), (match.appendingPathComponent("pose/sub"), match), (root, match)] {
      for force in [false, true] {
        XCTAssertThrowsError(try write(out, ["tracks.csv"], force: force, inputs: [input]), "\(out.path) force \(force)")
      }
    }
    XCTAssertEqual(try contents(match.appendingPathComponent("pose")), ["cam1.json"])
    // <match>/out, new or written by MatchScene, holds nothing the run reads.
    XCTAssertNoThrow(try write(match.appendingPathComponent("out"), ["tracks.csv"], inputs: [match]))
    XCTAssertNoThrow(try write(match.appendingPathComponent("out"), ["tracks.csv"], inputs: [match]))
    // Through a symbolic link to the input.
    let link = root.appendingPathComponent("link")
    try fm.createSymbolicLink(atPath: link.path, withDestinationPath: match.path)
    XCTAssertThrowsError(try write(link, ["tracks.csv"], force: true, inputs: [match]))
  }

  /// `-o link` writes the link's target and keeps the link.
  func testASymbolicLinkIsWrittenThrough() throws {
    let root = try makeTemporaryFolder()
    let target = root.appendingPathComponent("target")
    let link = root.appendingPathComponent("link")
    try fm.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
    XCTAssertThrowsError(try write(link, ["tracks.csv"]), "a link to nothing")
    try fm.createDirectory(at: target, withIntermediateDirectories: true)
    try write(link, ["tracks.csv"])
    XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: link.path), target.path)
    XCTAssertEqual(try contents(target), [".matchscene-output", "tracks.csv"])
    try write(link, ["tracks.csv", "scene.glb"])
    XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: link.path), target.path)
    XCTAssertEqual(try contents(target), [".matchscene-output", "scene.glb", "tracks.csv"])
  }

  /// A mount point cannot be renamed: it is written into, replacing only the entries its marker lists
  /// (`replaceInto`, called here on an ordinary folder; a tmpfs mount behaves the same).
  func testAFolderThatCannotBeRenamedIsWrittenInto() throws {
    let out = try makeTemporaryFolder()
    func fill(_ names: [String]) -> (URL) throws -> Void {
      { staging in for name in names { try Data(name.utf8).write(to: staging.appendingPathComponent(name)) } }
    }
    try OutputFolder.replaceInto(out, force: false, command: "matchscene reconstruct", fill: fill(["tracks.csv", "events.json"]))
    try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
    try OutputFolder.record([], in: out)
    XCTAssertEqual(OutputMarker.read(in: out)?.files, ["events.json", "tracks.csv"])
    try OutputFolder.replaceInto(out, force: false, command: "matchscene reconstruct", fill: fill(["tracks.csv"]))
    XCTAssertEqual(try contents(out), [".matchscene-output", "notes.txt", "tracks.csv"])
    XCTAssertEqual(OutputMarker.read(in: out)?.files, ["tracks.csv"])
  }

  func testASpecialFileIsRefusedBeforeTheRun() throws {
    let fifo = try makeTemporaryFolder().appendingPathComponent("fifo")
    XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
    XCTAssertThrowsError(try OutputFolder.checkDestination(fifo, force: true))
    XCTAssertThrowsError(try OutputFolder.checkRegularFile(fifo)) { XCTAssertTrue("\($0)".contains("FIFO"), "\($0)") }
  }

  /// `form`, `drill` … add their files to the marker of the output they write into: the next
  /// `reconstruct` replaces them as MatchScene's.
  func testLaterCommandsRecordTheirFiles() throws {
    let out = try makeTemporaryFolder().appendingPathComponent("out")
    try write(out, ["tracks.csv"])
    try Data("{}".utf8).write(to: out.appendingPathComponent("drill.json"))
    try OutputFolder.record(["drill.json"], in: out)
    XCTAssertNoThrow(try write(out, ["tracks.csv"]))
    XCTAssertEqual(try contents(out), [".matchscene-output", "tracks.csv"])
  }
}
