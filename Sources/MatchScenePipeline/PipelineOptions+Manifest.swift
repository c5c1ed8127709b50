import MatchSceneCore
import MatchSceneIO

extension PipelineOptions {
  /// The settings a run used, by name, for the manifest (`MatchManifest.options`): these options after the
  /// run resolved them against `match.toml` (the view gate and weights) — the choices that change what is
  /// reconstructed and analysed. Names are the options' own; a gate of 0 is the fixed pixel gate.
  func manifestSettings() -> [String: SettingValue] {
    let smoothing = analysisOptions.smoothing
    var settings: [String: SettingValue] = [
      "analysis": .bool(analysis),
      "checkCalibration": .bool(checkCalibration),
      "refineCalibration": .bool(refineCalibration),
      "refineFocal": .bool(refineFocal),
      "correctDisagreeingCameras": .bool(correctDisagreeingCameras),
      "equalWeightsAfterRefinement": .bool(equalWeightsAfterRefinement),
      "levelOnFloorContacts": .bool(levelOnFloorContacts),
      "removeDetectorBias": .bool(removeDetectorBias),
      "estimateSync": .bool(estimateSync),
      "softBones": .bool(analysisOptions.softBones != nil || softBones),
      "boneLengths": .bool(analysisOptions.boneLengths),
      "ballPhysics": .bool(analysisOptions.ballPhysics),
      "smoothing": .string(smoothing.method.rawValue),
      "smoothingCutoff": .number(smoothing.cutoff),
      "smoothingMaxGap": .number(smoothing.maxGap),
      "viewGateSigmas": .number(reconstruction.viewGateSigmas ?? 0),
      "weighViewsByNoise": .bool(reconstruction.weighViewsByNoise),
      "maxReprojectionPx": .number(reconstruction.triangulation.maxReprojectionPx),
      "minConfidence": .number(reconstruction.triangulation.minConfidence),
    ]
    if let policy = scorePolicy { settings["scorePolicy"] = .string(policy.rawValue) }
    if let fps = input.fps { settings["fps"] = .number(fps) }
    if let skeleton = input.skeleton { settings["skeleton"] = .string(skeleton) }
    return settings
  }
}
