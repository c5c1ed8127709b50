import Foundation
import MatchSceneCore
import MatchSceneIO

/// `angles.csv`: one row per frame and player, one column per angle (degrees) and its standard
/// deviation (`<angle>_sd`, degrees), then the measures (`racket_hand_speed` m/s, `stance_width` m,
/// `com_x`, `com_y`, `com_z` m, venue frame). A missing keypoint empties only the cells that use it; a
/// frame with no value at all has no row. Rows in frame
/// order, players in track order within a frame.
public enum AnglesCSV {
  public static var header: String {
    (["frame", "time", "track", "racket_side"] + FormAngle.allCases.flatMap { [$0.rawValue, $0.rawValue + "_sd"] }
      + FormMeasure.allCases.map(\.rawValue)).joined(separator: ",")
  }

  public static func render(_ series: [AngleSeries]) -> String { bytes(series).string }

  /// The file's text, built with `TextBuffer` (a 10-minute match has ~72 000 rows of 33 cells).
  /// A sparse match's series run on a compact axis: `axis` gives each row its real frame and time.
  static func bytes(_ series: [AngleSeries], axis: FrameAxis = .identity) -> TextBuffer {
    var out = TextBuffer(capacity: 1 << 20)
    out.append(header + "\n")
    guard let first = series.map(\.firstFrame).min(), let last = series.map({ $0.frames.upperBound }).max() else {
      return out
    }
    func cell(_ v: Double, _ decimals: Int) {
      out.append(byte: UInt8(ascii: ","))
      if v.isFinite { out.appendFixed(v, decimals: decimals) }
    }
    let angleCount = FormAngle.allCases.count, measureCount = FormMeasure.allCases.count
    let labels = series.map { "," + CSVField.escape($0.track) + "," + $0.racketSide.rawValue }
    for frame in first...last {
      for (k, s) in series.enumerated() where s.hasAnyValue(frame: frame) {
        let i = frame - s.firstFrame, n = s.frameCount
        let real = axis.real(frame)
        out.append(real)
        out.append(byte: UInt8(ascii: ","))
        out.appendFixed(Double(real) / s.fps, decimals: 6)
        out.append(labels[k])
        for a in 0..<angleCount {
          cell(s.angles[a * n + i], 3)
          cell(s.angleSD[a * n + i], 3)
        }
        for m in 0..<measureCount { cell(s.measures[m * n + i], 4) }
        out.append(byte: UInt8(ascii: "\n"))
      }
    }
    return out
  }

  public static func write(_ series: [AngleSeries], axis: FrameAxis = .identity, to url: URL) throws {
    try Data(bytes(series, axis: axis).bytes).write(to: url, options: .atomic)
  }
}

/// An OpenSim motion file (`.mot`, the Storage format: a name line, `version=1`, `nRows=`,
/// `nColumns=` counting the time column, `inDegrees=yes`, `endheader`, then tab-separated labels and
/// rows; OpenSim documentation, "Storage (.sto) file format"), one per player: time and every
/// `FormAngle` in degrees. Frames without the keypoints are left out (OpenSim interpolates between rows).
///
/// The columns are `form_<angle>` (`form_elbow_flexion_r`, …), not the bare `angles.csv` names: these are
/// angles between keypoint segments, not coordinates of an OpenSim model, and a bare name either matched
/// none (`knee_flexion` beside the models' `knee_angle`) or matched one of another meaning (`hip_flexion`,
/// measured here from the trunk, in the models from the pelvis). The file is for plotting beside model
/// results in OpenSim; `matchscene opensim` gives model coordinates.
public enum OpenSimMOT {
  /// The column of `angle` in the file: `form_` + its `angles.csv` name.
  public static func column(_ angle: FormAngle) -> String { "form_" + angle.rawValue }

  public static func render(_ s: AngleSeries) -> String { bytes(s).string }

  /// A sparse match's series: `axis` gives each row its real time.
  static func bytes(_ s: AngleSeries, axis: FrameAxis = .identity) -> TextBuffer {
    let frames = s.frames.filter { s.hasBody(frame: $0) }
    let labels = ["time"] + FormAngle.allCases.map(column)
    var out = TextBuffer(capacity: 1 << 20)
    out.append("\(s.track)_form_angles\nversion=1\nnRows=\(frames.count)\nnColumns=\(labels.count)\ninDegrees=yes\nendheader\n")
    out.append(labels.joined(separator: "\t") + "\n")
    for frame in frames {
      out.appendFixed(Double(axis.real(frame)) / s.fps, decimals: 6)
      for a in 0..<FormAngle.allCases.count {
        out.append(byte: UInt8(ascii: "\t"))
        let v = s.angles[a * s.frameCount + frame - s.firstFrame]
        if v.isFinite { out.appendFixed(v, decimals: 4) } else { out.append("NaN") }
      }
      out.append(byte: UInt8(ascii: "\n"))
    }
    return out
  }

  public static func write(_ s: AngleSeries, axis: FrameAxis = .identity, to url: URL) throws {
    try Data(bytes(s, axis: axis).bytes).write(to: url, options: .atomic)
  }
}
