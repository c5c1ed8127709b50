import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Inputs that used to be read wrong or forever: NUL in a TOML name, a FIFO as a detection file, a
/// drill's points out of range.
final class SpecialInputTests: XCTestCase {
  /// `name = "cam\u0000x"` used to become `cam`.
  func testANULInATOMLStringIsRefused() {
    let text = "[cam1]\nname = \"cam\\u0000x\"\nsize = [1920, 1080]\n"
    XCTAssertThrowsError(try CalibrationTOML.parse(text, file: "calibration.toml")) { error in
      XCTAssertTrue("\(error)".contains("calibration.toml:2:"), "\(error)")
      XCTAssertTrue("\(error)".contains("NUL"), "\(error)")
    }
    XCTAssertThrowsError(try TOMLDocument(text: "name = \"a\\U00000000\"\n", file: "x.toml"))
    XCTAssertThrowsError(try TOMLDocument(text: "name = \"a\u{0}b\"\n", file: "x.toml"))
    XCTAssertNoThrow(try TOMLDocument(text: "name = \"a\\\\u0000\"\n", file: "x.toml"), "an escaped backslash, then text")
  }

  /// A FIFO as a COCO file, a TrackNet CSV or tracks.csv: refused at once, naming it.
  func testAFIFOIsRefusedNotRead() throws {
    let folder = try makeTemporaryFolder()
    let fifo = folder.appendingPathComponent("cam1.json")
    XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
    XCTAssertThrowsError(try COCOKeypointsJSON.read(file: fifo, skeleton: .coco17)) { XCTAssertTrue("\($0)".contains("FIFO"), "\($0)") }
    XCTAssertThrowsError(try TrackNetCSV.read(file: fifo))
    XCTAssertThrowsError(try TracksCSV.read(from: fifo))
    XCTAssertNil(FileBytes.read(fifo.path))
  }

  func testDrillPointsMustBeACount() throws {
    let target = "[[target]]\nname = \"t\"\nshape = \"box\"\nsize = [1, 1, 1]\ncenter = [0, 0, 0]\n"
    for bad in ["-1", "1e18", "nan", "inf"] {
      XCTAssertThrowsError(try DrillTOML.parse(target + "points = \(bad)\n", file: "drill.toml")) { error in
        XCTAssertTrue("\(error)".contains("points"), "\(error)")
      }
    }
    XCTAssertEqual(try DrillTOML.parse(target + "points = 3\n", file: "drill.toml").points, [3])
  }
}
