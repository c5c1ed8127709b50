import Foundation
import MatchSceneCore

/// Where to find and how to override the parts of a match folder.
public struct MatchFolderOptions: Sendable {
  /// A calibration file instead of `<match>/calibration/*.toml`.
  public var calibration: URL?
  /// A pose folder instead of `<match>/pose`.
  public var pose: URL?
  /// A ball folder instead of `<match>/ball`.
  public var ball: URL?
  /// Overrides of `match.toml`.
  public var fps: Double?
  public var sport: String?
  public var skeleton: String?
  /// Used when neither the options nor `match.toml` say.
  public var defaultFPS: Double = 60
  public var defaultSport = "table-tennis"
  public var defaultSkeleton = "coco17"
  public init() {}
}

/// A match read from its folder, with the warnings found on the way.
public struct LoadedMatch: Sendable {
  public var match: Match
  public var diagnostics: [Diagnostic]
  /// The frames every camera with detections covers (nil when they do not overlap).
  public var commonFrames: ClosedRange<Int>?
}

/// A match folder: `calibration/*.toml`, `pose/<camera>_json/` (OpenPose JSON), `ball/<camera>.csv`
/// (TrackNet CSV) and an optional `match.toml`.
public enum MatchFolder {
  /// Reads a match. Precedence: options, then `match.toml`, then the defaults.
  /// - Throws: `InputError` naming the file and place of the first problem found.
  public static func load(_ folder: URL, options: MatchFolderOptions = .init()) throws -> LoadedMatch {
    let fm = FileManager.default
    var isFolder: ObjCBool = false
    guard fm.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
      throw InputError(file: folder.path, "not a folder (expected a match folder with calibration/, pose/, ball/)")
    }
    let configURL = folder.appendingPathComponent("match.toml")
    let config = fm.fileExists(atPath: configURL.path) ? try MatchConfig.read(from: configURL) : MatchConfig()
    let calibrationURL = try options.calibration ?? findCalibration(folder.appendingPathComponent("calibration"))
    let cameras = try CalibrationTOML.read(from: calibrationURL)
    let skeletonName = options.skeleton ?? config.skeleton ?? options.defaultSkeleton
    guard let skeleton = Skeleton.builtIn[skeletonName.lowercased()] else {
      throw InputError(
        file: options.skeleton != nil ? "--skeleton" : configURL.path, location: .key("skeleton"),
        "unknown skeleton '\(skeletonName)'; known: \(Skeleton.builtIn.keys.sorted().joined(separator: ", "))")
    }
    let poseURL = options.pose ?? folder.appendingPathComponent("pose")
    let ballURL = options.ball ?? folder.appendingPathComponent("ball")
    let hasPose = fm.fileExists(atPath: poseURL.path), hasBall = fm.fileExists(atPath: ballURL.path)
    if !hasPose && !hasBall {
      throw InputError(file: folder.path, "no detections: neither \(poseURL.path) nor \(ballURL.path) exists")
    }
    let people = hasPose ? try OpenPoseFolder.read(poseFolder: poseURL, skeleton: skeleton) : [:]
    let balls = hasBall ? try TrackNetCSV.read(ballFolder: ballURL) : [:]
    let names = Set(cameras.map(\.name))
    let known = cameras.map(\.name).joined(separator: ", ")
    for camera in people.keys.sorted() where !names.contains(camera) {
      throw InputError(file: poseURL.appendingPathComponent(camera).path, "camera '\(camera)' is not in the calibration \(calibrationURL.path) (it has: \(known))")
    }
    for camera in balls.keys.sorted() where !names.contains(camera) {
      throw InputError(file: ballURL.appendingPathComponent("\(camera).csv").path, "camera '\(camera)' is not in the calibration \(calibrationURL.path) (it has: \(known))")
    }
    for camera in config.frameOffsets.keys.sorted() where !names.contains(camera) {
      throw InputError(file: configURL.path, location: .key("frame_offsets.\(camera)"), "camera '\(camera)' is not in the calibration (it has: \(known))")
    }
    var detections: [String: CameraDetections] = [:]
    var diagnostics: [Diagnostic] = []
    var ranges: [(String, ClosedRange<Int>)] = []
    for camera in cameras {
      let d = CameraDetections(people: people[camera.name] ?? [:], balls: balls[camera.name] ?? [:])
      if d.people.isEmpty && d.balls.isEmpty {
        diagnostics.append(Diagnostic(.warning, InputError(file: calibrationURL.path, location: .key(camera.name), "camera has no detections in \(poseURL.path) or \(ballURL.path)")))
        continue
      }
      detections[camera.name] = d
      let offset = config.frameOffsets[camera.name] ?? 0
      let frames = Array(d.people.keys) + Array(d.balls.keys)
      ranges.append((camera.name, (frames.min()! - offset)...(frames.max()! - offset)))
    }
    var common: ClosedRange<Int>? = nil
    if let first = ranges.first {
      var lo = first.1.lowerBound, hi = first.1.upperBound
      for (_, r) in ranges { lo = max(lo, r.lowerBound); hi = min(hi, r.upperBound) }
      common = lo <= hi ? lo...hi : nil
      if Set(ranges.map { $0.1 }).count > 1 {
        let list = ranges.map { "\($0.0) \($0.1.lowerBound)–\($0.1.upperBound)" }.joined(separator: ", ")
        let use = common.map { "using the common range \($0.lowerBound)–\($0.upperBound)" } ?? "the ranges do not overlap"
        diagnostics.append(Diagnostic(.warning, InputError(file: folder.path, "cameras cover different match frames (\(list)); \(use)")))
      }
    }
    var up = SIMD3<Double>(0, 0, 1)
    if let name = config.up, let v = MatchConfig.upVector(name) { up = v }
    let match = Match(
      sport: options.sport ?? config.sport ?? options.defaultSport, fps: options.fps ?? config.fps ?? options.defaultFPS,
      skeleton: skeleton, cameras: cameras, frameOffsets: config.frameOffsets, detections: detections, worldUp: up)
    return LoadedMatch(match: match, diagnostics: diagnostics, commonFrames: common)
  }

  /// The calibration file in a `calibration/` folder: its only `.toml`, or `calibration.toml`.
  static func findCalibration(_ folder: URL) throws -> URL {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      throw InputError(file: folder.path, "no calibration folder (expected calibration/*.toml, or pass --calibration)")
    }
    let tomls = entries.filter { $0.lowercased().hasSuffix(".toml") }.sorted()
    if tomls.count == 1 { return folder.appendingPathComponent(tomls[0]) }
    if tomls.contains("calibration.toml") { return folder.appendingPathComponent("calibration.toml") }
    throw InputError(
      file: folder.path,
      tomls.isEmpty ? "no .toml calibration file here" : "several calibration files (\(tomls.joined(separator: ", "))); name one calibration.toml or pass --calibration")
  }

  /// Writes a match in the layout `load` reads, covering `frames` (match frames).
  public static func write(_ match: Match, to folder: URL, frames: ClosedRange<Int>) throws {
    try CalibrationTOML.write(match.cameras, to: folder.appendingPathComponent("calibration/calibration.toml"))
    var people: [String: [Int: [PersonDetection2D]]] = [:]
    for camera in match.cameras {
      guard let d = match.detections[camera.name] else { continue }
      let offset = match.frameOffsets[camera.name] ?? 0
      people[camera.name] = d.people
      try TrackNetCSV.write(
        d.balls, frames: (frames.lowerBound + offset)...(frames.upperBound + offset),
        to: folder.appendingPathComponent("ball/\(camera.name).csv"))
    }
    // Every frame gets a file (empty `people` where nobody was seen), as OpenPose writes them.
    var perCamera: [String: [Int: [PersonDetection2D]]] = [:]
    for (camera, byFrame) in people {
      let offset = match.frameOffsets[camera] ?? 0
      var all = byFrame
      for f in frames where all[f + offset] == nil { all[f + offset] = [] }
      perCamera[camera] = all
    }
    try OpenPoseFolder.write(perCamera, to: folder.appendingPathComponent("pose"))
    try MatchConfig(
      sport: match.sport, fps: match.fps, skeleton: match.skeleton.name, up: MatchConfig.upName(match.worldUp),
      frameOffsets: match.frameOffsets
    ).write(to: folder.appendingPathComponent("match.toml"))
  }
}
