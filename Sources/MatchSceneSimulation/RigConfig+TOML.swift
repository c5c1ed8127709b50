import Foundation
import MatchSceneCore
import MatchSceneIO

extension RigConfig {
  /// Reads a camera rig from a TOML file, so users can try their own placement before a match:
  ///
  /// ```toml
  /// [[camera]]
  /// name = "cam1"            # optional, default cam<n>
  /// position = [-4.8, -2.6, 2.5]
  /// target = [0, 0, 0.8]     # optional, default [0, 0, 0.8]
  /// focal_px = 1400          # optional, default 1400
  /// size = [1920, 1080]      # optional, default 1920×1080
  /// distortion = [-0.1, 0.05, 0, 0, 0]   # optional k1, k2, p1, p2, k3 (`distortions` also accepted)
  /// frame_offset = 0         # optional
  /// ```
  ///
  /// - Throws: `InputError` naming the file and the key (`camera[2].position`) of the first problem.
  public static func read(from url: URL) throws -> RigConfig {
    try parse(TOMLDocument(contentsOf: url))
  }

  /// Parses rig TOML text (see `read(from:)`); `file` names the source in errors.
  public static func parse(text: String, file: String = "rig.toml") throws -> RigConfig {
    try parse(TOMLDocument(text: text, file: file))
  }

  static func parse(_ doc: TOMLDocument) throws -> RigConfig {
    guard let value = doc.root["camera"] else {
      throw InputError(file: doc.file, location: .key("camera"), "no [[camera]] table")
    }
    guard let array = value.array else {
      throw InputError(file: doc.file, location: .key("camera"), "expected an array of tables [[camera]]")
    }
    var cameras: [CameraPlacement] = []
    for (i, element) in array.enumerated() {
      let path = "camera[\(i + 1)]"
      guard let table = element.table else {
        throw InputError(file: doc.file, location: .key(path), "expected a table")
      }
      let view = doc.table(table, path: path)
      let defaults = CameraPlacement(name: "", position: .zero, target: SIMD3(0, 0, 0.8))
      let name = try view.string("name") ?? "cam\(i + 1)"
      let position = try view.required("position") { try view.numbers($0, count: [3]) }
      let target = try view.numbers("target", count: [3]) ?? [0, 0, 0.8]
      let focal = try view.number("focal_px") ?? defaults.focalPx
      let size = try view.numbers("size", count: [2]).map { ImageSize(width: Int($0[0]), height: Int($0[1])) }
      let distortion =
        try view.numbers("distortion", count: [0, 4, 5]) ?? view.numbers("distortions", count: [0, 4, 5])
        ?? defaults.distortion
      let placement = CameraPlacement(
        name: name, position: SIMD3(position[0], position[1], position[2]),
        target: SIMD3(target[0], target[1], target[2]), imageSize: size ?? defaults.imageSize, focalPx: focal,
        distortion: distortion, frameOffset: try view.int("frame_offset") ?? 0)
      if let (key, message) = placement.problem {
        throw InputError(file: doc.file, location: .key("\(path).\(key)"), message)
      }
      cameras.append(placement)
    }
    let rig = RigConfig(cameras: cameras)
    try rig.validate(file: doc.file)
    return rig
  }
}
