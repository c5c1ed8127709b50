import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Nothing is written outside the output folder, nothing of the user's is deleted: hostile names in a
/// match, an output, a store; outputs that overlap their inputs; a user's files in an output.
final class PathSafetyCLITests: XCTestCase {
  let fm = FileManager.default

  /// Every test here runs `matchscene`: the integration tier.
  override func setUpWithError() throws { try requireTier(.integration) }

  /// A simulated match (4 s, seed 5) and its reconstruction, shared by these tests (made only in the
  /// integration tier, which `setUpWithError` requires).
  static let fixture: (match: URL, out: URL) = {
    let folder = try! makeTemporaryFolder("matchscene-paths")
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    guard TestTier.enabled.contains(.integration) else { return (match, out) }
    let simulated = try! runMatchScene(["simulate", "-o", match.path, "--duration", "4", "--seed", "5"])
    precondition(simulated.status == 0, simulated.stderr)
    let reconstructed = try! runMatchScene(["reconstruct", match.path, "-o", out.path])
    precondition(reconstructed.status == 0, reconstructed.stderr)
    return (match, out)
  }()

  /// A deep folder to work in: a name climbing out of a folder five levels down stays inside `root`,
  /// where `changes` sees it.
  func deepFolder() throws -> (root: URL, work: URL) {
    let root = try makeTemporaryFolder("matchscene-paths-root")
    let work = root.appendingPathComponent("a/b/c/d/e/f/g/h/i/j")
    try fm.createDirectory(at: work, withIntermediateDirectories: true)
    return (root, work)
  }

  /// Every path below `root` (files and folders), relative.
  func listing(_ root: URL) -> Set<String> {
    Set((fm.enumerator(atPath: root.path)?.allObjects as? [String]) ?? [])
  }

  /// The paths below `root` that appeared or went, except those inside `allowed` (relative to `root`).
  func changes(_ root: URL, before: Set<String>, allowed: [String]) -> [String] {
    let now = listing(root)
    return now.symmetricDifference(before).filter { path in !allowed.contains { path == $0 || path.hasPrefix($0 + "/") } }.sorted()
  }

  func copy(_ from: URL, to: URL) throws -> URL {
    try fm.copyItem(at: from, to: to)
    return to
  }

  func edit(_ url: URL, _ old: String, _ new: String) throws {
    let text = try String(contentsOf: url, encoding: .utf8)
    XCTAssertTrue(text.contains(old), "\(url.lastPathComponent) has no \(old)")
    try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
  }

  // MARK: Names that become paths

  /// A camera named `../../../../cam1` (paired with pose/cam1_json by the loose name matching): the
  /// overlay's SVGs stay inside its output folder.
  func testAHostileCameraNameStaysInsideTheOverlayFolder() throws {
    let (root, work) = try deepFolder()
    let match = try copy(Self.fixture.match, to: work.appendingPathComponent("match"))
    try edit(match.appendingPathComponent("calibration/calibration.toml"), "name = \"cam1\"", "name = \"../../../../cam1\"")
    let before = listing(root)
    let run = try runMatchScene([
      "overlay", match.path, "--tracks", Self.fixture.out.path, "--frames", "10-11", "-o", work.appendingPathComponent("overlay").path,
    ])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(changes(root, before: before, allowed: ["a/b/c/d/e/f/g/h/i/j/overlay"]), [])
    let folders = try fm.contentsOfDirectory(atPath: work.appendingPathComponent("overlay").path)
    XCTAssertTrue(folders.contains { $0.hasPrefix("_._.._.._.._cam1~") }, "\(folders)")
  }

  /// A 250-character camera name: the overlay's file names (and their temporary names) fit.
  func testALongCameraNameFits() throws {
    let (root, work) = try deepFolder()
    let match = try copy(Self.fixture.match, to: work.appendingPathComponent("match"))
    let long = "cam1" + String(repeating: "_", count: 246)
    try edit(match.appendingPathComponent("calibration/calibration.toml"), "name = \"cam1\"", "name = \"\(long)\"")
    let run = try runMatchScene([
      "overlay", match.path, "--tracks", Self.fixture.out.path, "--frames", "10-10", "-o", work.appendingPathComponent("overlay").path,
    ])
    XCTAssertEqual(run.status, 0, run.stderr)
    _ = root
  }

