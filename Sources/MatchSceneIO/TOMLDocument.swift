import Foundation
import MatchSceneCore
package import TOMLKit

/// A parsed TOML file with typed, located accessors: every failure names the file and the key.
///
/// Parsing is TOMLKit's (toml++ underneath, TOML 1.0), after `TOMLPrescan` has turned away the
/// inputs that would crash it; this type adds the error reporting MatchScene promises
/// (`file:line:column: message`, `file: [table.key]: message`).
package struct TOMLDocument {
  package let file: String
  package let root: TOMLTable
  /// The source text, kept for what TOMLKit's tables forget (the order of keys).
  package let text: String

  /// Parses TOML text. - Throws: `InputError` with the line and column of a syntax error.
  package init(text: String, file: String) throws {
    self.file = file
    self.text = text
    try TOMLPrescan.check(text, file: file)
    do {
      root = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw InputError(
        file: file, location: .lineColumn(error.source.begin.line, error.source.begin.column),
        "not valid TOML: \(error.description)")
    }
  }

  /// Reads and parses a TOML file. - Throws: `InputError` when unreadable or malformed.
  package init(contentsOf url: URL) throws {
    try self.init(text: Self.readText(url), file: url.path)
  }

  /// A file's text. - Throws: `InputError` when unreadable or not UTF-8.
  static func readText(_ url: URL) throws -> String {
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(file: url.path, "not UTF-8 text")
    }
    return text
  }

  /// A view of one table, for located look-ups of its keys.
  package func table(_ table: TOMLTable, path: String) -> TOMLTableView {
    TOMLTableView(file: file, path: path, table: table)
  }

  package var rootView: TOMLTableView { TOMLTableView(file: file, path: "", table: root) }

  /// The root's keys in the order they first appear in the text (TOMLKit's tables are sorted
  /// maps). A key is found as a table header `[key]` / `[key.sub]` / `[[key]]`, or as `key = …` before
  /// the first header; continuation lines of multi-line arrays are skipped. Keys the scan misses
  /// follow in sorted order.
  package var rootKeysInFileOrder: [String] {
    var firstLine: [String: Int] = [:]
    var inTable = false
    var openBrackets = 0  // of a multi-line array value still open
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let t = line.trimmingCharacters(in: .whitespacesAndNewlines)
      if openBrackets > 0 {
        openBrackets += Self.bracketBalance(t)
        continue
      }
      var name: Substring?
      if t.hasPrefix("[") {
        inTable = true
        name = Self.firstKeySegment(t.drop { $0 == "[" })
      } else if !t.isEmpty, !t.hasPrefix("#") {
        if !inTable { name = Self.firstKeySegment(Substring(t)) }
        if let equals = t.firstIndex(of: "=") { openBrackets = max(0, Self.bracketBalance(t[equals...])) }
      }
      if let name, !name.isEmpty, firstLine[String(name)] == nil { firstLine[String(name)] = index }
    }
    return root.keys.sorted { (firstLine[$0] ?? Int.max, $0) < (firstLine[$1] ?? Int.max, $1) }
  }

  /// Opening minus closing square brackets outside strings and comments.
  static func bracketBalance<S: StringProtocol>(_ s: S) -> Int {
    var balance = 0
    var quote: Character?
    var escaped = false
    for c in s {
      if let q = quote {
        if escaped {
          escaped = false
        } else if c == "\\" && q == "\"" {
          escaped = true
        } else if c == q {
          quote = nil
        }
      } else if c == "\"" || c == "'" {
        quote = c
      } else if c == "#" {
        break
      } else if c == "[" {
        balance += 1
      } else if c == "]" {
        balance -= 1
      }
    }
    return balance
  }

  /// The first segment of a TOML key (`a` of `a.b = 1`, `a b` of `"a b".c`), unquoted.
  static func firstKeySegment(_ s: Substring) -> Substring? {
    let s = s.drop { $0 == " " || $0 == "\t" }
    if s.first == "'" {  // literal string: no escapes
      let rest = s.dropFirst()
      guard let end = rest.firstIndex(of: "'") else { return nil }
      return rest[..<end]
    }
    if s.first == "\"" {  // basic string: `\"` and `\\` are the escapes a key name plausibly holds
      var name = ""
      var escaped = false
      for c in s.dropFirst() {
        if escaped {
          name.append(c)
          escaped = false
        } else if c == "\\" {
          escaped = true
        } else if c == "\"" {
          return Substring(name)
        } else {
          name.append(c)
        }
      }
      return nil
    }
    let end = s.firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ?? s.endIndex
    return s[..<end]
  }
}

