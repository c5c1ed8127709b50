import Foundation
import MatchSceneCore

/// 2D keypoints as OpenPose JSON (OpenPose `doc/02_output.md`, "JSON Output Format") in Pose2Sim's
/// folder layout: `pose/<camera>_json/<anything>_<frame>_keypoints.json` (a folder `pose/<camera>/`
/// without the suffix is accepted too), each file holding one frame,
///
/// ```json
/// {"version":1.3,"people":[{"person_id":[-1],"pose_keypoints_2d":[x,y,c, x,y,c, …]}, …]}
/// ```
///
/// with one `x, y, c` triple per skeleton keypoint (a keypoint not found is `0, 0, 0`). The camera
/// name is the folder name without `_json`; the frame number is the run of digits right before
/// `_keypoints.json` (OpenPose writes 12: `cam01_000000000123_keypoints.json`). The order of people
/// is arbitrary and `"people": []` is a frame with nobody.
public enum OpenPoseFolder {
  /// The camera folders below `poseFolder` (`<camera>_json` or `<camera>`), sorted by camera name.
  /// - Throws: `InputError` when the folder cannot be listed, an entry's name is not UTF-8, or two
  ///   folders name the same camera.
  public static func cameraFolders(in poseFolder: URL) throws -> [(camera: String, folder: URL)] {
    let fm = FileManager.default
    var byCamera: [String: URL] = [:]
    for entry in try FolderListing.entries(of: poseFolder, what: "the pose folder") {
      let folder = poseFolder.appendingPathComponent(entry)
      var isFolder: ObjCBool = false
      guard fm.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
      let camera = entry.hasSuffix("_json") ? String(entry.dropLast(5)) : entry
      if let other = byCamera[camera] {
        throw InputError(file: folder.path, "camera '\(camera)' has a second folder (also \(other.path)); keep one")
      }
      byCamera[camera] = folder
    }
    return byCamera.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// Reads every camera folder below `poseFolder`: camera name → frame → people. Files are parsed in
  /// parallel on all cores. A camera folder without JSON files gives a camera with no frames.
  /// Files skipped with a warning (see `readWithDiagnostics`) are left out silently here.
  /// - Parameter skeleton: every person must have `skeleton.count` keypoints.
  /// - Throws: `InputError` naming the file (with line and column when the JSON is malformed or
  ///   truncated, the `people[i].pose_keypoints_2d` key when a person is wrong), or the second file
  ///   when two files of a camera with people carry the same frame number.
  public static func read(poseFolder: URL, skeleton: Skeleton) throws -> [String: [Int: [PersonDetection2D]]] {
    try read(cameraFolders: cameraFolders(in: poseFolder), skeleton: skeleton)
  }

  /// Reads the given camera folders (as `cameraFolders(in:)` lists them): camera name → frame →
  /// people. Same checks as `read(poseFolder:skeleton:)`.
  public static func read(
    cameraFolders: [(camera: String, folder: URL)], skeleton: Skeleton
  ) throws -> [String: [Int: [PersonDetection2D]]] {
    try readWithDiagnostics(cameraFolders: cameraFolders, skeleton: skeleton).people
  }

  /// Like `read(cameraFolders:skeleton:)`, with a warning for each file skipped:
  ///
  /// - an empty file (nothing but white space);
  /// - a file whose name carries no frame number;
  /// - a file that repeats another's frame number and holds no people (Pose2Sim's demo pads camera
  ///   folders with `del_000000_0.json` holding `"people": []`), while the other has people.
  ///
  /// Two files of one frame that both hold people remain an error, and so does a frame number
  /// beyond ±`FrameNumber.limit`.
  ///
  /// With `digests`, each file's SHA-256 is recorded there as it is read (for the input hash).
  public static func readWithDiagnostics(
    cameraFolders: [(camera: String, folder: URL)], skeleton: Skeleton, digests: FileDigests? = nil
  ) throws -> (people: [String: [Int: [PersonDetection2D]]], diagnostics: [Diagnostic]) {
    // Paths as strings, not URLs: building 144,000 URLs cost half a second of a 10-minute match.
    struct Job: Sendable {
      let camera: String
      let folder: String
      let name: String
      let frame: Int
      var path: String { folder + name }
    }
    var jobs: [Job] = []
    var out: [String: [Int: [PersonDetection2D]]] = [:]
    var diagnostics: [Diagnostic] = []
    for (camera, folder) in cameraFolders {
      out[camera] = [:]
      let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
      for name in try FolderListing.entries(of: folder, what: "the camera folder") where hasJSONSuffix(name) {
        guard let frame = frameNumber(of: name) else {
          if let digits = frameDigits(of: name), digits.count > 18 {
            throw InputError(file: prefix + name, "the frame number in the file name is \(digits), outside the accepted −\(FrameNumber.limit)…\(FrameNumber.limit)")
          }
          diagnostics.append(Diagnostic(.warning, InputError(
            file: prefix + name, "no frame number in the file name (expected <anything>_<frame>_keypoints.json); skipped")))
          continue
        }
        try FrameNumber.check(frame, file: prefix + name, what: "the frame number in the file name")
        jobs.append(Job(camera: camera, folder: prefix, name: name, frame: frame))
      }
    }
    let count = skeleton.count
    let parsed = try ReadThreads.map(jobs) { job in try readFileUnlessBlank(path: job.path, keypointCount: count, digests: digests) }
    var fileOfFrame: [String: [Int: (name: String, hasPeople: Bool)]] = [:]
    for (job, people) in zip(jobs, parsed) {
      func skip(_ why: String) { diagnostics.append(Diagnostic(.warning, InputError(file: job.path, "\(why); skipped"))) }
      guard let people else {
        skip("empty file")
        continue
      }
      let name = job.name
      if let other = fileOfFrame[job.camera]?[job.frame] {
        switch (other.hasPeople, people.isEmpty) {
        case (_, true):
          skip("holds no people and repeats frame \(job.frame) of \(other.name) (a padding file?)")
          continue
        case (false, false):
          diagnostics.append(Diagnostic(.warning, InputError(
            file: job.folder + other.name,
            "holds no people and repeats frame \(job.frame) of \(name) (a padding file?); skipped")))
        case (true, false):
          throw InputError(file: job.path, "frame \(job.frame) appears twice in camera '\(job.camera)' (also \(other.name))")
        }
      }
      fileOfFrame[job.camera, default: [:]][job.frame] = (name, !people.isEmpty)
      out[job.camera]![job.frame] = people
    }
    return (out, diagnostics)
  }

  /// The frame number of an OpenPose file name: the run of digits right before `_keypoints.json`
  /// (or before `.json` when the `_keypoints` suffix is absent), e.g.
  /// `cam01_000000000123_keypoints.json` → 123; `cam01_-000000000005_keypoints.json` → −5. Nil when
  /// there are no digits there or they are glued to a name (`cam01_keypoints.json`).
  public static func frameNumber(of fileName: String) -> Int? {
    if let ascii = asciiFrameNumber(of: fileName) { return ascii }
    return unicodeFrameNumber(of: fileName)
  }

  /// `frameNumber(of:)` of any name, character by character.
  static func unicodeFrameNumber(of fileName: String) -> Int? {
    let stem = self.stem(of: fileName)
    guard let digits = frameDigits(of: fileName), digits.count <= 18, let value = Int(digits) else { return nil }
    // A negative frame (written by `write` for cameras whose offset puts them before match frame 0)
    // is `_-000000000005`: a minus right after the separator.
    let before = stem.dropLast(digits.count)
    if before.hasSuffix("-") && (before.count == 1 || before.dropLast().hasSuffix("_")) { return -value }
    // The number must stand alone: `cam01_keypoints.json` carries no frame (its `1` is the camera's).
    if let last = before.last, last.isLetter || last.isNumber { return nil }
    return value
  }

  /// `frameNumber(of:)` of an all-ASCII name, read from its bytes (the String path costs more than
  /// parsing the file on a long match); nil for any other name. `.some(nil)`: ASCII, no frame.
  static func asciiFrameNumber(of fileName: String) -> Int?? {
    var name = fileName
    return name.withUTF8 { b -> Int?? in
      guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
      var end = b.count
      if hasJSONSuffix(b) { end -= 5 }
      if end >= 10 && b[(end - 10)..<end].elementsEqual("_keypoints".utf8) { end -= 10 }
      var start = end
      while start > 0 && b[start - 1] >= 0x30 && b[start - 1] <= 0x39 { start -= 1 }
      guard start < end, end - start <= 18 else { return .some(nil) }
      let value = b[start..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) }
      guard start > 0 else { return value }
      let before = b[start - 1]
      if before == UInt8(ascii: "-") && (start == 1 || b[start - 2] == UInt8(ascii: "_")) { return -value }
      if (before | 0x20) >= UInt8(ascii: "a") && (before | 0x20) <= UInt8(ascii: "z") { return .some(nil) }
      return value
    }
  }