  /// A track id `../../../MOTESC` in tracks.csv: `form`'s .mot and `clip --player`'s GLB stay inside.
  func testAHostileTrackIdStaysInsideTheOutput() throws {
    let (root, work) = try deepFolder()
    let out = try copy(Self.fixture.out, to: work.appendingPathComponent("out"))
    try edit(out.appendingPathComponent("tracks.csv"), ",P1,", ",../../../MOTESC,")
    let before = listing(root)
    let form = try runMatchScene(["form", out.path])
    XCTAssertEqual(form.status, 0, form.stderr)
    let clip = try runMatchScene(["clip", out.path, "--player", "../../../MOTESC", "--frames", "10-20"])
    XCTAssertEqual(clip.status, 0, clip.stderr)
    XCTAssertEqual(changes(root, before: before, allowed: ["a/b/c/d/e/f/g/h/i/j/out"]), [])
    let mot = try fm.contentsOfDirectory(atPath: out.appendingPathComponent("mot").path)
    XCTAssertTrue(mot.contains { $0.hasPrefix("_._.._.._MOTESC~") && $0.hasSuffix(".mot") }, "\(mot)")
    XCTAssertTrue(mot.contains("P2.mot"), "ordinary names keep their file names: \(mot)")
  }

  /// A crafted store: `UPDATE document SET name='../PWN.sh'` — `sessions export` refuses the session
  /// and writes nothing.
  func testSessionsExportWritesOnlyItsFixedFiles() throws {
    let sqlite = try programOnPath("sqlite3", hint: "apt-get install -y sqlite3")
    let (root, work) = try deepFolder()
    let store = work.appendingPathComponent("s.sqlite")
    let add = try runMatchScene(["sessions", "add", Self.fixture.out.path, "--store", store.path])
    XCTAssertEqual(add.status, 0, add.stderr)
    let update = try runProgram(
      URL(fileURLWithPath: sqlite), [store.path, "UPDATE document SET name='../PWN.sh', content=CAST('echo pwned' AS BLOB) WHERE name='report.json';"])
    XCTAssertEqual(update.status, 0, update.stderr)
    let before = listing(root)
    let export = try runMatchScene(["sessions", "export", "1", "-o", work.appendingPathComponent("sub/exp").path, "--store", store.path])
    XCTAssertNotEqual(export.status, 0)
    XCTAssertTrue(export.stderr.contains("../PWN.sh"), export.stderr)
    XCTAssertEqual(changes(root, before: before, allowed: []).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, [])
  }

  // MARK: Output ownership

