import MatchSceneCore

/// A strict, single-pass reader of one OpenPose frame file (OpenPose `doc/02_output.md`, "JSON Output
/// Format"): JSON text (RFC 8259) in, the `people[i].pose_keypoints_2d` numbers out, with no
/// Foundation JSON objects in between. It is the hot path of `OpenPoseFolder` (a 10-minute, 4-camera
/// match is 144,000 files).
///
/// Strict means it accepts exactly RFC 8259 JSON, as `JSONSerialization` does: no `NaN`/`Infinity`,
/// no comments, no trailing commas, no leading zeros, no control characters or invalid UTF-8 in
/// strings, no lone UTF-16 surrogates in `\u` escapes, nothing after the value, at most
/// `maxDepth` nested arrays and objects (Foundation's limit too). Keys are compared after their
/// escapes are decoded (`"peopl\u0065"` is `people`); keys other than `people` and
/// `pose_keypoints_2d` (`version`, `person_id`, face and hand keypoints, `part_candidates`) are
/// checked and skipped. A `null` `pose_keypoints_2d` counts as missing, as an optional would.
///
/// Numbers are correctly rounded (Clinger's fast path for up to 15 significant digits and powers of
/// ten up to 10²², Swift's `Double(_:)` otherwise), so they equal `JSONDecoder`'s bit for bit.
///
/// Errors name the place: a syntax error its 1-based line and column (counted in bytes; the end of
/// the file when truncated) and what was expected there; a structure error the key path
/// (`people[1].pose_keypoints_2d[4]`). As with `JSONDecoder`, a syntax error anywhere in the file
/// wins over a structure error.
struct OpenPoseJSON {
  /// Most nested arrays and objects accepted (Foundation's JSON reader stops at 512 too).
  static let maxDepth = 512

  /// What went wrong, before it is turned into an `InputError`.
  enum Failure: Error {
    /// Malformed JSON at byte `offset` (0-based): `expected` says what should have been there.
    case syntax(offset: Int, expected: String)
    /// The JSON is valid but `keyPath` is missing.
    case missing(keyPath: String)
    /// The value at `keyPath` (starting at byte `offset`) has the wrong type.
    case wrongType(keyPath: String, offset: Int)
    /// A number too large for a Double.
    case notRepresentable(keyPath: String, text: String)
  }

  /// The people of one frame: per person, its numbers (nil when `pose_keypoints_2d` is missing or
  /// null), flat as written.
  struct RawFrame {
    var numbers: [Double] = []
    /// Per person, the range of `numbers` holding its `pose_keypoints_2d`, or nil.
    var people: [Range<Int>?] = []
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var i = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// Parses a whole frame.
  /// - Throws: `Failure`; a structure failure only when the whole text is valid JSON.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> RawFrame {
    var reader = OpenPoseJSON(bytes)
    do {
      return try reader.frame()
    } catch {
      if case .syntax = error { throw error }
      // Like JSONDecoder, which decodes only valid JSON: a syntax error later in the file comes first.
      var checker = OpenPoseJSON(bytes)
      try checker.skipWhitespace()
      try checker.skipValue()
      try checker.end()
      throw error
    }
  }

