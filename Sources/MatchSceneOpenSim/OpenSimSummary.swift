import Foundation

/// `opensim/summary.json`: what `matchscene opensim` did per player, with the files it wrote (paths relative
/// to `opensim/`), the inverse kinematics marker error, and with `--truth` the joint angles' differences
/// from the same run on the true markers. Lengths in metres, angles in degrees.
public struct OpenSimSummary: Sendable, Codable, Equatable {
  public struct Player: Sendable, Codable, Equatable {
    public var id: String
    /// The rotation about the vertical applied before writing (`OpenSimFrame.facingDegrees`).
    public var facingDegrees: Double
    public var frames: Int?
    /// RMS over every marker and frame of the distance between the model's and the data's marker, metres.
    public var markerRMS_m: Double?
    public var markerRMSByMarker_m: [String: Double]?
    public var segmentLengths_m: [String: Double]?
    /// Lengths whose markers were never seen together, taken from the others by body proportions.
    public var estimatedLengths: [String]?
    /// `<id>/<id>.trc`, `.osim` (the sized model), `.mot` (inverse kinematics, degrees) and
    /// `_marker_errors.sto` (OpenSim's per-frame errors).
    public var files: [String]
    /// Why the player has no result, when it has none.
    public var error: String?
  }

  /// One coordinate compared between the reconstruction's and the truth's inverse kinematics.
  public struct Difference: Sendable, Codable, Equatable {
    public var rmsDegrees: Double
    public var maxDegrees: Double
    public var frames: Int
  }

  public var tool: String
  public var opensimVersion: String
  public var python: String
  public var skeleton: String
  public var seconds: Double
  public var players: [Player]
  /// Player → coordinate → difference (only with `--truth`).
  public var truth: [String: [String: Difference]]?
}
