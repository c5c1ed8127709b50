import Foundation
import MatchSceneCore
import MatchSceneIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes what one device would have given for a simulated person: MediaPipe `pose_world_landmarks`
/// (hip-centred, camera axes) or an ARKit body-anchor export (world transforms), from the truth with
/// per-joint noise, so that a one-device match (`[device]` in match.toml) can be checked against it.
///
/// The noise model: each joint and axis carries a first-order autoregressive error (time constant
/// `correlationSeconds`: monocular pose errors drift with the pose rather than flicker frame to frame)
/// whose standard deviation depends on the joint — least on the torso, most on the hands and feet —
/// and is larger along the camera's axis, where one view sees no parallax; MediaPipe's metric size is
/// a guess from a learnt body model, so its scale is off by a per-recording factor.
public enum OneDeviceExport {
  public struct Noise: Sendable {
    /// Standard deviation per axis, metres: torso (shoulders, hips), head, elbows and knees, wrists,
    /// ankles and the rest of hands and feet.
    public var torso, head, middle, distal: Double
    /// Multiplies the standard deviation along the camera's axis.
    public var depthFactor: Double
    public var correlationSeconds: Double
    /// The scale error is uniform in ±this (0.04: ±4 %).
    public var scaleError: Double

    public init(torso: Double, head: Double, middle: Double, distal: Double, depthFactor: Double, correlationSeconds: Double, scaleError: Double) {
      self.torso = torso
      self.head = head
      self.middle = middle
      self.distal = distal
      self.depthFactor = depthFactor
      self.correlationSeconds = correlationSeconds
      self.scaleError = scaleError
    }

    /// A monocular model: 2–4 cm per axis, 1.5 × along the camera, ±4 % scale.
    public static let mediapipe = Noise(torso: 0.02, head: 0.025, middle: 0.03, distal: 0.04, depthFactor: 1.5, correlationSeconds: 0.1, scaleError: 0.04)
    /// A depth-sensing phone: 1.5–3 cm per axis, 1.3 × along the camera, metric scale.
    public static let arkit = Noise(torso: 0.015, head: 0.02, middle: 0.025, distal: 0.03, depthFactor: 1.3, correlationSeconds: 0.15, scaleError: 0)

    func sigma(_ role: JointRole?) -> Double {
      switch role {
      case .leftShoulder?, .rightShoulder?, .leftHip?, .rightHip?, .midHip?, .neck?: torso
      case .leftElbow?, .rightElbow?, .leftKnee?, .rightKnee?: middle
      case .nose?, .head?, .leftEye?, .rightEye?, .leftEar?, .rightEar?: head
      default: distal
      }
    }
  }

  /// The keypoint positions of `track` at `frame` by `names` (skeleton keypoint names of the device),
  /// made from the truth's roles; nil for a frame without both hips.
  static func devicePoints(_ truth: MotionModel, track t: Int, frame: Int, names: [String]) -> [SIMD3<Double>]? {
    let track = truth.tracks[t], skeleton = truth.skeleton
    func p(_ role: JointRole) -> SIMD3<Double>? { skeleton.index(of: role).flatMap { track.position(joint: $0, frame: frame) } }
    guard let lh = p(.leftHip), let rh = p(.rightHip), let ls = p(.leftShoulder), let rs = p(.rightShoulder) else { return nil }
    let across = rs - ls
    let forward = SIMD3(-across.y, across.x, 0) / max(1e-9, (across.x * across.x + across.y * across.y).squareRoot())
    func point(_ name: String) -> SIMD3<Double> {
      if let role = JointRole(rawValue: name) ?? JointRole.named(name), let q = p(role) { return q }
      let left = name.hasPrefix("left")
      func s(_ l: JointRole, _ r: JointRole) -> SIMD3<Double>? { p(left ? l : r) }
      switch name {
      case "mid_hip": return (lh + rh) / 2
      case "neck": return (ls + rs) / 2
      case "head":
        if let a = p(.leftEar), let b = p(.rightEar) { return (a + b) / 2 }
        return p(.nose) ?? (ls + rs) / 2 + SIMD3(0, 0, 0.25)
      case "mouth_left", "mouth_right": return (p(.nose) ?? (ls + rs) / 2 + SIMD3(0, 0, 0.2)) - SIMD3(0, 0, 0.04)
      case _ where name.contains("eye"): return s(.leftEye, .rightEye) ?? p(.nose) ?? (ls + rs) / 2
      case _ where name.contains("pinky") || name.contains("index") && !name.contains("foot") || name.contains("thumb"):
        guard let w = s(.leftWrist, .rightWrist) else { return (ls + rs) / 2 }
        let e = s(.leftElbow, .rightElbow) ?? w + SIMD3(0, 0, 0.25)
        let d = w - e
        return w + 0.08 * d / max(1e-9, (d * d).sum().squareRoot())
      case _ where name.contains("heel"): return (s(.leftAnkle, .rightAnkle) ?? (left ? lh : rh)) - 0.05 * forward - SIMD3(0, 0, 0.03)
      case _ where name.contains("foot_index") || name.contains("toe"):
        return (s(.leftAnkle, .rightAnkle) ?? (left ? lh : rh)) + 0.15 * forward - SIMD3(0, 0, 0.05)
      default: return (lh + rh) / 2
      }
    }
    return names.map(point)
  }

