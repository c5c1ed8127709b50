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
/// lines ignored; lines end with LF, CRLF or CR. Relative paths are relative to the manifest's folder:
/// the two folders, and the values of the flags that name inputs (`pathFlags`). Flags that choose where
/// the output goes (`outputFlags`) are refused: a line's output is its second field.
public enum BatchManifest {
  /// `reconstruct` flags whose value is an input file or folder: resolved against the manifest's folder
  /// and hashed with the match (`BatchRunner.inputHash`).
  public static let pathFlags: Set<String> = ["--calibration", "--pose", "--ball", "--zones"]
  /// `reconstruct` flags that choose the output: refused in a manifest line.
  public static let outputFlags: Set<String> = ["-o", "--output"]

  /// - Throws: `InputError` naming the manifest and line: fewer than two fields, an unclosed quote, an
  ///   output folder used twice or equal to an input, a flag choosing the output; and naming the manifest
  ///   when it holds no match at all.
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
    // Swift reads "\r\n" as one Character: split at it as at "\n" and a lone "\r".
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    for (n, raw) in lines.enumerated() {
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
      let flags = try resolvingFlags(rest, base: base, file: file, line: line)
      entries.append(BatchEntry(line: line, input: input, output: output, sessionName: name, flags: flags))
    }
    guard !entries.isEmpty else {
      throw InputError(
        file: file,
        "no match in the manifest (\(lines.count - (lines.last?.isEmpty == true ? 1 : 0)) line(s), all blank or comments); "
          + "expected one match per line: <input> <output> [name=…] [flags…]")
    }
    return entries
  }

  /// The flags with the values of `pathFlags` made absolute against `base` (`--pose p` and `--pose=p`).
  /// - Throws: `InputError` naming the line when a flag chooses the output (`-o`, `--output`, `--output=…`,
  ///   a group of short flags holding `o`) or a path flag has no value.
  static func resolvingFlags(_ flags: [String], base: URL, file: String, line: Int) throws -> [String] {
    func resolve(_ path: String) -> String {
      path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardizedFileURL.path
    }
    var out: [String] = []
    var i = 0
    while i < flags.count {
      let flag = flags[i]
      let long = flag.hasPrefix("--") ? String(flag.prefix { $0 != "=" }) : nil
      let isShortGroup = flag.hasPrefix("-") && !flag.hasPrefix("--") && flag.count > 1 && Double(flag) == nil
      if long.map(outputFlags.contains) == true || isShortGroup && flag.dropFirst().contains("o") {
        throw InputError(
          file: file, location: .line(line), "\(long ?? flag) chooses the output folder, which is the line's second field; remove it")
      }
      if let long, pathFlags.contains(long) {
        if flag.count > long.count {
          out.append("\(long)=\(resolve(String(flag.dropFirst(long.count + 1))))")
        } else {
          guard i + 1 < flags.count else {
            throw InputError(file: file, location: .line(line), "\(flag) needs a path")
          }
          out += [flag, resolve(flags[i + 1])]
          i += 1
        }
      } else {
        out.append(flag)
      }
      i += 1
    }
    return out
  }

  /// The input files and folders the flags name (the values of `pathFlags`, as resolved by `parse`).
  public static func flagPaths(_ flags: [String]) -> [(flag: String, path: String)] {
    var out: [(String, String)] = []
    for (i, flag) in flags.enumerated() {
      let long = String(flag.prefix { $0 != "=" })
      guard pathFlags.contains(long) else { continue }
      if flag.count > long.count {
        out.append((long, String(flag.dropFirst(long.count + 1))))
      } else if i + 1 < flags.count {
        out.append((long, flags[i + 1]))
      }
    }
    return out
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