  /// Whether `fileName` ends in `.json`, in any case.
  static func hasJSONSuffix(_ fileName: String) -> Bool {
    var name = fileName
    let ascii = name.withUTF8 { b in b.allSatisfy { $0 < 0x80 } ? hasJSONSuffix(b) : nil }
    return ascii ?? fileName.lowercased().hasSuffix(".json")
  }

  /// Whether ASCII bytes end in `.json`, in any case.
  static func hasJSONSuffix(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard b.count >= 5 else { return false }
    let lower = { (c: UInt8) in c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
    return b[b.count - 5] == UInt8(ascii: ".") && lower(b[b.count - 4]) == UInt8(ascii: "j")
      && lower(b[b.count - 3]) == UInt8(ascii: "s") && lower(b[b.count - 2]) == UInt8(ascii: "o")
      && lower(b[b.count - 1]) == UInt8(ascii: "n")
  }

  /// The run of digits right before `_keypoints.json` or `.json`, or nil when there is none.
  static func frameDigits(of fileName: String) -> String? {
    let digits = String(stem(of: fileName).reversed().prefix { $0.isASCII && $0.isNumber }.reversed())
    return digits.isEmpty ? nil : digits
  }

  /// A file name without `.json` and `_keypoints`.
  static func stem(of fileName: String) -> Substring {
    var stem = Substring(fileName)
    if stem.lowercased().hasSuffix(".json") { stem = stem.dropLast(5) }
    if stem.hasSuffix("_keypoints") { stem = stem.dropLast(10) }
    return stem
  }

  /// Reads and parses one OpenPose JSON file (see `parse(_:file:keypointCount:)`).
  public static func readFile(_ url: URL, keypointCount: Int) throws -> [PersonDetection2D] {
    try contents(path: url.path).withUnsafeBufferPointer { try parse($0, file: url.path, keypointCount: keypointCount) }
  }

  /// Like `readFile`, nil for a file holding nothing but white space.
  static func readFileUnlessBlank(path: String, keypointCount: Int, digests: FileDigests? = nil) throws -> [PersonDetection2D]? {
    try contents(path: path, digests: digests).withUnsafeBufferPointer { bytes in
      OpenPoseJSON.isBlank(bytes) ? nil : try parse(bytes, file: path, keypointCount: keypointCount)
    }
  }

  /// The file's bytes, read with POSIX calls (`FileBytes`): no `Data` on the hot path.
  static func contents(path: String, digests: FileDigests? = nil) throws -> [UInt8] {
    guard let bytes = FileBytes.read(path, digests: digests) else {
      throw InputError(file: path, "cannot read the file (missing or not readable)")
    }
    return bytes
  }

  /// Parses OpenPose JSON bytes; `file` names them in errors.
  /// - Throws: `InputError` for an empty file, malformed JSON (with the line and column, or the end of
  ///   the file when it is truncated, and what was expected there), a missing `people` array, or a
  ///   person whose `pose_keypoints_2d` is not `3 × keypointCount` finite numbers (naming the key). A
  ///   person whose `pose_keypoints_2d` is empty is skipped (an empty slot, not a detection).
  public static func parse(_ data: Data, file: String, keypointCount: Int) throws -> [PersonDetection2D] {
    try data.withUnsafeBytes { try parse($0.bindMemory(to: UInt8.self), file: file, keypointCount: keypointCount) }
  }

  /// `parse(_:file:keypointCount:)` of bytes in memory, by `OpenPoseJSON` (no Foundation JSON).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String, keypointCount: Int) throws -> [PersonDetection2D] {
    if OpenPoseJSON.isBlank(bytes) {
      throw InputError(file: file, "empty file; expected OpenPose JSON {\"people\": [{\"pose_keypoints_2d\": [...]}]}")
    }
    let frame: OpenPoseJSON.RawFrame
    do {
      frame = try OpenPoseJSON.parse(bytes)
    } catch {
      throw inputError(error, bytes: bytes, file: file, keypointCount: keypointCount)
    }
    var out: [PersonDetection2D] = []
    out.reserveCapacity(frame.people.count)
    for (p, range) in frame.people.enumerated() {
      let key = "people[\(p)].pose_keypoints_2d"
      guard let range else {
        throw InputError(file: file, location: .key(key), "missing; expected \(3 * keypointCount) numbers (x, y, confidence per keypoint)")
      }
      // An empty array is a person slot with nothing detected (Pose2Sim's person association writes
      // them, e.g. its 0.8 demo `S00_P01_T02_Participants1-2`): no detection, not an error.
      if range.isEmpty { continue }
      guard range.count == 3 * keypointCount else {
        throw InputError(
          file: file, location: .key(key),
          "person \(p) has \(range.count) numbers; expected \(3 * keypointCount) (\(keypointCount) keypoints × x, y, confidence)"
            + Skeleton.keypointCountHint(numbers: range.count, perKeypoint: 3))
      }
      let keypoints = try [Keypoint2D](unsafeUninitializedCapacity: keypointCount) { buffer, initialized in
        for j in 0..<keypointCount {
          let n = range.lowerBound + 3 * j
          let x = frame.numbers[n], y = frame.numbers[n + 1], c = frame.numbers[n + 2]
          guard x.isFinite, y.isFinite, c.isFinite else {
            throw InputError(file: file, location: .key("\(key)[\(3 * j)]"), "keypoint \(j) of person \(p) is not finite")
          }
          guard CameraRanges.isPixel(x), CameraRanges.isPixel(y) else {
            throw InputError(
              file: file, location: .key("\(key)[\(3 * j)]"),
              "keypoint \(j) of person \(p) lies at (\(x), \(y)), outside the accepted \(CameraRanges.pixelRange)")
          }
          (buffer.baseAddress! + j).initialize(to: Keypoint2D(x: x, y: y, confidence: c))
          initialized = j + 1
        }
      }
      out.append(PersonDetection2D(keypoints: keypoints))
    }
    return out
  }

