import Foundation
import MatchSceneCore

/// Where to find and how to override the parts of a match folder. The defaults read
/// `<match>/calibration/` (`*.toml`, or `intri.yml` + `extri.yml`, or `*.qca.txt`), `<match>/pose`,
/// `<match>/ball` and `<match>/match.toml`.
public struct MatchFolderOptions: Sendable {
  /// A calibration instead of `<match>/calibration/`: a Pose2Sim / anipose `.toml` file, an EasyMocap
  /// `intri.yml` (its `extri.yml` beside it; naming the `extri.yml` works too), a Qualisys `.qca.txt`,
  /// or a folder holding one (see `MatchFolder.findCalibration(in:)`).
  public var calibration: URL?
  /// A pose folder instead of `<match>/pose`; it must exist.
  public var pose: URL?
  /// A ball folder instead of `<match>/ball`; it must exist.
  public var ball: URL?
  /// Frames per second, overriding `match.toml`.
  public var fps: Double?
  /// Sport, overriding `match.toml`.
  public var sport: String?
  /// Skeleton name (`Skeleton.builtIn`, or the name of `match.toml`'s `[skeleton]` table), overriding
  /// `match.toml`.
  public var skeleton: String?
  /// Used when neither the options nor `match.toml` give a frame rate.
  public var defaultFPS: Double = 60
  /// The frame rate to use, for the match's sport, when neither the options nor `match.toml` give one
  /// (before `defaultFPS`); `MatchPipeline` gives the sport's own default (`SportSpec.defaultFPS`).
  public var defaultFPSForSport: (@Sendable (String) -> Double?)?
  /// Used when neither the options nor `match.toml` name a sport.
  public var defaultSport = "table-tennis"
  /// Used when neither the options nor `match.toml` name a skeleton.
  public var defaultSkeleton = "coco17"
  /// Where the detection files' SHA-256 are recorded as they are read, for the input hash to reuse
  /// (`MatchOutput.hash(folder:digests:)`); nil records nothing.
  public var digests: FileDigests?

  public init(
    calibration: URL? = nil, pose: URL? = nil, ball: URL? = nil, fps: Double? = nil, sport: String? = nil,
    skeleton: String? = nil
  ) {
    self.calibration = calibration
    self.pose = pose
    self.ball = ball
    self.fps = fps
    self.sport = sport
    self.skeleton = skeleton
  }
}

/// A match read from its folder, with the warnings found on the way.
public struct LoadedMatch: Sendable {
  /// Everything read; detections are kept in full even where cameras' frame ranges differ.
  public var match: Match
  /// Warnings: calibrated cameras without detections, differing frame ranges, unknown `match.toml`
  /// keys, pose files skipped (empty, padding, no frame number), keypoints that fit another built-in
  /// skeleton of the same count better; notes: EasyMocap cameras whose image size came from the
  /// principal point, Qualisys cameras that are not video cameras, the default sport used.
  public var diagnostics: [Diagnostic]
  /// The match frames every camera with detections covers (nil when none has any, or they do not
  /// overlap). Reconstruction should use these.
  public var commonFrames: ClosedRange<Int>?
  /// Per camera with detections: the match frames its files cover (pose files and ball CSV rows,
  /// seen or not).
  public var cameraFrames: [String: ClosedRange<Int>]
}

