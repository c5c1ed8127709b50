import Foundation
import MatchSceneCore

/// Camera calibration as Qualisys Track Manager exports it: a `.qca.txt` file, XML despite the
/// name (as in Pose2Sim's demo, `S01_Demo_SingleTrial/calibration/Calib.qca.txt`):
///
/// ```xml
/// <calibration …><cameras>
///   <camera active="1" model="Miqus Video" serial="cam_01" video_resolution="1080p" avg-residual="0.40">
///     <fov_video left="0" top="0" right="1919" bottom="1087"/>
///     <transform x="1460.2" y="-1909.2" z="1896.5" r11="…" r12="…" … r33="…"/>
///     <intrinsic focalLengthU="107599.7" focalLengthV="107588.8" centerPointU="61440" centerPointV="34816"
///                radialDistortion1="-0.046" radialDistortion2="0.14" tangentalDistortion1="0.0006" tangentalDistortion2="0.0007" …/>
///   </camera> …
/// </cameras></calibration>
/// ```
///
/// Read the way Pose2Sim converts it to TOML (`Pose2Sim/calibration.py`, `read_qca` and
/// `calib_qca_fun`, 0.9–0.10), so that both give the same cameras:
///
/// - Cameras: the `<camera>` elements whose `model` is a video camera (`Miqus Video`,
///   `Miqus Video UnderWater`, or `none` as converters write); marker-only cameras are skipped with a
///   note. Named by `serial`, ordered naturally by it (`cam_2` before `cam_10`).
/// - Resolution: `s = 1080 / R` with `R` from `video_resolution` (`"720p"` → 720; 1080 when
///   absent), and the binning factor `b` (1 unless the video was binned, e.g. 2 for 540p): pixel
///   quantities of the file are in 1080p units.
/// - Image size: `(right − left + 1) / b / s` × `(bottom − top + 1) / b / s` of `fov_video`.
/// - Intrinsics (the file stores them × 64, sub-pixel units): `fx = focalLengthU / 64 / b / s`,
///   `fy` likewise from `focalLengthV`; `cx = (centerPointU / 64 / b − left) / s`,
///   `cy = (centerPointV / 64 / b − top) / s` (the principal point is on the sensor, the video
///   window starts at `left`, `top`).
/// - Distortion: `k1, k2, p1, p2` = `radialDistortion1`, `radialDistortion2`,
///   `tangentalDistortion1`, `tangentalDistortion2` (Qualisys' spelling), each `/ 64 / b` as Pose2Sim
///   scales them; `radialDistortion3` is not used (k3 = 0). OpenCV pinhole.
/// - Extrinsics: `x, y, z` is the camera's position in millimetres; the matrix
///   `M = [[r11, r12, r13], [r21, r22, r23], [r31, r32, r33]]` holds in its rows the camera's
///   axes in the world, Qualisys' camera looking down its −z with y up. In OpenCV's camera frame
///   (z forward, y down): `camFromWorld.rotation = diag(1, −1, −1) · M`,
///   `camFromWorld.translation = −rotation · position / 1000`.
///   `M` must be a rotation within 1e-5.
///
/// Every number must be finite and within `CameraRanges`.
public enum QualisysCalibration {
  /// `model` values of video cameras.
  public static let videoModels: Set<String> = ["Miqus Video", "Miqus Video UnderWater", "none"]

  /// Whether a file name is a Qualisys calibration's (`*.qca.txt`, any case).
  public static func isQualisysFile(_ name: String) -> Bool { name.lowercased().hasSuffix(".qca.txt") }

  /// Reads the video cameras of a `.qca.txt` file, with a note per camera skipped.
  /// - Parameter binning: the binning factor (1 unless the video was binned).
  /// - Throws: `InputError` naming the file, the camera's serial and the element or attribute
  ///   missing, malformed or out of range; the line of malformed XML.
  public static func read(from url: URL, binning: Int = 1) throws -> (cameras: [Camera], diagnostics: [Diagnostic]) {
    try parse(TOMLDocument.readText(url), file: url.path, binning: binning)
  }

