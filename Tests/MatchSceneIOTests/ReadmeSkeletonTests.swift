import Foundation
import MatchSceneCore
import XCTest

/// The documentation's table of built-in skeletons (`docs/inputs.md`) stays the code's.
final class ReadmeSkeletonTests: XCTestCase {
  func testTheInputsPageListsEveryBuiltInSkeletonInOrder() throws {
    let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/inputs.md")
    let text = try String(contentsOf: page, encoding: .utf8)
    for skeleton in Skeleton.builtInSkeletons {
      let row = text.split(separator: "\n").first { $0.hasPrefix("| `\(skeleton.name)`") }
      XCTAssertNotNil(row, "no docs/inputs.md row for \(skeleton.name)")
      XCTAssertTrue(
        row?.hasSuffix("| " + skeleton.keypoints.joined(separator: ", ") + " |") ?? false,
        "docs/inputs.md order of \(skeleton.name)")
    }
  }
}