/// A match folder, as Pose2Sim lays out a trial plus the ball:
///
/// ```
/// <match>/calibration/calibration.toml   Pose2Sim / anipose calibration (the only .toml there, or this name)
///            or intri.yml + extri.yml    EasyMocap / OpenCV FileStorage YAML (when there is no .toml)
///            or <name>.qca.txt           Qualisys calibration (when there is neither)
/// <match>/pose/<camera>_json/*.json      OpenPose JSON, one file per frame
///        or <camera>.json                COCO keypoint results, one file per camera
///        or <camera>.mediapipe.json      MediaPipe pose landmarks (skeleton blazepose33)
///        or <camera>.csv                 DeepLabCut CSV (body parts matched by name)
/// <match>/ball/<camera>.csv              TrackNet CSV (optional)
/// <match>/match.toml                     sport, fps, skeleton (a name or a [skeleton] table), up,
///                                        [frame_offsets] (optional)
/// ```
///
/// Each camera uses one pose format (see `PoseFolder`); cameras may differ.
public enum MatchFolder {
  /// Reads a match. Settings come from the options, then `match.toml`, then the options' defaults.
  ///
  /// Checks: every camera in `pose/`, `ball/` and `[frame_offsets]` must be calibrated (a name
  /// differing only in case, punctuation or leading zeros is matched with a note, see
  /// `CameraNames`); at least one
  /// of `pose/` and `ball/` must exist; a camera has one pose format; MediaPipe needs the
  /// `blazepose33` skeleton. A calibrated camera without detections, cameras covering different
  /// frame ranges and unknown `match.toml` keys are warnings.
  /// - Throws: `InputError` naming the file (and key, line or JSON position) of the first problem.
  public static func load(_ folder: URL, options: MatchFolderOptions = .init()) throws -> LoadedMatch {
    let fm = FileManager.default
    var isFolder: ObjCBool = false
    guard fm.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
      throw InputError(file: folder.path, "not a folder; expected a match folder with calibration/, pose/ and/or ball/")
    }
    if let fps = options.fps, !MatchConfig.fpsRange.contains(fps) {
      throw InputError(
        file: "fps option", "the frame rate must be within \(MatchConfig.shortRange(MatchConfig.fpsRange)) frames per second, got \(fps)")
    }
    var diagnostics: [Diagnostic] = []

    let configURL = folder.appendingPathComponent("match.toml")
    var config = MatchConfig()
    if fm.fileExists(atPath: configURL.path) {
      let doc = try MatchConfig.document(contentsOf: configURL)
      config = try MatchConfig.parse(doc)
      for key in MatchConfig.unknownKeys(in: doc) {
        diagnostics.append(Diagnostic(.warning, InputError(
          file: configURL.path, location: .key(key),
          "unknown key, ignored (known: \(MatchConfig.knownKeys.sorted().joined(separator: ", ")))")))
      }
    }

    let skeletonName = options.skeleton ?? config.skeleton ?? options.defaultSkeleton
    let skeleton: Skeleton
    if let custom = config.customSkeleton, custom.name == skeletonName {
      skeleton = custom
    } else if let builtIn = Skeleton.builtIn[skeletonName.lowercased()] {
      skeleton = builtIn
    } else {
      let known = (Array(Skeleton.builtIn.keys) + [config.customSkeleton?.name].compactMap { $0 }).sorted().joined(separator: ", ")
      throw InputError(
        file: options.skeleton != nil || config.skeleton == nil ? "skeleton option" : configURL.path,
        location: .key("skeleton"), "unknown skeleton '\(skeletonName)'; known: \(known)")
    }

    let calibration = try readCalibration(options.calibration ?? findCalibration(in: folder.appendingPathComponent("calibration")))
    let cameras = calibration.cameras, calibrationURL = calibration.file
    diagnostics += calibration.diagnostics

