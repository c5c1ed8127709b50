import MatchSceneCore
import MatchSceneIO

/// The settings one run actually used, each resolved once, by one rule: a flag (`PipelineOptions`) over
/// `match.toml` over the sport's default over the built-in default. Codable, so that a run can record
/// the settings it used beside its outputs.
public struct ResolvedOptions: Sendable, Equatable, Codable {
  /// Where a setting's value came from.
  public enum Source: String, Sendable, Equatable, Codable {
    /// A `PipelineOptions` field (a `matchscene reconstruct` flag).
    case flag
    /// The match folder's `match.toml`.
    case matchToml = "match.toml"
    /// The sport's own default (`sports/<sport>.toml`).
    case sport
    /// The library's default.
    case builtIn = "built-in"
  }

  /// One setting's value and where it came from.
  public struct Setting<Value: Sendable & Equatable & Codable>: Sendable, Equatable, Codable {
    public var value: Value
    public var source: Source

    public init(_ value: Value, from source: Source) {
      self.value = value
      self.source = source
    }

    /// The first of `flag`, `matchToml` and `sport` that is given, else `builtIn`: the one precedence
    /// rule of every setting.
    public static func resolve(flag: Value?, matchToml: Value? = nil, sport: Value? = nil, builtIn: Value) -> Setting {
      if let flag { return Setting(flag, from: .flag) }
      if let matchToml { return Setting(matchToml, from: .matchToml) }
      if let sport { return Setting(sport, from: .sport) }
      return Setting(builtIn, from: .builtIn)
    }
  }

  /// The view-selection gate in noise units; nil keeps the fixed pixel gate (a flag or `view_gate` of 0).
  public var viewGateSigmas: Setting<Double?>
  /// Weigh views by 1 / their camera's noise scale (true) or equally (false).
  public var weighViewsByNoise: Setting<Bool>
  /// The same after a calibration refinement: equal weights (`PipelineOptions.equalWeightsAfterRefinement`)
  /// unless a flag or `match.toml`'s `view_weights` says otherwise.
  public var weighViewsByNoiseAfterRefinement: Setting<Bool>
  /// Bone lengths as a weighted term (`SoftBoneLengths`, true) or held fixed (false).
  public var softBones: Setting<Bool>
  /// How the match is scored: the score settings with the policy flag applied.
  public var score: Setting<ScoreSettings>
  /// The other settings that change what is reconstructed and analysed, which `match.toml` cannot give,
  /// by their manifest names (`analysis`, `smoothingCutoff`, …; `PipelineOptions.otherSettings`).
  public var others: [String: Setting<SettingValue>]

  public init(
    viewGateSigmas: Setting<Double?>, weighViewsByNoise: Setting<Bool>, weighViewsByNoiseAfterRefinement: Setting<Bool>,
    softBones: Setting<Bool>, score: Setting<ScoreSettings>, others: [String: Setting<SettingValue>] = [:]
  ) {
    self.viewGateSigmas = viewGateSigmas
    self.weighViewsByNoise = weighViewsByNoise
    self.weighViewsByNoiseAfterRefinement = weighViewsByNoiseAfterRefinement
    self.softBones = softBones
    self.score = score
    self.others = others
  }
}

extension PipelineOptions {
  /// These options resolved against the match's `match.toml` (as read into `match`): the one place
  /// where a flag, `match.toml`, the sport and the built-in defaults meet.
  ///
  /// The built-in defaults are the stage options' own (`reconstruction.viewGateSigmas`,
  /// `reconstruction.weighViewsByNoise`, `ScoreSettings()`); `softBones` is a flag either way (false
  /// only when asked: `reconstruct --hard-bones`), and soft bones given as `analysisOptions.softBones`
  /// count as asked for.
  public func resolved(for match: Match) -> ResolvedOptions {
    let gate = ResolvedOptions.Setting<Double>.resolve(
      flag: viewGateSigmas, matchToml: match.viewGateSigmas, builtIn: reconstruction.viewGateSigmas ?? 0)
    let byNoise = ResolvedOptions.Setting.resolve(
      flag: weighViewsByNoise, matchToml: match.weighViewsByNoise, builtIn: reconstruction.weighViewsByNoise)
    let afterRefinement =
      byNoise.source == .builtIn && equalWeightsAfterRefinement ? ResolvedOptions.Setting(false, from: .builtIn) : byNoise
    let soft = analysisOptions.softBones != nil || softBones
    var score = ResolvedOptions.Setting.resolve(flag: self.score, matchToml: match.scoreSettings, builtIn: ScoreSettings())
    if let scorePolicy {
      score.value.policy = scorePolicy
      score.source = .flag
    }
    return ResolvedOptions(
      viewGateSigmas: ResolvedOptions.Setting(gate.value > 0 ? gate.value : nil, from: gate.source),
      weighViewsByNoise: byNoise, weighViewsByNoiseAfterRefinement: afterRefinement,
      softBones: ResolvedOptions.Setting(soft, from: soft ? .builtIn : .flag), score: score, others: otherSettings())
  }
}
