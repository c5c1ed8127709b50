import Foundation
import MatchSceneCore

/// `angles.csv`: one row per frame and player, one column per angle (degrees) and its standard
/// deviation (`<angle>_sd`, degrees), then the measures (`racket_hand_speed` m/s, `stance_width` m,
/// `com_x`, `com_y`, `com_z` m, venue frame). Empty cells where a keypoint is missing. Rows in frame
/// order, players in track order within a frame.
public enum AnglesCSV {
  public static var header: String {
    (["frame", "time", "track", "racket_side"] + FormAngle.allCases.flatMap { [$0.rawValue, $0.rawValue + "_sd"] }
      + FormMeasure.allCases.map(\.rawValue)).joined(separator: ",")
  }

  public static func render(_ series: [AngleSeries]) -> String {
    var out = header + "\n"
    guard let first = series.map(\.firstFrame).min(), let last = series.map({ $0.frames.upperBound }).max() else {
      return out
    }
    func cell(_ v: Double, _ digits: String) -> String { v.isFinite ? String(format: digits, v) : "" }
    for frame in first...last {
      for s in series where s.frames.contains(frame) && s.body(frame: frame) != nil {
        var row = [String(frame), String(format: "%.6f", Double(frame) / s.fps), s.track, s.racketSide.rawValue]
        for a in FormAngle.allCases {
          row.append(cell(s.angle(a, frame: frame), "%.3f"))
          row.append(cell(s.sd(a, frame: frame), "%.3f"))
        }
        for m in FormMeasure.allCases { row.append(cell(s.measure(m, frame: frame), "%.4f")) }
        out += row.joined(separator: ",") + "\n"
      }
    }
    return out
  }

  public static func write(_ series: [AngleSeries], to url: URL) throws {
    try Data(render(series).utf8).write(to: url, options: .atomic)
  }
}

/// An OpenSim motion file (`.mot`, the Storage format: a name line, `version=1`, `nRows=`,
/// `nColumns=` counting the time column, `inDegrees=yes`, `endheader`, then tab-separated labels and
/// rows; OpenSim documentation, "Storage (.sto) file format"), one per player: time and every
/// `FormAngle` in degrees. Frames without the keypoints are left out (OpenSim interpolates between rows).
public enum OpenSimMOT {
  public static func render(_ s: AngleSeries) -> String {
    let frames = s.frames.filter { s.body(frame: $0) != nil }
    let labels = ["time"] + FormAngle.allCases.map(\.rawValue)
    var out = "\(s.track)_angles\nversion=1\nnRows=\(frames.count)\nnColumns=\(labels.count)\ninDegrees=yes\nendheader\n"
    out += labels.joined(separator: "\t") + "\n"
    for frame in frames {
      var row = [String(format: "%.6f", Double(frame) / s.fps)]
      for a in FormAngle.allCases {
        let v = s.angle(a, frame: frame)
        row.append(v.isFinite ? String(format: "%.4f", v) : "NaN")
      }
      out += row.joined(separator: "\t") + "\n"
    }
    return out
  }

  public static func write(_ s: AngleSeries, to url: URL) throws {
    try Data(render(s).utf8).write(to: url, options: .atomic)
  }
}
