import Foundation
import MatchSceneCore

/// MediaPipe Pose world landmarks (MediaPipe Tasks, Pose Landmarker:
/// `PoseLandmarkerResult.pose_world_landmarks`, per person 33 `Landmark`s in metres with the origin at
/// the centre of the hips; x to the image's right, y down, z away from the camera), one file for the
/// recording:
///
/// ```json
/// [{"frame": 0, "pose_world_landmarks": [[{"x": 0.1, "y": -0.5, "z": 0.02, "visibility": 0.99}, …33]]},
///  {"frame": 1, "time": 0.0167, "pose_world_landmarks": []}, …]
/// ```
///
/// One object per frame: `frame` (an integer, each at most once) or `time` (seconds; frame =
/// round(time · fps) after the first), and `pose_world_landmarks`, a list of people of which the first is
/// read (`[]`: nobody). Landmarks are in BlazePose order (`Skeleton.blazePose33`); `visibility` is 1
/// when absent; other keys are ignored.
public enum MediaPipeWorldJSON {
  struct Frame: Decodable {
    struct Landmark: Decodable {
      var x: Double
      var y: Double
      var z: Double
      var visibility: Double?
    }
    var frame: Int?
    var time: Double?
    var pose_world_landmarks: [[Landmark]]
  }

  /// One frame's landmarks of the first person: (x, y, z) in MediaPipe's axes, and visibility.
  public typealias Landmarks = [(position: SIMD3<Double>, visibility: Double)]

  /// Reads a file: frame number → the first person's 33 landmarks.
  /// - Throws: `InputError` naming the file and the key (`[3].pose_world_landmarks[0]`) of a wrong
  ///   field, a person without 33 landmarks, a frame given twice, or a frame with neither `frame` nor
  ///   `time`.
  public static func read(from url: URL, fps: Double) throws -> [Int: Landmarks] {
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    return try parse(data, file: url.path, fps: fps)
  }

  public static func parse(_ data: Data, file: String, fps: Double) throws -> [Int: Landmarks] {
    if JSONErrors.isBlank(data) {
      throw InputError(file: file, "empty file; expected [{\"frame\": 0, \"pose_world_landmarks\": [[{\"x\", \"y\", \"z\"}×33]]}]")
    }
    let frames: [Frame]
    do {
      frames = try JSONDecoder().decode([Frame].self, from: data)
    } catch let error as DecodingError {
      throw JSONErrors.inputError(error, data: data, file: file) { keyPath in
        if keyPath.isEmpty { return "a list of frames [{\"frame\": 0, \"pose_world_landmarks\": [...]}]" }
        if keyPath.hasSuffix("].frame") { return "the frame number (an integer)" }
        if keyPath.hasSuffix("].time") { return "seconds (a number)" }
        if keyPath.hasSuffix("pose_world_landmarks") { return "a list of people, each a list of 33 landmarks" }
        return "a landmark {\"x\", \"y\", \"z\", \"visibility\"} in metres"
      }
    }
    let firstTime = frames.compactMap(\.time).min() ?? 0
    var out: [Int: Landmarks] = [:]
    var indexOfFrame: [Int: Int] = [:]
    for (i, f) in frames.enumerated() {
      guard let number = try f.frame ?? f.time.map({
        try FrameNumber.of(seconds: $0, first: firstTime, fps: fps, file: file, location: .key("[\(i)].time"))
      }) else {
        throw InputError(file: file, location: .key("[\(i)]"), "neither frame nor time given")
      }
      if let other = indexOfFrame[number] {
        throw InputError(file: file, location: .key("[\(i)].frame"), "frame \(number) appears twice (also [\(other)])")
      }
      indexOfFrame[number] = i
      try FrameNumber.check(number, file: file, location: .key("[\(i)].frame"), what: "frame")
      guard let person = f.pose_world_landmarks.first else { continue }
      guard person.count == MediaPipePoseJSON.landmarkCount else {
        throw InputError(
          file: file, location: .key("[\(i)].pose_world_landmarks[0]"),
          "\(person.count) landmarks; expected \(MediaPipePoseJSON.landmarkCount) (BlazePose)")
      }
      for (j, l) in person.enumerated() where !(l.x.isFinite && l.y.isFinite && l.z.isFinite && abs(l.x) < 100 && abs(l.y) < 100 && abs(l.z) < 100) {
        throw InputError(
          file: file, location: .key("[\(i)].pose_world_landmarks[0][\(j)]"),
          "landmark (\(l.x), \(l.y), \(l.z)) is not within 100 m of the hips")
      }
      out[number] = person.map { (SIMD3($0.x, $0.y, $0.z), $0.visibility ?? 1) }
    }
    return out
  }
}
