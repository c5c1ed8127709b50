import Foundation
import MatchSceneCore

/// Matching the camera names of detection files to the calibration's.
///
/// Tools spell one camera differently: Pose2Sim's demo has pose folders `cam01_json` … and a
/// Qualisys calibration whose serials are `cam_01` …; Pose2Sim itself pairs them by sorted order.
/// MatchScene pairs by name, and accepts a name that differs from a calibrated one only in case,
/// punctuation and the leading zeros of its numbers when exactly one calibrated name matches so, with
/// a note saying so.
extension MatchFolder {
  /// The name in `names` that `name` stands for: itself, else the only one equal to it but for case,
  /// punctuation and leading zeros (`cam03` for `cam_03`); nil when none or several match so.
  public static func cameraName(_ name: String, among names: [String]) -> String? {
    if names.contains(name) { return name }
    let matches = names.filter { CameraNames.looseKey($0) == CameraNames.looseKey(name) }
    return matches.count == 1 ? matches[0] : nil
  }

  /// Detection camera names resolved to calibrated ones, with a note the first time a name is matched loosely.
  struct CameraNames {
    let calibrated: [String]
    let calibrationFile: URL
    var loose: [String: String] = [:]
    var diagnostics: [Diagnostic] = []

    /// The calibrated name `camera` (found in `file`) stands for.
    /// - Throws: `InputError` naming `file` when no calibrated camera matches, or several match loosely.
    mutating func resolve(_ camera: String, in file: String, location: InputError.Location = .none) throws -> String {
      if calibrated.contains(camera) { return camera }
      if let known = loose[camera] { return known }
      let key = Self.looseKey(camera)
      let matches = calibrated.filter { Self.looseKey($0) == key }
      guard matches.count == 1 else {
        let also = matches.isEmpty ? "" : "; it matches \(matches.joined(separator: " and ")) but for case and punctuation, so neither is picked"
        throw InputError(
          file: file, location: location,
          "camera '\(camera)' is not in the calibration \(calibrationFile.path) (it has: \(calibrated.joined(separator: ", ")))\(also)")
      }
      loose[camera] = matches[0]
      diagnostics.append(Diagnostic(.note, InputError(
        file: file, location: location, "camera '\(camera)' taken as the calibration's '\(matches[0])' (same name but for case, punctuation or leading zeros)")))
      return matches[0]
    }

    /// A name lowercased, with only letters and digits, and numbers without leading zeros (`Cam_01` → `cam1`).
    static func looseKey(_ name: String) -> String {
      var out = "", digits = ""
      func flush() {
        if !digits.isEmpty { out += digits.drop { $0 == "0" }.isEmpty ? "0" : String(digits.drop { $0 == "0" }) }
        digits = ""
      }
      for c in name.lowercased() {
        if c.isASCII && c.isNumber {
          digits.append(c)
        } else {
          flush()
          if c.isLetter || c.isNumber { out.append(c) }
        }
      }
      flush()
      return out
    }
  }
}
