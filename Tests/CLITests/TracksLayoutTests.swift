import Foundation
import MatchSceneIO
import TestSupport
import XCTest

/// `reconstruct --tracks-layout wide`: tracks_wide.csv read back by Python's `csv` module (an
/// independent reader) holds exactly the values of tracks.csv, one row per frame; filled rows of
/// tracks.csv have reproj_px and views empty.
final class TracksLayoutTests: XCTestCase {
  func testWideLayoutRoundTripsThroughPythonCSV() throws {
    try requireTier(.tools)
    let python = "/usr/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python) else {
      if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("python3 missing: apt-get install -y python3") }
      throw XCTSkip("python3 missing: apt-get install -y python3")
    }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "3", "--seed", "5"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene", "--tracks-layout", "wide"])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    XCTAssertTrue(reconstruct.stdout.contains("tracks_wide.csv"), reconstruct.stdout)

    let script = """
      import csv, json, math, sys
      long_rows = list(csv.DictReader(open(sys.argv[1], newline="")))
      wide = list(csv.DictReader(open(sys.argv[2], newline="")))
      by_frame = {int(r["frame"]): r for r in wide}
      frames = sorted(by_frame)
      mismatches, filled, bad_filled, measured_errors = 0, 0, 0, []
      for r in long_rows:
          name = "ball" if r["kind"] == "ball" else r["track"] + "_" + r["joint"]
          w = by_frame[int(r["frame"])]
          pairs = [(r["x"], w[name + "_x"]), (r["y"], w[name + "_y"]), (r["z"], w[name + "_z"]),
                   (r["reproj_px"], w[name + "_error"]), (r["views"], w[name + "_views"]),
                   (r["reproj_px"], w[name + "_reproj_px"])]
          mismatches += sum(a != b for a, b in pairs)
          if r["reproj_px"] == "":
              filled += 1
              bad_filled += r["views"] != ""
          else:
              measured_errors.append(float(r["reproj_px"]))
              bad_filled += float(r["reproj_px"]) < 0
      cells = sum(1 for w in wide for k, v in w.items() if k.endswith("_x") and v != "")
      print(json.dumps({"long": len(long_rows), "wide": len(wide), "cells": cells, "mismatches": mismatches,
                        "filled": filled, "badFilled": bad_filled, "consecutive": frames == list(range(frames[0], frames[-1] + 1)),
                        "meanError": sum(measured_errors) / len(measured_errors), "columns": len(wide[0])}))
      """
    let scriptURL = folder.appendingPathComponent("wide.py")
    try script.write(to: scriptURL, atomically: true, encoding: .utf8)
    let run = try runProgram(URL(fileURLWithPath: python), [
      scriptURL.path, out.appendingPathComponent("tracks.csv").path, out.appendingPathComponent("tracks_wide.csv").path,
    ])
    XCTAssertEqual(run.status, 0, run.stderr)
    let data = run.data
    struct Summary: Decodable {
      var long, wide, cells, mismatches, filled, badFilled, columns: Int
      var consecutive: Bool
      var meanError: Double
    }
    let summary = try JSONDecoder().decode(Summary.self, from: data)
    print("TracksLayoutTests: \(String(decoding: data, as: UTF8.self))")
    XCTAssertGreaterThan(summary.long, 1000)
    XCTAssertEqual(summary.cells, summary.long, "every tracks.csv row is one wide cell group, and no more")
    XCTAssertEqual(summary.mismatches, 0, "wide cells hold tracks.csv's text exactly")
    XCTAssertTrue(summary.consecutive, "one row per frame, gaps included")
    XCTAssertEqual(summary.badFilled, 0, "filled rows have both reproj_px and views empty; no negative errors")
    XCTAssertGreaterThan(summary.filled, 0, "the analysis fills some gaps in 3 s of play")
    XCTAssertGreaterThan(summary.meanError, 0)
  }
}
