import Foundation
import MatchSceneCore

/// Turns Foundation's JSON decoding errors into located `InputError`s: a key path
/// (`people[2].pose_keypoints_2d`) for a wrong structure, a line and column for malformed text.
enum JSONErrors {
  /// The error for `error`, thrown while decoding `data` from `file`.
  /// - Parameter expected: what the value at a key path should be (for the message), e.g.
  ///   `"people" → "an array of people"`.
  static func inputError(
    _ error: DecodingError, data: Data, file: String, expected: (_ keyPath: String) -> String
  ) -> InputError {
    switch error {
    case .keyNotFound(let key, let context):
      let at = keyPath(context.codingPath + [key])
      return InputError(file: file, location: .key(at), "missing; expected \(expected(at))")
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      let at = keyPath(context.codingPath)
      return InputError(file: file, location: at.isEmpty ? .lineColumn(1, 1) : .key(at), "wrong type; expected \(expected(at))")
    case .dataCorrupted(let context) where !context.codingPath.isEmpty:
      let at = keyPath(context.codingPath)
      return InputError(file: file, location: .key(at), "\(context.debugDescription); expected \(expected(at))")
    default:
      return syntaxError(data: data, file: file) ?? InputError(file: file, "not valid JSON: \(error)")
    }
  }

  /// `a.b[2].c` of a coding path.
  static func keyPath(_ codingPath: [CodingKey]) -> String {
    var out = ""
    for key in codingPath {
      if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
    }
    return out
  }

  /// The located syntax error of malformed JSON, or nil when `data` parses.
  ///
  /// Swift's JSONDecoder does not say where on Linux; JSONSerialization does, as "… around character
  /// N." (a 0-based byte offset) or "Unexpected end of file …" (truncated: the end of the file).
  static func syntaxError(data: Data, file: String) -> InputError? {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return nil
    } catch {
      let info = (error as NSError).userInfo
      let reason = (info[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
      let offset = (info["NSJSONSerializationErrorIndex"] as? Int) ?? byteOffset(in: reason) ?? data.count
      return InputError(
        file: file, location: lineColumn(at: offset, in: data), "not valid JSON (truncated or malformed): \(reason)")
    }
  }

  /// N of "… character N …" in a JSONSerialization message.
  static func byteOffset(in message: String) -> Int? {
    guard let range = message.range(of: "character ") else { return nil }
    return Int(message[range.upperBound...].prefix { $0.isNumber })
  }

  /// 1-based line and column (counted in bytes) of a 0-based byte offset.
  static func lineColumn(at offset: Int, in data: Data) -> InputError.Location {
    var line = 1, column = 1
    for byte in data.prefix(offset) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return .lineColumn(line, column)
  }

  /// Whether `data` holds nothing but JSON whitespace.
  static func isBlank(_ data: Data) -> Bool { data.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } }
}
