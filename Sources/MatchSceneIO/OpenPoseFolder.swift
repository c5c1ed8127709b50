import Foundation
import MatchSceneCore

/// 2D keypoints as OpenPose JSON in Pose2Sim's folder layout:
/// `pose/<camera>_json/<anything>_<frame>_keypoints.json` (or `pose/<camera>/…`), each file holding
/// `{"people": [{"pose_keypoints_2d": [x, y, c, x, y, c, …]}, …]}`. The frame number is the run of
/// digits right before `_keypoints.json`; the order of people is arbitrary.
public enum OpenPoseFolder {
  /// Reads every camera folder below `poseFolder`: camera name → frame → people.
  /// - Throws: `InputError` naming the file (and the JSON position when the text is malformed).
  public static func read(poseFolder: URL, skeleton: Skeleton) throws -> [String: [Int: [PersonDetection2D]]] {
    let fm = FileManager.default
    guard let entries = try? fm.contentsOfDirectory(atPath: poseFolder.path) else {
      throw InputError(file: poseFolder.path, "cannot list the pose folder (missing or not readable)")
    }
    var jobs: [(camera: String, file: URL, frame: Int)] = []
    for entry in entries.sorted() {
      let folder = poseFolder.appendingPathComponent(entry)
      var isFolder: ObjCBool = false
      guard fm.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue, !entry.hasPrefix(".") else { continue }
      let camera = entry.hasSuffix("_json") ? String(entry.dropLast(5)) : entry
      let files = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
      var frames: [Int: String] = [:]
      for name in files.sorted() {
        guard let frame = frameNumber(of: name) else {
          throw InputError(file: folder.appendingPathComponent(name).path, "cannot read a frame number: expected <anything>_<frame>_keypoints.json")
        }
        if let other = frames[frame] {
          throw InputError(file: folder.appendingPathComponent(name).path, "frame \(frame) also comes from \(other)")
        }
        frames[frame] = name
        jobs.append((camera, folder.appendingPathComponent(name), frame))
      }
    }
    let k = skeleton.count
    let parsed = try parallelMap(jobs) { job in try readFile(job.file, keypointCount: k) }
    var out: [String: [Int: [PersonDetection2D]]] = [:]
    for (job, people) in zip(jobs, parsed) { out[job.camera, default: [:]][job.frame] = people }
    return out
  }

  /// The frame number of an OpenPose file name, e.g. `cam01_000000000123_keypoints.json` → 123.
  public static func frameNumber(of fileName: String) -> Int? {
    var stem = Substring(fileName)
    if stem.hasSuffix(".json") { stem = stem.dropLast(5) }
    if stem.hasSuffix("_keypoints") { stem = stem.dropLast(10) }
    let digits = stem.reversed().prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty else { return nil }
    return Int(String(digits.reversed()))
  }

