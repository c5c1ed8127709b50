import Foundation
import MatchSceneCore
internal import TOMLKit

/// Camera calibration in the TOML layout of Pose2Sim and anipose (`Pose2Sim/calibration.py`,
/// `toml_write`; anipose `aniposelib.cameras.CameraGroup.dump`): one table per camera,
///
/// ```toml
/// [cam01]
/// name = "cam01"                      # optional: the table name is used when absent
/// size = [ 1920.0, 1080.0,]           # width, height in pixels
/// matrix = [ [ 1400.0, 0.0, 959.5,], [ 0.0, 1400.0, 539.5,], [ 0.0, 0.0, 1.0,],]   # K
/// distortions = [ -0.12, 0.05, 0.0003, -0.0002,]   # k1 k2 p1 p2 [k3]; fisheye: k1 k2 k3 k4
/// rotation = [ 1.6, 0.6, -0.5,]       # Rodrigues vector world → camera (or a 3×3 rotation matrix)
/// translation = [ 0.3, 0.8, 4.4,]     # world → camera, metres
/// fisheye = false                     # optional
/// ```
///
/// so that `x_cam = R(rotation) · x_world + translation` (OpenCV's `rvec`/`tvec` convention).
/// Tables named `metadata`, `capture_volume`, `charuco` and `checkerboard` are not cameras.
public enum CalibrationTOML {
  /// Top-level tables that Pose2Sim and anipose write next to the cameras.
  public static let nonCameraTables: Set<String> = ["metadata", "capture_volume", "charuco", "checkerboard"]

  /// Reads every camera of a calibration file, in file order.
  /// - Throws: `InputError` naming the file and the key (`cam01.matrix`) for anything missing or
  ///   malformed, the line and column for a TOML syntax error, and a file-level error when there
  ///   is no camera or two cameras share a name.
  public static func read(from url: URL) throws -> [Camera] {
    try cameras(in: TOMLDocument(contentsOf: url))
  }

  /// Parses calibration text; `file` names it in errors. Same checks as `read(from:)`.
  public static func parse(_ text: String, file: String) throws -> [Camera] {
    try cameras(in: TOMLDocument(text: text, file: file))
  }

  static func cameras(in document: TOMLDocument) throws -> [Camera] {
    let root = document.rootView
    var cameras: [Camera] = []
    var tableOfName: [String: String] = [:]
    for key in document.rootKeysInFileOrder where !nonCameraTables.contains(key.lowercased()) {
      guard let value = document.root[key] else { continue }
      // A top-level key that is not a table (a stray `version = 1`) is not a camera either.
      guard value.table != nil else { continue }
      let camera = try self.camera(try root.subtable(key)!, tableName: key)
      if let other = tableOfName[camera.name] {
        throw InputError(
          file: document.file, location: .key("\(key).name"),
          "camera name '\(camera.name)' is used twice (tables [\(other)] and [\(key)])")
      }
      tableOfName[camera.name] = key
      cameras.append(camera)
    }
    if cameras.isEmpty {
      throw InputError(
        file: document.file,
        "no camera tables found (expected tables such as [cam01] with size, matrix, distortions, rotation, translation)")
    }
    return cameras
  }

  static func camera(_ t: TOMLTableView, tableName: String) throws -> Camera {
    let name = try t.string("name") ?? tableName
    if name.isEmpty { throw t.fail("name", "must not be empty") }
    let size = try t.required("size") { try t.numbers($0, count: [2]) }
    guard size.allSatisfy({ $0 >= 1 && $0 == $0.rounded() && $0 < 1e6 }) else {
      throw t.fail("size", "expected [width, height] as positive whole pixels, got \(size)")
    }
    let k = try t.required("matrix") { try t.matrix($0, rows: 3, columns: 3) }
    guard k[3] == 0, k[6] == 0, k[7] == 0, abs(k[8] - 1) < 1e-9 else {
      throw t.fail("matrix", "expected an intrinsic matrix [[fx, s, cx], [0, fy, cy], [0, 0, 1]]")
    }
    let fisheye = try t.bool("fisheye") ?? false
    let distortion = try t.required("distortions") { try t.numbers($0, count: fisheye ? [4] : [4, 5]) }
    let rotation = try self.rotation(t)
    let translation = try t.required("translation") { try t.numbers($0, count: [3]) }
    let camera = Camera(
      name: name, imageSize: ImageSize(width: Int(size[0]), height: Int(size[1])),
      fx: k[0], fy: k[4], cx: k[2], cy: k[5], skew: k[1], lensModel: fisheye ? .fisheye : .pinhole,
      distortion: distortion,
      camFromWorld: RigidTransform(rotation: rotation, translation: SIMD3(translation[0], translation[1], translation[2])))
    try CameraRanges.check(camera) { part, message in t.fail(key(part), message) }
    return camera
  }

