import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class MatchConfigTests: XCTestCase {
  func testParsesEveryField() throws {
    let config = try MatchConfig.parse("""
      sport = "table-tennis"
      fps = 119.88
      skeleton = "halpe26"
      up = "-y"

      [frame_offsets]
      cam01 = 0
      cam02 = -3
      "cam 3" = 12
      """, file: "match.toml")
    XCTAssertEqual(config, MatchConfig(sport: "table-tennis", fps: 119.88, skeleton: "halpe26", up: "-y",
                                       frameOffsets: ["cam01": 0, "cam02": -3, "cam 3": 12]))
    XCTAssertEqual(MatchConfig.upVector(config.up!), SIMD3(0, -1, 0))
    XCTAssertEqual(try MatchConfig.parse("", file: "match.toml"), MatchConfig(), "every field is optional")
    XCTAssertEqual(try MatchConfig.parse("fps = 50", file: "m.toml").fps, 50, "an integer is a number")
  }

  func testRoundTrip() throws {
    let config = MatchConfig(sport: "tennis \"clay\"", fps: 1000.0 / 33, skeleton: "coco17", up: "x", frameOffsets: ["a": 1, "b-2": -7])
    let url = try makeTemporaryFolder().appendingPathComponent("match.toml")
    try config.write(to: url)
    XCTAssertEqual(try MatchConfig.read(from: url), config)
    XCTAssertEqual(MatchConfig(fps: 60).render(), "fps = 60.0\n")
    for axis in ["x", "y", "z", "-x", "-y", "-z"] { XCTAssertEqual(MatchConfig.upName(MatchConfig.upVector(axis)!), axis) }
  }

  func testErrorsNameTheKey() {
    assertInputError(try MatchConfig.parse("fps = -60", file: "match.toml"), contains: ["match.toml: [fps]: must be within 1–10000 frames per second"])
    assertInputError(try MatchConfig.parse("fps = \"fast\"", file: "match.toml"), contains: ["[fps]: expected a number"])
    assertInputError(try MatchConfig.parse("up = \"north\"", file: "match.toml"), contains: ["[up]: expected x, y, z, -x, -y or -z"])
    assertInputError(try MatchConfig.parse("[frame_offsets]\ncam01 = 1.5", file: "match.toml"), contains: ["[frame_offsets.cam01]: expected an integer"])
    assertInputError(try MatchConfig.parse("frame_offsets = 3", file: "match.toml"), contains: ["[frame_offsets]: expected a table"])
    assertInputError(try MatchConfig.parse("sport = \"tt\nfps = 3", file: "match.toml"), contains: ["match.toml:1:", "not valid TOML"])
  }
}
