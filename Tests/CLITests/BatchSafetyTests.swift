import Foundation
import MatchSceneBatch
import MatchSceneIO
import MatchSceneSessions
import TestSupport
import XCTest

/// Batch manifests and markers under careless use: CRLF and CR line ends, an empty manifest, flags that
/// redirect the output, relative flag paths, inputs behind links or named in flags, a manifest and logs
/// inside the input, an output that lost its files. In-process: nothing is spawned.
final class BatchSafetyTests: XCTestCase {
  let base = URL(fileURLWithPath: "/data")

  func testAnyLineEnding() throws {
    for (label, text) in [
      ("CRLF", "# two matches\r\nm1 o1\r\n\r\nm2 o2 --frames 0-9\r\n"),
      ("CR", "# two matches\rm1 o1\r\rm2 o2 --frames 0-9\r"),
      ("LF", "# two matches\nm1 o1\n\nm2 o2 --frames 0-9\n"),
    ] {
      let entries = try BatchManifest.parse(text, file: "b.txt", base: base)
      XCTAssertEqual(entries.map(\.line), [2, 4], label)
      XCTAssertEqual(entries.map(\.output.path), ["/data/o1", "/data/o2"], label)
      XCTAssertEqual(entries[1].flags, ["--frames", "0-9"], label)
    }
  }

  func testManifestWithoutMatchesIsAnError() {
    for text in ["", "# only a comment\r\n", "\n\n   \n# x\n"] {
      XCTAssertThrowsError(try BatchManifest.parse(text, file: "b.txt", base: base)) { error in
        XCTAssert("\(error)".contains("b.txt: no match in the manifest"), "\(error)")
      }
    }
  }

  func testFlagsChoosingTheOutputAreRefused() {
    for flags in ["-o elsewhere", "--output elsewhere", "--output=elsewhere", "--no-scene -o x", "-fo x"] {
      XCTAssertThrowsError(try BatchManifest.parse("m1 o1 \(flags)\n", file: "b.txt", base: base), flags) { error in
        XCTAssert("\(error)".contains("b.txt:1:") && "\(error)".contains("chooses the output folder"), "\(error)")
      }
    }
    XCTAssertNoThrow(try BatchManifest.parse("m1 o1 --frames -5-10 --cutoff 6\n", file: "b.txt", base: base))
  }

  func testFlagPathsAreRelativeToTheManifest() throws {
    let entries = try BatchManifest.parse(
      "m1 o1 --calibration cal/c.toml --pose=../p --zones /abs/z.toml --frames 0-9\n", file: "b.txt", base: base)
    XCTAssertEqual(entries[0].flags, ["--calibration", "/data/cal/c.toml", "--pose=/p", "--zones", "/abs/z.toml", "--frames", "0-9"])
    XCTAssertEqual(
      BatchManifest.flagPaths(entries[0].flags).map { "\($0.flag) \($0.path)" },
      ["--calibration /data/cal/c.toml", "--pose /p", "--zones /abs/z.toml"])
  }

  /// A file changed behind a linked pose/ folder, and a calibration named in the flags that changed,
  /// change the input hash; a link cycle ends.
  func testInputHashFollowsLinksAndCoversFlagFiles() throws {
    let dir = try makeTemporaryFolder("batch-hash")
    let fm = FileManager.default
    let match = dir.appendingPathComponent("m"), realPose = dir.appendingPathComponent("shared-pose")
    try fm.createDirectory(at: match, withIntermediateDirectories: true)
    try fm.createDirectory(at: realPose, withIntermediateDirectories: true)
    try Data("a".utf8).write(to: match.appendingPathComponent("match.toml"))
    try Data("pose 1".utf8).write(to: realPose.appendingPathComponent("cam1.json"))
    try fm.createSymbolicLink(atPath: match.appendingPathComponent("pose").path, withDestinationPath: realPose.path)
    try fm.createSymbolicLink(atPath: realPose.appendingPathComponent("loop").path, withDestinationPath: realPose.path)
    let calibration = dir.appendingPathComponent("cal.toml")
    try Data("f = 1".utf8).write(to: calibration)
    let entry = BatchEntry(
      line: 1, input: match, output: dir.appendingPathComponent("out"), flags: ["--calibration", calibration.path])
    let plain = BatchEntry(line: 1, input: match, output: dir.appendingPathComponent("out"))

    let h0 = try BatchRunner.inputHash(entry), p0 = try BatchRunner.inputHash(plain)
    XCTAssertNotEqual(h0, p0, "the flag's file is hashed too")
    try Data("pose 2".utf8).write(to: realPose.appendingPathComponent("cam1.json"))
    let h1 = try BatchRunner.inputHash(entry), p1 = try BatchRunner.inputHash(plain)
    XCTAssertNotEqual(p1, p0, "a file behind the linked pose/ changed")
    try Data("f = 2".utf8).write(to: calibration)
    XCTAssertNotEqual(try BatchRunner.inputHash(entry), h1, "the calibration named in the flags changed")
    XCTAssertEqual(try BatchRunner.inputHash(plain), p1, "the line without the flag does not see it")
  }

