import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// The folder hash takes the detection files' SHA-256 from the reader that read them, and its value is
/// the one it computes by reading every file itself — also when a file changed after it was read.
final class FileDigestsTests: XCTestCase {
  func testHashWithTheReadersDigestsEqualsTheHashThatReadsEveryFile() throws {
    let folder = try makeTemporaryFolder("file-digests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let camera = folder.appendingPathComponent("pose/cam1_json")
    try FileManager.default.createDirectory(at: camera, withIntermediateDirectories: true)
    for frame in 0..<5 {
      try Data(openPoseFrame.utf8).write(to: camera.appendingPathComponent(String(format: "cam1_%012d_keypoints.json", frame)))
    }
    try Data("fps = 60\n".utf8).write(to: folder.appendingPathComponent("match.toml"))
    let digests = FileDigests()
    let read = try OpenPoseFolder.readWithDiagnostics(
      cameraFolders: [(camera: "cam1", folder: camera)], skeleton: .coco17, digests: digests)
    XCTAssertEqual(read.people["cam1"]?.count, 5)
    XCTAssertEqual(digests.count, 5, "each detection file recorded as it was read")
    let fresh = try MatchOutput.hash(folder: folder)
    XCTAssertEqual(try MatchOutput.hash(folder: folder, digests: digests), fresh)

    // A file rewritten after it was read (other size) is read again, not taken from the record.
    let changed = camera.appendingPathComponent("cam1_000000000002_keypoints.json")
    try Data(#"{"version":1.3,"people":[]}"#.utf8).write(to: changed)
    let afterChange = try MatchOutput.hash(folder: folder)
    XCTAssertNotEqual(afterChange, fresh)
    XCTAssertEqual(try MatchOutput.hash(folder: folder, digests: digests), afterChange)
  }

  func testDigestBytesAreTheHexDigest() {
    let bytes = Array("abc".utf8)
    let digest = bytes.withUnsafeBytes { SHA256.digest($0) }
    XCTAssertEqual(digest.count, 32)
    XCTAssertEqual(digest.map { String(format: "%02x", $0) }.joined(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
