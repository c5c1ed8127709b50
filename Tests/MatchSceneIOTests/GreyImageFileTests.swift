import Foundation
import MatchSceneCore
import MatchSceneIO
import XCTest

/// PGM images decoded without OpenCV or ffmpeg: binary and plain, 8 and 16 bits, comments; bad files named.
final class GreyImageFileTests: XCTestCase {
  func testBinaryEightBitWithComment() throws {
    var data = Data("P5\n# made by hand\n3 2\n255\n".utf8)
    data.append(contentsOf: [0, 10, 20, 200, 250, 255] as [UInt8])
    let image = try GreyImageFile.decodePGM(data, file: "a.pgm")
    XCTAssertEqual(image, GreyImage(width: 3, height: 2, pixels: [0, 10, 20, 200, 250, 255]))
  }

  func testSixteenBitAndPlainAreScaledToEightBits() throws {
    var wide = Data("P5 2 1 65535\n".utf8)
    wide.append(contentsOf: [0xFF, 0xFF, 0x80, 0x00] as [UInt8])
    XCTAssertEqual(try GreyImageFile.decodePGM(wide, file: "w.pgm").pixels, [255, 128])
    let plain = Data("P2\n2 2\n15\n0 15\n# half\n7 8\n".utf8)
    XCTAssertEqual(try GreyImageFile.decodePGM(plain, file: "p.pgm").pixels, [0, 255, 119, 136])
  }

  func testBadFilesAreNamed() throws {
    XCTAssertThrowsError(try GreyImageFile.decodePGM(Data("P6\n1 1\n255\n\0\0\0".utf8), file: "colour.pgm")) {
      XCTAssertTrue("\($0)".contains("colour.pgm") && "\($0)".contains("P5"), "\($0)")
    }
    XCTAssertThrowsError(try GreyImageFile.decodePGM(Data("P5\n4 4\n255\n\0\0".utf8), file: "short.pgm")) {
      XCTAssertTrue("\($0)".contains("short.pgm") && "\($0)".contains("cut short"), "\($0)")
    }
    XCTAssertThrowsError(try GreyImageFile.decodePGM(Data("P2\n2 1\n255\n7\n".utf8), file: "few.pgm")) {
      XCTAssertTrue("\($0)".contains("sample 2"), "\($0)")
    }
    XCTAssertThrowsError(try GreyImageFile.decodePGM(Data("P5\n0 3\n255\n".utf8), file: "empty.pgm"))
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("matchscene-missing-\(UUID().uuidString).pgm")
    XCTAssertThrowsError(try GreyImageFile.read(missing)) { XCTAssertTrue("\($0)".contains(missing.path), "\($0)") }
  }
}