    let poseURL = options.pose ?? folder.appendingPathComponent("pose")
    let ballURL = options.ball ?? folder.appendingPathComponent("ball")
    for (url, given) in [(poseURL, options.pose != nil), (ballURL, options.ball != nil)] where given {
      guard fm.fileExists(atPath: url.path) else { throw InputError(file: url.path, "no such folder") }
    }
    let hasPose = fm.fileExists(atPath: poseURL.path), hasBall = fm.fileExists(atPath: ballURL.path)
    if !hasPose && !hasBall {
      throw InputError(file: folder.path, "no detections: neither \(poseURL.path) nor \(ballURL.path) exists")
    }
    // Camera names and formats are checked before the (long) reading of every file.
    var names = CameraNames(calibrated: cameras.map(\.name), calibrationFile: calibrationURL)
    var poseSources: [PoseFolder.Source] = []
    for var source in hasPose ? try PoseFolder.sources(in: poseURL) : [] {
      source.camera = try names.resolve(source.camera, in: source.url.path)
      if let other = poseSources.first(where: { $0.camera == source.camera }) {
        throw InputError(file: source.url.path, "detections of calibrated camera '\(source.camera)' here and in \(other.url.path); keep one")
      }
      poseSources.append(source)
    }
    if let mediaPipe = poseSources.first(where: { $0.format == .mediaPipe }) {
      try MediaPipePoseJSON.checkSkeleton(skeleton, file: mediaPipe.url.path)
    }
    var ballCamera: [String: String] = [:]  // file's camera name → calibrated name
    if hasBall {
      for (camera, url) in try TrackNetCSV.cameraFiles(in: ballURL) {
        let name = try names.resolve(camera, in: url.path)
        if let other = ballCamera.first(where: { $0.value == name }) {
          throw InputError(file: url.path, "ball detections of calibrated camera '\(name)' here and in \(other.key).csv; keep one")
        }
        ballCamera[camera] = name
      }
    }
    var frameOffsets: [String: Int] = [:]
    for (camera, offset) in config.frameOffsets.sorted(by: { $0.key < $1.key }) {
      let location = InputError.Location.key("frame_offsets.\(camera)")
      let name = try names.resolve(camera, in: configURL.path, location: location)
      if frameOffsets[name] != nil {
        throw InputError(file: configURL.path, location: location, "a second offset for calibrated camera '\(name)'; keep one")
      }
      frameOffsets[name] = offset
    }
    config.frameOffsets = frameOffsets
    diagnostics += names.diagnostics
    let imageSizes = Dictionary(cameras.map { ($0.name, $0.imageSize) }, uniquingKeysWith: { a, _ in a })
    let (people, poseDiagnostics) = try PoseFolder.readWithDiagnostics(
      poseSources, skeleton: skeleton, imageSizes: imageSizes, digests: options.digests)
    diagnostics += poseDiagnostics
    if let misfit = SkeletonFit.diagnostic(chosen: skeleton, people: people, file: poseURL.path) { diagnostics.append(misfit) }
    let balls = Dictionary(
      (hasBall ? try TrackNetCSV.readFiles(ballFolder: ballURL) : [:]).map { (ballCamera[$0.key] ?? $0.key, $0.value) },
      uniquingKeysWith: { a, _ in a })

    var detections: [String: CameraDetections] = [:]
    var cameraFrames: [String: ClosedRange<Int>] = [:]
    var ranges: [(camera: String, frames: ClosedRange<Int>)] = []
    for camera in cameras {
      let personFrames = people[camera.name] ?? [:]
      let ballFile = balls[camera.name]
      let covered = Array(personFrames.keys) + [ballFile?.frames?.lowerBound, ballFile?.frames?.upperBound].compactMap { $0 }
      guard let lo = covered.min(), let hi = covered.max() else {
        diagnostics.append(Diagnostic(.warning, InputError(
          file: calibrationURL.path, location: .key(calibration.key(camera.name)),
          "calibrated camera has no detections (nothing in \(poseURL.path) or \(ballURL.path)); it is not used")))
        continue
      }
      detections[camera.name] = CameraDetections(people: personFrames, balls: ballFile?.balls ?? [:])
      let offset = config.frameOffsets[camera.name] ?? 0
      let frames = (lo - offset)...(hi - offset)
      cameraFrames[camera.name] = frames
      ranges.append((camera.name, frames))
    }

    var common: ClosedRange<Int>?
    if let first = ranges.first {
      let lo = ranges.map(\.frames.lowerBound).max()!, hi = ranges.map(\.frames.upperBound).min()!
      common = lo <= hi ? lo...hi : nil
      if ranges.contains(where: { $0.frames != first.frames }) {
        let list = ranges.map { "\($0.camera) \(rangeText($0.frames))" }.joined(separator: ", ")
        let use = common.map { "using the common range \(rangeText($0))" } ?? "they do not overlap, so no frame is seen by all"
        diagnostics.append(Diagnostic(.warning, InputError(
          file: folder.path, "cameras cover different match frames (\(list)); \(use)")))
      }
    }

