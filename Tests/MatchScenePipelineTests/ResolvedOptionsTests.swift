import Foundation
import MatchSceneCore
import MatchSceneIO
import MatchScenePipeline
import XCTest

/// The one precedence rule of the run's settings: a flag over `match.toml` over the sport over the
/// built-in default, each setting resolved by `PipelineOptions.resolved(for:)`.
final class ResolvedOptionsTests: XCTestCase {
  private let bare = Match(fps: 60, cameras: [])

  func testPrecedenceIsFlagThenMatchTomlThenSportThenBuiltIn() {
    typealias S = ResolvedOptions.Setting<Int>
    XCTAssertEqual(S.resolve(flag: 1, matchToml: 2, sport: 3, builtIn: 4), S(1, from: .flag))
    XCTAssertEqual(S.resolve(flag: nil, matchToml: 2, sport: 3, builtIn: 4), S(2, from: .matchToml))
    XCTAssertEqual(S.resolve(flag: nil, matchToml: nil, sport: 3, builtIn: 4), S(3, from: .sport))
    XCTAssertEqual(S.resolve(flag: nil, matchToml: nil, sport: nil, builtIn: 4), S(4, from: .builtIn))
  }

  func testDefaultsAreTheBuiltInOnes() {
    let resolved = PipelineOptions().resolved(for: bare)
    XCTAssertEqual(resolved.viewGateSigmas, .init(5, from: .builtIn))
    XCTAssertEqual(resolved.weighViewsByNoise, .init(true, from: .builtIn))
    XCTAssertEqual(resolved.weighViewsByNoiseAfterRefinement, .init(false, from: .builtIn), "equal weights after a refinement")
    XCTAssertEqual(resolved.softBones, .init(true, from: .builtIn))
    XCTAssertEqual(resolved.score, .init(ScoreSettings(), from: .builtIn))
  }

  func testMatchTomlOverridesTheBuiltInAndAFlagOverridesBoth() {
    var match = bare
    match.viewGateSigmas = 3
    match.weighViewsByNoise = false
    match.scoreSettings = ScoreSettings(policy: .claims)
    var options = PipelineOptions()
    var resolved = options.resolved(for: match)
    XCTAssertEqual(resolved.viewGateSigmas, .init(3, from: .matchToml))
    XCTAssertEqual(resolved.weighViewsByNoise, .init(false, from: .matchToml))
    XCTAssertEqual(resolved.weighViewsByNoiseAfterRefinement, .init(false, from: .matchToml))
    XCTAssertEqual(resolved.score, .init(ScoreSettings(policy: .claims), from: .matchToml))

    options.viewGateSigmas = 0
    options.weighViewsByNoise = true
    options.scorePolicy = .override
    options.softBones = false
    resolved = options.resolved(for: match)
    XCTAssertEqual(resolved.viewGateSigmas, .init(nil, from: .flag), "0: the fixed pixel gate")
    XCTAssertEqual(resolved.weighViewsByNoise, .init(true, from: .flag))
    XCTAssertEqual(resolved.weighViewsByNoiseAfterRefinement, .init(true, from: .flag), "a flag holds after a refinement too")
    XCTAssertEqual(resolved.score, .init(ScoreSettings(policy: .override), from: .flag), "the policy flag over [score]")
    XCTAssertEqual(resolved.softBones, .init(false, from: .flag))
  }

  func testTheResolvedSetRoundTripsThroughJSON() throws {
    var match = bare
    match.viewGateSigmas = 4
    let resolved = PipelineOptions().resolved(for: match)
    let data = try JSONEncoder().encode(resolved)
    XCTAssertEqual(try JSONDecoder().decode(ResolvedOptions.self, from: data), resolved)
    XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"match.toml\""), "sources by their names")
  }

  /// The manifest's options come from the resolved set: the resolved view gate, weights and bones, and
  /// the other options with where each came from.
  func testManifestOptionsAreTheResolvedSet() {
    var match = bare
    match.viewGateSigmas = 3
    var options = PipelineOptions()
    options.analysis = false
    options.scorePolicy = .claims
    let resolved = options.resolved(for: match)
    let manifest = resolved.manifestOptions
    XCTAssertEqual(manifest["viewGateSigmas"], .number(3))
    XCTAssertEqual(manifest["weighViewsByNoise"], .bool(true))
    XCTAssertEqual(manifest["softBones"], .bool(true))
    XCTAssertEqual(manifest["analysis"], .bool(false))
    XCTAssertEqual(manifest["scorePolicy"], .string("claims"))
    XCTAssertEqual(manifest["smoothing"], .string("butterworth"))
    XCTAssertNil(manifest["fps"], "fps only when given")
    XCTAssertEqual(resolved.others["analysis"]?.source, .flag)
    XCTAssertEqual(resolved.others["checkCalibration"], .init(.bool(true), from: .builtIn))
    XCTAssertEqual(
      Set(manifest.keys),
      [
        "analysis", "checkCalibration", "refineCalibration", "refineFocal", "correctDisagreeingCameras",
        "equalWeightsAfterRefinement", "levelOnFloorContacts", "removeDetectorBias", "estimateSync", "softBones",
        "boneLengths", "ballPhysics", "smoothing", "smoothingCutoff", "smoothingMaxGap", "viewGateSigmas",
        "weighViewsByNoise", "maxReprojectionPx", "minConfidence", "scorePolicy",
      ])
  }
}
