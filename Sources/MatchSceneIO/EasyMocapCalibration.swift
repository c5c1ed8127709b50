import Foundation
import MatchSceneCore

/// Camera calibration as EasyMocap stores it (`easymocap/mytools/camera_utils.py`, `read_camera` and
/// `write_camera`; EasyMocap docs, "Calibration"): two OpenCV FileStorage YAML files side by side
/// (see `OpenCVYAML` for the subset read),
///
/// ```yaml
/// # intri.yml                                # extri.yml
/// %YAML:1.0                                  %YAML:1.0
/// ---                                        ---
/// names:                                     names:
///   - "cam01"                                  - "cam01"
/// K_cam01: !!opencv-matrix                   R_cam01: !!opencv-matrix     # Rodrigues, 3×1
///   rows: 3                                    rows: 3
///   cols: 3                                    cols: 1
///   dt: d                                      dt: d
///   data: [1400., 0., 959.5, 0., 1400.,        data: [1.7318, 0.6904, -0.5123]
///          539.5, 0., 0., 1.]                Rot_cam01: !!opencv-matrix   # 3×3 (optional)
/// dist_cam01: !!opencv-matrix                  …
///   rows: 1                                  T_cam01: !!opencv-matrix     # 3×1, metres
///   cols: 5                                    rows: 3
///   dt: d                                      cols: 1
///   data: [-0.12, 0.05, 0.0003, -0.0002, 0.]   dt: d
/// H_cam01: 1080                                data: [0.3185, 0.8611, 4.4027]
/// W_cam01: 1920
/// ```
///
/// so that `x_cam = R · x_world + T` (EasyMocap: "`RX + T` converts point `X` in world coordinate to
/// camera coordinate"; `T` in metres). The contract:
///
/// - The cameras are intri.yml's `names`, in that order (a numeric entry such as `- 1` is the name
///   `1`); extri.yml's own `names` is not consulted. Every name needs `K_<name>` (3×3, fx, fy > 0,
///   last row 0 0 1) and `dist_<name>` (or `D_<name>`, as `read_camera` falls back to: 4 or 5
///   coefficients k1 k2 p1 p2 [k3], any 1×n or n×1 shape) in intri.yml, and `T_<name>` (3 numbers)
///   and a rotation in extri.yml: `R_<name>` (a Rodrigues vector, which EasyMocap itself reads) or,
///   when absent, `Rot_<name>` (3×3). When both are given `R_` is used and `Rot_` must agree with
///   it within 1e-4. A `Rot_` alone must be a proper rotation within 1e-5 (looser than the TOML
///   reader's 1e-6 because EasyMocap writes 6 decimals, which leaves R·Rᵀ − I near 2e-6).
/// - Image size: `W_<name>` and `H_<name>` (both or neither, positive integers) when present.
///   Otherwise it is taken as round(2·cx) × round(2·cy) — the principal point assumed at the
///   image centre — and a `note` diagnostic says so for that camera; nothing else is assumed.
/// - The lens is always OpenCV pinhole: the layout has no fisheye flag.
/// - Every number must be finite; other keys (`Rvec_`, `P_`, dates) are ignored.
public enum EasyMocapCalibration {
  public static let intriFileName = "intri.yml"
  public static let extriFileName = "extri.yml"

  /// Reads the cameras of an `intri.yml` / `extri.yml` pair (see the type's contract).
  /// - Throws: `InputError` naming the file and key (`K_cam01`, `T_cam02`) of anything missing or
  ///   malformed, or the line of a YAML construct outside the subset.
  public static func read(intri: URL, extri: URL) throws -> [Camera] {
    try readWithDiagnostics(intri: intri, extri: extri).cameras
  }

  /// Like `read(intri:extri:)`, with a `note` per camera whose image size came from its principal point.
  public static func readWithDiagnostics(intri: URL, extri: URL) throws -> (cameras: [Camera], diagnostics: [Diagnostic]) {
    try cameras(intri: OpenCVYAML(contentsOf: intri), extri: OpenCVYAML(contentsOf: extri))
  }