  /// Whether `bytes` hold JSON white space only.
  static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
  }

  /// 1-based line and column (in bytes) of the 0-based `offset`.
  static func lineColumn(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
    var line = 1, lineStart = 0
    for k in 0..<min(offset, bytes.count) where bytes[k] == 0x0A {
      line += 1
      lineStart = k + 1
    }
    return (line, offset - lineStart + 1)
  }

  // MARK: The OpenPose structure

  private mutating func frame() throws(Failure) -> RawFrame {
    // A UTF-8 byte order mark, which Foundation skips too.
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
    try skipWhitespace()
    guard peek() == UInt8(ascii: "{") else {
      let at = i
      try skipValue()
      throw .wrongType(keyPath: "", offset: at)
    }
    var out: RawFrame?
    i += 1
    var first = true
    while let key = try nextKey(first: &first) {
      if key == "people" {
        out = try people()
      } else {
        try skipValue()
      }
    }
    try end()
    guard let out else { throw .missing(keyPath: "people") }
    return out
  }

  private mutating func people() throws(Failure) -> RawFrame {
    guard peek() == UInt8(ascii: "[") else {
      let at = i
      try skipValue()
      throw .wrongType(keyPath: "people", offset: at)
    }
    var out = RawFrame()
    i += 1
    var first = true
    var p = 0
    while try nextElement(first: &first) {
      guard peek() == UInt8(ascii: "{") else {
        let at = i
        try skipValue()
        throw .wrongType(keyPath: "people[\(p)]", offset: at)
      }
      i += 1
      var keypoints: Range<Int>?
      var firstKey = true
      while let key = try nextKey(first: &firstKey) {
        guard key == "pose_keypoints_2d" else {
          try skipValue()
          continue
        }
        // A repeated key: the last one counts, as in a dictionary.
        if let earlier = keypoints { out.numbers.removeSubrange(earlier) }
        if peek() == UInt8(ascii: "n") {
          try literal("null")
          keypoints = nil
        } else {
          keypoints = try numbers(into: &out.numbers, person: p)
        }
      }
      out.people.append(keypoints)
      p += 1
    }
    return out
  }

  /// An array of numbers appended to `numbers`; the range they fill.
  private mutating func numbers(into numbers: inout [Double], person p: Int) throws(Failure) -> Range<Int> {
    let start = numbers.count
    guard peek() == UInt8(ascii: "[") else {
      let at = i
      try skipValue()
      throw .wrongType(keyPath: "people[\(p)].pose_keypoints_2d", offset: at)
    }
    i += 1
    var first = true
    var k = 0
    while try nextElement(first: &first) {
      guard let c = peek(), c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) else {
        let at = i
        try skipValue()
        throw .wrongType(keyPath: "people[\(p)].pose_keypoints_2d[\(k)]", offset: at)
      }
      let from = i
      let value = try number()
      guard value.isFinite else {
        throw .notRepresentable(
          keyPath: "people[\(p)].pose_keypoints_2d[\(k)]", text: String(decoding: bytes[from..<i], as: UTF8.self))
      }
      numbers.append(value)
      k += 1
    }
    return start..<numbers.count
  }

  // MARK: JSON (RFC 8259)

  private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

  private func fail(_ expected: String) -> Failure { .syntax(offset: i, expected: expected) }

  private mutating func skipWhitespace() throws(Failure) {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return
      }
    }
  }

  /// Only white space left.
  private mutating func end() throws(Failure) {
    try skipWhitespace()
    guard i == bytes.count else { throw fail("the end of the file after the JSON value") }
  }

  /// The next key of an object whose `{` is consumed, with its colon; `i` at its value, which the
  /// caller must consume. Nil at the closing `}` (consumed). `first` is true before the first key.
  private mutating func nextKey(first: inout Bool) throws(Failure) -> String? {
    guard try another(UInt8(ascii: "}"), first: &first, in: "an object") else { return nil }
    guard peek() == UInt8(ascii: "\"") else { throw fail(i == bytes.count ? "a key (the file ends)" : "a key in double quotes") }
    let key = try string(decode: true)
    try skipWhitespace()
    guard peek() == UInt8(ascii: ":") else { throw fail("':' after the key") }
    i += 1
    try skipWhitespace()
    return key
  }

  /// Whether an array whose `[` is consumed has another element; `i` at it, which the caller must
  /// consume. False at the closing `]` (consumed). `first` is true before the first element.
  private mutating func nextElement(first: inout Bool) throws(Failure) -> Bool {
    guard try another(UInt8(ascii: "]"), first: &first, in: "an array") else { return false }
    guard i < bytes.count else { throw fail("a value (the file ends)") }
    return true
  }

  /// After an opening bracket (`first`) or a member or element: true past a `,` (or, when `first`,
  /// anything but `close`), false past `close`.
  private mutating func another(_ close: UInt8, first: inout Bool, in what: String) throws(Failure) -> Bool {
    try skipWhitespace()
    if first {
      first = false
      guard peek() == close else { return true }
      i += 1
      return false
    }
    switch peek() {
    case UInt8(ascii: ","):
      i += 1
      try skipWhitespace()
      return true
    case close:
      i += 1
      return false
    default:
      let closing = "',' or '\(Character(Unicode.Scalar(close)))' in \(what)"
      throw fail(i == bytes.count ? closing + " (the file ends)" : closing)
    }
  }

  /// Checks and skips any value at `i`, nesting tracked on an explicit stack (no recursion, so deep
  /// nesting cannot overflow the call stack).
  private mutating func skipValue() throws(Failure) {
    var stack: [UInt8] = []  // the closing bracket of each open array or object
    var expectKey = false
    while true {
      try skipWhitespace()
      // A value (or, right after `{` or `,` in an object, a key and its colon first).
      if expectKey {
        guard peek() == UInt8(ascii: "\"") else { throw fail("a key in double quotes") }
        _ = try string(decode: false)
        try skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw fail("':' after the key") }
        i += 1
        try skipWhitespace()
        expectKey = false
      }
      guard let c = peek() else { throw fail("a value (the file ends)") }
      var opened = false
      switch c {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard stack.count < Self.maxDepth else { throw fail("at most \(Self.maxDepth) nested arrays and objects") }
        i += 1
        try skipWhitespace()
        let close = c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if peek() == close {
          i += 1
        } else {
          stack.append(close)
          expectKey = c == UInt8(ascii: "{")
          opened = true
        }
      case UInt8(ascii: "\""): _ = try string(decode: false)
      case UInt8(ascii: "t"): try literal("true")
      case UInt8(ascii: "f"): try literal("false")
      case UInt8(ascii: "n"): try literal("null")
      case UInt8(ascii: "-"), 0x30...0x39: _ = try number()
      default: throw fail("a value (object, array, string, number, true, false or null)")
      }
      if opened { continue }
      // After a value: close what is finished, or go on to the next element.
      while let close = stack.last {
        try skipWhitespace()
        guard let d = peek() else { throw fail("',' or '\(Character(Unicode.Scalar(close)))' (the file ends)") }
        if d == close {
          i += 1
          stack.removeLast()
        } else if d == UInt8(ascii: ",") {
          i += 1
          expectKey = close == UInt8(ascii: "}")
          break
        } else {
          throw fail(close == UInt8(ascii: "}") ? "',' or '}' in an object" : "',' or ']' in an array")
        }
      }
      if stack.isEmpty { return }
    }
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let start = i
    for k in 0..<word.utf8CodeUnitCount {
      guard i < bytes.count, bytes[i] == word.utf8Start[k] else {
        i = start
        throw fail("a value (object, array, string, number, true, false or null)")
      }
      i += 1
    }
  }

  /// A number by RFC 8259's grammar `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, correctly rounded
  /// (infinite when it is too large for a Double).
  private mutating func number() throws(Failure) -> Double {
    let start = i
    var negative = false
    if peek() == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var mantissa: UInt64 = 0
    var significant = 0, fractionDigits = 0
    func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
    guard isDigit(peek()) else { throw fail("a digit") }
    if peek() == 0x30 {
      i += 1
      if isDigit(peek()) { throw fail("'.', 'e' or the end of the number (no leading zeros)") }
    } else {
      while let b = peek(), b >= 0x30 && b <= 0x39 {
        mantissa = mantissa &* 10 &+ UInt64(b - 0x30)
        significant += 1
        i += 1
      }
    }
    if peek() == UInt8(ascii: ".") {
      i += 1
      guard isDigit(peek()) else { throw fail("a digit after the decimal point") }
      while let b = peek(), b >= 0x30 && b <= 0x39 {
        if significant > 0 || b != 0x30 { significant += 1 }
        mantissa = mantissa &* 10 &+ UInt64(b - 0x30)
        fractionDigits += 1
        i += 1
      }
    }
    var exponent = 0
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      i += 1
      var negativeExponent = false
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") {
        negativeExponent = peek() == UInt8(ascii: "-")
        i += 1
      }
      guard isDigit(peek()) else { throw fail("a digit in the exponent") }
      while let b = peek(), b >= 0x30 && b <= 0x39 {
        exponent = min(exponent * 10 + Int(b - 0x30), 100_000)  // saturates: far beyond any Double
        i += 1
      }
      if negativeExponent { exponent = -exponent }
    }
    // Clinger's fast path (W. D. Clinger, "How to read floating point numbers accurately", PLDI 1990):
    // an exact integer mantissa (< 2^53) times or divided by an exact power of ten (≤ 10^22) is
    // correctly rounded.
    let scale = exponent - fractionDigits
    if significant <= 15 && scale >= -22 && scale <= 22 {
      let value = scale < 0 ? Double(mantissa) / Self.powersOfTen[-scale] : Double(mantissa) * Self.powersOfTen[scale]
      return negative ? -value : value
    }
    return Double(String(decoding: bytes[start..<i], as: UTF8.self)) ?? .infinity
  }

  private static let powersOfTen: [Double] = (0...22).map { k in
    var p = 1.0
    for _ in 0..<k { p *= 10 }  // exact: 10^k = 2^k · 5^k and 5^22 < 2^53
    return p
  }

  /// A string at `i` (`"` … `"`): its text when `decode` (for keys), else "" after checking it.
  private mutating func string(decode: Bool) throws(Failure) -> String {
    i += 1  // "
    let start = i
    var plain = true  // no escapes: the text is bytes[start..<end]
    var scalars = String.UnicodeScalarView()  // with escapes: the text up to `segment`, decoded
    var segment = start  // the start of the bytes after the last escape
    while true {
      guard i < bytes.count else { throw fail("'\"' closing the string (the file ends)") }
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        defer { i += 1 }
        guard decode else { return "" }
        if plain { return String(decoding: bytes[start..<i], as: UTF8.self) }
        scalars.append(contentsOf: String(decoding: bytes[segment..<i], as: UTF8.self).unicodeScalars)
        return String(scalars)
      }
      if b < 0x20 { throw fail("a character or an escape (control characters must be escaped)") }
      if b == UInt8(ascii: "\\") {
        if decode {
          scalars.append(contentsOf: String(decoding: bytes[segment..<i], as: UTF8.self).unicodeScalars)
          plain = false
        }
        i += 1
        guard let e = peek() else { throw fail("an escape (the file ends)") }
        var scalar: Unicode.Scalar
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = Unicode.Scalar(e)
        case UInt8(ascii: "b"): scalar = "\u{08}"
        case UInt8(ascii: "f"): scalar = "\u{0C}"
        case UInt8(ascii: "n"): scalar = "\n"
        case UInt8(ascii: "r"): scalar = "\r"
        case UInt8(ascii: "t"): scalar = "\t"
        case UInt8(ascii: "u"):
          i += 1
          let unit = try hex4()
          if (0xDC00...0xDFFF).contains(unit) {
            i -= 6
            throw fail("a high surrogate before a low one (\\uDC00–\\uDFFF alone is not a character)")
          }
          if (0xD800...0xDBFF).contains(unit) {
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
              throw fail("a low surrogate \\uDC00–\\uDFFF after the high one")
            }
            i += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else {
              i -= 6
              throw fail("a low surrogate \\uDC00–\\uDFFF after the high one")
            }
            scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
          } else {
            scalar = Unicode.Scalar(unit)!
          }
          if decode { scalars.append(scalar) }
          segment = i
          continue
        default: throw fail("an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
        }
        if decode { scalars.append(scalar) }
        i += 1
        segment = i
        continue
      }
      if b < 0x80 {
        i += 1
        continue
      }
      // Non-ASCII: one well-formed UTF-8 sequence (RFC 3629 §4: no overlongs, surrogates or > U+10FFFF).
      let from = i
      let (length, low, high): (Int, UInt8, UInt8) =
        switch b {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: throw fail("UTF-8 text (byte 0x\(String(b, radix: 16, uppercase: true)) starts no character)")
        }
      guard i + length <= bytes.count else { throw fail("the rest of a UTF-8 character (the file ends)") }
      guard bytes[i + 1] >= low && bytes[i + 1] <= high, (2..<length).allSatisfy({ bytes[i + $0] & 0xC0 == 0x80 }) else {
        throw fail("UTF-8 text (a malformed character)")
      }
      i = from + length
    }
  }

  /// Four hex digits at `i`.
  private mutating func hex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let h = peek() else { throw fail("four hex digits after \\u (the file ends)") }
      let digit: UInt8
      switch h {
      case 0x30...0x39: digit = h - 0x30
      case 0x41...0x46: digit = h - 0x41 + 10
      case 0x61...0x66: digit = h - 0x61 + 10
      default: throw fail("four hex digits after \\u")
      }
      value = value << 4 | UInt32(digit)
      i += 1
    }
    return value
  }
}