  /// The key of a camera table holding `part`.
  static func key(_ part: CameraRanges.Part) -> String {
    switch part {
    case .intrinsics: "matrix"
    case .distortion: "distortions"
    case .rotation: "rotation"
    case .translation: "translation"
    }
  }

  /// The `rotation` key: a Rodrigues vector (OpenCV `cv::Rodrigues`), or a 3×3 matrix that must be a
  /// proper rotation (orthonormal within 1e-6, determinant +1).
  static func rotation(_ t: TOMLTableView) throws -> Matrix3 {
    guard let value = t.table["rotation"] else {
      throw t.fail("rotation", "missing (required: a Rodrigues vector [rx, ry, rz], world → camera)")
    }
    let isMatrix = value.array?.first?.array != nil
    if !isMatrix {
      let r = try t.numbers("rotation", count: [3])!
      let vector = SIMD3(r[0], r[1], r[2])
      try CameraRanges.checkRodrigues(vector) { part, message in t.fail(key(part), message) }
      return Matrix3.rodrigues(vector)
    }
    let rotation = Matrix3(rowMajor: try t.matrix("rotation", rows: 3, columns: 3)!)
    if let problem = rotationProblem(rotation, tolerance: 1e-6) { throw t.fail("rotation", problem) }
    return rotation
  }

  /// Why `r` is not a proper rotation (orthonormal and determinant +1 within `tolerance`, see
  /// `Matrix3.isRotation`), or nil when it is. Shared by every calibration reader.
  static func rotationProblem(_ r: Matrix3, tolerance: Double) -> String? {
    if r.isRotation(tolerance: tolerance) { return nil }
    let exponent = log10(tolerance)
    let limit = exponent == exponent.rounded() ? "1e\(Int(exponent))" : shortNumber(tolerance)
    return "not a rotation matrix: R·Rᵀ − I or det(R) − 1 is off by \(shortNumber(r.rotationDefect)) (tolerance \(limit); det = \(shortNumber(r.determinant)))"
  }

  static func shortNumber(_ x: Double) -> String { String(format: "%.3g", x) }

  /// The calibration as Pose2Sim TOML text. Numbers are written in Swift's shortest round-trip form,
  /// so `parse(render(c))` gives back every number exactly (the rotation goes through a Rodrigues
  /// vector and comes back within ~1e-15). A `[metadata]` table closes the file as Pose2Sim writes it.
  public static func render(_ cameras: [Camera]) -> String {
    var out = ""
    for c in cameras {
      let r = c.camFromWorld.rotation.rodriguesVector, t = c.camFromWorld.translation
      let dist = c.lensModel == .fisheye ? Array(c.distortion.prefix(4)) : c.distortion
      out += "[\(quoteKey(c.name))]\n"
      out += "name = \(quoteString(c.name))\n"
      out += "size = \(tomlList([Double(c.imageSize.width), Double(c.imageSize.height)]))\n"
      out += "matrix = [ \(tomlList([c.fx, c.skew, c.cx])), \(tomlList([0, c.fy, c.cy])), \(tomlList([0, 0, 1])),]\n"
      out += "distortions = \(tomlList(dist))\n"
      out += "rotation = \(tomlList([r.x, r.y, r.z]))\n"
      out += "translation = \(tomlList([t.x, t.y, t.z]))\n"
      out += "fisheye = \(c.lensModel == .fisheye)\n\n"
    }
    out += "[metadata]\nadjusted = false\nerror = 0.0\n"
    return out
  }

  /// Writes the calibration atomically (see `render(_:)`).
  public static func write(_ cameras: [Camera], to url: URL) throws {
    try AtomicFile.write(render(cameras), to: url)
  }

  /// A TOML float with round-trip precision: Swift's shortest representation that parses back to the
  /// same `Double` (`1400.0`, `0.00041`, `1e-07`), all valid TOML 1.0 floats.
  static func tomlNumber(_ x: Double) -> String {
    precondition(x.isFinite, "calibration numbers are finite")
    return "\(x)"
  }

  /// A list in Pose2Sim's style, `[ 1.0, 2.0,]`.
  static func tomlList(_ xs: [Double]) -> String { "[ " + xs.map(tomlNumber).joined(separator: ", ") + ",]" }

  /// A bare key when TOML allows one (`A-Za-z0-9_-`), else a quoted key.
  static func quoteKey(_ key: String) -> String {
    !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
      ? key : quoteString(key)
  }

  /// A TOML basic string with `"`, `\` and control characters escaped (TOML 1.0, "String").
  static func quoteString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += String(format: "\\u%04X", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
