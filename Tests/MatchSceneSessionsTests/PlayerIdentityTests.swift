import Foundation
import GRDB
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneSessions

/// Who is who across sessions: one known person is suggested for one track only, a name that the limb
/// lengths contradict is flagged with its σ, a name can be corrected, and stores without σ still work.
final class PlayerIdentityTests: XCTestCase {
  /// Two people of one body in a session: a stored person is suggested for one of them at most.
  func testOneKnownPersonIsNeverSuggestedTwice() throws {
    let dir = try makeTemporaryFolder("identity-twice")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let first = try simulatedMatch(seed: 3, heights: [1.75, 1.60])
    try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(first, to: dir.appendingPathComponent("a"), names: ["P1": "Ana", "P2": "Ben"], noise: 0.01)))
    let second = try simulatedMatch(seed: 4, heights: [1.75, 1.755])
    let result = try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(second, to: dir.appendingPathComponent("b"), noise: 0.01, seed: 9)))
    let ana = result.suggestions.filter { $0.name == "Ana" }
    XCTAssertLessThanOrEqual(ana.count, 1, "\(result.suggestions)")
    XCTAssertFalse(result.suggestions.contains { $0.name == "Ben" }, "Ben is 15 cm shorter than both")
    // Ana named on P1: P2 (her height too) is not suggested as Ana.
    let third = try simulatedMatch(seed: 5, heights: [1.75, 1.75])
    var options = SessionStore.AddOptions()
    options.players = ["P1": "Ana"]
    let named = try store.add(
      try SessionInput.read(outputFolder: try writeOutputFolder(third, to: dir.appendingPathComponent("c"), noise: 0.01, seed: 10)), options: options)
    XCTAssertEqual(named.suggestions.filter { $0.name == "Ana" }, [], "\(named.suggestions)")
  }

  /// A track named after a person 10 cm shorter: the name is flagged, by how many σ and on which bone.
  func testNameThatLimbLengthsContradictIsFlagged() throws {
    let dir = try makeTemporaryFolder("identity-flag")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SessionStore(path: dir.appendingPathComponent("store.sqlite").path)
    let first = try simulatedMatch(seed: 3, heights: [1.66, 1.80])
    try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(first, to: dir.appendingPathComponent("a"), names: ["P1": "Ana", "P2": "Ben"], noise: 0.01)))
    let second = try simulatedMatch(seed: 4, heights: [1.84, 1.66])
    var options = SessionStore.AddOptions()
    options.players = ["P1": "Ana", "P2": "Ana2"]
    let result = try store.add(
      try SessionInput.read(outputFolder: try writeOutputFolder(second, to: dir.appendingPathComponent("b"), noise: 0.01, seed: 9)), options: options)
    XCTAssertEqual(result.disagreements.map(\.track), ["P1"])
    let d = try XCTUnwrap(result.disagreements.first)
    XCTAssertGreaterThan(d.rmsSigmas, 3)
    XCTAssertGreaterThan(d.worstSigmas, 5)
    XCTAssertGreaterThan(d.trackLength - d.personLength, 0.02, "the track's bone is longer: \(d)")
    XCTAssertEqual(result.suggestions.map(\.name), [], "P2 is named")

    // Corrected: P1 is Ben (within his σ), P2 is Ana.
    let renamed = try store.name(session: result.id, track: "P1", as: "Ben")
    XCTAssertEqual(renamed.previous, "Ana")
    XCTAssertNil(renamed.disagreement)
    XCTAssertNoThrow(try store.name(session: result.id, track: "P2", as: "Ana"))
    XCTAssertEqual(try store.summary(result.id).players, ["P1": "Ben", "P2": "Ana"])
    XCTAssertThrowsError(try store.name(session: result.id, track: "P1", as: "Ana")) { error in
      XCTAssert("\(error)".contains("P2 is already named Ana"), "\(error)")
    }
    XCTAssertThrowsError(try store.name(session: result.id, track: "P7", as: "Cai")) { error in
      XCTAssert("\(error)".contains("no player track P7 (players: P1, P2)"), "\(error)")
    }
    XCTAssertThrowsError(try store.name(session: 99, track: "P1", as: "Cai")) { error in
      XCTAssertEqual(error as? SessionStoreError, .noSuchSession(file: store.path, id: 99))
    }
    XCTAssertEqual(try store.name(session: result.id, track: "P2", as: nil).previous, "Ana")
  }

  /// Players stored without σ (a store of schema 2) are compared with the default σ.
  func testPlayersStoredWithoutSigmas() throws {
    let dir = try makeTemporaryFolder("identity-old")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("store.sqlite").path
    let store = try SessionStore(path: path)
    let first = try simulatedMatch(seed: 3, heights: [1.62, 1.85])
    try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(first, to: dir.appendingPathComponent("a"), names: ["P1": "Ana", "P2": "Ben"], noise: 0.01)))
    try DatabaseQueue(path: path).write { try $0.execute(sql: "UPDATE player SET boneSigmas = NULL") }
    let second = try simulatedMatch(seed: 4, heights: [1.85, 1.62])
    let result = try store.add(try SessionInput.read(outputFolder: try writeOutputFolder(second, to: dir.appendingPathComponent("b"), noise: 0.01, seed: 9)))
    XCTAssertEqual(result.suggestions.map(\.name).sorted(), ["Ana", "Ben"])
    XCTAssertEqual(result.suggestions.first { $0.track == "P1" }?.name, "Ben")
  }
}
