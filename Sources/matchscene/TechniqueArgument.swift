import ArgumentParser
import Foundation
import MatchSceneSimulation

/// `--technique P1:trunk-rotation=1.5,backswing-size=1.2,backswing-time=0.2`: one player's technique knobs;
/// keys left out keep their defaults. `repeatable=1` plays every stroke of a kind alike (`Technique.repeatable`).
struct TechniqueArgument {
  /// The accepted keys and their ranges.
  static let keys: [(name: String, range: ClosedRange<Double>, units: String)] = [
    ("trunk-rotation", Technique.trunkRotationRange, ""),
    ("backswing-size", Technique.backswingSizeRange, ""),
    ("backswing-time", Technique.backswingTimeRange, " s"),
    ("repeatable", 0...1, ""),
  ]

  /// "trunk-rotation (0.0…3.0), backswing-size (0.3…2.0), backswing-time (0.08…0.3 s)".
  static var accepted: String {
    keys.map { "\($0.name) (\($0.range.lowerBound)…\($0.range.upperBound)\($0.units))" }.joined(separator: ", ")
  }

  /// 0 for P1, 1 for P2.
  var player: Int
  var technique: Technique

  /// Parses one `--technique` value; the error names the flag, the accepted players and keys with their ranges.
  init(parsing text: String) throws {
    func fail(_ message: String) -> ValidationError {
      ValidationError("--technique '\(text)': \(message); expected P1|P2:key=value,… with keys \(Self.accepted)")
    }
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2, let player = ["P1", "P2"].firstIndex(of: parts[0]) else {
      throw fail("it must start with P1: or P2:")
    }
    self.player = player
    technique = Technique()
    let assignments = parts[1].split(separator: ",", omittingEmptySubsequences: false)
    for assignment in assignments {
      let pair = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      guard pair.count == 2 else { throw fail("'\(assignment)' is not key=value") }
      let name = pair[0].trimmingCharacters(in: .whitespaces)
      guard let key = Self.keys.first(where: { $0.name == name }) else { throw fail("unknown key '\(name)'") }
      guard let value = Double(pair[1].trimmingCharacters(in: .whitespaces)), value.isFinite else {
        throw fail("\(name) must be a number, got '\(pair[1])'")
      }
      guard key.range.contains(value) else {
        throw fail("\(name) must lie in \(key.range.lowerBound)…\(key.range.upperBound)\(key.units), got \(pair[1])")
      }
      switch key.name {
      case "trunk-rotation": technique.trunkRotation = value
      case "backswing-size": technique.backswingSize = value
      case "repeatable": technique.repeatable = value != 0
      default: technique.backswingTime = value
      }
    }
  }
}