  /// The `InputError` of a failure to read an OpenPose frame.
  static func inputError(
    _ failure: OpenPoseJSON.Failure, bytes: UnsafeBufferPointer<UInt8>, file: String, keypointCount: Int
  ) -> InputError {
    func expected(_ keyPath: String) -> String {
      if keyPath.isEmpty { return "an object {\"people\": [...]} (OpenPose JSON)" }
      if keyPath == "people" { return "an array of people {\"pose_keypoints_2d\": [...]}" }
      if !keyPath.contains(".") { return "an object {\"pose_keypoints_2d\": [...]} per person" }
      return "an array of \(3 * keypointCount) numbers (x, y, confidence per keypoint)"
    }
    func at(_ offset: Int) -> InputError.Location {
      let (line, column) = OpenPoseJSON.lineColumn(at: offset, in: bytes)
      return .lineColumn(line, column)
    }
    switch failure {
    case .syntax(let offset, let what):
      return InputError(file: file, location: at(offset), "not valid JSON (truncated or malformed): expected \(what)")
    case .missing(let keyPath):
      return InputError(file: file, location: .key(keyPath), "missing; expected \(expected(keyPath))")
    case .wrongType(let keyPath, let offset):
      return InputError(
        file: file, location: keyPath.isEmpty ? at(offset) : .key(keyPath), "wrong type; expected \(expected(keyPath))")
    case .notRepresentable(let keyPath, let text):
      return InputError(
        file: file, location: .key(keyPath), "the number \(text) is too large for a Double; expected \(expected(keyPath))")
    }
  }

