import MatchSceneCore

/// How much a reference's own strokes differ from stroke to stroke: per joint and `FormPhase`, the
/// robust standard deviation (`robustStandardDeviation`, Core) over the strokes of their phase-mean deviation
/// from the reference's centre curve, degrees. It holds the player's natural variation and the
/// measurement's noise together, so a deviation in these units says how unusual a stroke is for them.
public struct ReferenceSpread: Sendable, Codable, Equatable {
  /// Degrees, one per `FormPhase.allCases`.
  public var degrees: [FormJoint: [Double]]
  /// The strokes it was measured on.
  public var strokes: Int

  /// Fewest strokes a spread is measured on; with fewer, `FormScore.assumedSpread` stands in.
  public static let minimumStrokes = 5

  public init(degrees: [FormJoint: [Double]], strokes: Int) {
    self.degrees = degrees
    self.strokes = strokes
  }

  /// The spread of `curves` about `centre`; nil for fewer than `minimumStrokes` strokes.
  public init?(_ curves: [StrokeCurves], centre: StrokeCurves) {
    guard curves.count >= Self.minimumStrokes else { return nil }
    var degrees: [FormJoint: [Double]] = [:]
    for joint in FormJoint.allCases {
      guard let r = centre.values[joint] else { continue }
      degrees[joint] = FormPhase.allCases.map { phase in
        robustStandardDeviation(curves.compactMap { c in c.values[joint].map { FormScore.phaseMean($0, r, joint, phase) } })
      }
    }
    self.init(degrees: degrees, strokes: curves.count)
  }

  public func degrees(_ joint: FormJoint, _ phase: FormPhase) -> Double? {
    guard let row = degrees[joint], let i = FormPhase.allCases.firstIndex(of: phase), row[i].isFinite else { return nil }
    return row[i]
  }
}
