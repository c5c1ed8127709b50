import MatchSceneCore

extension MatchConfig {
  /// The keys a `[score]` table may hold.
  public static let scoreTableKeys: Set<String> = ["points_per_game", "win_by", "serves_per_turn", "best_of", "policy", "claim_hold"]

  /// Reads the `[score]` table (`ScoreSettings`); absent keys keep their defaults.
  /// - Throws: `InputError` naming `score.<key>` for an unknown key, a value of the wrong type or out of range.
  static func score(_ t: TOMLTableView) throws -> ScoreSettings {
    if let unknown = t.keys.sorted().first(where: { !scoreTableKeys.contains($0) }) {
      throw t.fail(unknown, "unknown key; expected one of \(scoreTableKeys.sorted().joined(separator: ", "))")
    }
    var settings = ScoreSettings()
    if let x = try t.int("points_per_game") { settings.rules.pointsToWin = x }
    if let x = try t.int("win_by") { settings.rules.winBy = x }
    if let x = try t.int("serves_per_turn") { settings.rules.servesPerTurn = x }
    if let x = try t.int("best_of") { settings.rules.bestOf = x }
    if let name = try t.string("policy") {
      guard let policy = ScorePolicy(rawValue: name) else {
        throw t.fail("policy", "expected one of \(ScorePolicy.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'")
      }
      settings.policy = policy
    }
    if let hold = try t.number("claim_hold") {
      guard hold >= 0.2, hold <= 10 else { throw t.fail("claim_hold", "must lie in 0.2…10 seconds, got \(hold)") }
      settings.claimHold = hold
    }
    try settings.rules.validate(file: t.file)
    return settings
  }

  /// The `[score]` table's text.
  public static func renderScoreTable(_ s: ScoreSettings) -> String {
    "[score]\npoints_per_game = \(s.rules.pointsToWin)\nwin_by = \(s.rules.winBy)\nserves_per_turn = \(s.rules.servesPerTurn)\n"
      + "best_of = \(s.rules.bestOf)\npolicy = \(CalibrationTOML.quoteString(s.policy.rawValue))\n"
      + "claim_hold = \(CalibrationTOML.tomlNumber(s.claimHold))\n"
  }
}