  /// Parses the two files' text; `intriFile` and `extriFile` name them in errors. Same checks as `read`.
  public static func parse(
    intri: String, extri: String, intriFile: String = intriFileName, extriFile: String = extriFileName
  ) throws -> (cameras: [Camera], diagnostics: [Diagnostic]) {
    try cameras(intri: OpenCVYAML(text: intri, file: intriFile), extri: OpenCVYAML(text: extri, file: extriFile))
  }

  static func cameras(intri: OpenCVYAML, extri: OpenCVYAML) throws -> (cameras: [Camera], diagnostics: [Diagnostic]) {
    let names = try cameraNames(intri)
    var cameras: [Camera] = []
    var diagnostics: [Diagnostic] = []
    for name in names {
      let (camera, sizeFromCentre) = try self.camera(name, intri: intri, extri: extri)
      if sizeFromCentre {
        diagnostics.append(Diagnostic(.note, InputError(
          file: intri.file, location: .key("K_\(name)"),
          "no H_\(name) / W_\(name): image size taken as 2·cx × 2·cy = \(camera.imageSize.width) × \(camera.imageSize.height)")))
      }
      cameras.append(camera)
    }
    return (cameras, diagnostics)
  }

  /// intri.yml's `names`: non-empty, distinct.
  static func cameraNames(_ intri: OpenCVYAML) throws -> [String] {
    func fail(_ message: String) -> InputError { InputError(file: intri.file, location: .key("names"), message) }
    guard let value = intri["names"] else {
      throw fail("missing; expected the list of camera names (EasyMocap's intri.yml starts with names: - \"cam01\" …)")
    }
    guard let items = value.sequence else { throw fail("expected a list of camera names") }
    var names: [String] = []
    for (i, item) in items.enumerated() {
      guard let name = item.scalar, !name.isEmpty else { throw fail("entry \(i + 1) is not a camera name") }
      if names.contains(name) { throw fail("camera name '\(name)' is listed twice") }
      names.append(name)
    }
    if names.isEmpty { throw fail("no camera names") }
    return names
  }

  /// One camera, and whether its image size came from the principal point.
  static func camera(_ name: String, intri: OpenCVYAML, extri: OpenCVYAML) throws -> (Camera, Bool) {
    let kKey = "K_\(name)"
    guard let k = try matrix(intri, kKey, shapes: [(3, 3)]) else { throw missing(intri, kKey, "a 3×3 intrinsic matrix") }
    guard k[3] == 0, k[6] == 0, k[7] == 0, abs(k[8] - 1) < 1e-9 else {
      throw InputError(file: intri.file, location: .key(kKey), "expected an intrinsic matrix [[fx, s, cx], [0, fy, cy], [0, 0, 1]]")
    }
    let distKey = intri["dist_\(name)"] == nil && intri["D_\(name)"] != nil ? "D_\(name)" : "dist_\(name)"
    guard let distortion = try matrix(intri, distKey, shapes: [(1, 4), (4, 1), (1, 5), (5, 1)]) else {
      throw missing(intri, distKey, "distortion coefficients k1 k2 p1 p2 [k3]")
    }

    let height = try whole(intri, "H_\(name)"), width = try whole(intri, "W_\(name)")
    let size: ImageSize
    let fromCentre = height == nil && width == nil
    switch (width, height) {
    case (let w?, let h?): size = ImageSize(width: w, height: h)
    case (nil, nil):
      let sizes = 1..<1e6
      guard sizes.contains((2 * k[2]).rounded()), sizes.contains((2 * k[5]).rounded()) else {
        throw InputError(
          file: intri.file, location: .key(kKey),
          "no H_\(name) / W_\(name) and the principal point (\(k[2]), \(k[5])) cannot give the image size; add them")
      }
      size = ImageSize(width: Int((2 * k[2]).rounded()), height: Int((2 * k[5]).rounded()))
    default:
      let absent = width == nil ? "W_\(name)" : "H_\(name)"
      throw missing(intri, absent, "the image \(width == nil ? "width" : "height") in pixels, as its partner is given")
    }

    let rotation = try self.rotation(name, extri: extri)
    let tKey = "T_\(name)"
    guard let t = try matrix(extri, tKey, shapes: [(3, 1), (1, 3)]) else {
      throw missing(extri, tKey, "a 3×1 translation world → camera, metres")
    }
    let camera = Camera(
      name: name, imageSize: size, fx: k[0], fy: k[4], cx: k[2], cy: k[5], skew: k[1], lensModel: .pinhole,
      distortion: distortion, camFromWorld: RigidTransform(rotation: rotation, translation: SIMD3(t[0], t[1], t[2])))
    try CameraRanges.check(camera) { part, message in
      switch part {
      case .intrinsics: InputError(file: intri.file, location: .key(kKey), message)
      case .distortion: InputError(file: intri.file, location: .key(distKey), message)
      case .rotation, .translation: InputError(file: extri.file, location: .key(part == .rotation ? "R_\(name)" : tKey), message)
      }
    }
    return (camera, fromCentre)
  }

