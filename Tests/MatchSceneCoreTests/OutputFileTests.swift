import Foundation
@testable import MatchSceneCore
import TestSupport
import XCTest

/// A single output file (`clip -f`, `compare --glb`, `evaluate --json`) replaces only a file of its own
/// kind, never an input; an added-to folder (`overlay -o`) is never a user's or inside the input.
final class OutputFileTests: XCTestCase {
  let fm = FileManager.default

  func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

  /// `evaluate --json tracks.csv`, `clip -f notes.txt`: refused, naming the file, the file kept; with
  /// --force the user's file is replaced, an input never.
  func testAnExistingFileIsReplacedOnlyWhenItIsOursOrForced() throws {
    let folder = try makeTemporaryFolder()
    let notes = folder.appendingPathComponent("notes.txt"), tracks = folder.appendingPathComponent("tracks.csv")
    try "mine".write(to: notes, atomically: true, encoding: .utf8)
    try "frame,track".write(to: tracks, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try OutputFile.write(Data("x".utf8), to: notes, option: "--json")) { error in
      XCTAssertTrue("\(error)".contains(notes.path) && "\(error)".contains("--force"), "\(error)")
    }
    XCTAssertEqual(try text(notes), "mine")
    for force in [false, true] {
      XCTAssertThrowsError(try OutputFile.write(Data("x".utf8), to: tracks, option: "--json", force: force, inputs: [tracks])) { error in
        XCTAssertTrue("\(error)".contains("input"), "\(error)")
      }
    }
    XCTAssertEqual(try text(tracks), "frame,track")
    let hardLink = folder.appendingPathComponent("other-name.csv")
    try fm.linkItem(at: tracks, to: hardLink)
    XCTAssertThrowsError(try OutputFile.check(hardLink, option: "--json", force: true, inputs: [tracks]), "a hard link to an input")
    try OutputFile.write(Data("ours".utf8), to: notes, option: "--json", force: true)
    XCTAssertEqual(try text(notes), "ours")
    try OutputFile.write(Data("again".utf8), to: notes, option: "--json", isOurs: { (try? String(contentsOf: $0, encoding: .utf8)) == "ours" })
    XCTAssertEqual(try text(notes), "again")
    let new = folder.appendingPathComponent("sub/new.json")
    try OutputFile.write(Data("new".utf8), to: new, option: "--json")
    XCTAssertEqual(try text(new), "new")
    XCTAssertThrowsError(try OutputFile.check(folder, option: "--json", force: true), "a folder")
  }

  /// A new file inside an input folder (`evaluate --json <match>/x.json`) is refused; inside an output
  /// MatchScene wrote there (`<match>/out`) it is fine. A link to an input is followed.
  func testNothingIsWrittenIntoAnInputFolder() throws {
    let match = try makeTemporaryFolder().appendingPathComponent("match")
    try fm.createDirectory(at: match.appendingPathComponent("pose"), withIntermediateDirectories: true)
    XCTAssertThrowsError(try OutputFile.check(match.appendingPathComponent("eval.json"), option: "--json", force: true, inputs: [match]))
    XCTAssertThrowsError(try OutputFile.check(match.appendingPathComponent("pose/eval.json"), option: "--json", inputs: [match]))
    let out = match.appendingPathComponent("out")
    try fm.createDirectory(at: out, withIntermediateDirectories: true)
    try "matchscene reconstruct\nfiles:\n".write(to: out.appendingPathComponent(OutputFolder.markerName), atomically: true, encoding: .utf8)
    XCTAssertNoThrow(try OutputFile.write(Data("{}".utf8), to: out.appendingPathComponent("eval.json"), option: "--json", inputs: [match]))
    XCTAssertEqual(OutputMarker.read(in: out)?.files, ["eval.json"], "listed in the output's marker")
    let tracks = match.appendingPathComponent("tracks.csv")
    try "t".write(to: tracks, atomically: true, encoding: .utf8)
    let link = match.deletingLastPathComponent().appendingPathComponent("link.csv")
    try fm.createSymbolicLink(atPath: link.path, withDestinationPath: tracks.path)
    XCTAssertThrowsError(try OutputFile.check(link, option: "--json", force: true, inputs: [tracks]))
  }

  /// `overlay -o` a user's non-empty folder: refused before the work; an empty or new folder, one
  /// overlay wrote, or an earlier version's `<out>/overlay` (listed by its parent's marker) is added to.
  func testAnAddedToFolderIsNeverAUsers() throws {
    let root = try makeTemporaryFolder()
    let users = root.appendingPathComponent("photos")
    try fm.createDirectory(at: users, withIntermediateDirectories: true)
    try "jpg".write(to: users.appendingPathComponent("a.jpg"), atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try OutputFolder.checkAdding(users, command: "matchscene overlay")) { error in
      XCTAssertTrue("\(error)".contains(users.path) && "\(error)".contains("not written by MatchScene"), "\(error)")
    }
    XCTAssertEqual(try OutputFolder.checkAdding(users, command: "matchscene overlay", force: true), ["a.jpg"])
    let overlay = root.appendingPathComponent("ov")
    XCTAssertEqual(try OutputFolder.checkAdding(overlay, command: "matchscene overlay"), [])
    try OutputFolder.claim(overlay, command: "matchscene overlay", keeping: [], adding: ["cam1", "disagreement.csv"])
    try fm.createDirectory(at: overlay.appendingPathComponent("cam1"), withIntermediateDirectories: true)
    XCTAssertEqual(try OutputFolder.checkAdding(overlay, command: "matchscene overlay"), [])
    try "mine".write(to: overlay.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try OutputFolder.checkAdding(overlay, command: "matchscene overlay"))
    XCTAssertThrowsError(try OutputFolder.checkAdding(overlay, command: "matchscene reconstruct"), "another command's folder")
    // An earlier version's <out>/overlay, without a marker of its own.
    let out = root.appendingPathComponent("out")
    try fm.createDirectory(at: out.appendingPathComponent("overlay/cam1"), withIntermediateDirectories: true)
    try "matchscene reconstruct\nfiles:\noverlay\n".write(to: out.appendingPathComponent(OutputFolder.markerName), atomically: true, encoding: .utf8)
    XCTAssertEqual(try OutputFolder.checkAdding(out.appendingPathComponent("overlay"), command: "matchscene overlay"), [])
  }

  /// `overlay m -o m/overlay`: inside the match folder, refused even when new and with --force;
  /// `m/out/overlay` (inside MatchScene's output there) is fine.
  func testAnAddedToFolderIsNeverInsideTheInput() throws {
    let match = try makeTemporaryFolder().appendingPathComponent("m")
    try fm.createDirectory(at: match.appendingPathComponent("pose"), withIntermediateDirectories: true)
    for out in ["overlay", "pose/overlay", ""] {
      XCTAssertThrowsError(
        try OutputFolder.checkAdding(match.appendingPathComponent(out), command: "matchscene overlay", force: true, inputs: [match]), out)
    }
    let out = match.appendingPathComponent("out")
    try fm.createDirectory(at: out, withIntermediateDirectories: true)
    try "matchscene reconstruct\nfiles:\n".write(to: out.appendingPathComponent(OutputFolder.markerName), atomically: true, encoding: .utf8)
    XCTAssertNoThrow(try OutputFolder.checkAdding(out.appendingPathComponent("overlay"), command: "matchscene overlay", inputs: [match]))
  }
}
