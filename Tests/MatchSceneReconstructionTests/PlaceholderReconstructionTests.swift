import XCTest
final class PlaceholderReconstructionTests: XCTestCase { func testNothing() {} }
