import Foundation
import MatchSceneCore

/// One match of a batch: where its detections are, where its output goes, the session name it gets in
/// the store, and the `reconstruct` flags it runs with.
public struct BatchEntry: Sendable, Equatable {
  /// Line of the manifest (1-based).
  public var line: Int
  public var input: URL
  public var output: URL
  /// The session's name in the store (`name=…`); nil: the store's default (the output folder's name).
  public var sessionName: String?
  /// Further `matchscene reconstruct` flags, e.g. `--frames 0-999 --smoothing kalman`.
  public var flags: [String]

  public init(line: Int, input: URL, output: URL, sessionName: String? = nil, flags: [String] = []) {
    self.line = line
    self.input = input
    self.output = output
    self.sessionName = sessionName
    self.flags = flags
  }
}

/// A batch manifest: one match per line,
///
///     <input folder> <output folder> [name=<session name>] [reconstruct flags…]
///
/// fields separated by spaces or tabs, `"…"` quoting a field with spaces, `#` starting a comment, blank
/// lines ignored. Relative paths are relative to the manifest's folder.
public enum BatchManifest {
  /// - Throws: `InputError` naming the manifest and line: fewer than two fields, an unclosed quote, an
  ///   output folder used twice or equal to an input.
  public static func read(_ url: URL) throws -> [BatchEntry] {
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw InputError(file: url.path, "cannot read the manifest (missing or not readable)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(file: url.path, "not UTF-8 text; expected one match per line: <input> <output> [name=…] [flags…]")
    }
    return try parse(text, file: url.path, base: url.deletingLastPathComponent())
  }

  public static func parse(_ text: String, file: String, base: URL) throws -> [BatchEntry] {
    var entries: [BatchEntry] = []
    var outputs: [String: Int] = [:]
    for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = n + 1
      let fields = try split(String(raw), file: file, line: line)
      guard !fields.isEmpty else { continue }
      guard fields.count >= 2 else {
        throw InputError(
          file: file, location: .line(line), "expected <input folder> <output folder> [name=…] [reconstruct flags…], got one field")
      }
      func resolve(_ path: String) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)).standardizedFileURL
      }
      let input = resolve(fields[0]), output = resolve(fields[1])
      if let earlier = outputs[output.path] {
        throw InputError(file: file, location: .line(line), "output folder \(fields[1]) is already the output of line \(earlier)")
      }
      guard output.path != input.path else {
        throw InputError(file: file, location: .line(line), "the output folder is the input folder; give another")
      }
      outputs[output.path] = line
      var rest = Array(fields.dropFirst(2))
      var name: String?
      if let first = rest.first, first.hasPrefix("name=") {
        name = String(first.dropFirst(5))
        guard !(name ?? "").isEmpty else { throw InputError(file: file, location: .line(line), "name= needs a session name") }
        rest.removeFirst()
      }
      entries.append(BatchEntry(line: line, input: input, output: output, sessionName: name, flags: rest))
    }
    return entries
  }

  /// Fields of one line: split at spaces and tabs outside double quotes; `#` outside quotes ends the line.
  static func split(_ line: String, file: String, line number: Int) throws -> [String] {
    var fields: [String] = [], current = "", inQuotes = false, hasField = false
    for c in line {
      if inQuotes {
        if c == "\"" { inQuotes = false } else { current.append(c) }
      } else if c == "\"" {
        inQuotes = true
        hasField = true
      } else if c == "#" {
        break
      } else if c == " " || c == "\t" || c == "\r" {
        if hasField { fields.append(current) }
        current = ""
        hasField = false
      } else {
        current.append(c)
        hasField = true
      }
    }
    guard !inQuotes else { throw InputError(file: file, location: .line(number), "a quote is not closed") }
    if hasField { fields.append(current) }
    return fields
  }
}
