import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneIO

/// CSV cells per RFC 4180 with formula prefixes neutralised (OWASP, "CSV Injection"), read back as
/// written; TRC names made safe for a tab-separated header.
final class CSVFieldTests: XCTestCase {
  static let hostile = [
    "no,se", "line\nbreak", "cr\r\nlf", "lone\rcr", "q\"uote", "\"quoted\"", "=1+2", "+cmd", "-2+3", "@SUM(A1)",
    "\tTAB", "\rCR", "'apostrophe", "''two", " lead", "trail ", "=HYPERLINK(\"http://x\",\"y\")", "é,ü", "",
  ]

  func testEscapeRoundTripsAndNeutralises() {
    for name in Self.hostile {
      let cell = CSVField.escape(name)
      XCTAssertEqual(CSVField.unescape(Array(cell.utf8)), name, "\(name.debugDescription) → \(cell.debugDescription)")
      // A spreadsheet sees the cell's text after unquoting: it must not start a formula.
      let shown = cell.hasPrefix("\"") ? String(cell.dropFirst().dropLast()) : cell
      XCTAssertFalse(shown.first.map { "=+-@\t\r".contains($0) } ?? false, "\(name.debugDescription) → \(cell.debugDescription)")
    }
    for plain in ["left_wrist", "P1", "ball", "Right Knee", "cam 2", "B12"] {
      XCTAssertEqual(CSVField.escape(plain), plain, "ordinary names are written as they are")
    }
    XCTAssertEqual(CSVField.escape("=1+2"), "'=1+2")
    XCTAssertEqual(CSVField.escape("no,se"), "\"no,se\"")
    XCTAssertEqual(CSVField.escape("q\"uote"), "\"q\"\"uote\"")
  }

  /// Rows of hostile track and joint names: every row keeps its 10 fields and reads back as written,
  /// through both readers (rows, and the dense model on several chunks).
  func testTracksCSVRoundTripsHostileNames() throws {
    let joints = ["no,se", "line\nbreak", "=1+2", "q\"uote", "plain"]
    let skeleton = Skeleton(name: "hostile", keypoints: joints, bones: [])
    var points: [TrackPoint] = []
    for frame in 0..<40 {
      for track in ["P1", "@P2,x"] {
        for (j, joint) in joints.enumerated() {
          points.append(
            TrackPoint(
              frame: frame, time: Double(frame) / 50, track: track, kind: .player, joint: joint,
              position: SIMD3(Double(j), -1.5, 0.25), reprojectionPx: 1.25, views: 3))
        }
      }
      points.append(
        TrackPoint(frame: frame, time: Double(frame) / 50, track: "ball", kind: .ball, joint: "ball", position: SIMD3(0, 0, 1), reprojectionPx: 0.5, views: 2))
    }
    let text = TracksCSV.render(points)
    let back = try TracksCSV.parse(text, file: "tracks.csv")
    XCTAssertEqual(back.count, points.count)
    XCTAssertEqual(back.map(\.joint), points.map(\.joint))
    XCTAssertEqual(back.map(\.track), points.map(\.track))
    XCTAssertEqual(back.map(\.position), points.map(\.position))

    let dir = try makeTemporaryFolder("csv-hostile")
    let url = dir.appendingPathComponent("tracks.csv")
    try TracksCSV.write(points, to: url)
    let motion = try TracksCSV.readMotion(from: url, fps: 50, skeleton: skeleton, minimumChunkBytes: 256)
    XCTAssertEqual(Set(motion.tracks.map(\.id)), ["P1", "@P2,x", "ball"])
    let p2 = try XCTUnwrap(motion.tracks.first { $0.id == "@P2,x" })
    for j in joints.indices { XCTAssertEqual(p2.position(joint: j, frame: 7), SIMD3(Double(j), -1.5, 0.25), joints[j]) }

    // The wide layout's header: one cell per column, each name read back.
    let wide = TracksWideCSV.render(points, skeleton: skeleton, fps: 50)
    let csv = CSVScanner(Array(wide.utf8))
    var header: [String] = [], widths = Set<Int>()
    csv.forEachLine { line, f in
      if line == 1 { header = f.map { csv.name($0) } } else { widths.insert(f.count) }
    }
    XCTAssertEqual(header.count, 2 + 6 * (2 * joints.count + 1))
    XCTAssert(header.contains("@P2,x_no,se_x"), "\(header)")
    XCTAssert(header.contains("P1_line\nbreak_views"), "\(header)")
    XCTAssertEqual(widths, [header.count], "every row as wide as the header")
  }

