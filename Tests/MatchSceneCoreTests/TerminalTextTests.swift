import MatchSceneCore
import XCTest

/// Names printed on a terminal cannot drive it: control characters are escaped.
final class TerminalTextTests: XCTestCase {
  func testControlCharactersAreEscaped() {
    XCTAssertEqual(TerminalText.escaped("Ana"), "Ana")
    XCTAssertEqual(TerminalText.escaped("Zoë 李"), "Zoë 李")
    XCTAssertEqual(TerminalText.escaped("a\\b"), "a\\b")
    let hostile = TerminalText.escaped("x\u{1B}]0;pwned\u{7}\u{1B}[2J\\y\u{202E}")
    XCTAssertFalse(hostile.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
    XCTAssertEqual(hostile, "x\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\\\y\\u{202E}")
  }
}
