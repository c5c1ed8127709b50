/// Which cameras triangulated each person joint at each frame, as the C3D residual word's camera mask
/// holds them: bit c set when camera c (the calibration's order) contributed, cameras 0–6 only.
///
/// The C3D point's fourth word keeps its low byte for the mask (C3D.ORG, "The C3D File Format User Guide",
/// 3D point data), of which readers take seven bits, one per camera (ezc3d 1.7.2 returns seven
/// `camera_masks`); the eighth bit is no camera. A rig of more than seven cameras keeps only its first seven
/// in the mask: a point that only cameras 8 and beyond saw has mask 0 beside its residual (`views.csv`
/// lists every camera).
public struct C3DCameraMasks: Sendable, Equatable {
  /// Cameras a mask can name (bits 0–6).
  public static let maxCameras = 7

  /// Camera names, bit c of a mask being `cameras[c]` (those beyond `maxCameras` named, never set).
  public var cameras: [String]
  /// One track's masks: `jointCount` a row, one row per (real) frame recorded.
  private struct Track: Sendable, Equatable {
    var jointCount: Int
    var rowOfFrame: [Int: Int] = [:]
    var masks: [UInt8] = []

    mutating func set(joint: Int, frame: Int, mask: UInt8) {
      guard joint >= 0, joint < jointCount else { return }
      let row: Int
      if let r = rowOfFrame[frame] {
        row = r
      } else {
        row = masks.count / jointCount
        rowOfFrame[frame] = row
        masks.append(contentsOf: repeatElement(0, count: jointCount))
      }
      masks[row * jointCount + joint] = mask
    }
  }
  private var tracks: [String: Track] = [:]

  public init(cameras: [String]) {
    self.cameras = cameras
  }

  /// The mask byte of cameras 0–6 in `cameraBits` (bit c: camera c).
  public static func mask(_ cameraBits: UInt64) -> UInt8 {
    UInt8(truncatingIfNeeded: cameraBits & 0x7f)
  }

  /// Records the cameras (bit c: camera c; cameras from 7 on dropped) that triangulated `joint` of
  /// `track` at `frame`, a match frame as the C3D file's frames are (`MATCHSCENE:FIRST_FRAME` onwards).
  public mutating func set(track: String, joint: Int, frame: Int, cameraBits: UInt64, jointCount: Int) {
    // In place (the dictionary's default subscript), not a copy of the track's arrays per call.
    tracks[track, default: Track(jointCount: jointCount)].set(joint: joint, frame: frame, mask: Self.mask(cameraBits))
  }

  /// The mask of `joint` of `track` at `frame`; 0 when no camera is recorded.
  public func mask(track: String, joint: Int, frame: Int) -> UInt8 {
    guard let entry = tracks[track], joint >= 0, joint < entry.jointCount, let row = entry.rowOfFrame[frame] else { return 0 }
    return entry.masks[row * entry.jointCount + joint]
  }

  /// The mask of marker `m` of `set` (a midpoint: the cameras of either end, both having given it).
  func mask(_ m: Int, of set: MarkerSet, track: String, frame: Int) -> UInt8 {
    switch set.sources[m] {
    case .joint(let j): mask(track: track, joint: j, frame: frame)
    case .midpoint(let i, let j): mask(track: track, joint: i, frame: frame) | mask(track: track, joint: j, frame: frame)
    }
  }
}
