import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class SHA256Tests: XCTestCase {
  /// FIPS 180-4 example "abc" and the empty message.
  func testFIPSExamples() {
    var abc = SHA256()
    abc.update(Array("abc".utf8))
    XCTAssertEqual(abc.finish(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    var empty = SHA256()
    XCTAssertEqual(empty.finish(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  /// Lengths around the 55/56/64-byte padding edges checked against coreutils' `sha256sum` (tools tier).
  func testDigestsMatchSha256sum() throws {
    let sha256sum = URL(fileURLWithPath: try programOnPath("sha256sum", hint: "apt-get install -y coreutils"))
    let dir = try makeTemporaryFolder("sha")
    defer { try? FileManager.default.removeItem(at: dir) }
    var generator = SeededGenerator(seed: 5)
    for length in [55, 56, 63, 64, 65, 119, 1000, 70_001] {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let file = dir.appendingPathComponent("\(length)")
      try Data(bytes).write(to: file)
      var digest = SHA256()
      digest.update(Array(bytes[..<(length / 3)]))  // in two parts, as for several files
      digest.update(Array(bytes[(length / 3)...]))
      let out = try runProgram(sha256sum, [file.path]).stdout
      XCTAssertEqual(digest.finish(), String(out.prefix(64)), "\(length) bytes")
    }
  }
}
