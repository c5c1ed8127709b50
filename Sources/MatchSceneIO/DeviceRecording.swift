import Foundation
import MatchSceneCore

/// A one-device recording read as a match: one person's 3D joints per frame, placed in the venue by
/// `DeviceConfig` — a `MotionModel` in venue coordinates whose skeleton is BlazePose's 33 landmarks
/// (MediaPipe) or `Skeleton.arkitBody` (ARKit), both with the roles the analysis looks up (wrists,
/// elbows, shoulders, hips, nose).
public enum DeviceRecording {
  /// Reads `device.file` at `fps`. - Throws: `InputError` from the readers, or when no frame holds a person.
  public static func load(_ device: DeviceConfig, fps: Double) throws -> MotionModel {
    var perFrame: [Int: [Int: SIMD3<Double>]] = [:]
    let skeleton: Skeleton
    switch device.format {
    case .mediapipe:
      skeleton = .blazePose33
      for (frame, landmarks) in try MediaPipeWorldJSON.read(from: device.file, fps: fps) {
        var joints: [Int: SIMD3<Double>] = [:]
        for (j, l) in landmarks.enumerated() where l.visibility >= device.minVisibility {
          // MediaPipe: x right, y down, z away from the camera.
          joints[j] = device.venuePoint(right: l.position.x, away: l.position.z, up: -l.position.y)
        }
        perFrame[frame] = joints
      }
    case .arkit:
      skeleton = .arkitBody
      for (frame, joints) in try ARKitBodyJSON.read(from: device.file, fps: fps) {
        // ARKit: x right, y up, −z the session's initial view.
        perFrame[frame] = joints.mapValues { device.venuePoint(right: $0.x, away: -$0.z, up: $0.y) }
      }
    }
    guard let lo = perFrame.keys.min(), let hi = perFrame.keys.max(), perFrame.values.contains(where: { !$0.isEmpty }) else {
      throw InputError(file: device.file.path, "no frame holds a person")
    }
    var model = MotionModel(fps: fps, skeleton: skeleton, frames: lo...hi)
    var track = model.makeTrack(id: device.track, kind: .player)
    for (frame, joints) in perFrame {
      for (j, p) in joints { track[joint: j, frame: frame] = MotionSample(position: p, reprojectionPx: 0, views: 1, state: .measured) }
    }
    model.tracks = [track]
    return model
  }
}
