/// Which cameras each person joint was triangulated from: one row per track, frame and joint, with a
/// bit mask over the cameras (bit c set: camera c, in `cameras` order, was used). Written as `views.csv`
/// beside `tracks.csv`.
public struct ViewsUsed: Sendable, Equatable {
  public struct Row: Sendable, Equatable {
    public var frame: Int
    public var track: String
    /// Keypoint index in the skeleton.
    public var joint: Int
    /// Bit c set: camera c was used.
    public var mask: UInt64
    public init(frame: Int, track: String, joint: Int, mask: UInt64) {
      self.frame = frame
      self.track = track
      self.joint = joint
      self.mask = mask
    }
  }

  /// Camera names, in the order of the mask's bits (the calibration's order).
  public var cameras: [String]
  public var rows: [Row] = []

  public init(cameras: [String], rows: [Row] = []) {
    self.cameras = cameras
    self.rows = rows
  }

  /// Adds a joint's row from its per-camera (error, used) views.
  mutating func append(frame: Int, track: String, joint: Int, views: ArraySlice<(error: Double, used: Bool)?>) {
    var mask: UInt64 = 0
    for (c, view) in views.enumerated() where c < 64 && view?.used == true { mask |= 1 << UInt64(c) }
    rows.append(Row(frame: frame, track: track, joint: joint, mask: mask))
  }

  /// The rows with their tracks renamed by `names` (old id → new id); rows of other tracks unchanged.
  public func renamingTracks(_ names: [String: String]) -> ViewsUsed {
    var out = self
    for i in out.rows.indices { if let name = names[out.rows[i].track] { out.rows[i].track = name } }
    return out
  }
}