  /// Parses `.qca.txt` text; `file` names it in errors. Same checks as `read`.
  public static func parse(_ text: String, file: String, binning: Int = 1) throws -> (cameras: [Camera], diagnostics: [Diagnostic]) {
    guard (1...16).contains(binning) else { throw InputError(file: file, "binning factor \(binning) outside 1–16") }
    let elements = try cameraElements(XMLTags(text: text, file: file), file: file)
    var cameras: [Camera] = []
    var diagnostics: [Diagnostic] = []
    for element in elements {
      let serial = element.camera.attributes["serial"] ?? ""
      let model = element.camera.attributes["model"] ?? ""
      guard videoModels.contains(model) else {
        diagnostics.append(Diagnostic(.note, InputError(
          file: file, location: .line(element.camera.line),
          "camera '\(serial)' (model '\(model)') is not a video camera; skipped")))
        continue
      }
      let camera = try self.camera(element, serial: serial, file: file, binning: Double(binning))
      if cameras.contains(where: { $0.name == camera.name }) {
        throw InputError(file: file, location: .line(element.camera.line), "camera serial '\(serial)' appears twice")
      }
      cameras.append(camera)
    }
    if cameras.isEmpty {
      throw InputError(file: file, "no video camera (<camera model=\"Miqus Video\" …> with fov_video, intrinsic and transform)")
    }
    return (cameras.sorted { naturalOrder($0.name, $1.name) }, diagnostics)
  }

  /// A `<camera>` and its child elements by name.
  struct CameraElement {
    var camera: XMLTags.Tag
    var children: [String: XMLTags.Tag] = [:]
  }

  /// The `<camera>` elements of `<cameras>` with their children.
  static func cameraElements(_ xml: XMLTags, file: String) throws -> [CameraElement] {
    var out: [CameraElement] = []
    var current: CameraElement?
    for tag in xml.tags {
      if tag.name == "camera" && !tag.isClosing {
        if current != nil { throw InputError(file: file, location: .line(tag.line), "not valid XML: <camera> inside <camera>") }
        current = CameraElement(camera: tag)
        if tag.isEmpty {
          out.append(current!)
          current = nil
        }
      } else if tag.name == "camera" {
        if let c = current { out.append(c) }
        current = nil
      } else if !tag.isClosing, current != nil, current!.children[tag.name] == nil {
        current!.children[tag.name] = tag
      }
    }
    if let c = current { throw InputError(file: file, location: .line(c.camera.line), "not valid XML: <camera> is never closed") }
    return out
  }

