import Foundation
import TestSupport
import XCTest

/// A simulated match's `scene.glb` imported by Godot 3 (Debian's 3.2.3, headless under Xvfb): every ERROR
/// line the import prints is accounted for, and a right wrist read from the imported AnimationPlayer at
/// three times is within 1 mm of tracks.csv.
///
/// Debian 12's godot3 (3.2.3-stable-1+b3) is linked against the system PCRE2 (libpcre2-32 10.42), whose
/// `pcre2_match` passes a NULL pointer to the allocator's free; Godot's RegEx hands it to `memfree`, which
/// prints `free_static: Condition "p_ptr == __null" is true` (core/os/memory.cpp:158) once per
/// `RegEx.sub` (Godot's backtrace: godotengine/godot pull request 70447, `_regex_free(ptr=0x0)` from
/// `pcre2_match_32`). The glTF importer runs RegEx on every name it makes unique: the scene's, each
/// animation's, each node outside a skin, each Skeleton and Skin it creates, and four times on each bone
/// (`_sanitize_scene_name`, `_sanitize_bone_name`). No glTF avoids it — a file with one unnamed node prints it
/// for the scene name — and it is not an exit-time error: `regex_probe.gd` prints it from one `RegEx.sub`
/// with no glTF at all. So the test asks: the ERROR lines are exactly `free_static` × (the lines the probe
/// prints) × (the RegEx calls this scene's names cost, `importerRegexCalls`), and nothing else; with a Godot
/// whose RegEx is sound (probe prints none) that is 0 ERROR lines. (A joint hidden by a zero scale once made
/// the importer fail on every such key, "Basis must be normalized".)
final class GodotImportTests: XCTestCase {
  /// Where Godot runs: the project holding a copy of the scene, and what it printed.
  private struct Project {
    var folder: URL
    var log: String
    var errors: [String] { log.split(separator: "\n").filter { $0.contains("ERROR") }.map(String.init) }
    /// The ERROR lines of Godot's PCRE2 free (see the type's notes).
    var regexFreeErrors: [String] { errors.filter { $0.contains("free_static: Condition \"p_ptr == __null\"") } }
    var otherErrors: [String] { errors.filter { !$0.contains("free_static: Condition \"p_ptr == __null\"") } }
  }

  private func godot(_ project: URL, _ arguments: [String], seconds: Int = 900) throws -> String {
    let run = try godotRun(project, arguments, seconds: seconds)
    XCTAssertEqual(run.status, 0, "godot3 \(arguments) (124: still running after \(seconds) s): \(run.log.suffix(2000))")
    return run.log
  }

  /// Runs Godot on `project` for at most `seconds`: its exit status and what it printed.
  private func godotRun(_ project: URL, _ arguments: [String], seconds: Int) throws -> (status: Int32, log: String) {
    let xvfb = try programOnPath("xvfb-run", hint: "apt-get install xvfb xauth")
    let godot = try programOnPath("godot3", hint: "apt-get install godot3")
    // LANG names a locale Godot knows (it reports 'C' as an error); the dummy audio driver keeps ALSA's
    // missing sound card out of the log.
    let run = try runProgram(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["LANG=en_US.UTF-8", "timeout", "\(seconds)", xvfb, "-a", godot, "--audio-driver", "Dummy", "--path", project.path] + arguments)
    return (run.status, run.stdout + run.stderr)
  }

