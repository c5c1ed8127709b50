import Foundation
import MatchSceneCore
import TestSupport
import XCTest

/// Names from inputs become file names through one rule (`FileName`): ordinary names unchanged, every
/// other name one safe path component inside its folder.
final class FileNameTests: XCTestCase {
  func testOrdinaryNamesAreKept() {
    for name in ["cam01", "P1", "B1", "cam_left", "Kamera Süd", "相机1", "a.b-c"] {
      XCTAssertEqual(FileName.safe(name), name)
    }
  }

  func testHostileNamesBecomeOneComponent() {
    for name in ["../../../../OVESC", "../../../MOTESC", "..", ".", "", "a/b", "/etc/passwd", "x\u{0}y", "\u{1B}[2J", ".hidden"] {
      let safe = FileName.safe(name)
      XCTAssertFalse(safe.contains("/"), safe)
      XCTAssertFalse(safe.hasPrefix("."), safe)
      XCTAssertFalse(safe.isEmpty)
      XCTAssertFalse(safe.unicodeScalars.contains { $0.value < 0x20 }, safe)
      XCTAssertEqual(FileName.safe(name), safe, "deterministic")
    }
    XCTAssertTrue(FileName.safe("../../../MOTESC").hasPrefix("_._.._.._MOTESC~"), FileName.safe("../../../MOTESC"))
  }

  /// A 250-character camera name: the file name, an SVG frame suffix and an atomic write's temporary
  /// name all stay within the 255 bytes a file name may hold.
  func testLongNamesAreCutAndStayApart() {
    let a = String(repeating: "c", count: 250), b = String(repeating: "c", count: 249) + "d"
    XCTAssertLessThanOrEqual(FileName.safe(a).utf8.count, FileName.maxBytes)
    XCTAssertNotEqual(FileName.safe(a), FileName.safe(b))
    let temporary = ".\(FileName.safe(a))_123456.svg.\(Int32.max)-\(UUID().uuidString).tmp"
    XCTAssertLessThanOrEqual(temporary.utf8.count, 255)
  }

  func testCollisionsAreResolvedTheSameWayInAnyOrder() {
    let names = ["P1", "p1", "a/b", "a_b"]
    let one = FileName.unique(names), two = FileName.unique(names.reversed())
    XCTAssertEqual(one, two)
    XCTAssertEqual(Set(one.values.map { $0.lowercased() }).count, 4)
    XCTAssertEqual(one["P1"], "P1")
    XCTAssertEqual(one["p1"], "p1-2")
  }

  func testAFileOutsideItsFolderIsRefused() throws {
    let root = try makeTemporaryFolder()
    let inside = root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
    XCTAssertNoThrow(try FileName.file("../x", suffix: ".mot", in: inside))
    XCTAssertEqual(try FileName.file("P1", suffix: ".mot", in: inside).lastPathComponent, "P1.mot")
    // A symbolic link inside the folder that leads out of it.
    try FileManager.default.createSymbolicLink(atPath: inside.appendingPathComponent("link").path, withDestinationPath: root.path)
    XCTAssertThrowsError(try OutputFolder.checkInside(inside.appendingPathComponent("link/x"), folder: inside))
    XCTAssertThrowsError(try OutputFolder.checkInside(inside.appendingPathComponent("../x"), folder: inside))
    XCTAssertNoThrow(try OutputFolder.checkInside(inside.appendingPathComponent("a/b/c"), folder: inside))
  }
}
