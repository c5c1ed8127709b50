import Foundation
import MatchSceneAssets
import MatchSceneCore

@testable import MatchSceneExport
import MatchSceneIO

/// A small synthetic match with known motion, for export tests.
enum SyntheticScene {
  static let fps = 50.0
  static let firstFrame = 10
  static let frameCount = 50

  /// Standing-pose offsets of the COCO-17 keypoints from a player's pelvis point on the floor, metres (z up).
  static let pose: [String: SIMD3<Double>] = [
    "nose": [0.10, 0, 1.62], "left_eye": [0.08, 0.03, 1.66], "right_eye": [0.08, -0.03, 1.66],
    "left_ear": [0.02, 0.07, 1.64], "right_ear": [0.02, -0.07, 1.64], "left_shoulder": [0, 0.19, 1.42],
    "right_shoulder": [0, -0.19, 1.42], "left_elbow": [0.05, 0.24, 1.15], "right_elbow": [0.15, -0.25, 1.15],
    "left_wrist": [0.20, 0.22, 0.95], "right_wrist": [0.35, -0.25, 1.05], "left_hip": [0, 0.11, 0.95],
    "right_hip": [0, -0.11, 0.95], "left_knee": [0.05, 0.13, 0.50], "right_knee": [0.05, -0.13, 0.50],
    "left_ankle": [0, 0.14, 0.08], "right_ankle": [0, -0.14, 0.08],
  ]

  /// Player `index` (0 or 1) at time `t`: P1 behind the −x end, P2 behind the +x end, both swaying
  /// sideways by 0.5 m sin(2π t) and P2 facing −x.
  static func playerJoint(_ index: Int, _ joint: String, t: Double) -> SIMD3<Double> {
    let o = pose[joint]!
    let facing: Double = index == 0 ? 1 : -1
    let base = SIMD3(index == 0 ? -2.2 : 2.2, 0.5 * sin(2 * .pi * t) * facing, 0)
    return base + SIMD3(o.x * facing, o.y * facing, o.z)
  }

  /// The ball on a parabola from x = −1.2 m to +1.2 m over the clip, 0.9 m high at the start.
  static func ball(t: Double) -> SIMD3<Double> {
    SIMD3(-1.2 + 2.4 * t / (Double(frameCount - 1) / fps), 0.1 * t, 0.9 + 2.5 * t - 4.905 * t * t)
  }

  /// The rows (`tracks.csv`'s points) for frames `firstFrame ..< firstFrame + frames`. `skip(track, frame)`
  /// drops a point.
  static func points(
    frames: Int = frameCount, skip: (String, Int) -> Bool = { _, _ in false }
  ) -> [TrackPoint] {
    var points: [TrackPoint] = []
    for k in 0..<frames {
      let frame = firstFrame + k
      let t = Double(k) / fps
      for (i, track) in ["P1", "P2"].enumerated() where !skip(track, frame) {
        for joint in Skeleton.coco17.keypoints {
          points.append(
            TrackPoint(
              frame: frame, time: Double(frame) / fps, track: track, kind: .player, joint: joint,
              position: playerJoint(i, joint, t: t), reprojectionPx: 0.5, views: 2))
        }
      }
      if !skip("ball", frame) {
        points.append(
          TrackPoint(
            frame: frame, time: Double(frame) / fps, track: "ball", kind: .ball, joint: "ball",
            position: ball(t: t), reprojectionPx: 0.5, views: 2))
      }
    }
    return points
  }

  /// The motion of `points(frames:skip:)`.
  static func motion(frames: Int = frameCount, skip: (String, Int) -> Bool = { _, _ in false }) -> MotionModel {
    motion(points(frames: frames, skip: skip))
  }

  /// The motion holding `points` (COCO-17, `fps`).
  static func motion(_ points: [TrackPoint]) -> MotionModel { MotionModel(points: points, fps: fps, skeleton: .coco17) }

  static let cameras: [Camera] = [
    Camera.lookingAt(
      SIMD3(0, 0, 0.8), from: SIMD3(0.5, -6, 3), name: "cam_left", imageSize: ImageSize(width: 1920, height: 1080),
      focalPx: 1400),
    Camera.lookingAt(
      SIMD3(0, 0, 0.8), from: SIMD3(6, 4, 2.5), name: "cam_right", imageSize: ImageSize(width: 1280, height: 720),
      focalPx: 900),
  ]

  /// The options `SceneExport` gives scenes bound for assimp 5.2: players unrigged, no light.
  static var assimpOptions: SceneOptions {
    var options = SceneOptions()
    options.rigPlayers = false
    options.includeLight = false
    return options
  }

  static func sport() throws -> SportSpec { try SportSpec.builtIn("table-tennis") }

  static func document(
    _ motion: MotionModel = motion(), options: SceneOptions = SceneOptions()
  ) throws -> GLTFDocument {
    try MatchSceneGLTF.build(
      motion: motion, cameras: cameras, sport: try sport(), worldUp: SIMD3(0, 0, 1), options: options)
  }
}

extension GLTFDocument {
  /// Index of the first node named `name`.
  func node(_ name: String) -> Int? { nodes?.firstIndex { $0.name == name } }

  /// Float values of accessor `i` (tightly packed float data only), flat.
  func floats(_ i: Int) -> [Float] {
    let a = accessors![i]
    let v = bufferViews![a.bufferView!]
    let start = (v.byteOffset ?? 0) + (a.byteOffset ?? 0)
    let n = a.count * GLTFAccessorType(rawValue: a.type)!.componentCount
    return binary.withUnsafeBytes { raw in
      (0..<n).map {
        Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4 * $0, as: UInt32.self)))
      }
    }
  }

  /// Values of accessor `i` as a reader takes them, flat: Float32, or normalised SHORT decoded as
  /// max(c / 32767, −1) (glTF 2.0 §3.11); tightly packed data only.
  func values(_ i: Int) -> [Double] {
    let a = accessors![i]
    guard a.componentType == GLTFComponentType.short.rawValue else { return floats(i).map(Double.init) }
    precondition(a.normalized == true)
    let v = bufferViews![a.bufferView!]
    let start = (v.byteOffset ?? 0) + (a.byteOffset ?? 0)
    let n = a.count * GLTFAccessorType(rawValue: a.type)!.componentCount
    return binary.withUnsafeBytes { raw in
      (0..<n).map {
        max(Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: start + 2 * $0, as: Int16.self))) / 32767, -1)
      }
    }
  }

  /// Float values of accessor `i` as vec3s.
  func vec3s(_ i: Int) -> [SIMD3<Double>] {
    let f = floats(i)
    return stride(from: 0, to: f.count, by: 3).map { (k: Int) -> SIMD3<Double> in
      SIMD3<Double>(Double(f[k]), Double(f[k + 1]), Double(f[k + 2]))
    }
  }

  /// The output accessor animating `path` of node `node` in animation `animation`.
  func output(animation: Int, node: Int, path: String) -> Int? {
    let a = animations![animation]
    guard let c = a.channels.first(where: { $0.target.node == node && $0.target.path == path }) else { return nil }
    return a.samplers[c.sampler].output
  }
}