  /// A Godot project with `scene` in it, imported by the editor (`-e`), which the project's editor plugin
  /// `quit_after_import` (Tests/Godot) quits once the import is done: the 3.2.3 editor started with
  /// `-e --quit` imported this scene but did not quit (15 minutes later it was still running, where it
  /// quit after a one-node glTF), and was stopped after 60 s. Godot's lossy animation optimiser (on by
  /// default: keys within 5 cm of a line are dropped, which moved a wrist by 4 mm) is off, so that the keys
  /// are the scene's own.
  ///
  /// Workaround: in 1 of 4 runs (1 of 3 when quitting by `SceneTree.quit()`) the editor crashed just after
  /// the import with signal 11 in its resource-preview thread (`EditorResourcePreview::_generate_preview`
  /// reading an editor icon, `Control::get_icon`, while the main thread updates the GUI; Godot issue 24206
  /// shows the same frames). Such a run is made again, at most 3 times; its log is printed. Remove with a
  /// Godot whose preview thread does not crash.
  private func imported(_ scene: URL, in dir: URL) throws -> Project {
    let folder = dir.appendingPathComponent("godot")
    let plugin = folder.appendingPathComponent("addons/quit_after_import")
    try FileManager.default.createDirectory(at: plugin, withIntermediateDirectories: true)
    for file in ["plugin.cfg", "plugin.gd"] {
      try FileManager.default.copyItem(at: godotScript("quit_after_import/\(file)"), to: plugin.appendingPathComponent(file))
    }
    try FileManager.default.copyItem(at: scene, to: folder.appendingPathComponent("scene.glb"))
    try """
      config_version=4

      [editor_plugins]

      enabled=PoolStringArray( "quit_after_import" )

      """.write(to: folder.appendingPathComponent("project.godot"), atomically: true, encoding: .utf8)
    try """
      [remap]

      importer="scene"

      [deps]

      source_file="res://scene.glb"

      [params]

      animation/optimizer/enabled=false

      """.write(to: folder.appendingPathComponent("scene.glb.import"), atomically: true, encoding: .utf8)
    var run = try godotRun(folder, ["-e"], seconds: 900)
    for attempt in 2...3 where run.status != 0 && run.log.contains("handle_crash: Program crashed with signal 11") {
      print("Godot crashed after the import (status \(run.status)); attempt \(attempt):\n\(run.log.suffix(1500))")
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(".import"))
      run = try godotRun(folder, ["-e"], seconds: 900)
    }
    let log = run.log
    XCTAssertEqual(run.status, 0, "the editor (124: still running after 900 s): \(log.suffix(2000))")
    XCTAssertTrue(log.contains("quit_after_import: imported"), "the editor quit before importing:\n\(log.suffix(2000))")
    let imported = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".import").path)) ?? []
    XCTAssertTrue(imported.contains { $0.hasPrefix("scene.glb-") && $0.hasSuffix(".scn") }, "Godot imported nothing:\n\(log.suffix(2000))")
    return Project(folder: folder, log: log)
  }

  func testSimulatedMatchImportsWithoutErrorsAndItsWristFollowsTracksCSV() throws {
    _ = try programOnPath("godot3", hint: "apt-get install godot3")
    let dir = try makeTemporaryFolder("matchscene-godot")
    defer { try? FileManager.default.removeItem(at: dir) }
    let match = dir.appendingPathComponent("match"), out = dir.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "20", "--seed", "2"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)

    let scene = out.appendingPathComponent("scene.glb")
    let project = try imported(scene, in: dir)
    let perCall = try regexFreeErrorsPerCall(in: project.folder)
    let expected = perCall * (try importerRegexCalls(scene))
    print("Godot import: \(project.errors.count) ERROR lines, \(project.regexFreeErrors.count) of them PCRE2's free_static "
      + "(\(perCall) per RegEx call: \(expected) expected)")
    XCTAssertFalse(project.log.contains("Basis must be normalized"), "a hidden key Godot cannot take apart")
    XCTAssertEqual(
      project.otherErrors.count, 0, "ERROR lines, the first: \(project.otherErrors.prefix(5).joined(separator: "\n"))")
    XCTAssertEqual(
      project.regexFreeErrors.count, expected,
      "free_static lines: \(perCall) per importer RegEx call on a name; more would be another cause")

    // Three frames of P1's right wrist, at a quarter, half and three quarters of its rows; animation time
    // (frame − firstFrame) / fps (the scene's extras).
    let (fps, firstFrame) = try sceneTiming(out.appendingPathComponent("scene.glb"))
    let wrist = try tracksCSV(out.appendingPathComponent("tracks.csv"), track: "P1", joint: "right_wrist")
    XCTAssertGreaterThan(wrist.count, 100)
    let probes = [wrist.count / 4, wrist.count / 2, 3 * wrist.count / 4].map { wrist[$0] }
    let request: [String: Any] = [
      "animation": "match",
      "probes": probes.map { ["track": "P1", "joint": "right_wrist", "time": Double($0.frame - firstFrame) / fps] },
    ]
    try JSONSerialization.data(withJSONObject: request).write(to: project.folder.appendingPathComponent("request.json"))
    try FileManager.default.copyItem(at: godotScript("joint_positions.gd"), to: project.folder.appendingPathComponent("joint_positions.gd"))
    let log = try godot(project.folder, ["-s", "joint_positions.gd"])
    let result = try JSONSerialization.jsonObject(
      with: Data(contentsOf: project.folder.appendingPathComponent("result.json"))) as? [String: Any]
    let positions = try XCTUnwrap(result?["positions"] as? [[Double]], "no positions; Godot printed:\n\(log.suffix(2000))")
    XCTAssertEqual(positions.count, 3)
    for (probe, p) in zip(probes, positions) {
      let error = zip(probe.position, p).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
      print("Godot P1 right_wrist frame \(probe.frame): \(p), tracks.csv \(probe.position), \(String(format: "%.2f", error * 1000)) mm")
      XCTAssertLessThan(error, 1e-3, "frame \(probe.frame), metres from tracks.csv")
    }
  }

  /// The GLB's JSON chunk (glTF 2.0 §4.4).
  private func sceneJSON(_ glb: URL) throws -> [String: Any] {
    let data = try Data(contentsOf: glb)
    let length = data[12..<16].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: data[20..<(20 + length)]) as? [String: Any])
  }

  /// `fps` and `firstFrame` from the scene's extras.
  private func sceneTiming(_ glb: URL) throws -> (Double, Int) {
    let extras = (try sceneJSON(glb)["scenes"] as? [[String: Any]])?.first?["extras"] as? [String: Any]
    return (try XCTUnwrap(extras?["fps"] as? Double), try XCTUnwrap(extras?["firstFrame"] as? Int))
  }

  /// How many times Godot 3.2.3's glTF importer (editor/import/editor_scene_importer_gltf.cpp) calls
  /// `RegEx.sub` on this scene's names: once for the scene (`_parse_scenes`), once per named animation
  /// (`_parse_animations`), once per node outside the skins (`_assign_scene_names`), once per Skeleton and
  /// per Skin it names (one each per skin: MatchScene's skins share no joint and differ), four times per
  /// joint (`_sanitize_bone_name`). Counted for the 30 s demo: 1 + 4 + 14 + 3 + 3 + 4 × 99 = 421, the
  /// `free_static` lines its import printed.
  private func importerRegexCalls(_ glb: URL) throws -> Int {
    let json = try sceneJSON(glb)
    let nodes = (json["nodes"] as? [[String: Any]]) ?? []
    let skins = (json["skins"] as? [[String: Any]]) ?? []
    let joints = Set(skins.flatMap { ($0["joints"] as? [Int]) ?? [] })
    let namedAnimations = ((json["animations"] as? [[String: Any]]) ?? []).filter { $0["name"] != nil }.count
    return 1 + namedAnimations + (nodes.count - joints.count) + 2 * skins.count + 4 * joints.count
  }

  /// `free_static` lines one `RegEx.sub` prints in this Godot (`regex_probe.gd`, no glTF involved): 1 with
  /// Debian 12's godot3 and PCRE2 10.42, 0 where RegEx frees soundly.
  private func regexFreeErrorsPerCall(in folder: URL) throws -> Int {
    let probe = folder.appendingPathComponent("regex_probe.gd")
    try? FileManager.default.removeItem(at: probe)
    try FileManager.default.copyItem(at: godotScript("regex_probe.gd"), to: probe)
    let log = try godot(folder, ["-s", "regex_probe.gd"], seconds: 300)
    XCTAssertTrue(log.contains("regex_probe: Scene"), "the probe did not run:\n\(log.suffix(2000))")
    return Project(folder: folder, log: log).regexFreeErrors.count
  }

  /// A script of Tests/Godot.
  private func godotScript(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Godot/\(name)")
  }

  /// The rows of one track's joint in tracks.csv, frame and position (metres).
  private func tracksCSV(_ url: URL, track: String, joint: String) throws -> [(frame: Int, position: [Double])] {
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    let header = lines[0].split(separator: ",").map(String.init)
    let column = { (name: String) in try XCTUnwrap(header.firstIndex(of: name), name) }
    let (f, t, j, x, y, z) = (try column("frame"), try column("track"), try column("joint"), try column("x"), try column("y"), try column("z"))
    return lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
      .filter { $0[t] == track && $0[j] == joint }
      .map { (Int($0[f])!, [Double($0[x])!, Double($0[y])!, Double($0[z])!]) }
  }
}
