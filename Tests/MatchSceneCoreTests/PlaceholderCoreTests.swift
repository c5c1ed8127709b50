import XCTest
final class PlaceholderCoreTests: XCTestCase { func testNothing() {} }