    if options.sport == nil && config.sport == nil {
      let file = fm.fileExists(atPath: configURL.path) ? configURL.path : folder.path
      diagnostics.append(Diagnostic(.note, InputError(
        file: file, "no sport named (sport = \"…\" in match.toml, or --sport); using the default, \(options.defaultSport)")))
    }
    let sport = options.sport ?? config.sport ?? options.defaultSport
    var match = Match(
      sport: sport,
      fps: options.fps ?? config.fps ?? options.defaultFPSForSport?(sport) ?? options.defaultFPS, skeleton: skeleton,
      cameras: cameras,
      frameOffsets: config.frameOffsets, detections: detections,
      worldUp: config.up.flatMap(MatchConfig.upVector) ?? SIMD3(0, 0, 1))
    match.venue = config.venue
    match.playerNames = config.players
    match.scoreSettings = config.score
    match.viewGateSigmas = config.viewGate
    match.weighViewsByNoise = config.viewWeights.map { $0 == "noise" }
    return LoadedMatch(match: match, diagnostics: diagnostics, commonFrames: common, cameraFrames: cameraFrames)
  }

  static func rangeText(_ r: ClosedRange<Int>) -> String { "\(r.lowerBound)–\(r.upperBound)" }

  /// Writes a match in exactly the layout `load` reads: `calibration/calibration.toml`,
  /// `pose/<camera>_json/<camera>_<frame>_keypoints.json` (a file for every frame, `"people": []`
  /// where nobody was seen, as OpenPose does), `ball/<camera>.csv` (a row for every frame) and
  /// `match.toml` (sport, fps, skeleton — a name, or a `[skeleton]` table when it is not built in —,
  /// up, frame offsets).
  ///
  /// Only cameras with an entry in `match.detections` get detection files, and only detections
  /// within `frames` (match frames; each camera's own frames are shifted by its offset) are written.
  /// Existing files of the same names are replaced; other files in `folder` are left alone.
  /// - Throws: when a file cannot be written, or a custom skeleton would not read back (an empty
  ///   name, fewer than 2 keypoints, a keypoint name used twice).
  public static func write(_ match: Match, to folder: URL, frames: ClosedRange<Int>) throws {
    let configURL = folder.appendingPathComponent("match.toml")
    let isBuiltIn = Skeleton.builtIn[match.skeleton.name.lowercased()] == match.skeleton
    if !isBuiltIn {
      let s = match.skeleton, names = s.keypoints
      _ = try MatchConfig.skeleton(
        name: s.name, keypoints: names, bones: s.bones.map { (names[$0.0], names[$0.1]) },
        mirror: s.mirrorPairs.map { (names[$0.0], names[$0.1]) }
      ) { key, message in InputError(file: configURL.path, location: .key("skeleton.\(key)"), message) }
    }
    try CalibrationTOML.write(match.cameras, to: folder.appendingPathComponent("calibration/calibration.toml"))
    var people: [String: [Int: [PersonDetection2D]]] = [:]
    for camera in match.cameras {
      guard let d = match.detections[camera.name] else { continue }
      let offset = match.frameOffsets[camera.name] ?? 0
      let cameraFrames = (frames.lowerBound + offset)...(frames.upperBound + offset)
      var byFrame: [Int: [PersonDetection2D]] = [:]
      for frame in cameraFrames { byFrame[frame] = d.people[frame] ?? [] }
      people[camera.name] = byFrame
      try TrackNetCSV.write(d.balls, frames: cameraFrames, to: try FileName.file(camera.name, suffix: ".csv", in: folder.appendingPathComponent("ball")))
    }
    try OpenPoseFolder.write(people, to: folder.appendingPathComponent("pose"))
    var config = MatchConfig(
      sport: match.sport, fps: match.fps, skeleton: match.skeleton.name, up: MatchConfig.upName(match.worldUp),
      frameOffsets: match.frameOffsets, customSkeleton: isBuiltIn ? nil : match.skeleton)
    config.venue = match.venue
    config.players = match.playerNames
    config.score = match.scoreSettings
    try config.write(to: configURL)
  }
}