  /// `R_<name>` (Rodrigues) or, without it, `Rot_<name>` (3×3, a rotation within 1e-5).
  static func rotation(_ name: String, extri: OpenCVYAML) throws -> Matrix3 {
    let rKey = "R_\(name)", rotKey = "Rot_\(name)"
    let matrix = try self.matrix(extri, rotKey, shapes: [(3, 3)]).map(Matrix3.init(rowMajor:))
    if let r = try self.matrix(extri, rKey, shapes: [(3, 1), (1, 3)]) {
      let vector = SIMD3(r[0], r[1], r[2])
      try CameraRanges.checkRodrigues(vector) { _, message in InputError(file: extri.file, location: .key(rKey), message) }
      let rotation = Matrix3.rodrigues(vector)
      if let matrix {
        let difference = zip(matrix.m, rotation.m).map { abs($0 - $1) }.max()!
        if difference > 1e-4 {
          throw InputError(
            file: extri.file, location: .key(rotKey),
            "disagrees with \(rKey) by \(CalibrationTOML.shortNumber(difference)) (tolerance 1e-4); EasyMocap reads \(rKey): fix or remove one")
        }
      }
      return rotation
    }
    guard let matrix else {
      throw missing(extri, rKey, "a 3×1 Rodrigues vector world → camera (or \(rotKey), a 3×3 rotation matrix)")
    }
    if let problem = CalibrationTOML.rotationProblem(matrix, tolerance: 1e-5) {
      throw InputError(file: extri.file, location: .key(rotKey), problem)
    }
    return matrix
  }

  static func missing(_ doc: OpenCVYAML, _ key: String, _ what: String) -> InputError {
    InputError(file: doc.file, location: .key(key), "missing (required: \(what))")
  }

  /// The row-major numbers of the `!!opencv-matrix` at `key`, or nil when absent.
  /// - Parameter shapes: the allowed (rows, cols).
  /// - Throws: when present but not a matrix of an allowed shape with `rows × cols` finite numbers.
  static func matrix(_ doc: OpenCVYAML, _ key: String, shapes: [(Int, Int)]) throws -> [Double]? {
    guard let value = doc[key] else { return nil }
    func fail(_ message: String) -> InputError { InputError(file: doc.file, location: .key(key), message) }
    let expected = shapes.map { "\($0.0)×\($0.1)" }.joined(separator: " or ")
    guard value.mapping != nil, let rowsText = value["rows"]?.scalar, let colsText = value["cols"]?.scalar,
      let items = value["data"]?.sequence
    else {
      throw fail("expected a \(expected) !!opencv-matrix with rows, cols, dt and data")
    }
    guard let rows = Int(rowsText), let cols = Int(colsText) else {
      throw fail("rows '\(rowsText)' and cols '\(colsText)' must be integers")
    }
    guard shapes.contains(where: { $0 == (rows, cols) }) else { throw fail("expected a \(expected) matrix, got \(rows)×\(cols)") }
    guard items.count == rows * cols else { throw fail("data holds \(items.count) numbers; expected rows × cols = \(rows * cols)") }
    var out: [Double] = []
    for (i, item) in items.enumerated() {
      guard let text = item.scalar, let x = OpenCVYAML.number(text) else {
        throw fail("data element \(i + 1) is not a number")
      }
      guard x.isFinite else { throw fail("data element \(i + 1) is not finite (\(text))") }
      out.append(x)
    }
    return out
  }

