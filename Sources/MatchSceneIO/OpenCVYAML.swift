import Foundation
import MatchSceneCore

/// The subset of YAML that OpenCV's `cv::FileStorage` writes (OpenCV, "XML/YAML/JSON Persistence",
/// https://docs.opencv.org/4.x/d4/da4/group__core__xml.html) and EasyMocap imitates
/// (`easymocap/mytools/camera_utils.py`, `FileStorage.write`):
///
/// ```yaml
/// %YAML:1.0
/// ---
/// names:
///   - "cam01"
/// K_cam01: !!opencv-matrix
///   rows: 3
///   cols: 3
///   dt: d
///   data: [ 1400., 0., 959.5, 0., 1400., 539.5,
///       0., 0., 1. ]
/// H_cam01: 1080
/// features:
///   - { x:41, y:227, lbp:[ 0, 1, 1 ] }
/// ```
///
/// Read: a top-level block mapping; block mappings and block sequences nested by indentation
/// (spaces only; `- key: value` items too); flow sequences `[…]` and flow mappings `{…}` that may
/// span lines (OpenCV wraps long `data` arrays, and writes `x:41` without a space); plain, `"double"`
/// and `'single'` quoted scalars; tags such as `!!opencv-matrix`; `#` comments; `%` directives and
/// `---` / `...` markers (ignored); `\r\n` line endings (EasyMocap writes them). Not read: anchors
/// and aliases, block scalars (`|`, `>`), multi-line plain scalars, several documents — none of
/// which FileStorage writes. Scalars stay text; `number(_:)` reads them as numbers, including
/// OpenCV's `.nan`, `.Inf` and `-.Inf`. Collections nest at most `maxDepth` deep (FileStorage
/// writes 2 or 3), so that no input can overflow the stack of this recursive parser.
struct OpenCVYAML {
  /// The deepest nesting of block and flow collections read.
  static let maxDepth = 64

  /// One node: its content, the tag written before it (`!!opencv-matrix`) and its 1-based line.
  struct Value {
    enum Content {
      case scalar(String)
      case sequence([Value])
      case mapping([(key: String, value: Value)])
    }
    var content: Content
    var tag: String?
    var line: Int

    var scalar: String? { if case .scalar(let s) = content { s } else { nil } }
    var sequence: [Value]? { if case .sequence(let items) = content { items } else { nil } }
    var mapping: [(key: String, value: Value)]? { if case .mapping(let entries) = content { entries } else { nil } }

    /// The value of `key` in a mapping (nil when absent or not a mapping).
    subscript(key: String) -> Value? { mapping?.first { $0.key == key }?.value }
  }

  let file: String
  /// The top-level entries in file order.
  let entries: [(key: String, value: Value)]

  /// The value of a top-level key, or nil.
  subscript(key: String) -> Value? { entries.first { $0.key == key }?.value }

  /// Reads and parses a file. - Throws: `InputError` when unreadable, not UTF-8 or malformed.
  init(contentsOf url: URL) throws {
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    guard let text = String(data: data, encoding: .utf8) else { throw InputError(file: url.path, "not UTF-8 text") }
    try self.init(text: text, file: url.path)
  }

  /// Parses text; `file` names it in errors.
  /// - Throws: `InputError` with the 1-based line of the first construct outside the subset (a tab
  ///   in the indentation, an unclosed bracket or quote, a line that is not `key: value` or `- item`,
  ///   unexpected indentation) and of a top-level key written twice.
  init(text: String, file: String) throws {
    self.file = file
    var parser = Parser(lines: try Self.lines(of: text, file: file), file: file)
    guard let first = parser.lines.first else {
      entries = []
      return
    }
    if first.isSequenceItem {
      throw InputError(file: file, location: .line(first.number), "expected 'key: value' at the top level, got a list item")
    }
    let root = try parser.mapping(indent: first.indent)
    if parser.index < parser.lines.count {
      let line = parser.lines[parser.index]
      throw InputError(file: file, location: .line(line.number), "unexpected indentation")
    }
    var seen: Set<String> = []
    for entry in root where !seen.insert(entry.key).inserted {
      throw InputError(file: file, location: .line(entry.value.line), "key '\(entry.key)' appears twice")
    }
    entries = root
  }

