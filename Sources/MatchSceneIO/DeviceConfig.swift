import Foundation
import MatchSceneCore

/// `match.toml`'s `[device]` table: the match was filmed by one device that gives 3D joints itself
/// (MediaPipe `pose_world_landmarks`, an ARKit body-anchor export), and where that device's frame sits
/// in the venue.
///
/// ```toml
/// fps = 60                       # the recording's frame rate (MediaPipe files without times need it)
/// [device]
/// format = "mediapipe"           # mediapipe | arkit
/// file = "device/pose_world_landmarks.json"   # relative to the match folder
/// origin = [-2.2, 0.0, 0.95]     # venue metres of the device frame's origin: MediaPipe's is the hips'
///                                # midpoint (it holds them still), ARKit's the session's world origin
/// heading_degrees = 0            # the device's viewing direction in the venue, degrees about z from +x
///                                # (MediaPipe: the camera's; ARKit: the session's −z)
/// scale = 1.0                    # multiplies the device's metres (a monocular model's size guess)
/// track = "P1"                   # the person's track id
/// min_visibility = 0.5           # MediaPipe landmarks below it are missing
/// ```
///
/// The device frame is taken as level (gravity-aligned, as ARKit's world is; a MediaPipe camera held
/// level): its right, away-from-camera and up axes turn by `heading_degrees` about the venue's z.
public struct DeviceConfig: Sendable, Equatable {
  public enum Format: String, Sendable, CaseIterable {
    /// MediaPipe Pose `pose_world_landmarks`: 33 BlazePose landmarks, metres, origin between the hips,
    /// x right, y down, z away from the camera (`MediaPipeWorldJSON`).
    case mediapipe
    /// An ARKit body-anchor export: per frame, joint name → 4×4 world transform, column-major; ARKit's
    /// world is y up, metres (`ARKitBodyJSON`).
    case arkit
  }

  public var format: Format
  public var file: URL
  public var origin: SIMD3<Double>
  public var headingDegrees: Double
  public var scale: Double
  public var track: String
  public var minVisibility: Double

  public init(
    format: Format, file: URL, origin: SIMD3<Double> = .zero, headingDegrees: Double = 0, scale: Double = 1,
    track: String = "P1", minVisibility: Double = 0.5
  ) {
    self.format = format
    self.file = file
    self.origin = origin
    self.headingDegrees = headingDegrees
    self.scale = scale
    self.track = track
    self.minVisibility = minVisibility
  }

  static let keys: Set<String> = ["format", "file", "origin", "heading_degrees", "scale", "track", "min_visibility"]

  /// The venue point of a device-frame point given by its level components: `right`, `away` (from the
  /// camera, horizontal) and `up`, metres.
  public func venuePoint(right: Double, away: Double, up: Double) -> SIMD3<Double> {
    let h = headingDegrees * Double.pi / 180
    let look = SIMD3(cos(h), sin(h), 0), rightAxis = SIMD3(sin(h), -cos(h), 0)
    return origin + scale * (away * look + right * rightAxis + up * SIMD3(0, 0, 1))
  }

  /// The device frame's level components (right, away, up) of a venue point: `venuePoint` undone.
  public func devicePoint(_ venue: SIMD3<Double>) -> (right: Double, away: Double, up: Double) {
    let h = headingDegrees * Double.pi / 180
    let d = (venue - origin) / scale
    return (d.x * sin(h) - d.y * cos(h), d.x * cos(h) + d.y * sin(h), d.z)
  }

  /// The `[device]` table of the match folder's `match.toml`, and the file's `fps`; nil when there
  /// is no `match.toml` or no `[device]`.
  /// - Throws: `InputError` naming `match.toml` and the key.
  public static func read(folder: URL) throws -> (device: DeviceConfig, fps: Double?, sport: String?)? {
    let url = folder.appendingPathComponent("match.toml")
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    let doc = try TOMLDocument(contentsOf: url)
    guard let t = try doc.rootView.subtable("device") else { return nil }
    for key in t.keys where !keys.contains(key) {
      throw t.fail(key, "unknown key; expected \(keys.sorted().joined(separator: ", "))")
    }
    let formatName = try t.required("format", t.string)
    guard let format = Format(rawValue: formatName) else {
      throw t.fail("format", "'\(formatName)' is not a device format; expected mediapipe or arkit")
    }
    let file = try t.required("file", t.string)
    let o = try t.numbers("origin", count: [3]) ?? [0, 0, 0]
    let scale = try t.number("scale") ?? 1
    guard scale > 0 else { throw t.fail("scale", "must be positive, got \(scale)") }
    let minVisibility = try t.number("min_visibility") ?? 0.5
    guard (0...1).contains(minVisibility) else { throw t.fail("min_visibility", "must be within 0–1, got \(minVisibility)") }
    let fps = try doc.rootView.number("fps")
    if let fps, !(fps >= 1 && fps <= 10_000) { throw doc.rootView.fail("fps", "must be between 1 and 10000, got \(fps)") }
    let device = DeviceConfig(
      format: format, file: file.hasPrefix("/") ? URL(fileURLWithPath: file) : folder.appendingPathComponent(file),
      origin: SIMD3(o[0], o[1], o[2]), headingDegrees: try t.number("heading_degrees") ?? 0, scale: scale,
      track: try t.string("track") ?? "P1", minVisibility: minVisibility)
    return (device, fps, try doc.rootView.string("sport"))
  }
}
