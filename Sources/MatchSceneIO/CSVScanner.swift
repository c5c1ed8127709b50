import Foundation

/// Lines and comma-separated fields of a UTF-8 text, as byte ranges, for readers of large CSV files
/// (`tracks.csv`, TrackNet ball files, DeepLabCut tables).
///
/// Records end at `\n` (a `\r` before it is dropped); fields are trimmed of spaces and tabs. A field
/// that begins with `"` is quoted as RFC 4180 §2 describes: commas, line ends and doubled quotes inside it
/// belong to the field, whose range keeps its quotes (`name(_:)` reads it, `CSVField.unescape`).
struct CSVScanner {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Calls `body` with each record's 1-based line number (its first line's) and its field ranges (one
  /// empty range for an empty line). The ranges array is reused between calls: do not keep it.
  /// - Parameter range: the bytes to scan (whole records: start at a record's start); default all. Lines
  ///   are numbered from 1 at its start, counting the line ends inside quoted fields too.
  func forEachLine(in range: Range<Int>? = nil, _ body: (_ line: Int, _ fields: [Range<Int>]) throws -> Void) rethrows {
    let comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), quote = UInt8(ascii: "\"")
    var fields: [Range<Int>] = []
    fields.reserveCapacity(16)
    var lineNumber = 0
    var start = range?.lowerBound ?? 0
    let n = range?.upperBound ?? bytes.count
    while start < n {
      lineNumber += 1
      fields.removeAll(keepingCapacity: true)
      var quotedLineEnds = 0
      var fieldStart = start
      var i = start
      while true {
        // A quoted field: up to its closing quote (a doubled quote is a quote inside it).
        var j = i
        while j < n && (bytes[j] == 0x20 || bytes[j] == 0x09) { j += 1 }
        if j < n && bytes[j] == quote {
          j += 1
          while j < n {
            if bytes[j] == quote {
              if j + 1 < n && bytes[j + 1] == quote {
                j += 2
                continue
              }
              j += 1
              break
            }
            if bytes[j] == newline { quotedLineEnds += 1 }
            j += 1
          }
          i = j
        }
        while i < n && bytes[i] != comma && bytes[i] != newline { i += 1 }
        if i < n && bytes[i] == comma {
          fields.append(trimmed(fieldStart..<i))
          i += 1
          fieldStart = i
          continue
        }
        var end = i
        if end > fieldStart && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        fields.append(trimmed(fieldStart..<end))
        break
      }
      try body(lineNumber, fields)
      lineNumber += quotedLineEnds
      start = i + 1
    }
  }

  /// Up to `count` ranges of whole lines covering the text, split near equal sizes (for scanning in
  /// parallel); one range when the text holds a `"` (a quoted field may hold a line end).
  func lineChunks(_ count: Int) -> [Range<Int>] {
    let n = bytes.count
    guard count > 1, n > 0 else { return [0..<n] }
    let hasQuote = bytes.withUnsafeBufferPointer { memchr($0.baseAddress!, Int32(UInt8(ascii: "\"")), n) != nil }
    if hasQuote { return [0..<n] }
    var chunks: [Range<Int>] = []
    var start = 0
    for k in 1...count {
      guard start < n else { break }
      var end = k == count ? n : max(start, n * k / count)
      while end < n && end > 0 && bytes[end - 1] != UInt8(ascii: "\n") { end += 1 }
      guard end > start else { continue }
      chunks.append(start..<end)
      start = end
    }
    return chunks
  }

  /// The number of lines before byte `offset` (which starts a line).
  func lines(before offset: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      var count = 0
      for i in 0..<offset where buffer[i] == UInt8(ascii: "\n") { count += 1 }
      return count
    }
  }

  /// `range` without leading and trailing spaces and tabs.
  func trimmed(_ range: Range<Int>) -> Range<Int> {
    var lo = range.lowerBound, hi = range.upperBound
    while lo < hi && (bytes[lo] == 0x20 || bytes[lo] == 0x09) { lo += 1 }
    while hi > lo && (bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09) { hi -= 1 }
    return lo..<hi
  }

  func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

  /// The name a field holds, its RFC 4180 quotes and neutralising `'` removed (`CSVField.unescape`).
  func name(_ range: Range<Int>) -> String {
    let first = range.isEmpty ? 0 : bytes[range.lowerBound]
    guard first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") else { return string(range) }
    return CSVField.unescape(bytes[range])
  }

  /// The text a field holds with its RFC 4180 §2 quotes removed (`""` read as `"`), nothing else
  /// changed: a cell of a file another program wrote (a DeepLabCut or TrackNet header).
  func unquoted(_ range: Range<Int>) -> String {
    guard quotedInside(range) != nil else { return string(range) }
    return String(decoding: CSVField.unquoted(bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]), as: UTF8.self)
  }

  /// Whether the line holds nothing but spaces.
  static func isBlank(_ fields: [Range<Int>]) -> Bool { fields.count == 1 && fields[0].isEmpty }

  /// The inside of a field enclosed in double quotes (trimmed), nil when it is not quoted.
  @inline(__always) func quotedInside(_ range: Range<Int>) -> Range<Int>? {
    guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""), bytes[range.upperBound - 1] == UInt8(ascii: "\"")
    else { return nil }
    return trimmed((range.lowerBound + 1)..<(range.upperBound - 1))
  }

  /// A decimal integer with an optional sign (quoted or not), or nil.
  func int(_ range: Range<Int>) -> Int? {
    if let inside = quotedInside(range) { return int(inside) }
    var i = range.lowerBound
    var negative = false
    if i < range.upperBound && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    guard i < range.upperBound else { return nil }
    var value = 0
    while i < range.upperBound {
      let d = Int(bytes[i]) - 48
      guard (0...9).contains(d) else { return nil }
      let (times10, o1) = value.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(d)
      guard !o1 && !o2 else { return nil }
      value = sum
      i += 1
    }
    return negative ? -value : value
  }

  /// A number as Swift's `Double(_: String)` reads it (`1`, `-0.25`, `1e-7`, `nan`, `inf`), or nil.
  ///
  /// Plain decimals with at most 15 significant digits take Clinger's fast path: the digits as an
  /// exact integer divided by an exact power of ten ≤ 10²² is correctly rounded (W. D. Clinger,
  /// "How to read floating point numbers accurately", PLDI 1990). Anything else goes to the
  /// standard library.
  func double(_ range: Range<Int>) -> Double? {
    if let inside = quotedInside(range) { return double(inside) }
    var i = range.lowerBound
    var negative = false
    if i < range.upperBound && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0, fractionDigits = 0
    var seenPoint = false
    var fast = i < range.upperBound
    while fast && i < range.upperBound {
      let b = bytes[i]
      if b == UInt8(ascii: ".") && !seenPoint {
        seenPoint = true
      } else if b >= 48 && b <= 57 {
        if digits > 0 || b != 48 { digits += 1 }
        mantissa = mantissa &* 10 &+ UInt64(b - 48)
        if seenPoint { fractionDigits += 1 }
      } else {
        fast = false
      }
      i += 1
    }
    if fast && digits <= 15 && fractionDigits <= 22 && i - range.lowerBound > (seenPoint ? 1 : 0) + (negative ? 1 : 0) {
      let value = Double(mantissa) / Self.exactPowersOfTen[fractionDigits]
      return negative ? -value : value
    }
    return Double(string(range))
  }

  static let exactPowersOfTen: [Double] = (0...22).map { k in
    var p = 1.0
    for _ in 0..<k { p *= 10 }  // exact: 10^k < 2^53 · 2^k fits a Double's 53-bit significand for k ≤ 22
    return p
  }
}