  /// A positive whole number of pixels at `key` (`H_cam01: 1080`), or nil when absent.
  static func whole(_ doc: OpenCVYAML, _ key: String) throws -> Int? {
    guard let value = doc[key] else { return nil }
    guard let text = value.scalar, let x = OpenCVYAML.number(text), x >= 1, x < 1e6, x == x.rounded() else {
      throw InputError(file: doc.file, location: .key(key), "expected a positive whole number of pixels")
    }
    return Int(x)
  }

  // MARK: - Writing

  /// The two files' text, as EasyMocap's `write_camera` lays them out (`names`, then per camera
  /// `K_`, `dist_`, `H_`, `W_` in intri.yml and `R_`, `Rot_`, `T_` in extri.yml). Numbers are written
  /// in Swift's shortest round-trip form, so `parse(render(c))` gives back every intrinsic and
  /// translation exactly and the rotation within ~1e-15 (read back through `R_`).
  /// - Throws: `InputError` for a fisheye camera (the layout has no fisheye model) or a name OpenCV
  ///   cannot use in a key (only `A-Z a-z 0-9 _ -`); `file` names intri.yml in it.
  public static func render(_ cameras: [Camera], file: String = intriFileName) throws -> (intri: String, extri: String) {
    var intri = "%YAML:1.0\n---\nnames:\n", extri = "%YAML:1.0\n---\nnames:\n"
    for c in cameras {
      guard !c.name.isEmpty, c.name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
        throw InputError(file: file, location: .key("names"), "camera name '\(c.name)' cannot be part of an OpenCV key (use A-Z a-z 0-9 _ -)")
      }
      guard c.lensModel == .pinhole else {
        throw InputError(file: file, location: .key("dist_\(c.name)"), "camera '\(c.name)' is fisheye; EasyMocap's intri.yml has no fisheye model")
      }
      intri += "  - \"\(c.name)\"\n"
      extri += "  - \"\(c.name)\"\n"
    }
    for c in cameras {
      let r = c.camFromWorld.rotation, t = c.camFromWorld.translation, rvec = r.rodriguesVector
      intri += matrixText("K_\(c.name)", rows: 3, cols: 3, [c.fx, c.skew, c.cx, 0, c.fy, c.cy, 0, 0, 1])
      intri += matrixText("dist_\(c.name)", rows: 1, cols: 5, c.distortion)
      intri += "H_\(c.name): \(c.imageSize.height)\nW_\(c.name): \(c.imageSize.width)\n"
      extri += matrixText("R_\(c.name)", rows: 3, cols: 1, [rvec.x, rvec.y, rvec.z])
      extri += matrixText("Rot_\(c.name)", rows: 3, cols: 3, r.m)
      extri += matrixText("T_\(c.name)", rows: 3, cols: 1, [t.x, t.y, t.z])
    }
    return (intri, extri)
  }

  /// Writes `intri.yml` and `extri.yml` into `folder`, each atomically (see `render`).
  public static func write(_ cameras: [Camera], to folder: URL) throws {
    let intriURL = folder.appendingPathComponent(intriFileName)
    let text = try render(cameras, file: intriURL.path)
    try AtomicFile.write(text.intri, to: intriURL)
    try AtomicFile.write(text.extri, to: folder.appendingPathComponent(extriFileName))
  }

  static func matrixText(_ key: String, rows: Int, cols: Int, _ data: [Double]) -> String {
    "\(key): !!opencv-matrix\n  rows: \(rows)\n  cols: \(cols)\n  dt: d\n  data: ["
      + data.map(CalibrationTOML.tomlNumber).joined(separator: ", ") + "]\n"
  }
}