  /// A number as OpenCV writes one (`1400.`, `-1.0000000000000000e-03`, `5`, `.nan`, `.Inf`,
  /// `-.Inf`), or nil for anything else.
  static func number(_ text: String) -> Double? {
    switch text.lowercased() {
    case ".nan": return .nan
    case ".inf", "+.inf": return .infinity
    case "-.inf": return -.infinity
    default: return Double(text)
    }
  }

  // MARK: - Lines

  /// A content line: its number, indentation (spaces) and text without comment or trailing spaces.
  struct Line {
    var number: Int
    var indent: Int
    var text: Substring
    var isSequenceItem: Bool { text == "-" || text.hasPrefix("- ") }
  }

  /// The content lines of `text`: blank and comment-only lines, directives (`%YAML:1.0`) and
  /// document markers (`---`, `...`) dropped.
  static func lines(of text: String, file: String) throws -> [Line] {
    var out: [Line] = []
    // "\r\n" is one Character in Swift, so it is a separator of its own.
    for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
      var line = raw
      if line.hasSuffix("\r") { line = line.dropLast() }
      let indent = line.prefix { $0 == " " }.count
      var body = line.dropFirst(indent)
      if body.first == "\t" {
        throw InputError(file: file, location: .line(i + 1), "tab in the indentation; YAML indents with spaces")
      }
      body = stripComment(body)
      while let last = body.last, last == " " || last == "\t" { body = body.dropLast() }
      if body.isEmpty { continue }
      if indent == 0 && (body.hasPrefix("%") || body == "---" || body == "..." || body.hasPrefix("--- ")) {
        if body.hasPrefix("--- ") { body = body.dropFirst(4) } else { continue }
      }
      out.append(Line(number: i + 1, indent: indent, text: body))
    }
    return out
  }

  /// `s` up to a `#` that starts a comment (at the start or after a space, outside quotes).
  static func stripComment(_ s: Substring) -> Substring {
    var quote: Character?
    var previous: Character = " "
    for i in s.indices {
      let c = s[i]
      if let q = quote {
        if c == q { quote = nil }
      } else if c == "\"" || c == "'" {
        quote = c
      } else if c == "#" && (previous == " " || previous == "\t") {
        return s[..<i]
      }
      previous = c
    }
    return s
  }

  // MARK: - Block structure

  struct Parser {
    var lines: [Line]
    let file: String
    var index = 0
    /// Block collections open around the current line.
    var depth = 0

    /// Enters one more block collection. - Throws: beyond `maxDepth`.
    mutating func enter(_ line: Int) throws {
      depth += 1
      if depth > OpenCVYAML.maxDepth {
        throw fail(line, "collections nested more than \(OpenCVYAML.maxDepth) deep; OpenCV FileStorage files nest 2 or 3")
      }
    }

    func fail(_ line: Int, _ message: String) -> InputError { InputError(file: file, location: .line(line), message) }

    /// A block mapping whose keys sit at `indent`.
    mutating func mapping(indent: Int) throws -> [(key: String, value: Value)] {
      try enter(index < lines.count ? lines[index].number : 0)
      defer { depth -= 1 }
      var entries: [(key: String, value: Value)] = []
      while index < lines.count, lines[index].indent == indent, !lines[index].isSequenceItem {
        let line = lines[index]
        let (key, rest) = try splitEntry(line.text, line: line.number)
        index += 1
        entries.append((key, try value(rest, line: line.number, parentIndent: indent, inMapping: true)))
        if index < lines.count, lines[index].indent > indent {
          throw fail(lines[index].number, "unexpected indentation")
        }
      }
      return entries
    }

    /// A block sequence whose dashes sit at `indent`.
    mutating func sequence(indent: Int) throws -> [Value] {
      try enter(index < lines.count ? lines[index].number : 0)
      defer { depth -= 1 }
      var items: [Value] = []
      while index < lines.count, lines[index].indent == indent, lines[index].isSequenceItem {
        let line = lines[index]
        let rest = line.text.dropFirst().drop { $0 == " " }
        if !rest.isEmpty, Self.looksLikeEntry(rest) {
          // `- key: value`: a mapping whose first key sits where `key` starts.
          let column = indent + (line.text.count - rest.count)
          lines[index] = Line(number: line.number, indent: column, text: rest)
          items.append(Value(content: .mapping(try mapping(indent: column)), tag: nil, line: line.number))
        } else {
          index += 1
          items.append(try value(rest, line: line.number, parentIndent: indent, inMapping: false))
        }
        if index < lines.count, lines[index].indent > indent {
          throw fail(lines[index].number, "unexpected indentation")
        }
      }
      return items
    }

    /// Whether a sequence item's text is a `key: value` entry rather than a scalar.
    static func looksLikeEntry(_ s: Substring) -> Bool {
      guard let first = s.first, !"\"'[{!".contains(first) else { return false }
      guard let colon = s.firstIndex(of: ":") else { return false }
      let after = s.index(after: colon)
      return after == s.endIndex || s[after] == " "
    }

    /// `key` and the rest of a `key: rest` line; the key may be quoted.
    func splitEntry(_ text: Substring, line: Int) throws -> (String, Substring) {
      if let quote = text.first, quote == "\"" || quote == "'" {
        var flow = FlowParser(text: text, file: file, line: line)
        let key = try flow.quoted()
        flow.skipSpaces()
        guard flow.peek == ":" else { throw fail(line, "expected ':' after the key \(String(quote))\(key)\(String(quote))") }
        flow.position = text.index(after: flow.position)
        return (key, text[flow.position...].drop { $0 == " " })
      }
      var i = text.startIndex
      while i < text.endIndex {
        if text[i] == ":" {
          let after = text.index(after: i)
          if after == text.endIndex || text[after] == " " {
            let key = text[..<i].trimmingCharacters(in: .whitespaces)
            if key.isEmpty { break }
            return (key, text[after...].drop { $0 == " " })
          }
        }
        i = text.index(after: i)
      }
      throw fail(line, "expected 'key: value' or '- item', got '\(text)'")
    }

    /// The value after `key:` or `-`: a tag, then a nested block, a flow collection or a scalar.
    mutating func value(_ text: Substring, line: Int, parentIndent: Int, inMapping: Bool) throws -> Value {
      var rest = text
      var tag: String?
      if rest.first == "!" {
        let end = rest.firstIndex(of: " ") ?? rest.endIndex
        tag = String(rest[..<end])
        rest = rest[end...].drop { $0 == " " }
      }
      if rest.isEmpty {
        guard index < lines.count else { return Value(content: .scalar(""), tag: tag, line: line) }
        let next = lines[index]
        if next.indent > parentIndent {
          let content: Value.Content =
            next.isSequenceItem ? .sequence(try sequence(indent: next.indent)) : .mapping(try mapping(indent: next.indent))
          return Value(content: content, tag: tag, line: line)
        }
        if inMapping && next.indent == parentIndent && next.isSequenceItem {  // `key:` then `- item` at the key's indent
          return Value(content: .sequence(try sequence(indent: next.indent)), tag: tag, line: line)
        }
        return Value(content: .scalar(""), tag: tag, line: line)
      }
      if rest.first == "[" || rest.first == "{" {
        var joined = String(rest)
        while FlowParser.openBrackets(joined) > 0 && index < lines.count {
          joined += " " + lines[index].text
          index += 1
        }
        var flow = FlowParser(text: Substring(joined), file: file, line: line)
        var value = try flow.value()
        flow.skipSpaces()
        if !flow.atEnd { throw fail(line, "unexpected text after the closing bracket: '\(flow.text[flow.position...])'") }
        value.tag = tag
        return value
      }
      if rest.first == "\"" || rest.first == "'" {
        var flow = FlowParser(text: rest, file: file, line: line)
        let s = try flow.quoted()
        flow.skipSpaces()
        if !flow.atEnd { throw fail(line, "unexpected text after the closing quote") }
        return Value(content: .scalar(s), tag: tag, line: line)
      }
      return Value(content: .scalar(String(rest)), tag: tag, line: line)
    }
  }

  // MARK: - Flow collections

  /// `[a, b]`, `{ k: v }` and quoted scalars within one (joined) line.
  struct FlowParser {
    let text: Substring
    let file: String
    let line: Int
    var position: Substring.Index
    /// Flow collections open at `position`.
    var depth = 0

    init(text: Substring, file: String, line: Int) {
      self.text = text
      self.file = file
      self.line = line
      position = text.startIndex
    }

    var atEnd: Bool { position == text.endIndex }
    var peek: Character? { atEnd ? nil : text[position] }

    func fail(_ message: String) -> InputError { InputError(file: file, location: .line(line), message) }

    mutating func skipSpaces() {
      while let c = peek, c == " " || c == "\t" { position = text.index(after: position) }
    }

    mutating func advance() { position = text.index(after: position) }

    mutating func value() throws -> Value {
      skipSpaces()
      var tag: String?
      if peek == "!" {
        let start = position
        while let c = peek, c != " " { advance() }
        tag = String(text[start..<position])
        skipSpaces()
      }
      if peek == "[" || peek == "{" {
        depth += 1
        if depth > OpenCVYAML.maxDepth {
          throw fail("brackets nested more than \(OpenCVYAML.maxDepth) deep; OpenCV FileStorage files nest 2 or 3")
        }
      }
      switch peek {
      case "[":
        advance()
        defer { depth -= 1 }
        var items: [Value] = []
        while true {
          skipSpaces()
          if peek == "]" { advance(); break }
          items.append(try value())
          skipSpaces()
          if peek == "," { advance(); continue }
          if peek == "]" { advance(); break }
          throw fail(atEnd ? "unclosed '['" : "expected ',' or ']' in a list, got '\(peek!)'")
        }
        return Value(content: .sequence(items), tag: tag, line: line)
      case "{":
        advance()
        defer { depth -= 1 }
        var entries: [(key: String, value: Value)] = []
        while true {
          skipSpaces()
          if peek == "}" { advance(); break }
          let key = peek == "\"" || peek == "'" ? try quoted() : plain(stoppingAt: ":,}")
          skipSpaces()
          guard peek == ":" else { throw fail(atEnd ? "unclosed '{'" : "expected ':' after the key '\(key)'") }
          advance()
          entries.append((key, try value()))
          skipSpaces()
          if peek == "," { advance(); continue }
          if peek == "}" { advance(); break }
          throw fail(atEnd ? "unclosed '{'" : "expected ',' or '}' in a mapping, got '\(peek!)'")
        }
        return Value(content: .mapping(entries), tag: tag, line: line)
      case "\"", "'":
        return Value(content: .scalar(try quoted()), tag: tag, line: line)
      default:
        return Value(content: .scalar(plain(stoppingAt: ",]}")), tag: tag, line: line)
      }
    }

    /// A plain scalar up to one of `stops`, trimmed.
    mutating func plain(stoppingAt stops: String) -> String {
      let start = position
      while let c = peek, !stops.contains(c) { advance() }
      return text[start..<position].trimmingCharacters(in: .whitespaces)
    }

    /// A `"double"` (escapes `\" \\ \n \t \r \/`, `\uXXXX`) or `'single'` (`''`) quoted scalar.
    mutating func quoted() throws -> String {
      let quote = peek!
      advance()
      var out = ""
      while let c = peek {
        advance()
        if c == quote {
          if quote == "'" && peek == "'" {
            out.append("'")
            advance()
            continue
          }
          return out
        }
        if c == "\\" && quote == "\"", let e = peek {
          advance()
          switch e {
          case "n": out.append("\n")
          case "t": out.append("\t")
          case "r": out.append("\r")
          case "u":
            let hex = text[position...].prefix(4)
            guard hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
              throw fail("bad \\u escape in a quoted string")
            }
            out.unicodeScalars.append(scalar)
            position = text.index(position, offsetBy: 4)
          default: out.append(e)
          }
          continue
        }
        out.append(c)
      }
      throw fail("unclosed quote \(quote)")
    }

    /// Opening minus closing brackets (`[`, `{`) outside quotes: above zero while a flow
    /// collection continues on the next line.
    static func openBrackets(_ s: String) -> Int {
      var balance = 0
      var quote: Character?
      var escaped = false
      for c in s {
        if let q = quote {
          if escaped { escaped = false } else if c == "\\" && q == "\"" { escaped = true } else if c == q { quote = nil }
        } else if c == "\"" || c == "'" {
          quote = c
        } else if c == "[" || c == "{" {
          balance += 1
        } else if c == "]" || c == "}" {
          balance -= 1
        }
      }
      return balance
    }
  }
}