  static func camera(_ element: CameraElement, serial: String, file: String, binning b: Double) throws -> Camera {
    let where_ = "camera '\(serial)'"
    func fail(_ line: Int, _ message: String) -> InputError { InputError(file: file, location: .line(line), "\(where_): \(message)") }
    if serial.isEmpty { throw fail(element.camera.line, "no serial (the camera's name)") }
    func child(_ name: String) throws -> XMLTags.Tag {
      guard let tag = element.children[name] else { throw fail(element.camera.line, "missing <\(name)>") }
      return tag
    }
    func number(_ tag: XMLTags.Tag, _ key: String) throws -> Double {
      guard let text = tag.attributes[key] else { throw fail(tag.line, "<\(tag.name)> lacks \(key)") }
      guard let x = Double(text.trimmingCharacters(in: .whitespaces)), x.isFinite else {
        throw fail(tag.line, "<\(tag.name)> \(key)=\"\(text)\" is not a finite number")
      }
      return x
    }
    let resolution = try self.resolution(element.camera, fail: fail)
    let s = 1080 / resolution
    let fov = try child("fov_video"), intrinsic = try child("intrinsic"), transform = try child("transform")
    let left = try number(fov, "left"), top = try number(fov, "top")
    let width = ((try number(fov, "right") - left + 1) / b / s).rounded()
    let height = ((try number(fov, "bottom") - top + 1) / b / s).rounded()
    guard (1..<1e6).contains(width), (1..<1e6).contains(height) else {
      throw fail(fov.line, "<fov_video> gives an image of \(width) × \(height) px; expected 1–999999 px each way")
    }
    let fx = try number(intrinsic, "focalLengthU") / 64 / b / s, fy = try number(intrinsic, "focalLengthV") / 64 / b / s
    let cx = (try number(intrinsic, "centerPointU") / 64 / b - left) / s
    let cy = (try number(intrinsic, "centerPointV") / 64 / b - top) / s
    let distortion = try ["radialDistortion1", "radialDistortion2", "tangentalDistortion1", "tangentalDistortion2"].map {
      try number(intrinsic, $0) / 64 / b
    }
    let m = Matrix3(rowMajor: try (1...3).flatMap { r in try (1...3).map { c in try number(transform, "r\(r)\(c)") } })
    if let problem = CalibrationTOML.rotationProblem(m, tolerance: 1e-5) { throw fail(transform.line, "<transform> r11…r33: \(problem)") }
    let position = SIMD3(try number(transform, "x"), try number(transform, "y"), try number(transform, "z")) / 1000
    let rotation = Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1]) * m
    let camera = Camera(
      name: serial, imageSize: ImageSize(width: Int(width), height: Int(height)), fx: fx, fy: fy, cx: cx, cy: cy,
      lensModel: .pinhole, distortion: distortion,
      camFromWorld: RigidTransform(rotation: rotation, translation: -(rotation * position)))
    try CameraRanges.check(camera) { part, message in
      switch part {
      case .intrinsics, .distortion: fail(intrinsic.line, "<intrinsic>: \(message)")
      case .rotation, .translation: fail(transform.line, "<transform> x, y, z (mm): \(message)")
      }
    }
    return camera
  }

  /// The vertical video resolution of `video_resolution` (`"1080p"` → 1080), 1080 when absent.
  static func resolution(_ camera: XMLTags.Tag, fail: (Int, String) -> InputError) throws -> Double {
    guard let text = camera.attributes["video_resolution"] else { return 1080 }
    let digits = text.lowercased().hasSuffix("p") ? String(text.dropLast()) : text
    guard let r = Int(digits), (1...100_000).contains(r) else {
      throw fail(camera.line, "video_resolution=\"\(text)\" is not a resolution such as 1080p")
    }
    return Double(r)
  }

  /// `a` before `b` in natural order: runs of digits compare as numbers (`cam_2` < `cam_10`), the rest without case.
  static func naturalOrder(_ a: String, _ b: String) -> Bool {
    func parts(_ s: String) -> [(text: String, number: Double?)] {
      var out: [(String, Double?)] = []
      var run = "", digits = false
      for c in s {
        let isDigit = c.isASCII && c.isNumber
        if !run.isEmpty && isDigit != digits {
          out.append((run, digits ? Double(run) : nil))
          run = ""
        }
        run.append(c)
        digits = isDigit
      }
      if !run.isEmpty { out.append((run, digits ? Double(run) : nil)) }
      return out
    }
    for (x, y) in zip(parts(a), parts(b)) {
      if let nx = x.number, let ny = y.number, nx != ny { return nx < ny }
      if x.text.lowercased() != y.text.lowercased() { return x.text.lowercased() < y.text.lowercased() }
    }
    return parts(a).count < parts(b).count || (parts(a).count == parts(b).count && a < b)
  }

  /// The cameras as a `.qca.txt` file that `parse` reads back to them (distortion k3 aside; video
  /// cameras at 1080p units, `fov_video` from 0, 0): for tests and for handing a calibration back
  /// to tools that read Qualisys files. Numbers in Swift's shortest round-trip form.
  public static func render(_ cameras: [Camera]) -> String {
    func q(_ x: Double) -> String { "\"\(x)\"" }
    func escape(_ s: String) -> String {
      s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "<", with: "&lt;")
    }
    var out = "<?xml version='1.0' encoding='ASCII'?>\n<calibration type=\"regular\">\n  <cameras>\n"
    for c in cameras {
      let m = (Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1]) * c.camFromWorld.rotation).m
      let p = c.center * 1000
      let d = c.distortion.map { $0 * 64 }
      out += "    <camera active=\"1\" model=\"none\" serial=\"\(escape(c.name))\">\n"
      out += "      <fov_video left=\"0\" top=\"0\" right=\"\(c.imageSize.width - 1)\" bottom=\"\(c.imageSize.height - 1)\"/>\n"
      out += "      <transform x=\(q(p.x)) y=\(q(p.y)) z=\(q(p.z))"
      for (i, v) in m.enumerated() { out += " r\(i / 3 + 1)\(i % 3 + 1)=\(q(v))" }
      out += "/>\n      <intrinsic focalLengthU=\(q(c.fx * 64)) focalLengthV=\(q(c.fy * 64)) centerPointU=\(q(c.cx * 64))"
      out += " centerPointV=\(q(c.cy * 64)) radialDistortion1=\(q(d[0])) radialDistortion2=\(q(d[1]))"
      out += " radialDistortion3=\"0\" tangentalDistortion1=\(q(d[2])) tangentalDistortion2=\(q(d[3])) skew=\"0\"/>\n"
      out += "    </camera>\n"
    }
    return out + "  </cameras>\n</calibration>\n"
  }
}
