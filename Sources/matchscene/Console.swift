import Foundation

/// Writing to the terminal.
enum Console {
  /// A line on standard error.
  static func error(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
