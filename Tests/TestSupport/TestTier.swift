import Foundation
import XCTest

/// The test tiers. `swift test` alone runs the unit and library tier; the README's test command runs all three.
///
/// - `unit`: in-process tests on small shared fixtures; no process is spawned.
/// - `integration`: the `matchscene` command end to end (a release binary built once, `MATCHSCENE_BINARY`),
///   and the in-process accuracy tests that need whole simulated matches (minutes in a debug build).
/// - `tools`: the programs users open our files with (Blender, Chromium, Slurm, ffmpeg, Python readers).
public enum TestTier: String, CaseIterable, Sendable {
  case unit, integration, tools

  /// The tiers enabled by `MATCHSCENE_TEST_TIERS` (comma-separated names, or `all`); `unit` always runs.
  public static var enabled: Set<TestTier> {
    let value = ProcessInfo.processInfo.environment["MATCHSCENE_TEST_TIERS"] ?? ""
    let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    if names.contains("all") { return Set(allCases) }
    return Set(names.compactMap(TestTier.init(rawValue:))).union([.unit])
  }
}

/// Skips the calling test unless `tier` is enabled (see `TestTier.enabled`).
/// - Throws: `XCTSkip` naming the variable that enables the tier.
public func requireTier(_ tier: TestTier) throws {
  guard TestTier.enabled.contains(tier) else {
    throw XCTSkip("\(tier.rawValue) tier: set MATCHSCENE_TEST_TIERS=\(tier.rawValue) (or all) to run it")
  }
}
