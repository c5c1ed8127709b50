import Foundation
import MatchSceneCore
import MatchSceneIO

/// What `matchscene form` and `clip` read from a `reconstruct` output folder (`MatchOutput`): the players'
/// and the ball's tracks (world frame) in the folder's skeleton, the events, the venue frame and the sport.
public struct FormInput: Sendable {
  public var motion: MotionModel
  public var events: [MatchEvent]
  public var venue: VenueFrame
  /// The sport's id (the manifest's `sport`, else table tennis).
  public var sport: String

  public init(motion: MotionModel, events: [MatchEvent], venue: VenueFrame, sport: String = "table-tennis") {
    self.motion = motion
    self.events = events
    self.venue = venue
    self.sport = sport
  }

  /// Reads an output folder in the skeleton it records (`match.json`; for a folder written before the
  /// manifest, the fallback of `MatchOutput`).
  /// - Throws: `InputError` naming the missing or malformed file.
  public static func load(_ folder: URL) throws -> FormInput {
    try load(MatchOutput.open(folder))
  }

  /// Reads an opened output folder.
  /// - Throws: `InputError` naming the malformed file.
  public static func load(_ output: MatchOutput) throws -> FormInput {
    // Only the players and the ball are analysed: other people's rows are left out of the model.
    let motion = try output.motion(kinds: [.player, .ball])
    // A sparse match's model runs on a compact axis (`FrameAxis`): its events go onto it too (those in a
    // collapsed stretch, none when the events came with the tracks, are left out).
    let events = motion.axis.compact(try output.events(), fps: motion.fps)
    return FormInput(motion: motion, events: events, venue: output.venue, sport: output.manifest.sport)
  }
}
