import Foundation
import MatchSceneCore

/// `match.json`: what produced an output folder and how to read it back — the skeleton (its name and
/// keypoint order, so a custom skeleton round-trips), the frame rate, the sport, the venue frame, the
/// settings the run used, the tool's version and the SHA-256 of the input.
///
/// ```json
/// { "format": 1, "tool": "matchscene 0.13-dev", "fps": 60, "sport": "table-tennis",
///   "frames": {"first": 0, "last": 3599},
///   "skeleton": {"name": "coco17", "keypoints": ["nose", …], "bones": [["left_shoulder", "left_elbow"], …],
///                "mirrorPairs": [["left_eye", "right_eye"], …]},
///   "venue": {"source": "given", "up": [0, 0, 1], "origin": [0, 0, 0], "longAxis": [1, 0, 0]},
///   "options": {"analysis": true, "softBones": true, "viewGateSigmas": 3, …},
///   "inputHash": "9f86d0…" }
/// ```
/// Keys are written sorted; a reader ignores keys it does not know, and a file of a newer `format` is
/// refused with a message naming it (provenance as OpenCap keeps it with each trial).
public struct MatchManifest: Sendable, Codable, Equatable {
  /// The layout of this file; raised when a key changes meaning.
  public static let currentFormat = 1
  /// The name and version of the program that writes it.
  public static let currentTool = "matchscene 0.13-dev"

  public var format: Int
  /// The program and version that wrote the folder.
  public var tool: String
  /// Frames per second of `tracks.csv`'s frame numbers.
  public var fps: Double
  /// The sport's id (`table-tennis`, …).
  public var sport: String
  /// The frames reconstructed, first and last; nil when not known.
  public var frames: Frames?
  public var skeleton: ManifestSkeleton
  /// The venue frame the analysis worked in; nil when not known.
  public var venue: ManifestVenue?
  /// The settings the run used, by name (booleans, numbers, strings).
  public var options: [String: SettingValue]
  /// SHA-256 over the input folder's files (each as its path, length and bytes, in path order); nil when
  /// not computed.
  public var inputHash: String?

  public struct Frames: Sendable, Codable, Equatable {
    public var first: Int
    public var last: Int
    public init(_ range: ClosedRange<Int>) { (first, last) = (range.lowerBound, range.upperBound) }
    public var range: ClosedRange<Int>? { first <= last ? first...last : nil }
  }

  public init(
    fps: Double, sport: String, skeleton: Skeleton, venue: VenueFrame?, frames: ClosedRange<Int>? = nil,
    options: [String: SettingValue] = [:], inputHash: String? = nil, tool: String = MatchManifest.currentTool
  ) {
    format = Self.currentFormat
    self.tool = tool
    self.fps = fps
    self.sport = sport
    self.frames = frames.map(Frames.init)
    self.skeleton = ManifestSkeleton(skeleton)
    self.venue = venue.map(ManifestVenue.init)
    self.options = options
    self.inputHash = inputHash
  }
}

/// One setting's value in `match.json`'s `options`: a boolean, a number or a string, written as the JSON value
/// itself.
public enum SettingValue: Sendable, Codable, Equatable, CustomStringConvertible {
  case bool(Bool)
  case number(Double)
  case string(String)

  public init(from decoder: Decoder) throws {
    let value = try decoder.singleValueContainer()
    if let b = try? value.decode(Bool.self) { self = .bool(b) }
    else if let n = try? value.decode(Double.self) { self = .number(n) }
    else { self = .string(try value.decode(String.self)) }
  }

  public func encode(to encoder: Encoder) throws {
    var value = encoder.singleValueContainer()
    switch self {
    case .bool(let b): try value.encode(b)
    case .number(let n): try value.encode(n)
    case .string(let s): try value.encode(s)
    }
  }

  public var description: String {
    switch self {
    case .bool(let b): String(b)
    case .number(let n): String(n)
    case .string(let s): s
    }
  }
}

/// A skeleton as `match.json` records it: keypoints in order, bones and mirror pairs by keypoint name, and
/// explicit roles when the skeleton has them.
public struct ManifestSkeleton: Sendable, Codable, Equatable {
  public var name: String
  public var keypoints: [String]
  public var bones: [[String]]
  public var mirrorPairs: [[String]]
  /// Role → keypoint name, for a skeleton that names them (a custom skeleton's `roles` table).
  public var roles: [String: String]?

  public init(_ skeleton: Skeleton) {
    name = skeleton.name
    keypoints = skeleton.keypoints
    bones = skeleton.bones.map { [skeleton.keypoints[$0.0], skeleton.keypoints[$0.1]] }
    mirrorPairs = skeleton.mirrorPairs.map { [skeleton.keypoints[$0.0], skeleton.keypoints[$0.1]] }
    roles = skeleton.explicitRoles.map { explicit in
      Dictionary(uniqueKeysWithValues: explicit.map { ($0.key.rawValue, skeleton.keypoints[$0.value]) })
    }
  }

  /// The skeleton: the built-in one of that name when its keypoints are the same (so it keeps every
  /// property of the built-in), else one made from the record.
  /// - Throws: `InputError` naming `file` when a bone, mirror pair or role is not a pair of known names.
  public func skeleton(file: String) throws -> Skeleton {
    if let builtIn = Skeleton.builtIn[name] ?? (name == Skeleton.arkitBody.name ? .arkitBody : nil),
      builtIn.keypoints == keypoints
    {
      return builtIn
    }
    func pairs(_ list: [[String]], key: String) throws -> [(String, String)] {
      try list.map { pair in
        guard pair.count == 2, pair.allSatisfy(keypoints.contains) else {
          throw InputError(file: file, location: .key("skeleton.\(key)"), "expected pairs of the skeleton's keypoint names, got \(pair)")
        }
        return (pair[0], pair[1])
      }
    }
    var explicitRoles: [JointRole: String]?
    if let roles {
      explicitRoles = try Dictionary(uniqueKeysWithValues: roles.sorted { $0.key < $1.key }.map { role, joint in
        guard let r = JointRole(rawValue: role), keypoints.contains(joint) else {
          throw InputError(file: file, location: .key("skeleton.roles.\(role)"), "expected a joint role and one of the keypoints, got \(role) = \(joint)")
        }
        return (r, joint)
      })
    }
    return Skeleton(
      name: name, keypoints: keypoints, bones: try pairs(bones, key: "bones"),
      mirrorPairs: try pairs(mirrorPairs, key: "mirrorPairs"), roles: explicitRoles)
  }
}

/// A venue frame as `match.json` and `report.json` record it: where it came from and its up direction,
/// origin and long axis in world coordinates (three numbers each).
public struct ManifestVenue: Sendable, Codable, Equatable {
  public var source: String
  public var up: SIMD3<Double>
  public var origin: SIMD3<Double>
  public var longAxis: SIMD3<Double>

  public init(_ venue: VenueFrame) {
    source = venue.source.rawValue
    up = venue.up
    origin = venue.origin
    longAxis = venue.longAxis
  }

  /// The venue frame; nil when the vectors do not make one (zero up, long axis along up).
  public var frame: VenueFrame? {
    VenueFrame(up: up, origin: origin, longAxis: longAxis, source: VenueFrame.Source(rawValue: source) ?? .given)
  }
}