  /// `reconstruct m -o m`, `-o m/pose` (both with --force) and `reconstruct res/match -o res`: refused
  /// before the run; the input untouched.
  func testAnOutputOverlappingTheInputIsRefused() throws {
    let root = try makeTemporaryFolder()
    let match = try copy(Self.fixture.match, to: root.appendingPathComponent("m"))
    let before = listing(match)
    for out in [match, match.appendingPathComponent("pose")] {
      let run = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--force", "--no-scene"])
      XCTAssertNotEqual(run.status, 0, out.path)
      XCTAssertTrue(run.stderr.contains("input"), run.stderr)
      XCTAssertEqual(listing(match), before, out.path)
    }
    let res = root.appendingPathComponent("res")
    XCTAssertEqual(try runMatchScene(["reconstruct", match.path, "-o", res.path, "--no-scene"]).status, 0)
    let inside = try copy(match, to: res.appendingPathComponent("match"))
    let run = try runMatchScene(["reconstruct", inside.path, "-o", res.path, "--no-scene"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("holds the input"), run.stderr)
    XCTAssertEqual(listing(inside), before)
  }

  /// A user's notes.txt and a session store in an output: the next run is refused, naming them; they stay.
  func testAUsersFilesInAnOutputAreKept() throws {
    let root = try makeTemporaryFolder()
    let out = try copy(Self.fixture.out, to: root.appendingPathComponent("out"))
    try "mine".write(to: out.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let store = out.appendingPathComponent("sessions.sqlite")
    XCTAssertEqual(try runMatchScene(["sessions", "add", out.path, "--store", store.path]).status, 0)
    let run = try runMatchScene(["reconstruct", Self.fixture.match.path, "-o", out.path, "--no-scene"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("notes.txt") && run.stderr.contains("sessions.sqlite"), run.stderr)
    XCTAssertTrue(fm.fileExists(atPath: store.path) && fm.fileExists(atPath: out.appendingPathComponent("notes.txt").path))
    // After form, drill and view wrote into it, a re-run still replaces the output (their files are listed).
    let clean = try copy(Self.fixture.out, to: root.appendingPathComponent("clean"))
    XCTAssertEqual(try runMatchScene(["form", clean.path]).status, 0)
    XCTAssertEqual(try runMatchScene(["view", clean.appendingPathComponent("scene.glb").path]).status, 0)
    let again = try runMatchScene(["reconstruct", Self.fixture.match.path, "-o", clean.path, "--no-scene"])
    XCTAssertEqual(again.status, 0, again.stderr)
  }

  /// `sessions export -o` and `compare -o` into a reconstruction's output would delete scene.glb.
  func testExportAndCompareDoNotReplaceAReconstruction() throws {
    let root = try makeTemporaryFolder()
    let out = try copy(Self.fixture.out, to: root.appendingPathComponent("out"))
    let store = root.appendingPathComponent("s.sqlite")
    XCTAssertEqual(try runMatchScene(["sessions", "add", Self.fixture.out.path, "--store", store.path]).status, 0)
    let before = listing(out)
    let export = try runMatchScene(["sessions", "export", "1", "-o", out.path, "--store", store.path])
    XCTAssertNotEqual(export.status, 0)
    XCTAssertTrue(export.stderr.contains("matchscene reconstruct"), export.stderr)
    let compare = try runMatchScene(["compare", "1", "1", "-o", out.path, "--store", store.path])
    XCTAssertNotEqual(compare.status, 0)
    XCTAssertTrue(compare.stderr.contains("matchscene reconstruct"), compare.stderr)
    XCTAssertEqual(listing(out), before)
    XCTAssertTrue(fm.fileExists(atPath: out.appendingPathComponent("scene.glb").path))
  }

  /// `-o link` (a symbolic link to a folder) writes the folder and keeps the link.
  func testASymbolicLinkOutputIsWrittenInto() throws {
    let root = try makeTemporaryFolder()
    let target = root.appendingPathComponent("target"), link = root.appendingPathComponent("link")
    try fm.createDirectory(at: target, withIntermediateDirectories: true)
    try fm.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
    for _ in 0..<2 {
      let run = try runMatchScene(["reconstruct", Self.fixture.match.path, "-o", link.path, "--no-scene"])
      XCTAssertEqual(run.status, 0, run.stderr)
      XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: link.path), target.path)
      XCTAssertTrue(fm.fileExists(atPath: target.appendingPathComponent("tracks.csv").path))
    }
  }

  // MARK: Special files

  /// A FIFO as a pose file: refused at once, not read forever.
  func testAFIFOAsAPoseFileIsRefused() throws {
    try requireTier(.integration)
    let root = try makeTemporaryFolder()
    let match = try copy(Self.fixture.match, to: root.appendingPathComponent("m"))
    let file = match.appendingPathComponent("pose/cam1_json/cam1_000000000000_keypoints.json")
    try fm.removeItem(at: file)
    XCTAssertEqual(mkfifo(file.path, 0o644), 0)
    let run = try runProgram(
      URL(fileURLWithPath: "/usr/bin/timeout"),
      ["60", productsDirectory.appendingPathComponent("matchscene").path, "reconstruct", match.path, "-o", root.appendingPathComponent("out").path])
    XCTAssertNotEqual(run.status, 124, "timed out: the FIFO was read")
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("cam1_000000000000_keypoints.json"), run.stderr)
  }

