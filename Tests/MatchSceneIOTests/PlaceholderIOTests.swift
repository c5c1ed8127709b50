import XCTest
final class PlaceholderIOTests: XCTestCase { func testNothing() {} }
