import Foundation
import MatchSceneCore

extension MatchOutput {
  /// The `tracks.csv` at `url` (a file, or a folder holding `tracks.csv`) as a dense motion model: in the
  /// skeleton and frame rate its output folder records (`open(_:)`) when it is a folder's `tracks.csv`, else
  /// in those the fallback finds from its rows alone (`fallbackFramesPerSecond`, `fallbackSkeleton`).
  /// `evaluate` reads both sides with it (`simulate`'s `truth/` is such a folder, without a manifest).
  /// - Throws: `InputError` naming the file (and line) that cannot be read.
  public static func readMotion(tracks url: URL) throws -> MotionModel {
    let file = tracksFile(url)
    if file.lastPathComponent == File.tracks.rawValue { return try open(file.deletingLastPathComponent()).motion() }
    let rows = try TracksCSV.read(from: file)
    return MotionModel(points: rows, fps: fallbackFramesPerSecond(rows), skeleton: fallbackSkeleton(rows))
  }
}