  /// A FIFO as `overlay --video`: refused before ffprobe opens it.
  func testAFIFOAsTheOverlayVideoIsRefused() throws {
    try requireTier(.integration)
    let root = try makeTemporaryFolder()
    let fifo = root.appendingPathComponent("cam1.mp4")
    XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
    let run = try runProgram(
      URL(fileURLWithPath: "/usr/bin/timeout"),
      ["60", productsDirectory.appendingPathComponent("matchscene").path, "overlay", Self.fixture.match.path, "--tracks",
       Self.fixture.out.path, "--video", fifo.path, "-o", root.appendingPathComponent("o").path])
    XCTAssertNotEqual(run.status, 124, "timed out: the FIFO was read")
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("FIFO"), run.stderr)
  }

  // MARK: Lesser

  /// `form --save-reference out/tracks.csv` would overwrite tracks.csv.
  func testSaveReferenceDoesNotOverwriteAnOutputFile() throws {
    let out = try copy(Self.fixture.out, to: try makeTemporaryFolder().appendingPathComponent("out"))
    let tracks = out.appendingPathComponent("tracks.csv")
    let before = try Data(contentsOf: tracks)
    let run = try runMatchScene(["form", out.path, "--save-reference", tracks.path, "--player", "P1", "--kind", "forehand"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("refusing to overwrite"), run.stderr)
    XCTAssertEqual(try Data(contentsOf: tracks), before)
  }

  /// A drill naming a missing track, starting after the recording, with negative or huge points: a clear
  /// error before drill.json is written (1e18 points used to trap after writing a score of 1.66e20).
  func testBadDrillsFailBeforeWriting() throws {
    let out = try copy(Self.fixture.out, to: try makeTemporaryFolder().appendingPathComponent("out"))
    let target = "[[target]]\nname = \"t\"\nshape = \"box\"\nsize = [10, 10, 10]\ncenter = [0, 0, 0]\n"
    let cases: [(String, String)] = [
      ("track = \"P9\"\n" + target, "P9"),
      ("start = 1000\n" + target, "after the recording ends"),
      (target + "points = -1\n", "points"),
      (target + "points = 1e18\n", "points"),
    ]
    for (k, (text, expected)) in cases.enumerated() {
      let drill = out.deletingLastPathComponent().appendingPathComponent("drill\(k).toml")
      try text.write(to: drill, atomically: true, encoding: .utf8)
      let run = try runMatchScene(["drill", out.path, "--drill", drill.path])
      XCTAssertEqual(run.status, 1, "\(text): \(run.stderr)")
      XCTAssertTrue(run.stderr.contains(expected), run.stderr)
      XCTAssertFalse(fm.fileExists(atPath: out.appendingPathComponent("drill.json").path), text)
    }
  }

  /// `view --three URL`: a URL that would break out of the import map is refused.
  func testViewRefusesAHostileThreeURL() throws {
    let out = try copy(Self.fixture.out, to: try makeTemporaryFolder().appendingPathComponent("out"))
    let scene = out.appendingPathComponent("scene.glb")
    let run = try runMatchScene(["view", scene.path, "--three", "https://x.example/\"}}</script><script>alert(1)</script>"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertFalse(fm.fileExists(atPath: out.appendingPathComponent("scene.html").path))
    let fine = try runMatchScene(["view", scene.path, "--three", "https://cdn.example/three@0.160.0"])
    XCTAssertEqual(fine.status, 0, fine.stderr)
    let page = try String(contentsOf: out.appendingPathComponent("scene.html"), encoding: .utf8)
    XCTAssertTrue(page.contains("\"three\": \"https://cdn.example/three@0.160.0/build/three.module.js\""))
  }

  /// A session named with terminal escape sequences is printed with them escaped.
  func testSessionNamesArePrintedWithoutControlCharacters() throws {
    let store = try makeTemporaryFolder().appendingPathComponent("s.sqlite")
    let name = "x\u{1B}]0;pwned\u{07}\u{1B}[2Jy"
    let add = try runMatchScene(["sessions", "add", Self.fixture.out.path, "--store", store.path, "--name", name])
    XCTAssertEqual(add.status, 0, add.stderr)
    let list = try runMatchScene(["sessions", "list", "--store", store.path])
    let show = try runMatchScene(["sessions", "show", "1", "--store", store.path])
    for output in [add.stdout, list.stdout, show.stdout] {
      XCTAssertFalse(output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, output)
      XCTAssertTrue(output.contains("x\\u{1B}]0;pwned"), output)
    }
  }
}
