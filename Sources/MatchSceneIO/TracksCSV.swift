import Foundation
import MatchSceneCore

/// The 3D tracks file: header `frame,time,track,kind,joint,x,y,z,reproj_px,views`, one row per
/// estimated point; time with 6 decimals, coordinates in metres with 6 decimals (1 µm), reprojection
/// error in pixels with 3 decimals.
public enum TracksCSV {
  public static let header = "frame,time,track,kind,joint,x,y,z,reproj_px,views"

  public static func render(_ points: [TrackPoint]) -> String {
    var out = header + "\n"
    out.reserveCapacity(points.count * 72)
    for p in points {
      out += "\(p.frame),\(Decimal6(p.time)),\(p.track),\(p.kind.rawValue),\(p.joint),"
      out += "\(Decimal6(p.position.x)),\(Decimal6(p.position.y)),\(Decimal6(p.position.z)),"
      out += "\(Decimal6(p.reprojectionPx, decimals: 3)),\(p.views)\n"
    }
    return out
  }

  public static func write(_ points: [TrackPoint], to url: URL) throws {
    try AtomicFile.write(render(points), to: url)
  }

  /// Reads a tracks file. - Throws: `InputError` with file and line for malformed rows.
  public static func read(from url: URL) throws -> [TrackPoint] {
    guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
      throw InputError(file: url.path, "cannot read the file as UTF-8 text")
    }
    return try parse(text, file: url.path)
  }

  public static func parse(_ text: String, file: String) throws -> [TrackPoint] {
    var points: [TrackPoint] = []
    var lineNumber = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let row = line.hasSuffix("\r") ? line.dropLast() : line
      if lineNumber == 1 {
        guard row.trimmingCharacters(in: .whitespaces) == header else {
          throw InputError(file: file, location: .line(1), "header '\(row)' is not '\(header)'")
        }
        continue
      }
      if row.isEmpty { continue }
      let f = row.split(separator: ",", omittingEmptySubsequences: false)
      guard f.count == 10 else { throw InputError(file: file, location: .line(lineNumber), "has \(f.count) fields; expected 10 (\(header))") }
      guard let frame = Int(f[0]), let time = Double(f[1]), let kind = TrackKind(rawValue: String(f[3])),
        let x = Double(f[5]), let y = Double(f[6]), let z = Double(f[7]), let reprojection = Double(f[8]),
        let views = Int(f[9]), x.isFinite, y.isFinite, z.isFinite
      else {
        throw InputError(file: file, location: .line(lineNumber), "malformed row '\(row)': expected \(header) with numbers and kind player|ball")
      }
      points.append(
        TrackPoint(frame: frame, time: time, track: String(f[2]), kind: kind, joint: String(f[4]), position: SIMD3(x, y, z),
                   reprojectionPx: reprojection, views: views))
    }
    if lineNumber == 0 || (lineNumber == 1 && text.isEmpty) {
      throw InputError(file: file, location: .line(1), "empty file; expected the header '\(header)'")
    }
    return points
  }
}
