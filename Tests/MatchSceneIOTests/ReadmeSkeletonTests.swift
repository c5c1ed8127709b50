import Foundation
import MatchSceneCore
import XCTest

/// The README's table of built-in skeletons stays the code's.
final class ReadmeSkeletonTests: XCTestCase {
  func testTheReadmeListsEveryBuiltInSkeletonInOrder() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    for skeleton in Skeleton.builtInSkeletons {
      let row = text.split(separator: "\n").first { $0.hasPrefix("| `\(skeleton.name)`") }
      XCTAssertNotNil(row, "no README row for \(skeleton.name)")
      XCTAssertTrue(row?.hasSuffix("| " + skeleton.keypoints.joined(separator: ", ") + " |") ?? false, "README order of \(skeleton.name)")
    }
  }
}
