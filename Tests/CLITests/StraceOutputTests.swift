import Foundation
import TestSupport
import XCTest

/// Every command, run under `strace -f -e trace=file` on a hostile match (a camera named
/// `../../../../cam1`, a track `../../../MOTESC`) and a crafted store (a document named `../PWN.sh`),
/// creates, renames, removes or opens for writing no path outside its output.
final class StraceOutputTests: XCTestCase {
  let fm = FileManager.default

  /// A successful system call of `log` that changes the file system, and the paths it changes.
  struct Change: CustomStringConvertible {
    var call: String
    var paths: [String]
    var line: String
    var description: String { line }
  }

  /// The successful writing calls in an `strace -f -y` log: open/openat/creat with a writing flag,
  /// mkdir, rename, unlink, rmdir, link, symlink (its link path), truncate, chmod. Relative paths are
  /// taken against their directory descriptor's path (`-y`) or `cwd`; `..` is removed lexically.
  static func changes(in log: String, cwd: URL) -> [Change] {
    let writing: Set<String> = [
      "creat", "mkdir", "mkdirat", "rename", "renameat", "renameat2", "unlink", "unlinkat", "rmdir", "link", "linkat",
      "symlink", "symlinkat", "truncate", "chmod", "fchmodat", "mknod", "mknodat",
    ]
    var out: [Change] = []
    for raw in log.split(separator: "\n") {
      var line = String(raw)
      if let space = line.firstIndex(of: " "), line[..<space].allSatisfy(\.isNumber) { line = String(line[line.index(after: space)...]) }
      guard let paren = line.firstIndex(of: "("), let result = line.range(of: ") = ", options: .backwards) else { continue }
      let call = String(line[..<paren])
      guard !line[result.upperBound...].hasPrefix("-1") else { continue }
      let isOpen = call == "open" || call == "openat" || call == "openat2"
      if isOpen && !(line.contains("O_WRONLY") || line.contains("O_RDWR") || line.contains("O_CREAT") || line.contains("O_TRUNC")) { continue }
      guard isOpen || writing.contains(call) else { continue }
      // Arguments: quoted strings, each after an optional `N</dir>, `.
      let args = String(line[line.index(after: paren)..<result.lowerBound])
      var paths: [String] = []
      let pattern = try! NSRegularExpression(pattern: #"(?:(\d+|AT_FDCWD)(?:<([^>]*)>)?, )?"((?:[^"\\]|\\.)*)""#)
      let ns = args as NSString
      var quoted = 0
      for match in pattern.matches(in: args, range: NSRange(location: 0, length: ns.length)) {
        quoted += 1
        // symlink(target, linkpath), symlinkat(target, dirfd, linkpath): the target is text, not written.
        if (call == "symlink" || call == "symlinkat") && quoted == 1 { continue }
        let path = ns.substring(with: match.range(at: 3))
        var base = cwd.path
        if match.range(at: 2).location != NSNotFound { base = ns.substring(with: match.range(at: 2)) }
        let full = path.hasPrefix("/") ? path : base + "/" + path
        paths.append(URL(fileURLWithPath: full).standardizedFileURL.path)
      }
      out.append(Change(call: call, paths: paths, line: line))
    }
    return out
  }

  func testNoCommandWritesOutsideItsOutput() throws {
    try requireTier(.tools)
    let strace = try programOnPath("strace", hint: "apt-get install -y strace")
    let sqlite = try programOnPath("sqlite3", hint: "apt-get install -y sqlite3")
    let root = try makeTemporaryFolder("matchscene-strace")
    let work = root.appendingPathComponent("a/b/c/d/e/f/g/h/work")
    try fm.createDirectory(at: work, withIntermediateDirectories: true)
    let match = work.appendingPathComponent("match")
    XCTAssertEqual(try runMatchScene(["simulate", "-o", match.path, "--duration", "4", "--seed", "5"]).status, 0)
    let calibration = match.appendingPathComponent("calibration/calibration.toml")
    try String(contentsOf: calibration, encoding: .utf8).replacingOccurrences(of: "name = \"cam1\"", with: "name = \"../../../../cam1\"")
      .write(to: calibration, atomically: true, encoding: .utf8)
    let out = work.appendingPathComponent("out"), store = work.appendingPathComponent("s.sqlite")
    let drill = work.appendingPathComponent("drill.toml")
    try "[[target]]\nname = \"t\"\nshape = \"box\"\nsize = [10, 10, 10]\ncenter = [0, 0, 0]\n".write(to: drill, atomically: true, encoding: .utf8)
    let binary = productsDirectory.appendingPathComponent("matchscene").path
    let storeFiles = ["s.sqlite", "s.sqlite-wal", "s.sqlite-shm", "s.sqlite-journal"]

    // Each command, with the entries of `work` it may write (a folder's staging and retired
    // siblings `.NAME.partial-…`, `.NAME.old-…` included), and whether it must succeed.
    let steps: [(arguments: [String], outputs: [String], succeeds: Bool, prepare: () throws -> Void)] = [
      (["reconstruct", match.path, "-o", out.path], ["out"], true, {}),
      (["overlay", match.path, "--tracks", out.path, "--frames", "10-11", "-o", work.appendingPathComponent("overlay").path], ["overlay"], true, {
        let tracks = out.appendingPathComponent("tracks.csv")
        try String(contentsOf: tracks, encoding: .utf8).replacingOccurrences(of: ",P1,", with: ",../../../MOTESC,")
          .write(to: tracks, atomically: true, encoding: .utf8)
      }),
      (["form", out.path], ["out"], true, {}),
      (["clip", out.path, "--player", "../../../MOTESC", "--frames", "10-20"], ["out"], true, {}),
      (["drill", out.path, "--drill", drill.path], ["out"], true, {}),
      (["view", out.appendingPathComponent("scene.glb").path], ["out"], true, {}),
      (["sessions", "add", out.path, "--store", store.path], storeFiles, true, {}),
      (["sessions", "list", "--store", store.path], storeFiles, true, {}),
      (["sessions", "show", "1", "--store", store.path], storeFiles, true, {}),
      (["compare", "1", "1", "--track", "P2", "-o", work.appendingPathComponent("cmp").path, "--store", store.path], ["cmp"] + storeFiles, true, {}),
      (["sessions", "export", "1", "-o", work.appendingPathComponent("exp/sub").path, "--store", store.path], ["exp"] + storeFiles, false, {
        let update = try runProgram(URL(fileURLWithPath: sqlite), [store.path, "UPDATE document SET name='../PWN.sh' WHERE name='report.json';"])
        XCTAssertEqual(update.status, 0, update.stderr)
      }),
      (["simulate", "-o", work.appendingPathComponent("sim").path, "--duration", "1", "--seed", "2"], ["sim"], true, {}),
    ]
    for step in steps {
      try step.prepare()
      let before = Set((fm.enumerator(atPath: root.path)?.allObjects as? [String]) ?? [])
      let log = root.appendingPathComponent("strace.log")
      let run = try runProgram(
        URL(fileURLWithPath: strace), ["-f", "-y", "-qq", "-e", "trace=file", "-o", log.path, binary] + step.arguments, in: work)
      XCTAssertEqual(run.status == 0, step.succeeds, "\(step.arguments): \(run.stderr)")
      for change in Self.changes(in: try String(contentsOf: log, encoding: .utf8), cwd: work) {
        for path in change.paths where !path.hasPrefix("/dev/") && !path.hasPrefix("/proc/") && path != log.path {
          let inside = step.outputs.contains { name in
            let output = work.path + "/" + name
            return path == output || path.hasPrefix(output + "/") || path.hasPrefix(work.path + "/." + name + ".")
          }
          XCTAssertTrue(inside, "\(step.arguments[0]) wrote outside its output: \(change)")
        }
      }
      // Nothing that was there before went, outside the outputs.
      let after = Set((fm.enumerator(atPath: root.path)?.allObjects as? [String]) ?? [])
      let prefix = "a/b/c/d/e/f/g/h/work/"
      let gone = before.subtracting(after).filter { path in !step.outputs.contains { path == prefix + $0 || path.hasPrefix(prefix + $0 + "/") } }
      XCTAssertEqual(gone.sorted(), [], "\(step.arguments[0]) removed files it did not write")
      try? fm.removeItem(at: log)
    }
  }
}
