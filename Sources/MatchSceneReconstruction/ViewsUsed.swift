/// Which cameras each person joint was triangulated from: one row per track, frame and joint, with a
/// bit mask over the cameras (bit c set: camera c, in `cameras` order, was used). Written as `views.csv`
/// beside `tracks.csv`.
///
/// A row's `mask` holds cameras 0–63; a rig of more than 64 cameras keeps the further bits in
/// `highMasks`, `highWordCount` words a row (word k − 1 of a row: cameras 64k … 64k + 63), so that a row
/// costs the same as before on rigs of up to 64 cameras.
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
  /// Bits of cameras 64 and up: `highWordCount` words per row of `rows`, in row order; empty for rigs of
  /// up to 64 cameras (and for rows given to `init` without them, read as no camera).
  public var highMasks: [UInt64] = []

  public init(cameras: [String], rows: [Row] = []) {
    self.cameras = cameras
    self.rows = rows
  }

  /// Mask words a row holds beyond `Row.mask`: ⌈cameras / 64⌉ − 1, 0 for up to 64 cameras.
  public var highWordCount: Int { max(0, (cameras.count + 63) / 64 - 1) }

  /// Whether camera `c` was used for row `i`.
  public func uses(row i: Int, camera c: Int) -> Bool {
    if c < 64 { return rows[i].mask & (1 << UInt64(c)) != 0 }
    let k = i * highWordCount + c / 64 - 1
    return k < highMasks.count && highMasks[k] & (1 << UInt64(c % 64)) != 0
  }

  /// Row `i`'s mask word `word` (0: `Row.mask`, cameras 0–63; k: cameras 64k … 64k + 63).
  public func maskWord(row i: Int, word: Int) -> UInt64 {
    if word == 0 { return rows[i].mask }
    let k = i * highWordCount + word - 1
    return k < highMasks.count ? highMasks[k] : 0
  }

  /// Adds a joint's row from its per-camera (error, used) views.
  mutating func append(frame: Int, track: String, joint: Int, views: ArraySlice<(error: Double, used: Bool)?>) {
    var mask: UInt64 = 0
    let words = highWordCount
    // Rows added before (e.g. given to `init`) without high words read as using no camera above 63.
    if words > 0 && highMasks.count < rows.count * words {
      highMasks.append(contentsOf: repeatElement(0, count: rows.count * words - highMasks.count))
    }
    let high = highMasks.count
    if words > 0 { highMasks.append(contentsOf: repeatElement(0, count: words)) }
    for (c, view) in views.enumerated() where view?.used == true {
      if c < 64 {
        mask |= 1 << UInt64(c)
      } else if c / 64 - 1 < words {
        highMasks[high + c / 64 - 1] |= 1 << UInt64(c % 64)
      }
    }
    rows.append(Row(frame: frame, track: track, joint: joint, mask: mask))
  }

  /// The rows with their tracks renamed by `names` (old id → new id); rows of other tracks unchanged.
  public func renamingTracks(_ names: [String: String]) -> ViewsUsed {
    var out = self
    for i in out.rows.indices { if let name = names[out.rows[i].track] { out.rows[i].track = name } }
    return out
  }
}
