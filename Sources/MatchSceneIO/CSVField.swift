/// One text cell of a CSV file MatchScene writes (a track, joint or camera name, a column name), made
/// safe both ways:
///
/// - **Formula prefixes neutralised** as OWASP's "CSV Injection" page advises: a cell that begins with
///   `=`, `+`, `-`, `@`, a tab or a carriage return would be run as a formula by a spreadsheet, so it is
///   written with a single quote in front (`=1+2` → `'=1+2`). A cell that begins with `'` gets one too,
///   so that reading drops exactly one leading `'` and every name reads back as it was.
/// - **Quoted per RFC 4180** §2: a cell holding a comma, a double quote, a CR or an LF — or leading or
///   trailing spaces or tabs, which readers trim — is enclosed in double quotes, each `"` in it doubled.
///
/// Ordinary names (letters, digits, `_`, `.`, spaces inside) are written as they are, byte for byte.
/// Numbers are not cells of this kind: a negative coordinate is written as it is.
public enum CSVField {
  /// Whether a cell beginning with `byte` is neutralised: the first characters that make a spreadsheet
  /// evaluate a cell (OWASP, "CSV Injection"), and `'`.
  @inline(__always)
  static func isNeutralised(first byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D, UInt8(ascii: "'"): return true
    default: return false
    }
  }

  /// Whether `text` is written as it is.
  static func isPlain<S: Collection<UInt8>>(_ utf8: S) -> Bool {
    if let plain = utf8.withContiguousStorageIfAvailable({ isPlain(bytes: $0) }) { return plain }
    return isPlain(bytes: Array(utf8))
  }

  /// `isPlain` on contiguous bytes, with the byte tests as comparisons (it runs on every row of a
  /// tracks file, millions of times).
  @inline(__always)
  static func isPlain<C: RandomAccessCollection<UInt8>>(bytes: C) -> Bool {
    guard let first = bytes.first else { return true }
    if isNeutralised(first: first) || first == 0x20 { return false }
    var last = first
    for b in bytes {
      if b == UInt8(ascii: ",") || b == UInt8(ascii: "\"") || b == 0x0A || b == 0x0D { return false }
      last = b
    }
    return last != 0x20 && last != 0x09
  }

  /// The cell as written (see the type's summary).
  public static func escape(_ text: String) -> String {
    if isPlain(text.utf8) { return text }
    var cell = text
    if let first = text.utf8.first, isNeutralised(first: first) { cell = "'" + cell }
    let needsQuotes = cell.utf8.contains { b in
      b == UInt8(ascii: ",") || b == UInt8(ascii: "\"") || b == 0x0A || b == 0x0D
    } || cell.utf8.first.map { $0 == 0x20 || $0 == 0x09 } == true || cell.utf8.last.map { $0 == 0x20 || $0 == 0x09 } == true
    guard needsQuotes else { return cell }
    return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Appends `escape(text)`; for plain names, the bytes of `text` without a copy.
  public static func append(_ text: String, to out: inout TextBuffer) {
    if isPlain(text.utf8) { out.append(text) } else { out.append(escape(text)) }
  }

  /// The name a cell holds: RFC 4180 quotes removed (`""` read as `"`), then one leading `'` dropped (the
  /// neutralising prefix `escape` adds). The inverse of `escape`.
  public static func unescape<S: Collection<UInt8>>(_ cell: S) -> String {
    var bytes = Array(cell)
    if bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") {
      bytes = unquoted(bytes[1..<(bytes.count - 1)])
    }
    if bytes.first == UInt8(ascii: "'") { bytes.removeFirst() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The inside of a quoted cell with each `""` read as `"`.
  static func unquoted(_ inside: ArraySlice<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(inside.count)
    var i = inside.startIndex
    while i < inside.endIndex {
      out.append(inside[i])
      if inside[i] == UInt8(ascii: "\""), i + 1 < inside.endIndex, inside[i + 1] == UInt8(ascii: "\"") { i += 1 }
      i += 1
    }
    return out
  }

  /// The records of a CSV text as names (`unescape`d cells), for small tables MatchScene wrote (RFC 4180
  /// quoting, a record may span lines); blank lines are left out.
  public static func records(_ bytes: [UInt8]) -> [[String]] {
    let csv = CSVScanner(bytes)
    var out: [[String]] = []
    csv.forEachLine { _, fields in
      if !CSVScanner.isBlank(fields) { out.append(fields.map { csv.name($0) }) }
    }
    return out
  }
}