  /// The device's level components (right, away, up) of each keypoint of `names`, per frame, with noise.
  static func noisyFrames(
    _ truth: MotionModel, track id: String, device: DeviceConfig, names: [String], noise: Noise, seed: UInt64, hipCentred: Bool
  ) -> [(frame: Int, points: [SIMD3<Double>])] {
    guard let t = truth.trackIndex(id), let frames = truth.frames else { return [] }
    var rng = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D &+ 11)
    let scale = 1 + noise.scaleError * (2 * rng.uniform() - 1)
    let rho = exp(-1 / max(1e-9, noise.correlationSeconds * truth.fps))
    let roles = names.map { JointRole(rawValue: $0) ?? JointRole.named($0) }
    var error = names.map { _ in SIMD3<Double>.zero }
    var started = false
    var out: [(Int, [SIMD3<Double>])] = []
    for frame in frames {
      guard let points = devicePoints(truth, track: t, frame: frame, names: names) else { continue }
      let hips = (points[names.firstIndex(of: "left_hip") ?? 0] + points[names.firstIndex(of: "right_hip") ?? 0]) / 2
      let centre = hipCentred ? device.devicePoint(hips) : (0, 0, 0)
      var row: [SIMD3<Double>] = []
      for (j, q) in points.enumerated() {
        let sigma = noise.sigma(roles[j])
        let n = SIMD3(rng.gaussian(), rng.gaussian() * noise.depthFactor, rng.gaussian()) * sigma
        error[j] = started ? rho * error[j] + (1 - rho * rho).squareRoot() * n : n
        let d = device.devicePoint(q)
        row.append(scale * SIMD3(d.right - centre.0, d.away - centre.1, d.up - centre.2) + error[j])
      }
      started = true
      out.append((frame, row))
    }
    return out
  }

  /// MediaPipe `pose_world_landmarks` JSON (`MediaPipeWorldJSON`) of `track` as a camera placed by
  /// `device` would give it: hip-centred, x right, y down, z away from the camera, 33 BlazePose landmarks.
  public static func mediapipe(_ truth: MotionModel, track: String, device: DeviceConfig, noise: Noise = .mediapipe, seed: UInt64) throws -> Data {
    let frames = noisyFrames(truth, track: track, device: device, names: Skeleton.blazePose33.keypoints, noise: noise, seed: seed, hipCentred: true)
    struct Landmark: Encodable { var x, y, z, visibility: Double }
    struct Frame: Encodable { var frame: Int; var pose_world_landmarks: [[Landmark]] }
    let out = frames.map { f in
      Frame(frame: f.frame, pose_world_landmarks: [f.points.map { Landmark(x: $0.x, y: -$0.z, z: $0.y, visibility: 0.95) }])
    }
    return try JSONEncoder().encode(out)
  }

  /// An ARKit body-anchor export (`ARKitBodyJSON`) of `track` with the session's world placed by
  /// `device`: per frame a time (from 1000 s, as ARFrame timestamps are uptime) and the joints' 4×4
  /// world transforms, column-major (rotation left as identity: only positions are read).
  public static func arkit(_ truth: MotionModel, track: String, device: DeviceConfig, noise: Noise = .arkit, seed: UInt64) throws -> Data {
    let names = ARKitBodyJSON.jointNames.sorted { $0.key < $1.key }
    let frames = noisyFrames(truth, track: track, device: device, names: names.map(\.value), noise: noise, seed: seed, hipCentred: false)
    struct Frame: Encodable { var time: Double; var joints: [String: [Double]] }
    struct File: Encodable { var frames: [Frame] }
    let out = frames.map { f in
      Frame(time: 1000 + Double(f.frame) / truth.fps, joints: Dictionary(uniqueKeysWithValues: zip(names, f.points).map { n, p in
        // ARKit: x right, y up, z towards the viewer (−away).
        (n.key, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, p.x, p.z, -p.y, 1])
      }))
    }
    return try JSONEncoder().encode(File(frames: out))
  }
}
