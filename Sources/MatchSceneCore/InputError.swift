/// A problem with something the user gave us, located as precisely as we can: the file, and the
/// 1-based line, frame or other position inside it.
///
/// Its description reads `file:line: message` (or `file: frame N: message`) so editors and people can
/// jump to the spot.
public struct InputError: Error, Sendable, CustomStringConvertible, Equatable {
  public enum Location: Sendable, Equatable {
    case none
    case line(Int)
    case lineColumn(Int, Int)
    case frame(Int)
    case key(String)
  }
  public var file: String
  public var location: Location
  public var message: String

  public init(file: String, location: Location = .none, _ message: String) {
    self.file = file
    self.location = location
    self.message = message
  }

  public var description: String {
    switch location {
    case .none: "\(file): \(message)"
    case .line(let l): "\(file):\(l): \(message)"
    case .lineColumn(let l, let c): "\(file):\(l):\(c): \(message)"
    case .frame(let f): "\(file): frame \(f): \(message)"
    case .key(let k): "\(file): [\(k)]: \(message)"
    }
  }
}

/// A non-fatal finding (a warning) with the same location conventions as `InputError`.
public struct Diagnostic: Sendable, CustomStringConvertible, Equatable {
  public enum Severity: String, Sendable { case note, warning, error }
  public var severity: Severity
  public var error: InputError
  public init(_ severity: Severity, _ error: InputError) {
    self.severity = severity
    self.error = error
  }
  public var description: String { "\(severity.rawValue): \(error)" }
}
