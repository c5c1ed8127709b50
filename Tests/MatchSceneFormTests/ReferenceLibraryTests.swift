import Foundation
import MatchSceneCore
import MatchSceneForm
import TestSupport
import XCTest

/// References as a library: what they carry, mirroring for the other hand, one per stroke kind in a run,
/// the sport checked, old files still read.
final class ReferenceLibraryTests: XCTestCase {
  func reference(_ kind: StrokeKind = .forehand) throws -> (StrokeReference, FormResult) {
    let form = try noisyFixture.form()
    let strokes = form.strokes.filter { $0.kind == kind && $0.track == "P1" }
    let reference = try XCTUnwrap(
      StrokeReference.make(
        name: "P1 \(kind.rawValue)s", strokes: strokes, result: form, sport: "table-tennis", player: "Ana", origin: .average,
        source: "test"))
    return (reference, form)
  }

  /// Mirrored: the ghost's left wrist is the right one with the player's left (y) negated, the curves
  /// stay (named by racket side); mirrored twice is the original.
  func testMirrorSwapsSidesOfTheGhostOnly() throws {
    let (reference, _) = try reference()
    let mirrored = reference.mirrored()
    XCTAssertEqual(mirrored.hand, reference.hand.other)
    XCTAssertEqual(mirrored.mirroredFrom, reference.hand)
    XCTAssertEqual(mirrored.curves, reference.curves)
    let ghost = try XCTUnwrap(reference.ghost), m = try XCTUnwrap(mirrored.ghost)
    let left = try XCTUnwrap(ghost.keypoints.firstIndex(of: "left_wrist")), right = try XCTUnwrap(ghost.keypoints.firstIndex(of: "right_wrist"))
    let nose = try XCTUnwrap(ghost.keypoints.firstIndex(of: "nose"))
    for f in [0, ghost.contactIndex, ghost.frames.count - 1] {
      XCTAssertEqual(m.frames[f][left], [ghost.frames[f][right][0], -ghost.frames[f][right][1], ghost.frames[f][right][2]])
      XCTAssertEqual(m.frames[f][nose][1], -ghost.frames[f][nose][1])
    }
    var twice = mirrored.mirrored()
    twice.mirroredFrom = nil
    XCTAssertEqual(twice, reference)
    XCTAssertEqual(reference.forHand(reference.hand), reference)
  }

  /// One reference per kind: a second forehand names both files; a backhand combines; another sport
  /// names the file and both sports.
  func testOnePerKindAndTheSportChecked() throws {
    let (forehand, form) = try reference()
    let (backhand, _) = try reference(.backhand)
    var set = ReferenceSet()
    try set.add(forehand, file: "fh.json", sport: "table-tennis")
    try set.add(backhand, file: "bh.json", sport: "table-tennis")
    XCTAssertEqual(set[.forehand], forehand)
    XCTAssertThrowsError(try set.add(forehand, file: "fh2.json", sport: "table-tennis")) { error in
      XCTAssert("\(error)".contains("fh2.json"), "\(error)")
      XCTAssert("\(error)".contains("a second forehand reference: fh.json is one already"), "\(error)")
    }
    var tennis = forehand
    tennis.sport = "tennis"
    XCTAssertThrowsError(try ReferenceSet().adding(tennis, file: "tennis.json", sport: "table-tennis")) { error in
      XCTAssert("\(error)".contains("tennis.json: is a reference for tennis; this match is table-tennis"), "\(error)")
    }
    // Scored with both: forehands against the forehand reference, backhands against the backhand one.
    let comparison = FormComparison(form, references: set)
    for e in comparison.entries where e.stroke.kind != .serve {
      XCTAssertEqual(e.referenceName, e.stroke.kind == .forehand ? forehand.name : backhand.name)
    }
  }

  /// A reference of the other hand is mirrored, and the comparison says so.
  func testOtherHandIsMirroredWithANote() throws {
    let (forehand, form) = try reference()
    var set = ReferenceSet()
    try set.add(forehand.mirrored(), file: "left.json", sport: "table-tennis")
    let entries = FormComparison(form, references: set).entries.filter { $0.stroke.kind == .forehand && $0.stroke.track == "P1" }
    XCTAssertFalse(entries.isEmpty)
    for e in entries {
      XCTAssert(e.referenceName.contains("(mirrored from the \(forehand.hand.other.rawValue) hand)"), e.referenceName)
      XCTAssertEqual(e.reference, forehand.curves)
    }
  }

  /// A file saved before references carried sport, player and source still loads, with a warning.
  func testOldReferenceFileLoadsWithAWarning() throws {
    let (forehand, _) = try reference()
    var object = try XCTUnwrap(JSONSerialization.jsonObject(with: forehand.jsonData()) as? [String: Any])
    for key in ["sport", "player", "origin", "source"] { object.removeValue(forKey: key) }
    let url = try makeTemporaryFolder().appendingPathComponent("old.json")
    try JSONSerialization.data(withJSONObject: object).write(to: url)
    let old = try StrokeReference.read(from: url)
    XCTAssertNil(old.sport)
    XCTAssertEqual(old.missingFields, ["sport", "player", "source"])
    var set = ReferenceSet()
    try set.add(old, file: url.path, sport: "table-tennis")
    XCTAssertEqual(set.warnings.count, 1)
    XCTAssert(set.warnings[0].contains("saved before references carried sport, player, source; taken as unknown"), set.warnings[0])
  }
}

extension ReferenceSet {
  func adding(_ reference: StrokeReference, file: String, sport: String) throws -> ReferenceSet {
    var copy = self
    try copy.add(reference, file: file, sport: sport)
    return copy
  }
}
