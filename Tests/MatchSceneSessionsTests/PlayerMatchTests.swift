import Foundation
import MatchSceneSessions
import TestSupport
import XCTest

final class PlayerMatchTests: XCTestCase {
  /// Five players 1.60–1.90 m tall, named in three sessions; in a fourth, unnamed, each is recognised by
  /// limb lengths (keypoints with 1 cm noise), and a stranger of 2.02 m is matched to no one.
  func testRightPlayerAmongFive() throws {
    let dir = try makeTemporaryFolder("sessions")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let heights = ["Ana": 1.60, "Ben": 1.68, "Cai": 1.75, "Dan": 1.82, "Eve": 1.90]
    let named: [(String, String)] = [("Ana", "Ben"), ("Cai", "Dan"), ("Eve", "Ana")]
    for (i, pair) in named.enumerated() {
      let match = try simulatedMatch(seed: 20 + UInt64(i), heights: [heights[pair.0]!, heights[pair.1]!])
      let out = try writeOutputFolder(
        match, to: dir.appendingPathComponent("named\(i)"), names: ["P1": pair.0, "P2": pair.1], noise: 0.01, seed: UInt64(i))
      try store.add(try SessionInput.read(outputFolder: out))
    }
    let unnamed: [(String?, Double)] = [("Ben", 1.68), ("Dan", 1.82), ("Eve", 1.90), ("Cai", 1.75), ("Ana", 1.60), (nil, 2.02)]
    for k in stride(from: 0, to: unnamed.count, by: 2) {
      let match = try simulatedMatch(seed: 40 + UInt64(k), heights: [unnamed[k].1, unnamed[k + 1].1])
      let out = try writeOutputFolder(match, to: dir.appendingPathComponent("new\(k)"), noise: 0.01, seed: 100 + UInt64(k))
      let result = try store.add(try SessionInput.read(outputFolder: out))
      for (track, expected) in [("P1", unnamed[k].0), ("P2", unnamed[k + 1].0)] {
        let suggestion = result.suggestions.first { $0.track == track }
        XCTAssertEqual(suggestion?.name, expected, "\(track) of session \(result.id)")
        if let suggestion {
          XCTAssertLessThan(suggestion.rmsDifference, 0.005, "own limb lengths within 5 mm RMS")
          XCTAssertGreaterThan(suggestion.confidence, 0.7)
        }
      }
    }
  }
}
