import MatchSceneCore

/// One estimated 3D point: a row of `tracks.csv`
/// (`frame,time,track,kind,joint,x,y,z,reproj_px,views`).
public struct TrackPoint: Sendable, Equatable, Hashable {
  /// Match frame number.
  public var frame: Int
  /// Seconds since match frame 0 (`frame / fps`).
  public var time: Double
  /// Stable track id (`P1`, `P2`, … for people; `ball` for the ball).
  public var track: String
  public var kind: TrackKind
  /// Keypoint name of the skeleton, or `ball`.
  public var joint: String
  /// Metres, in the calibration's world frame.
  public var position: SIMD3<Double>
  /// Mean reprojection error over the views used, pixels (0 for ground truth).
  public var reprojectionPx: Double
  /// Number of camera views used.
  public var views: Int

  public init(
    frame: Int, time: Double, track: String, kind: TrackKind, joint: String, position: SIMD3<Double>,
    reprojectionPx: Double, views: Int
  ) {
    self.frame = frame
    self.time = time
    self.track = track
    self.kind = kind
    self.joint = joint
    self.position = position
    self.reprojectionPx = reprojectionPx
    self.views = views
  }
}
