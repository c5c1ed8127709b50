import Foundation

/// Writing to the terminal.
enum Console {
  /// A line on standard error.
  static func error(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}

/// A failure while running a command (not a usage mistake, so no usage text is printed).
struct CommandFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