  /// Writes `<camera>_json/<camera>_<frame>_keypoints.json` for every frame of `people` and of
  /// `frames` (frames without people get `"people": []`), the frame zero-padded to `frameDigits`.
  /// Files are written atomically, in parallel.
  public static func write(
    _ people: [String: [Int: [PersonDetection2D]]], frames: ClosedRange<Int>? = nil, to poseFolder: URL,
    frameDigits: Int = 12
  ) throws {
    struct Job: Sendable {
      let url: URL
      let people: [PersonDetection2D]
    }
    var jobs: [Job] = []
    for (camera, byFrame) in people.sorted(by: { $0.key < $1.key }) {
      let folder = try FileName.file(camera, suffix: "_json", in: poseFolder)
      let camera = FileName.safe(camera)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      var allFrames = Set(byFrame.keys)
      if let frames { allFrames.formUnion(frames) }
      for frame in allFrames.sorted() {
        let number = String(frame.magnitude)
        let padded = (frame < 0 ? "-" : "") + String(repeating: "0", count: max(0, frameDigits - number.count)) + number
        jobs.append(Job(url: folder.appendingPathComponent("\(camera)_\(padded)_keypoints.json"), people: byFrame[frame] ?? []))
      }
    }
    _ = try parallelMap(jobs) { job in try AtomicFile.write(Data(renderBytes(job.people).bytes), to: job.url) }
  }

