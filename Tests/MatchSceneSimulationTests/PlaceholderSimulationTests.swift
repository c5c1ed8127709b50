import XCTest
final class PlaceholderSimulationTests: XCTestCase { func testNothing() {} }