  /// Hashing reads pieces: a file larger than a piece hashes as the whole file would, and the peak RSS
  /// grows by far less than the file (a sparse 8 MB file: the hash runs at ~1 MB/s in a debug build).
  func testInputHashStreamsInPieces() throws {
    let dir = try makeTemporaryFolder("batch-big")
    let match = dir.appendingPathComponent("m")
    try FileManager.default.createDirectory(at: match, withIntermediateDirectories: true)
    let small = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try small.write(to: match.appendingPathComponent("a.bin"))
    // The hash list's one entry: the path, the length and the whole file's SHA-256.
    let content = [UInt8](small).withUnsafeBytes { SHA256.digest($0) }
    XCTAssertEqual(
      try SessionInput.hash(folder: match),
      SessionInput.hash(bytes: Array("a.bin\n\(small.count)\n".utf8) + content))

    let big = match.appendingPathComponent("video.mp4")
    _ = FileManager.default.createFile(atPath: big.path, contents: nil)
    let handle = try FileHandle(forWritingTo: big)
    try handle.truncate(atOffset: 8 << 20)
    try handle.close()
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)  // resets the peak RSS
    let before = peakRSS()
    _ = try SessionInput.hash(folder: match)
    let grown = peakRSS() - before
    XCTAssertLessThan(grown, 4 << 20, "peak RSS grew by \(grown >> 20) MB hashing an 8 MB file")
  }

  /// Runs a manifest kept inside its input folder twice (logs beside it, in the input): the second run
  /// finds it up to date. Then tracks.csv is deleted from the output: the next run does it again, and
  /// merge does not count it as finished before.
  func testManifestInsideTheInputAndAnOutputMissingItsFiles() throws {
    let dir = try makeTemporaryFolder("batch-inside")
    let fm = FileManager.default
    let match = dir.appendingPathComponent("m")
    try fm.createDirectory(at: match.appendingPathComponent("pose"), withIntermediateDirectories: true)
    try Data("x".utf8).write(to: match.appendingPathComponent("pose/cam1.json"))
    let manifest = match.appendingPathComponent("batch.txt")
    try Data(". out\n".utf8).write(to: manifest)
    let entries = try BatchManifest.read(manifest)
    XCTAssertEqual(entries.map(\.output.path), [match.appendingPathComponent("out").path])
    let log = match.appendingPathComponent("batch-logs/batch-shard-0-of-1.log")
    let runner = BatchRunner(log: log, manifest: manifest)
    var runs = 0
    func run() -> BatchReport {
      runner.run(entries, shard: try! BatchShard(index: 0, count: 1)) { entry in
        runs += 1
        try fm.createDirectory(at: entry.output, withIntermediateDirectories: true)
        try Data("frame,time\n".utf8).write(to: entry.output.appendingPathComponent("tracks.csv"))
        try Data("{}".utf8).write(to: entry.output.appendingPathComponent("report.json"))
      }
    }
    XCTAssertEqual(run().done, [1])
    XCTAssertEqual(run().upToDate, [1], "the logs and the manifest in the input are not input")
    try Data("# edited\n. out\n".utf8).write(to: manifest)
    XCTAssertEqual(run().upToDate, [1], "editing the manifest is no change of input")
    XCTAssertEqual(runs, 1)

    try fm.removeItem(at: match.appendingPathComponent("out/tracks.csv"))
    let store = try SessionStore(path: dir.appendingPathComponent("s.sqlite").path)
    XCTAssertEqual(BatchMerge.run(entries, store: store).notFinished, [1], "an output missing tracks.csv is not finished")
    XCTAssertEqual(run().done, [1], "an output missing tracks.csv is done again")
    XCTAssertEqual(runs, 2)
  }

  private func peakRSS() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return 0 }
    return kb * 1024
  }
}
