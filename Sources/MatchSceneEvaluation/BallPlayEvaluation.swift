import MatchSceneBallPlay
import MatchSceneCore

/// The ball against the true rallies: how much of the play it covers, and whether it is reported while
/// the ball is out of play.
///
/// A true rally's in-play frames run from its `rally_start` (the serve) to its `rally_end` (the moment
/// it is decided). Out of play is everything outside every rally's window widened by `tossAllowance`
/// before the serve (the ball is in play from the toss, ITTF Handbook 2.5.3, which the truth does not
/// mark) and `endAllowance` after the end.
public struct BallPlayEvaluation: Sendable, Encodable {
  /// Fraction of in-play frames seen by at least two cameras (in the truth) that have an estimated ball.
  public var inPlayCoverage: Double
  /// How many such frames there are.
  public var inPlayFrames: Int
  /// Fraction of estimated ball frames that lie out of play.
  public var outOfPlayRate: Double
  /// How many estimated ball frames lie out of play.
  public var outOfPlayFrames: Int

  /// - Parameters:
  ///   - estimate, truth: tracks; only the ball's (`kind == .ball`) samples are used.
  ///   - trueEvents: the truth's events (`rally_start` and `rally_end` are used; an open rally runs to
  ///     the last true ball frame).
  ///   - fps: frames per second, for the allowances (default the truth's).
  public init(
    estimate: MotionModel, truth: MotionModel, trueEvents: [MatchEvent], fps: Double? = nil, tossAllowance: Double = 1,
    endAllowance: Int = 2
  ) {
    let fps = fps ?? truth.fps
    let trueBall = Self.ballSamples(truth)
    let lastFrame = trueBall.map(\.frame).max() ?? 0
    let windows = Rallies.ranges(trueEvents, openUntil: lastFrame)
    let estimated = Set(Self.ballSamples(estimate).map(\.frame))
    func inPlay(_ f: Int) -> Bool { windows.contains { $0.contains(f) } }
    let seen = trueBall.filter { $0.views >= 2 && inPlay($0.frame) }.map(\.frame)
    inPlayFrames = seen.count
    inPlayCoverage = seen.isEmpty ? 1 : Double(seen.filter(estimated.contains).count) / Double(seen.count)
    let toss = Int((tossAllowance * fps).rounded())
    let widened = windows.map { ($0.lowerBound - toss)...($0.upperBound + endAllowance) }
    outOfPlayFrames = estimated.filter { f in !widened.contains { $0.contains(f) } }.count
    outOfPlayRate = estimated.isEmpty ? 0 : Double(outOfPlayFrames) / Double(estimated.count)
  }

  /// The present samples of the ball's tracks with their frame; views 0 for a filled one (as
  /// `tracks.csv` writes it).
  public static func ballSamples(_ motion: MotionModel) -> [(frame: Int, views: Int)] {
    var out: [(frame: Int, views: Int)] = []
    for track in motion.tracks where track.kind == .ball {
      for frame in track.frames {
        let s = track[joint: 0, frame: frame]
        if s.isPresent { out.append((frame, s.state == .filled ? 0 : Int(s.views))) }
      }
    }
    return out
  }

  /// One line for the terminal.
  public var summary: String {
    String(
      format: "ball in play: coverage %.2f%% of %d frames seen by ≥ 2 cameras; reported out of play %.2f%% (%d frames)",
      100 * inPlayCoverage, inPlayFrames, 100 * outOfPlayRate, outOfPlayFrames)
  }
}