/// One table of a `TOMLDocument`, remembering where it is for error messages.
package struct TOMLTableView {
  package let file: String
  package let path: String
  package let table: TOMLTable

  package var keys: [String] { table.keys }

  func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  package func fail(_ key: String, _ message: String) -> InputError {
    InputError(file: file, location: .key(keyPath(key)), message)
  }

  package func contains(_ key: String) -> Bool { table[key] != nil }

  /// A sub-table, or nil when absent. - Throws: when present but not a table.
  package func subtable(_ key: String) throws -> TOMLTableView? {
    guard let value = table[key] else { return nil }
    guard let t = value.table else { throw fail(key, "expected a table") }
    return TOMLTableView(file: file, path: keyPath(key), table: t)
  }

  /// A number (TOML integer or float), or nil when absent. - Throws: when present but not a finite number.
  package func number(_ key: String) throws -> Double? {
    guard let value = table[key] else { return nil }
    let x: Double? = value.double ?? value.int.map(Double.init)
    guard let x else { throw fail(key, "expected a number") }
    guard x.isFinite else { throw fail(key, "expected a finite number, got \(x)") }
    return x
  }

  package func requiredNumber(_ key: String) throws -> Double {
    guard let x = try number(key) else { throw fail(key, "missing (a number is required)") }
    return x
  }

  package func string(_ key: String) throws -> String? {
    guard let value = table[key] else { return nil }
    guard let s = value.string else { throw fail(key, "expected a string") }
    return s
  }

  package func bool(_ key: String) throws -> Bool? {
    guard let value = table[key] else { return nil }
    if let b = value.bool { return b }
    if let s = value.string?.lowercased(), s == "true" || s == "false" { return s == "true" }
    throw fail(key, "expected true or false")
  }

  package func int(_ key: String) throws -> Int? {
    guard let value = table[key] else { return nil }
    if let i = value.int { return i }
    if let d = value.double, d.rounded() == d, abs(d) < 1e15 { return Int(d) }
    throw fail(key, "expected an integer")
  }

  /// A flat array of finite numbers, or nil when absent.
  /// - Parameter count: the lengths allowed (nil allows any).
  package func numbers(_ key: String, count allowed: Set<Int>? = nil) throws -> [Double]? {
    guard let value = table[key] else { return nil }
    guard let array = value.array else { throw fail(key, "expected an array of numbers") }
    var out: [Double] = []
    for (i, element) in array.enumerated() {
      guard let x = element.double ?? element.int.map(Double.init) else {
        throw fail(key, "element \(i + 1) is not a number")
      }
      guard x.isFinite else { throw fail(key, "element \(i + 1) is not finite (\(x))") }
      out.append(x)
    }
    if let allowed, !allowed.contains(out.count) {
      let list = allowed.sorted().map(String.init).joined(separator: " or ")
      throw fail(key, "expected \(list) numbers, got \(out.count)")
    }
    return out
  }

  /// A matrix given as an array of rows, flattened row-major, or nil when absent.
  package func matrix(_ key: String, rows: Int, columns: Int) throws -> [Double]? {
    guard let value = table[key] else { return nil }
    guard let array = value.array else { throw fail(key, "expected a \(rows)×\(columns) array of rows") }
    guard array.count == rows else { throw fail(key, "expected \(rows) rows, got \(array.count)") }
    var out: [Double] = []
    for (r, row) in array.enumerated() {
      guard let cells = row.array, cells.count == columns else {
        throw fail(key, "row \(r + 1) must hold \(columns) numbers")
      }
      for (c, cell) in cells.enumerated() {
        guard let x = cell.double ?? cell.int.map(Double.init), x.isFinite else {
          throw fail(key, "row \(r + 1), column \(c + 1) is not a finite number")
        }
        out.append(x)
      }
    }
    return out
  }

  /// A sequence of keys each holding a value of a required kind: throws `missing` when absent.
  package func required<T>(_ key: String, _ read: (String) throws -> T?) throws -> T {
    guard let v = try read(key) else { throw fail(key, "missing (required)") }
    return v
  }
}
