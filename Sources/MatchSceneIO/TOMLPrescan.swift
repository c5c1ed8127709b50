import MatchSceneCore

/// A lexical pass over TOML text that rejects, with a located `InputError`, the inputs that crash
/// the TOML parser instead of failing cleanly.
///
/// toml++ 3.4 (under TOMLKit) checks the first character of a table header's key with an
/// assertion, not an error, and SwiftPM builds C++ without `NDEBUG` even in release, so `[[[`,
/// `[.a]`, `[#]` or `[` followed by a line break abort the process (exit 134), as does `[}` (found
/// by fuzzing the readers with seeded mutations of calibration and match files). Very long dotted
/// keys (`a.a.a…`, tens of thousands of segments) overflow the stack while the nested tables are
/// built. Remove this pass when TOMLKit's parser reports these as parse errors (toml++
/// `parse_table_header` checking `is_bare_key_character` before `parse_key`), and likewise an array
/// element starting with `}` (`[}`, `parse_value`'s `!is_value_terminator` assertion), and converts
/// tables without recursion.
///
/// The pass follows just enough of TOML 1.0 to know where table headers and keys start: strings
/// (basic, literal and their multi-line forms), comments, and the arrays and inline tables of
/// values, which may span lines. Everything else is left to the parser.
enum TOMLPrescan {
  /// Most segments a dotted key or table header may have (`a.b.c` has 3).
  static let maxKeySegments = 64