  /// One frame as OpenPose JSON text. Coordinates and confidences have up to 6 decimals (trailing
  /// zeros dropped), so they read back within 5e-7; a keypoint not detected is written `0,0,0`.
  public static func render(_ people: [PersonDetection2D]) -> String { renderBytes(people).string }

  static func renderBytes(_ people: [PersonDetection2D]) -> TextBuffer {
    var out = TextBuffer(capacity: 96 + people.count * 600)
    out.append("{\"version\":1.3,\"people\":[")
    for (i, person) in people.enumerated() {
      if i > 0 { out.append(byte: UInt8(ascii: ",")) }
      out.append("{\"person_id\":[-1],\"pose_keypoints_2d\":[")
      for (j, k) in person.keypoints.enumerated() {
        if j > 0 { out.append(byte: UInt8(ascii: ",")) }
        if k.isDetected && k.confidence.isFinite {
          out.appendFixed(k.x, decimals: 6, trimZeros: true)
          out.append(byte: UInt8(ascii: ","))
          out.appendFixed(k.y, decimals: 6, trimZeros: true)
          out.append(byte: UInt8(ascii: ","))
          out.appendFixed(k.confidence, decimals: 6, trimZeros: true)
        } else {
          out.append("0,0,0")
        }
      }
      out.append("],\"face_keypoints_2d\":[],\"hand_left_keypoints_2d\":[],\"hand_right_keypoints_2d\":[]}")
    }
    out.append("]}\n")
    return out
  }
}
