import Foundation
import MatchSceneCore
internal import TOMLKit

/// The `[skeleton]` table of `match.toml`: a detector's own keypoints (an animal, a sport-specific
/// model), for formats that carry keypoints by position (OpenPose, COCO) or by name (DeepLabCut).
///
/// ```toml
/// [skeleton]
/// name = "paddle-player"                          # required, non-empty
/// keypoints = ["head", "left_hand", "right_hand", "hip"]   # required: ≥ 2 distinct names, detector order
/// bones = [["head", "hip"], ["hip", "left_hand"]]          # required (may be []): pairs of listed names
/// mirror = [["left_hand", "right_hand"]]          # optional: [left, right] pairs of listed names
/// ```
///
/// Without `mirror`, pairs are derived from the names as `Skeleton.init` does (`left_X` ↔
/// `right_X`, `LX` ↔ `RX`). A bone or mirror pair joins two different keypoints.
extension MatchConfig {
  /// The keys a `[skeleton]` table may hold.
  static let skeletonTableKeys: Set<String> = ["name", "keypoints", "bones", "mirror"]

  /// The skeleton a `[skeleton]` table defines.
  /// - Throws: `InputError` naming the file and key (`skeleton.bones`) of a missing or wrong value:
  ///   an empty name, fewer than 2 keypoints, a keypoint listed twice, a bone or mirror pair that is
  ///   not two different listed keypoints.
  static func customSkeleton(_ t: TOMLTableView) throws -> Skeleton {
    guard let name = try t.string("name") else { throw t.fail("name", "missing (required: the skeleton's name)") }
    let keypoints = try t.required("keypoints") { try strings(t, $0) }
    let bones = try t.required("bones") { try pairs(t, $0) }
    let mirror = try pairs(t, "mirror")
    return try skeleton(name: name, keypoints: keypoints, bones: bones, mirror: mirror) { key, message in
      t.fail(key, message)
    }
  }

  /// Checks a skeleton's parts and builds it; `fail` makes the error for a key (`name`,
  /// `keypoints`, `bones`, `mirror`).
  static func skeleton(
    name: String, keypoints: [String], bones: [(String, String)], mirror: [(String, String)]?,
    fail: (String, String) -> InputError
  ) throws -> Skeleton {
    if name.trimmingCharacters(in: .whitespaces).isEmpty { throw fail("name", "must not be empty") }
    if keypoints.count < 2 { throw fail("keypoints", "expected at least 2 keypoint names, got \(keypoints.count)") }
    var seen: Set<String> = []
    for (i, keypoint) in keypoints.enumerated() {
      if keypoint.isEmpty { throw fail("keypoints", "keypoint \(i + 1) has an empty name") }
      if !seen.insert(keypoint).inserted { throw fail("keypoints", "keypoint '\(keypoint)' is listed twice") }
    }
    for (key, list) in [("bones", bones), ("mirror", mirror ?? [])] {
      for (i, (a, b)) in list.enumerated() {
        for end in [a, b] where !seen.contains(end) {
          throw fail(key, "pair \(i + 1) names '\(end)', which is not in keypoints")
        }
        if a == b { throw fail(key, "pair \(i + 1) joins '\(a)' to itself") }
      }
    }
    return Skeleton(name: name, keypoints: keypoints, bones: bones, mirrorPairs: mirror)
  }

  /// An array of strings at `key`, or nil when absent.
  static func strings(_ t: TOMLTableView, _ key: String) throws -> [String]? {
    guard let value = t.table[key] else { return nil }
    guard let array = value.array else { throw t.fail(key, "expected an array of strings") }
    return try array.enumerated().map { i, element in
      guard let s = element.string else { throw t.fail(key, "element \(i + 1) is not a string") }
      return s
    }
  }

  /// An array of two-string arrays at `key` (`[["a", "b"], …]`), or nil when absent.
  static func pairs(_ t: TOMLTableView, _ key: String) throws -> [(String, String)]? {
    guard let value = t.table[key] else { return nil }
    guard let array = value.array else { throw t.fail(key, "expected an array of [\"a\", \"b\"] pairs") }
    return try array.enumerated().map { i, element in
      guard let pair = element.array, pair.count == 2, let a = pair[0].string, let b = pair[1].string else {
        throw t.fail(key, "element \(i + 1) is not a pair of two keypoint names [\"a\", \"b\"]")
      }
      return (a, b)
    }
  }

  /// A `[skeleton]` table for `skeleton`, mirror pairs written out so that reading it back gives
  /// the same skeleton whatever the names.
  static func renderSkeletonTable(_ skeleton: Skeleton) -> String {
    func list(_ names: [String]) -> String { "[" + names.map(CalibrationTOML.quoteString).joined(separator: ", ") + "]" }
    func pairs(_ indices: [(Int, Int)]) -> String {
      "[" + indices.map { list([skeleton.keypoints[$0.0], skeleton.keypoints[$0.1]]) }.joined(separator: ", ") + "]"
    }
    return "[skeleton]\n"
      + "name = \(CalibrationTOML.quoteString(skeleton.name))\n"
      + "keypoints = \(list(skeleton.keypoints))\n"
      + "bones = \(pairs(skeleton.bones))\n"
      + "mirror = \(pairs(skeleton.mirrorPairs))\n"
  }
}