  /// - Throws: `InputError` at the line and column of a table header whose key does not start
  ///   with a key character, or of a key with more than `maxKeySegments` segments.
  static func check(_ text: String, file: String) throws {
    var scanner = Scanner(bytes: Array(text.utf8), file: file)
    if scanner.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.i = 3 }  // a byte order mark, which toml++ skips
    if let nul = scanner.bytes.firstIndex(of: 0) { throw scanner.fail(nul, "a NUL byte; expected text") }
    try scanner.run()
  }

  struct Scanner {
    let bytes: [UInt8]
    let file: String
    var i = 0
    var line = 1
    var lineStart = 0
    /// Open `[` and `{` of values.
    var brackets: [UInt8] = []
    /// Whether a key may start here: a line start outside values, or after `{` / `,` in an inline table.
    var expectKey = true

    init(bytes: [UInt8], file: String) {
      self.bytes = bytes
      self.file = file
    }

    func peek(_ offset: Int = 0) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

    /// The 1-based line and column (counted in Unicode scalars) of byte `at`, which may lie on an earlier
    /// line than the scanner: a key that started before a multi-line string inside it (such a key at the
    /// place of its error trapped on an inverted range, found by fuzzing).
    func position(_ at: Int) -> (line: Int, column: Int) {
      let at = min(max(at, 0), bytes.count), current = min(lineStart, bytes.count)
      var line = self.line, start = current
      if at < current {
        line -= bytes[at..<current].filter { $0 == UInt8(ascii: "\n") }.count
        start = (bytes[..<at].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
      }
      return (line, bytes[start..<max(start, at)].filter { $0 & 0xC0 != 0x80 }.count + 1)
    }

    func fail(_ at: Int, _ message: String) -> InputError {
      let (line, column) = position(at)
      return InputError(file: file, location: .lineColumn(line, column), "not valid TOML: \(message)")
    }

    mutating func newline() {
      line += 1
      lineStart = i + 1
    }

    mutating func run() throws {
      while i < bytes.count {
        let c = bytes[i]
        switch c {
        case UInt8(ascii: "\n"):
          newline()
          if brackets.isEmpty { expectKey = true }
          i += 1
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
          i += 1
        case UInt8(ascii: "#"):
          while let b = peek(), b != UInt8(ascii: "\n") { i += 1 }
        case UInt8(ascii: "["):
          if brackets.isEmpty && expectKey {
            try header()
          } else {
            brackets.append(c)
            i += 1
          }
        case UInt8(ascii: "{"):
          brackets.append(c)
          expectKey = true
          i += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          if c == UInt8(ascii: "}") && brackets.last == UInt8(ascii: "[") {
            // toml++ asserts that an array element does not start with a value terminator.
            throw fail(i, "'}' inside an array [...]: expected a value, ',' or ']'")
          }
          _ = brackets.popLast()
          expectKey = false
          i += 1
        case UInt8(ascii: ","):
          expectKey = brackets.last == UInt8(ascii: "{")
          i += 1
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
          try string()
        default:
          if expectKey { try key(terminator: UInt8(ascii: "=")) } else { i += 1 }
        }
      }
    }

    /// A table header `[key]` or `[[key]]` at a line start; the rest of its line is skipped.
    mutating func header() throws {
      i += 1
      if peek() == UInt8(ascii: "[") { i += 1 }
      while let b = peek(), b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") { i += 1 }
      if let b = peek(), !(Self.isBareKey(b) || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "]")) {
        let shown = b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") ? "a line break" : "'\(Character(Unicode.Scalar(b)))'"
        throw fail(i, "a table header [name] or [[name]] must start with a key (letters, digits, _ or -, or a quoted name), got \(shown)")
      }
      try key(terminator: UInt8(ascii: "]"))
      while let b = peek(), b != UInt8(ascii: "\n") {
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { try string() } else { i += 1 }
      }
      expectKey = false
    }

    /// A (dotted) key up to `terminator`, counting its segments.
    mutating func key(terminator: UInt8) throws {
      let start = i
      var segments = 1
      while let b = peek(), b != terminator, b != UInt8(ascii: "\n"), b != UInt8(ascii: "#") {
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
          try string()
          continue
        }
        if b == UInt8(ascii: ".") {
          segments += 1
          if segments > TOMLPrescan.maxKeySegments {
            throw fail(start, "a key with more than \(TOMLPrescan.maxKeySegments) dotted parts")
          }
        }
        i += 1
      }
      if peek() == terminator { i += 1 }
      expectKey = false
    }

    /// A string starting at `i`: basic or literal, single- or multi-line. An unclosed single-line
    /// string ends at the line break (the parser reports it).
    mutating func string() throws {
      let quote = bytes[i]
      if peek(1) == quote && peek(2) == quote {
        i += 3
        while i < bytes.count {
          let b = bytes[i]
          if b == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
            try checkEscape(at: i)
            i += 2
            if i - 1 < bytes.count && bytes[i - 1] == UInt8(ascii: "\n") { line += 1; lineStart = i }
            continue
          }
          if b == UInt8(ascii: "\n") { newline() }
          if b == quote && peek(1) == quote && peek(2) == quote {
            i += 3
            while peek() == quote { i += 1 }  // up to two quotes may end the content
            return
          }
          i += 1
        }
        return
      }
      i += 1
      while let b = peek(), b != UInt8(ascii: "\n") {
        i += 1
        if b == quote { return }
        if b == UInt8(ascii: "\\") && quote == UInt8(ascii: "\""), peek() != UInt8(ascii: "\n") {
          try checkEscape(at: i - 1)
          i += 1
        }
      }
    }

    /// Refuses the escape at `at` when it stands for NUL (`\u0000`, `\U00000000`): the parser would cut
    /// the string there, so a name `"cam\u0000x"` would silently become `cam`.
    func checkEscape(at: Int) throws {
      for (letter, digits) in [(UInt8(ascii: "u"), 4), (UInt8(ascii: "U"), 8)] {
        guard at + 1 + digits < bytes.count, bytes[at + 1] == letter else { continue }
        if bytes[(at + 2)...(at + 1 + digits)].allSatisfy({ $0 == UInt8(ascii: "0") }) {
          throw fail(at, "a NUL character (\\u0000) in a string; names and values may not hold NUL")
        }
      }
    }

    static func isBareKey(_ b: UInt8) -> Bool {
      (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
        || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
    }
  }
}
