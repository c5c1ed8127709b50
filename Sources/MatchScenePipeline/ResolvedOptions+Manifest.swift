import MatchSceneCore
import MatchSceneIO

extension ResolvedOptions {
  /// The settings the run used, by name, as the manifest records them (`MatchManifest.options`): the
  /// resolved set — the view gate, weights and bones as resolved against `match.toml`, and `others`.
  /// Names are the options' own; a gate of 0 is the fixed pixel gate.
  public var manifestOptions: [String: SettingValue] {
    var settings = others.mapValues(\.value)
    settings["viewGateSigmas"] = .number(viewGateSigmas.value ?? 0)
    settings["weighViewsByNoise"] = .bool(weighViewsByNoise.value)
    settings["softBones"] = .bool(softBones.value)
    return settings
  }
}

extension PipelineOptions {
  /// The settings of these options that `match.toml` cannot give, by their manifest names, each from a
  /// flag when it differs from the built-in default (`PipelineOptions()`), else the built-in default; the
  /// score policy, fps and skeleton only when given.
  func otherSettings() -> [String: ResolvedOptions.Setting<SettingValue>] {
    let defaults = PipelineOptions()
    var settings: [String: ResolvedOptions.Setting<SettingValue>] = [:]
    func record(_ name: String, _ value: SettingValue, builtIn: SettingValue) {
      settings[name] = ResolvedOptions.Setting(value, from: value == builtIn ? .builtIn : .flag)
    }
    func record(_ name: String, _ path: KeyPath<PipelineOptions, Bool>) {
      record(name, .bool(self[keyPath: path]), builtIn: .bool(defaults[keyPath: path]))
    }
    func record(_ name: String, _ path: KeyPath<PipelineOptions, Double>) {
      record(name, .number(self[keyPath: path]), builtIn: .number(defaults[keyPath: path]))
    }
    record("analysis", \.analysis)
    record("checkCalibration", \.checkCalibration)
    record("refineCalibration", \.refineCalibration)
    record("refineFocal", \.refineFocal)
    record("correctDisagreeingCameras", \.correctDisagreeingCameras)
    record("equalWeightsAfterRefinement", \.equalWeightsAfterRefinement)
    record("levelOnFloorContacts", \.levelOnFloorContacts)
    record("removeDetectorBias", \.removeDetectorBias)
    record("estimateSync", \.estimateSync)
    record("boneLengths", \.analysisOptions.boneLengths)
    record("ballPhysics", \.analysisOptions.ballPhysics)
    record(
      "smoothing", .string(analysisOptions.smoothing.method.rawValue),
      builtIn: .string(defaults.analysisOptions.smoothing.method.rawValue))
    record("smoothingCutoff", \.analysisOptions.smoothing.cutoff)
    record("smoothingMaxGap", \.analysisOptions.smoothing.maxGap)
    record("maxReprojectionPx", \.reconstruction.triangulation.maxReprojectionPx)
    record("minConfidence", \.reconstruction.triangulation.minConfidence)
    if let policy = scorePolicy { settings["scorePolicy"] = .init(.string(policy.rawValue), from: .flag) }
    if let fps = input.fps { settings["fps"] = .init(.number(fps), from: .flag) }
    if let skeleton = input.skeleton { settings["skeleton"] = .init(.string(skeleton), from: .flag) }
    return settings
  }
}
