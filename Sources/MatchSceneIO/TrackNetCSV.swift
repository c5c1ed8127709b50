import Foundation
import MatchSceneCore

/// Ball detections in TrackNet's CSV, one file per camera: `ball/<camera>.csv` with the header
/// `Frame,Visibility,X,Y` (Visibility 0 = not seen; X, Y in pixels). Several rows with the same frame
/// are several candidates (an extension for detectors that report more than one). Extra columns are
/// ignored; header names are matched without regard to case or spaces.
public enum TrackNetCSV {
  /// Reads every `*.csv` in `ballFolder`: camera name (file name without `.csv`) → frame → candidates.
  public static func read(ballFolder: URL) throws -> [String: [Int: [BallDetection2D]]] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: ballFolder.path) else {
      throw InputError(file: ballFolder.path, "cannot list the ball folder (missing or not readable)")
    }
    var out: [String: [Int: [BallDetection2D]]] = [:]
    for name in entries.sorted() where name.lowercased().hasSuffix(".csv") && !name.hasPrefix(".") {
      out[String(name.dropLast(4))] = try read(file: ballFolder.appendingPathComponent(name))
    }
    return out
  }

  /// Reads one camera's file: frame → candidates (frames with Visibility 0 are absent).
  public static func read(file url: URL) throws -> [Int: [BallDetection2D]] {
    guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
      throw InputError(file: url.path, "cannot read the file as UTF-8 text")
    }
    return try parse(text, file: url.path)
  }

  public static func parse(_ text: String, file: String) throws -> [Int: [BallDetection2D]] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
    guard let header = lines.first else { throw InputError(file: file, location: .line(1), "empty file; expected the header Frame,Visibility,X,Y") }
    let names = header.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard let iFrame = names.firstIndex(of: "frame"), let iVis = names.firstIndex(of: "visibility"),
      let iX = names.firstIndex(of: "x"), let iY = names.firstIndex(of: "y")
    else {
      throw InputError(file: file, location: .line(1), "header '\(header)' lacks a column; expected Frame,Visibility,X,Y")
    }
    let iConf = names.firstIndex(of: "confidence")
    var out: [Int: [BallDetection2D]] = [:]
    for (n, line) in lines.enumerated().dropFirst() {
      if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
      let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= names.count || cells.count > max(iFrame, iVis, iX, iY) else {
        throw InputError(file: file, location: .line(n + 1), "has \(cells.count) fields; expected \(names.count) (Frame,Visibility,X,Y)")
      }
      guard let frame = Int(cells[iFrame]) else {
        throw InputError(file: file, location: .line(n + 1), "Frame '\(cells[iFrame])' is not an integer")
      }
      guard let visibility = Double(cells[iVis]) else {
        throw InputError(file: file, location: .line(n + 1), "Visibility '\(cells[iVis])' is not a number (0 or 1)")
      }
      if visibility == 0 { continue }
      guard let x = Double(cells[iX]), let y = Double(cells[iY]), x.isFinite, y.isFinite else {
        throw InputError(file: file, location: .line(n + 1), "X, Y '\(cells[iX])', '\(cells[iY])' are not finite numbers")
      }
      var confidence = 1.0
      if let iConf, iConf < cells.count, let c = Double(cells[iConf]), c.isFinite { confidence = c }
      out[frame, default: []].append(BallDetection2D(x: x, y: y, confidence: confidence))
    }
    return out
  }

  /// One camera's detections as CSV text: a row per frame of `frames` (Visibility 0 and X = Y = 0
  /// where there is no detection), several rows for several candidates.
  public static func render(_ balls: [Int: [BallDetection2D]], frames: ClosedRange<Int>) -> String {
    var out = "Frame,Visibility,X,Y\n"
    for frame in frames {
      let candidates = balls[frame] ?? []
      if candidates.isEmpty { out += "\(frame),0,0,0\n" }
      for b in candidates { out += "\(frame),1,\(Decimal6(b.x, decimals: 3)),\(Decimal6(b.y, decimals: 3))\n" }
    }
    return out
  }

  public static func write(_ balls: [Int: [BallDetection2D]], frames: ClosedRange<Int>, to url: URL) throws {
    try AtomicFile.write(render(balls, frames: frames), to: url)
  }
}
