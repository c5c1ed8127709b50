import Foundation
import MatchSceneCore
import XCTest

/// Asserts that `body` throws an `InputError` whose description contains every piece (file name,
/// position, reason), and returns the description.
@discardableResult
func assertInputError<T>(
  _ body: @autoclosure () throws -> T, contains pieces: [String], file: StaticString = #filePath, line: UInt = #line
) -> String {
  do {
    _ = try body()
    XCTFail("no error thrown; expected one containing \(pieces)", file: file, line: line)
    return ""
  } catch let error as InputError {
    let message = "\(error)"
    for piece in pieces {
      XCTAssertTrue(message.contains(piece), "'\(message)' lacks '\(piece)'", file: file, line: line)
    }
    return message
  } catch {
    XCTFail("expected an InputError, got \(type(of: error)): \(error)", file: file, line: line)
    return ""
  }
}

/// Writes UTF-8 text to `url`, creating folders.
func writeText(_ text: String, to url: URL) throws {
  try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
  try Data(text.utf8).write(to: url)
}

