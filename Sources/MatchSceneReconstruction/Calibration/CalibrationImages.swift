import Foundation
import MatchSceneCore

/// The images of a calibration, one set per camera, found in a folder: each subfolder is one camera
/// (its name without Pose2Sim's `int_`/`ext_` prefix and `_img`/`_vid` suffix: `int_cam01_img` is `cam01`),
/// holding images (PNG, JPEG, BMP, TIFF, PGM/PPM) or videos (MP4, MOV, AVI, MKV) whose frames are sampled with
/// ffmpeg. Files directly in the folder are grouped by the camera name before their first `_`
/// (`cam01_ext.png` is `cam01`).
public enum CalibrationImages {
  public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "bmp", "tif", "tiff", "pgm", "ppm", "pnm"]
  public static let videoExtensions: Set<String> = ["mp4", "mov", "avi", "mkv", "webm"]

  /// Per camera (sorted by name), its image and video files (sorted by name).
  /// - Throws: `InputError` naming `folder` when it cannot be read or holds no image or video.
  public static func cameras(in folder: URL) throws -> [(camera: String, files: [URL])] {
    let fm = FileManager.default
    guard let entries = try? fm.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else {
      throw InputError(file: folder.path, "cannot read the folder; expected one subfolder of images (or a video) per camera")
    }
    var groups: [String: [URL]] = [:]
    for entry in entries where !entry.lastPathComponent.hasPrefix(".") {
      if (try? entry.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
        let files = ((try? fm.contentsOfDirectory(at: entry, includingPropertiesForKeys: nil)) ?? []).filter(isMedia)
        if !files.isEmpty { groups[cameraName(folder: entry.lastPathComponent), default: []] += files }
      } else if isMedia(entry) {
        let stem = entry.deletingPathExtension().lastPathComponent
        let name = stem.split(separator: "_").first.map(String.init) ?? stem
        groups[name, default: []].append(entry)
      }
    }
    guard !groups.isEmpty else {
      throw InputError(file: folder.path, "no images or videos; expected one subfolder per camera (e.g. int_cam01_img/) holding images of the board or a video")
    }
    return groups.keys.sorted().map { ($0, groups[$0]!.sorted { $0.lastPathComponent < $1.lastPathComponent }) }
  }

  /// A camera's name from its folder's: Pose2Sim's `int_`/`ext_` prefix and `_img`/`_vid` suffix removed.
  public static func cameraName(folder: String) -> String {
    var name = folder
    for prefix in ["int_", "ext_", "intrinsics_", "extrinsics_"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
    for suffix in ["_img", "_imgs", "_vid", "_video", "_images"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
    return name.isEmpty ? folder : name
  }

  static func isMedia(_ url: URL) -> Bool {
    let ext = url.pathExtension.lowercased()
    return imageExtensions.contains(ext) || videoExtensions.contains(ext)
  }

  /// The files to look at: images as they are, each video's frames sampled every `everySeconds` seconds
  /// into `scratch` (grey PGM files named after the video and the frame's number).
  /// - Throws: `InputError` naming the video when ffmpeg fails or is missing.
  public static func frames(of files: [URL], everySeconds: Double, scratch: URL) throws -> [URL] {
    var out: [URL] = []
    for file in files {
      guard videoExtensions.contains(file.pathExtension.lowercased()) else {
        out.append(file)
        continue
      }
      let stem = FileName.safe(file.deletingPathExtension().lastPathComponent)
      let folder = scratch.appendingPathComponent(FileName.safe(file.deletingLastPathComponent().lastPathComponent) + "-" + stem)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "ffmpeg", "-nostdin", "-loglevel", "error", "-i", file.path, "-vf", "fps=1/\(everySeconds)", "-pix_fmt", "gray",
        folder.appendingPathComponent("\(stem)_%05d.pgm").path,
      ]
      process.standardOutput = FileHandle.nullDevice
      let errors = Pipe()
      process.standardError = errors
      do { try process.run() } catch {
        throw InputError(file: file.path, "cannot run ffmpeg to sample the video's frames: \(error); install ffmpeg or give images")
      }
      let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw InputError(file: file.path, "ffmpeg could not sample the video: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
      }
      let frames = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
        .filter { $0.pathExtension == "pgm" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
      out += frames
    }
    return out
  }
}
