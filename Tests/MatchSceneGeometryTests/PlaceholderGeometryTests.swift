import XCTest
final class PlaceholderGeometryTests: XCTestCase { func testNothing() {} }
