import Foundation
import MatchSceneCore
import TOMLKit

/// Camera calibration in the TOML layout of Pose2Sim and anipose: one table per camera with `name`,
/// `size` (w, h), `matrix` (3×3 K), `distortions` (k1 k2 p1 p2 [k3], or fisheye k1..k4), `rotation`
/// (Rodrigues vector, world → camera; a 3×3 matrix is accepted too), `translation` (world → camera,
/// metres) and optional `fisheye`. Tables named `metadata`, `capture_volume`, `charuco` and
/// `checkerboard` are not cameras.
public enum CalibrationTOML {
  static let nonCameraTables: Set<String> = ["metadata", "capture_volume", "charuco", "checkerboard"]

  /// Reads every camera of a calibration file, in file order.
  /// - Throws: `InputError` naming the file and the key for anything missing or malformed.
  public static func read(from url: URL) throws -> [Camera] {
    let document = try TOMLDocument(contentsOf: url)
    return try cameras(in: document)
  }

  /// Parses calibration text (`file` names it in errors).
  public static func parse(_ text: String, file: String) throws -> [Camera] {
    try cameras(in: TOMLDocument(text: text, file: file))
  }

  static func cameras(in document: TOMLDocument) throws -> [Camera] {
    let root = document.rootView
    var cameras: [Camera] = []
    for key in orderedKeys(document) where !nonCameraTables.contains(key.lowercased()) {
      guard let table = try root.subtable(key) else { continue }
      cameras.append(try camera(table, tableName: key))
    }
    if cameras.isEmpty {
      throw InputError(file: document.file, "no camera tables found (expected tables with name, size, matrix, distortions, rotation, translation)")
    }
    var seen: [String: String] = [:]
    for camera in cameras {
      if let other = seen[camera.name] {
        throw InputError(file: document.file, location: .key(camera.name), "camera name '\(camera.name)' is used twice (tables \(other))")
      }
      seen[camera.name] = camera.name
    }
    return cameras
  }

  /// Table names in the order they appear in the file (TOMLKit's keys are unordered).
  static func orderedKeys(_ document: TOMLDocument) -> [String] {
    let keys = document.root.keys
    guard let text = try? String(contentsOfFile: document.file, encoding: .utf8) else { return keys.sorted() }
    var order: [String: Int] = [:]
    for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let t = line.trimmingCharacters(in: .whitespaces)
      guard t.hasPrefix("["), !t.hasPrefix("[["), let close = t.firstIndex(of: "]") else { continue }
      var name = String(t[t.index(after: t.startIndex)..<close]).trimmingCharacters(in: .whitespaces)
      if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
      if order[name] == nil { order[name] = n }
    }
    return keys.sorted { (order[$0] ?? Int.max, $0) < (order[$1] ?? Int.max, $1) }
  }

  static func camera(_ t: TOMLTableView, tableName: String) throws -> Camera {
    let name = try t.string("name") ?? tableName
    let size = try t.required("size") { try t.numbers($0, count: [2]) }
    guard size[0] >= 1, size[1] >= 1 else { throw t.fail("size", "image size must be positive, got \(size)") }
    let k = try t.required("matrix") { try t.matrix($0, rows: 3, columns: 3) }
    guard k[0] > 0, k[4] > 0 else { throw t.fail("matrix", "focal lengths K[0][0] and K[1][1] must be positive") }
    guard k[3] == 0, k[6] == 0, k[7] == 0, abs(k[8] - 1) < 1e-9 else {
      throw t.fail("matrix", "expected an intrinsic matrix [[fx, s, cx], [0, fy, cy], [0, 0, 1]]")
    }
    let fisheye = try t.bool("fisheye") ?? false
    let distortion = try t.numbers("distortions", count: [0, 4, 5]) ?? []
    let rotation: Matrix3
    if let vector = try? t.numbers("rotation", count: [3]) {
      rotation = Matrix3.rodrigues(SIMD3(vector[0], vector[1], vector[2]))
    } else if let m = try? t.matrix("rotation", rows: 3, columns: 3) {
      rotation = Matrix3(rowMajor: m)
      guard rotation.isRotation(tolerance: 1e-6) else {
        throw t.fail("rotation", String(format: "not a rotation matrix (orthonormality/determinant defect %.2g, tolerance 1e-6)", rotation.rotationDefect))
      }
    } else if t.contains("rotation") {
      _ = try t.numbers("rotation", count: [3])  // reports what is wrong with it
      throw t.fail("rotation", "expected a Rodrigues vector [rx, ry, rz] or a 3×3 rotation matrix")
    } else {
      throw t.fail("rotation", "missing (a Rodrigues vector, world → camera, is required)")
    }
    let translation = try t.required("translation") { try t.numbers($0, count: [3]) }
    return Camera(
      name: name, imageSize: ImageSize(width: Int(size[0].rounded()), height: Int(size[1].rounded())),
      fx: k[0], fy: k[4], cx: k[2], cy: k[5], skew: k[1], lensModel: fisheye ? .fisheye : .pinhole,
      distortion: distortion,
      camFromWorld: RigidTransform(rotation: rotation, translation: SIMD3(translation[0], translation[1], translation[2])))
  }

  /// The calibration as Pose2Sim TOML text, every number with round-trip precision.
  public static func render(_ cameras: [Camera]) -> String {
    func n(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(format: "%.1f", x) : "\(x)" }
    func list(_ xs: [Double]) -> String { "[ " + xs.map(n).joined(separator: ", ") + ",]" }
    var out = ""
    for c in cameras {
      let r = c.camFromWorld.rotation.rodriguesVector, t = c.camFromWorld.translation
      let dist = c.lensModel == .fisheye ? Array(c.distortion.prefix(4)) : c.distortion
      out += """
        [\(quoteKey(c.name))]
        name = "\(c.name)"
        size = \(list([Double(c.imageSize.width), Double(c.imageSize.height)]))
        matrix = [ \(list([c.fx, c.skew, c.cx])), \(list([0, c.fy, c.cy])), \(list([0, 0, 1])),]
        distortions = \(list(dist))
        rotation = \(list([r.x, r.y, r.z]))
        translation = \(list([t.x, t.y, t.z]))
        fisheye = \(c.lensModel == .fisheye)


        """
    }
    out += "[metadata]\nadjusted = false\nerror = 0.0\n"
    return out
  }

  /// Writes the calibration atomically.
  public static func write(_ cameras: [Camera], to url: URL) throws {
    try AtomicFile.write(render(cameras), to: url)
  }

  static func quoteKey(_ key: String) -> String {
    key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ? key : "\"\(key)\""
  }
}
