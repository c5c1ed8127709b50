import XCTest
final class PlaceholderExportTests: XCTestCase { func testNothing() {} }
