import Foundation
import MatchSceneCore

/// An OpenSim motion or storage file (`.mot`, `.sto`, version 1: a header closed by `endheader`, a line of
/// tab-separated column names starting with `time`, then rows of numbers), as written by OpenSim's
/// inverse kinematics (angles in degrees when the header says `inDegrees=yes`).
struct MotionFile: Sendable, Equatable {
  var columns: [String]
  /// Rows of `columns.count` numbers, the first the time.
  var rows: [[Double]]

  /// - Throws: `InputError` naming the file and line when it has no `endheader`, no columns or a row that is
  ///   not numbers.
  static func read(_ url: URL) throws -> MotionFile {
    let text = try String(contentsOf: url, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    guard let end = lines.firstIndex(of: "endheader"), end + 1 < lines.count else {
      throw InputError(file: url.path, "no `endheader` line: not an OpenSim motion file")
    }
    let columns = lines[end + 1].split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
    var rows: [[Double]] = []
    for (n, line) in lines.enumerated().dropFirst(end + 2) where !line.isEmpty {
      let values = line.split(whereSeparator: { $0 == "\t" || $0 == " " }).compactMap { Double($0) }
      guard values.count == columns.count else {
        throw InputError(file: url.path, location: .line(n + 1), "expected \(columns.count) numbers, found \(values.count)")
      }
      rows.append(values)
    }
    return MotionFile(columns: columns, rows: rows)
  }

  /// Per column both files have (not `time`): the RMS and largest absolute difference over the rows whose
  /// times agree to 1/10 of a millisecond.
  static func differences(_ a: MotionFile, _ b: MotionFile) -> [String: OpenSimSummary.Difference] {
    var bRow: [Int: Int] = [:]
    for (i, row) in b.rows.enumerated() { bRow[Int((row[0] * 10_000).rounded())] = i }
    var out: [String: OpenSimSummary.Difference] = [:]
    for (ca, name) in a.columns.enumerated() where ca > 0 {
      guard let cb = b.columns.firstIndex(of: name) else { continue }
      var sum = 0.0, worst = 0.0, count = 0
      for row in a.rows {
        guard let j = bRow[Int((row[0] * 10_000).rounded())] else { continue }
        let d = row[ca] - b.rows[j][cb]
        sum += d * d
        worst = max(worst, abs(d))
        count += 1
      }
      if count > 0 { out[name] = .init(rmsDegrees: (sum / Double(count)).squareRoot(), maxDegrees: worst, frames: count) }
    }
    return out
  }
}
