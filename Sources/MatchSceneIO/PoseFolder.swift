import Foundation
import MatchSceneCore

/// The 2D keypoints of a pose folder, each camera in any one of the formats MatchScene reads:
///
/// ```
/// pose/<camera>_json/ or pose/<camera>/   OpenPose JSON, one file per frame   (OpenPoseFolder)
/// pose/<camera>.json                      COCO keypoint results               (COCOKeypointsJSON)
/// pose/<camera>.mediapipe.json            MediaPipe pose landmarks            (MediaPipePoseJSON)
/// pose/<camera>.csv                       DeepLabCut CSV                      (DeepLabCutCSV)
/// ```
///
/// The format is chosen by the name alone (suffixes compared without regard to case); other files
/// and hidden entries are ignored. A camera given in two formats is an error: MatchScene will not
/// guess which one is meant.
public enum PoseFolder {
  public enum Format: String, Sendable, CaseIterable {
    case openPose = "OpenPose JSON folder"
    case coco = "COCO keypoint results"
    case mediaPipe = "MediaPipe landmarks"
    case deepLabCut = "DeepLabCut CSV"
  }

  /// One camera's detections: where they are and in which format.
  public struct Source: Sendable, Equatable {
    public var camera: String
    public var format: Format
    public var url: URL
    public init(camera: String, format: Format, url: URL) {
      self.camera = camera
      self.format = format
      self.url = url
    }
  }

  /// The camera and format a file name stands for, or nil for a file that is not a pose file.
  public static func fileFormat(of name: String) -> (camera: String, format: Format)? {
    let lower = name.lowercased()
    for (suffix, format) in [(".mediapipe.json", Format.mediaPipe), (".json", .coco), (".csv", .deepLabCut)]
    where lower.hasSuffix(suffix) && name.count > suffix.count {
      return (String(name.dropLast(suffix.count)), format)
    }
    return nil
  }

  /// Every camera's source below `poseFolder`, sorted by camera name.
  /// - Throws: `InputError` when the folder cannot be listed, an entry's name is not UTF-8, two
  ///   folders name one camera, or a camera has detections in two formats (naming both paths).
  public static func sources(in poseFolder: URL) throws -> [Source] {
    var byCamera: [String: Source] = [:]
    for (camera, folder) in try OpenPoseFolder.cameraFolders(in: poseFolder) {
      byCamera[camera] = Source(camera: camera, format: .openPose, url: folder)
    }
    for entry in try FolderListing.entries(of: poseFolder, what: "the pose folder") {
      let url = poseFolder.appendingPathComponent(entry)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
        let (camera, format) = fileFormat(of: entry)
      else { continue }
      if let other = byCamera[camera] {
        throw InputError(
          file: url.path,
          "camera '\(camera)' has detections in two formats: \(format.rawValue) (\(url.path)) and \(other.format.rawValue) (\(other.url.path)); keep one")
      }
      byCamera[camera] = Source(camera: camera, format: format, url: url)
    }
    return byCamera.values.sorted { $0.camera < $1.camera }
  }

  /// Reads every source: camera name → frame → people. OpenPose folders are read file by file in
  /// parallel, the single-file formats one file per core.
  /// - Parameter imageSizes: per camera, the calibrated image size (MediaPipe's coordinates are
  ///   fractions of it); a MediaPipe camera without one is an error.
  /// - Throws: `InputError` of the first malformed file, naming it and the place inside.
  public static func read(
    _ sources: [Source], skeleton: Skeleton, imageSizes: [String: ImageSize]
  ) throws -> [String: [Int: [PersonDetection2D]]] {
    try readWithDiagnostics(sources, skeleton: skeleton, imageSizes: imageSizes).people
  }

  /// Like `read`, with the warnings of the OpenPose folders (files skipped, see
  /// `OpenPoseFolder.readWithDiagnostics`). With `digests`, the OpenPose files' SHA-256 are recorded
  /// there as they are read.
  public static func readWithDiagnostics(
    _ sources: [Source], skeleton: Skeleton, imageSizes: [String: ImageSize], digests: FileDigests? = nil
  ) throws -> (people: [String: [Int: [PersonDetection2D]]], diagnostics: [Diagnostic]) {
    let folders = sources.filter { $0.format == .openPose }.map { (camera: $0.camera, folder: $0.url) }
    var (out, diagnostics) = try OpenPoseFolder.readWithDiagnostics(cameraFolders: folders, skeleton: skeleton, digests: digests)
    let files = sources.filter { $0.format != .openPose }
    for source in files where source.format == .mediaPipe {
      try MediaPipePoseJSON.checkSkeleton(skeleton, file: source.url.path)
      guard imageSizes[source.camera] != nil else {
        throw InputError(file: source.url.path, "camera '\(source.camera)' has no calibrated image size to scale MediaPipe's normalised coordinates")
      }
    }
    let parsed = try parallelMap(files) { source -> [Int: [PersonDetection2D]] in
      switch source.format {
      case .coco: try COCOKeypointsJSON.read(file: source.url, skeleton: skeleton)
      case .mediaPipe: try MediaPipePoseJSON.read(file: source.url, imageSize: imageSizes[source.camera]!, skeleton: skeleton)
      case .deepLabCut: try DeepLabCutCSV.read(file: source.url, skeleton: skeleton)
      case .openPose: [:]
      }
    }
    for (source, people) in zip(files, parsed) { out[source.camera] = people }
    return (out, diagnostics)
  }
}
