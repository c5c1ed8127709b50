import ArgumentParser
import Foundation
import MatchSceneSimulation

/// `--deviation P1:3:elbow=20`: a technique error of 20° at contact in P1's 3rd stroke's racket elbow
/// (`StrokeDeviation`); joints `elbow`, `shoulder_elevation`, `shoulder_plane`.
struct DeviationArgument {
  /// 0 for P1, 1 for P2.
  var player: Int
  var deviation: StrokeDeviation

  static var joints: String { RacketArmJoint.allCases.map(\.rawValue).joined(separator: ", ") }

  /// Parses one `--deviation` value; the error names the flag, the expected form and the joints.
  init(parsing text: String) throws {
    func fail(_ message: String) -> ValidationError {
      ValidationError("--deviation '\(text)': \(message); expected P1|P2:<stroke number or all>:<joint>=<degrees> with joints \(Self.joints)")
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, let player = ["P1", "P2"].firstIndex(of: parts[0]) else { throw fail("it must start with P1: or P2:") }
    let stroke: Int
    if parts[1] == "all" {
      stroke = StrokeDeviation.everyStroke
    } else {
      guard let number = Int(parts[1]), number >= 1 else { throw fail("the stroke number must be 1 or more, got '\(parts[1])'") }
      stroke = number
    }
    let pair = parts[2].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    guard pair.count == 2, let joint = RacketArmJoint(rawValue: pair[0]) else { throw fail("unknown joint '\(parts[2])'") }
    guard let degrees = Double(pair[1]), degrees.isFinite, abs(degrees) <= 90 else {
      throw fail("degrees must be a number in −90…90, got '\(pair[1])'")
    }
    self.player = player
    deviation = StrokeDeviation(stroke: stroke, joint: joint, degrees: degrees)
  }
}
