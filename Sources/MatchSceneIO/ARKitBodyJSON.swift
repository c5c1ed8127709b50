import Foundation
import MatchSceneCore

/// An ARKit body-anchor export: per frame, the world transform of each joint of the tracked body
/// (`ARBodyAnchor.transform` × `skeleton.jointModelTransforms[i]`, named by
/// `ARSkeletonDefinition.defaultBody3D.jointNames`), as an app would write it:
///
/// ```json
/// {"frames": [{"time": 1520.533, "joints": {"hips_joint": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0.1,0.9,-2.0,1], …}}, …]}
/// ```
///
/// - `time`: seconds (ARFrame.timestamp; frame = round((time − first time) · fps)), or `frame`, an integer.
/// - `joints`: joint name → 16 numbers, a 4×4 transform in column-major order (simd_float4x4's
///   columns one after another), so the position is elements 12, 13, 14. ARKit's world: metres, y up
///   (gravity), −z the camera's direction at the session's start.
/// - The joints read are those of `jointNames`; others are ignored, and a frame may lack any of them.
public enum ARKitBodyJSON {
  /// ARKit joint name → keypoint of `Skeleton.arkitBody`.
  public static let jointNames: [String: String] = [
    "head_joint": "head", "nose_joint": "nose", "left_eye_joint": "left_eye", "right_eye_joint": "right_eye",
    "neck_1_joint": "neck", "left_arm_joint": "left_shoulder", "right_arm_joint": "right_shoulder",
    "left_forearm_joint": "left_elbow", "right_forearm_joint": "right_elbow", "left_hand_joint": "left_wrist",
    "right_hand_joint": "right_wrist", "hips_joint": "mid_hip", "left_upLeg_joint": "left_hip",
    "right_upLeg_joint": "right_hip", "left_leg_joint": "left_knee", "right_leg_joint": "right_knee",
    "left_foot_joint": "left_ankle", "right_foot_joint": "right_ankle", "left_toes_joint": "left_big_toe",
    "right_toes_joint": "right_big_toe",
  ]

  struct File: Decodable {
    struct Frame: Decodable {
      var time: Double?
      var frame: Int?
      var joints: [String: [Double]]
    }
    var frames: [Frame]
  }

  /// Reads a file: frame number → keypoint index of `Skeleton.arkitBody` → position in ARKit's world.
  /// - Throws: `InputError` naming the file and the key (`frames[3].joints.left_hand_joint`).
  public static func read(from url: URL, fps: Double) throws -> [Int: [Int: SIMD3<Double>]] {
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    return try parse(data, file: url.path, fps: fps)
  }

  public static func parse(_ data: Data, file: String, fps: Double) throws -> [Int: [Int: SIMD3<Double>]] {
    if JSONErrors.isBlank(data) { throw InputError(file: file, "empty file; expected {\"frames\": [{\"time\", \"joints\"}]}") }
    let decoded: File
    do {
      decoded = try JSONDecoder().decode(File.self, from: data)
    } catch let error as DecodingError {
      throw JSONErrors.inputError(error, data: data, file: file) { keyPath in
        if keyPath.isEmpty { return "an object {\"frames\": [...]}" }
        if keyPath.hasSuffix(".joints") { return "joint name → 16 numbers (a column-major 4×4 transform)" }
        if keyPath.hasSuffix(".time") { return "seconds (a number)" }
        if keyPath.hasSuffix(".frame") { return "a frame number (an integer)" }
        return "16 numbers: a column-major 4×4 transform"
      }
    }
    let index = Dictionary(uniqueKeysWithValues: Skeleton.arkitBody.keypoints.enumerated().map { ($1, $0) })
    let firstTime = decoded.frames.compactMap(\.time).min() ?? 0
    var out: [Int: [Int: SIMD3<Double>]] = [:]
    for (i, f) in decoded.frames.enumerated() {
      guard let number = try f.frame ?? f.time.map({
        try FrameNumber.of(seconds: $0, first: firstTime, fps: fps, file: file, location: .key("frames[\(i)].time"))
      }) else {
        throw InputError(file: file, location: .key("frames[\(i)]"), "neither time nor frame given")
      }
      guard out[number] == nil else {
        throw InputError(file: file, location: .key("frames[\(i)]"), "frame \(number) appears twice (times closer than 1/fps)")
      }
      try FrameNumber.check(number, file: file, location: .key("frames[\(i)].frame"), what: "frame")
      var joints: [Int: SIMD3<Double>] = [:]
      for (name, m) in f.joints {
        guard let keypoint = jointNames[name], let j = index[keypoint] else { continue }
        guard m.count == 16, m.allSatisfy(\.isFinite) else {
          throw InputError(file: file, location: .key("frames[\(i)].joints.\(name)"), "expected 16 finite numbers, got \(m.count)")
        }
        joints[j] = SIMD3(m[12], m[13], m[14])
      }
      out[number] = joints
    }
    return out
  }
}
