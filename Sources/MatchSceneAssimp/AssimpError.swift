internal import CAssimp

/// A failure reported by assimp (import, export or an unknown format).
public struct AssimpError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { "assimp: \(message)" }

  /// The one place assimp's C status codes become Swift errors.
  /// - Throws: `AssimpError` for anything but `aiReturn_SUCCESS`, naming `what` was attempted.
  static func check(_ status: aiReturn, _ what: String) throws {
    switch status {
    case aiReturn_SUCCESS: return
    case aiReturn_OUTOFMEMORY: throw AssimpError("\(what): out of memory")
    default: throw AssimpError("\(what): failed (aiReturn \(status.rawValue))")
    }
  }
}

extension aiString {
  /// The UTF-8 text of an assimp string (length-prefixed, at most `MAXLEN` bytes).
  var swiftString: String {
    var copy = self
    let n = Int(copy.length)
    return withUnsafeBytes(of: &copy.data) { raw in String(decoding: raw.prefix(n), as: UTF8.self) }
  }
}
