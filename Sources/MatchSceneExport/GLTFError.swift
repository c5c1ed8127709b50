/// Why a glTF document could not be built or written.
public struct GLTFError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { "glTF: \(message)" }
}