  /// Parses one OpenPose JSON file.
  public static func readFile(_ url: URL, keypointCount: Int) throws -> [PersonDetection2D] {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw InputError(file: url.path, "cannot read the file")
    }
    return try parse(data, file: url.path, keypointCount: keypointCount)
  }

  /// Parses OpenPose JSON bytes (`file` names them in errors).
  public static func parse(_ data: Data, file: String, keypointCount: Int) throws -> [PersonDetection2D] {
    if data.isEmpty || data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      throw InputError(file: file, "empty file (expected OpenPose JSON with a \"people\" array)")
    }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw InputError(file: file, location: jsonLocation(of: error, in: data), "not valid JSON (truncated or malformed): \(jsonReason(error))")
    }
    guard let root = object as? [String: Any], let people = root["people"] as? [Any] else {
      throw InputError(file: file, "expected an object with a \"people\" array (OpenPose format)")
    }
    var out: [PersonDetection2D] = []
    for (p, person) in people.enumerated() {
      guard let dict = person as? [String: Any], let raw = dict["pose_keypoints_2d"] as? [Any] else {
        throw InputError(file: file, location: .key("people[\(p)].pose_keypoints_2d"), "missing or not an array")
      }
      guard raw.count == 3 * keypointCount else {
        throw InputError(
          file: file, location: .key("people[\(p)].pose_keypoints_2d"),
          "has \(raw.count) numbers (\(raw.count / 3) keypoints); the skeleton expects \(keypointCount) keypoints × 3 = \(3 * keypointCount)")
      }
      var keypoints: [Keypoint2D] = []
      keypoints.reserveCapacity(keypointCount)
      for j in 0..<keypointCount {
        guard let x = (raw[3 * j] as? NSNumber)?.doubleValue, let y = (raw[3 * j + 1] as? NSNumber)?.doubleValue,
          let c = (raw[3 * j + 2] as? NSNumber)?.doubleValue
        else {
          throw InputError(file: file, location: .key("people[\(p)].pose_keypoints_2d[\(3 * j)]"), "keypoint \(j) is not three numbers")
        }
        guard x.isFinite, y.isFinite, c.isFinite else {
          throw InputError(file: file, location: .key("people[\(p)].pose_keypoints_2d[\(3 * j)]"), "keypoint \(j) is not finite")
        }
        keypoints.append(Keypoint2D(x: x, y: y, confidence: c))
      }
      out.append(PersonDetection2D(keypoints: keypoints))
    }
    return out
  }

  /// Line and column of a JSON error from the byte index Foundation reports, when it reports one.
  static func jsonLocation(of error: Error, in data: Data) -> InputError.Location {
    let info = (error as NSError).userInfo
    guard let index = info["NSJSONSerializationErrorIndex"] as? Int, index >= 0 else {
      // Truncated input: the position is the end of the file.
      return lineColumn(at: data.count, in: data)
    }
    return lineColumn(at: index, in: data)
  }

  static func lineColumn(at index: Int, in data: Data) -> InputError.Location {
    var line = 1, column = 1
    for byte in data.prefix(index) {
      if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
    }
    return .lineColumn(line, column)
  }

  static func jsonReason(_ error: Error) -> String {
    let info = (error as NSError).userInfo
    return (info[NSDebugDescriptionErrorKey] as? String) ?? (error as NSError).localizedDescription
  }

  /// Writes `<camera>_json/<camera>_<frame>_keypoints.json` files, one per frame that has people or
  /// is listed in `frames` (frames without people get `"people": []`).
  public static func write(
    _ people: [String: [Int: [PersonDetection2D]]], frames: ClosedRange<Int>? = nil, to poseFolder: URL,
    frameDigits: Int = 12
  ) throws {
    var jobs: [(URL, [PersonDetection2D])] = []
    for (camera, byFrame) in people {
      let folder = poseFolder.appendingPathComponent("\(camera)_json")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let allFrames = Set(byFrame.keys).union(frames.map(Array.init) ?? [])
      for frame in allFrames.sorted() {
        let number = String(frame)
        let padded = String(repeating: "0", count: max(0, frameDigits - number.count)) + number
        jobs.append((folder.appendingPathComponent("\(camera)_\(padded)_keypoints.json"), byFrame[frame] ?? []))
      }
    }
    _ = try parallelMap(jobs.map { JobBox(url: $0.0, people: $0.1) }) { job in
      try AtomicFile.write(render(job.people), to: job.url)
    }
  }

  struct JobBox: Sendable {
    let url: URL
    let people: [PersonDetection2D]
  }

  /// One frame as OpenPose JSON text.
  public static func render(_ people: [PersonDetection2D]) -> String {
    var out = "{\"version\":1.3,\"people\":["
    for (i, person) in people.enumerated() {
      if i > 0 { out += "," }
      out += "{\"person_id\":[-1],\"pose_keypoints_2d\":["
      for (j, k) in person.keypoints.enumerated() {
        if j > 0 { out += "," }
        out += k.isDetected ? "\(Decimal6(k.x)),\(Decimal6(k.y)),\(Decimal6(k.confidence))" : "0,0,0"
      }
      out += "],\"face_keypoints_2d\":[],\"hand_left_keypoints_2d\":[],\"hand_right_keypoints_2d\":[]}"
    }
    out += "]}\n"
    return out
  }
}
