import Foundation
import MatchSceneCore

/// MediaPipe pose landmarks (MediaPipe Tasks, Pose Landmarker: `PoseLandmarkerResult.pose_landmarks`,
/// a list per person of 33 `NormalizedLandmark`s with `x`, `y` normalised to the image width and
/// height, `z`, `visibility` and `presence`), one file per camera, `pose/<camera>.mediapipe.json`:
///
/// ```json
/// [{"frame": 0, "pose_landmarks": [[{"x": 0.52, "y": 0.31, "z": -0.2, "visibility": 0.99, "presence": 0.99}, …33],
///                                  [… the next person …]]},
///  {"frame": 1, "pose_landmarks": []}, …]
/// ```
///
/// The contract:
///
/// - One object per frame; `frame` is the camera's frame number (each at most once) and
///   `pose_landmarks` a list of people (`[]`: a frame with nobody), each exactly 33 landmarks in
///   BlazePose order, so the match's skeleton must be `blazepose33` (alias `mediapipe`).
/// - Pixels are `x · width`, `y · height` of the camera's calibrated image size (no half-pixel
///   shift); values outside [0, 1], which MediaPipe reports for landmarks beyond the image edge,
///   are kept.
/// - Confidence is `visibility` (1 when absent); `z` and `presence` are not used. Other keys are
///   ignored.
public enum MediaPipePoseJSON {
  /// The landmark count of BlazePose.
  public static let landmarkCount = 33

  /// Reads one camera's file: frame → people in pixels (see the type's contract).
  /// - Throws: `InputError` as `parse`, and when `skeleton` is not BlazePose's 33 keypoints.
  public static func read(file url: URL, imageSize: ImageSize, skeleton: Skeleton) throws -> [Int: [PersonDetection2D]] {
    try checkSkeleton(skeleton, file: url.path)
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    return try parse(data, file: url.path, imageSize: imageSize)
  }

  /// Throws unless `skeleton` has BlazePose's 33 keypoints in order, telling how to select it.
  public static func checkSkeleton(_ skeleton: Skeleton, file: String) throws {
    guard skeleton.keypoints != Skeleton.blazePose33.keypoints else { return }
    throw InputError(
      file: file,
      "MediaPipe landmarks are BlazePose's 33 points but the skeleton is '\(skeleton.name)' (\(skeleton.count) keypoints); set skeleton = \"blazepose33\" in match.toml (or pass --skeleton blazepose33)")
  }

  struct Frame: Decodable {
    struct Landmark: Decodable {
      var x: Double
      var y: Double
      var visibility: Double?
    }
    var frame: Int
    var pose_landmarks: [[Landmark]]
  }

  /// Parses a file's bytes; `file` names them in errors.
  /// - Throws: `InputError` for an empty file, malformed or truncated JSON (line and column), a
  ///   frame number given twice (`[3].frame`), or a person without 33 landmarks
  ///   (`[3].pose_landmarks[1]`) or with a missing `x` or `y` (its key).
  public static func parse(_ data: Data, file: String, imageSize: ImageSize) throws -> [Int: [PersonDetection2D]] {
    if JSONErrors.isBlank(data) {
      throw InputError(file: file, "empty file; expected MediaPipe landmarks [{\"frame\": 0, \"pose_landmarks\": [[{\"x\", \"y\", …}×33]]}]")
    }
    let frames: [Frame]
    do {
      frames = try JSONDecoder().decode([Frame].self, from: data)
    } catch let error as DecodingError {
      throw JSONErrors.inputError(error, data: data, file: file) { keyPath in
        if keyPath.isEmpty { return "a list of frames [{\"frame\": 0, \"pose_landmarks\": [...]}]" }
        if keyPath.hasSuffix("].frame") { return "the frame number (an integer)" }
        if keyPath.hasSuffix("pose_landmarks") { return "a list of people, each a list of 33 landmarks" }
        if keyPath.hasSuffix(".x") || keyPath.hasSuffix(".y") || keyPath.hasSuffix("visibility") {
          return "a number (normalised to the image size)"
        }
        return "a landmark {\"x\", \"y\", \"z\", \"visibility\", \"presence\"}"
      }
    }
    let width = Double(imageSize.width), height = Double(imageSize.height)
    var out: [Int: [PersonDetection2D]] = [:]
    var indexOfFrame: [Int: Int] = [:]
    for (i, frame) in frames.enumerated() {
      if let other = indexOfFrame[frame.frame] {
        throw InputError(file: file, location: .key("[\(i)].frame"), "frame \(frame.frame) appears twice (also [\(other)])")
      }
      indexOfFrame[frame.frame] = i
      try FrameNumber.check(frame.frame, file: file, location: .key("[\(i)].frame"), what: "frame")
      var people: [PersonDetection2D] = []
      for (p, landmarks) in frame.pose_landmarks.enumerated() {
        guard landmarks.count == landmarkCount else {
          throw InputError(
            file: file, location: .key("[\(i)].pose_landmarks[\(p)]"),
            "person \(p) has \(landmarks.count) landmarks; expected \(landmarkCount) (BlazePose)")
        }
        people.append(PersonDetection2D(keypoints: try landmarks.enumerated().map { j, landmark in
          let x = landmark.x * width, y = landmark.y * height
          guard CameraRanges.isPixel(x), CameraRanges.isPixel(y) else {
            throw InputError(
              file: file, location: .key("[\(i)].pose_landmarks[\(p)][\(j)]"),
              "landmark at (\(landmark.x), \(landmark.y)) of the image lies outside the accepted \(CameraRanges.pixelRange)")
          }
          return Keypoint2D(x: x, y: y, confidence: landmark.visibility ?? 1)
        }))
      }
      out[frame.frame] = people
    }
    return out
  }
}