  /// Ordinary names: the bytes of before (no quotes, no prefix).
  func testOrdinaryNamesAreWrittenAsBefore() {
    let p = TrackPoint(
      frame: 3, time: 0.05, track: "P1", kind: .player, joint: "left_wrist", position: SIMD3(-1, 2.5, 0.125),
      reprojectionPx: 1.5, views: 2)
    XCTAssertEqual(
      TracksCSV.render([p]),
      "frame,time,track,kind,joint,x,y,z,reproj_px,views\n3,0.050000,P1,player,left_wrist,-1.000000,2.500000,0.125000,1.500,2\n")
  }

  /// The scanner: quoted numbers read as numbers; a record spanning lines keeps later line numbers right.
  func testScannerQuotedFieldsAndLineNumbers() throws {
    let text = "a,b\n\"1.5\",\"x\ny\"\n2,\"z\"\"w\"\n"
    let csv = CSVScanner(Array(text.utf8))
    var rows: [(Int, [String])] = []
    csv.forEachLine { line, f in rows.append((line, f.map { csv.name($0) })) }
    XCTAssertEqual(rows.map(\.0), [1, 2, 4])
    XCTAssertEqual(rows.map(\.1), [["a", "b"], ["1.5", "x\ny"], ["2", "z\"w"]])
    var numbers: [Double?] = []
    csv.forEachLine { line, f in if line > 1 { numbers.append(csv.double(f[0])) } }
    XCTAssertEqual(numbers, [1.5, 2])
    XCTAssertEqual(csv.lineChunks(4).count, 1, "a quoted field may hold a line end: one chunk")
    // An error after a multi-line record names the right line.
    let bad = "frame,time,track,kind,joint,x,y,z,reproj_px,views\n0,0,P1,player,\"a\nb\",0,0,0,1,2\nx,0,P1,player,a,0,0,0,1,2\n"
    XCTAssertThrowsError(try TracksCSV.parse(bad, file: "t.csv")) { XCTAssert("\($0)".hasPrefix("t.csv:4:"), "\($0)") }
  }

  /// TRC: tab, line ends and control characters in marker or file names become `_`; the header keeps
  /// one name per three columns and reads back; duplicates made by the replacement get `_2`.
  func testTRCNamesMadeSafe() throws {
    let markers = ["a\tb", "c\nd", "e\rf", "a_b", "plain", ""]
    let text = TRCWriter.text(markers: markers, frames: 0...2, fps: 50, fileName: "P\t1.trc", yUp: false) { frame, m in
      SIMD3(Double(frame), Double(m), 0)
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines[0], "PathFileType\t4\t(X/Y/Z)\tP_1.trc")
    // 2 + 3 per marker, and the closing empty cell every table line ends with (`TRCWriter`).
    XCTAssertEqual(lines[3].split(separator: "\t", omittingEmptySubsequences: false).count, 2 + 3 * markers.count + 1)
    let parsed = try TRCWriter.parse(text, file: "x.trc")
    XCTAssertEqual(parsed.markers, ["a_b", "c_d", "e_f", "a_b_2", "plain", "_"])
    XCTAssertEqual(parsed.frames[2]?["plain"], SIMD3(2, 4, 0))
    XCTAssertEqual(TRCWriter.safeMarkerNames(["nose", "left_eye"]), ["nose", "left_eye"])
  }
}
