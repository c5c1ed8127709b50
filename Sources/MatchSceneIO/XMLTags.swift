import MatchSceneCore

/// The tags of a small XML file, in order: enough for files made of elements and attributes, such
/// as Qualisys calibrations. Text content is ignored; comments, the `<?xml …?>` declaration,
/// `<!…>` declarations and CDATA are skipped; the five predefined entities and numeric character
/// references are decoded in attribute values. It is not a validating parser: nesting is not
/// checked beyond what `QualisysCalibration` needs.
struct XMLTags {
  /// An opening (or empty-element) tag with its attributes, or a closing tag.
  struct Tag {
    var name: String
    var attributes: [String: String]
    var isClosing: Bool
    /// `<name …/>`: opens and closes at once.
    var isEmpty: Bool
    /// 1-based line of the `<`.
    var line: Int
  }

  let tags: [Tag]

  /// - Throws: `InputError` with the line of an unclosed tag, comment or attribute value, or of an
  ///   attribute without `="value"`.
  init(text: String, file: String) throws {
    let s = Array(text.unicodeScalars)
    var tags: [Tag] = []
    var i = 0, line = 1
    func fail(_ message: String) -> InputError { InputError(file: file, location: .line(line), "not valid XML: \(message)") }
    func starts(_ prefix: String, at j: Int) -> Bool {
      let p = Array(prefix.unicodeScalars)
      return j + p.count <= s.count && Array(s[j..<j + p.count]) == p
    }
    /// Moves `i` past `end`, counting lines. - Throws: when `end` never comes.
    func skip(past end: String, what: String) throws {
      let startLine = line
      while i < s.count && !starts(end, at: i) {
        if s[i] == "\n" { line += 1 }
        i += 1
      }
      guard i < s.count else {
        line = startLine
        throw fail("\(what) is never closed with \(end)")
      }
      i += end.unicodeScalars.count
    }
    while i < s.count {
      if s[i] == "\n" { line += 1 }
      guard s[i] == "<" else {
        i += 1
        continue
      }
      if starts("<!--", at: i) { try skip(past: "-->", what: "a comment") ; continue }
      if starts("<![CDATA[", at: i) { try skip(past: "]]>", what: "a CDATA section"); continue }
      if starts("<?", at: i) { try skip(past: "?>", what: "a declaration"); continue }
      if starts("<!", at: i) { try skip(past: ">", what: "a declaration"); continue }
      let tagLine = line
      i += 1
      let isClosing = i < s.count && s[i] == "/"
      if isClosing { i += 1 }
      func isNameChar(_ c: Unicode.Scalar) -> Bool { !(c == " " || c == "\t" || c == "\n" || c == "\r" || c == "/" || c == ">" || c == "=") }
      func skipSpace() {
        while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\n" || s[i] == "\r" {
          if s[i] == "\n" { line += 1 }
          i += 1
        }
      }
      func name() -> String {
        var out = String.UnicodeScalarView()
        while i < s.count, isNameChar(s[i]) { out.append(s[i]); i += 1 }
        return String(out)
      }
      let tagName = name()
      if tagName.isEmpty { throw fail("a '<' without a tag name") }
      var attributes: [String: String] = [:]
      var isEmpty = false
      while true {
        skipSpace()
        guard i < s.count else { line = tagLine; throw fail("the tag <\(tagName) is never closed with >") }
        if s[i] == ">" { i += 1; break }
        if s[i] == "/" && i + 1 < s.count && s[i + 1] == ">" { isEmpty = true; i += 2; break }
        let key = name()
        skipSpace()
        guard !key.isEmpty, i < s.count, s[i] == "=" else { throw fail("attribute '\(key)' of <\(tagName)> has no =\"value\"") }
        i += 1
        skipSpace()
        guard i < s.count, s[i] == "\"" || s[i] == "'" else { throw fail("attribute '\(key)' of <\(tagName)> has no quoted value") }
        let quote = s[i]
        i += 1
        var value = String.UnicodeScalarView()
        while i < s.count, s[i] != quote {
          if s[i] == "\n" { line += 1 }
          value.append(s[i])
          i += 1
        }
        guard i < s.count else { throw fail("the value of attribute '\(key)' of <\(tagName)> is never closed") }
        i += 1
        attributes[key] = Self.decodeEntities(String(value))
      }
      tags.append(Tag(name: tagName, attributes: attributes, isClosing: isClosing, isEmpty: isEmpty, line: tagLine))
    }
    self.tags = tags
  }

  /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and `&#NN;` / `&#xNN;` decoded; anything else kept as written.
  static func decodeEntities(_ s: String) -> String {
    guard s.contains("&") else { return s }
    var out = ""
    var rest = Substring(s)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      let after = rest[amp...]
      guard let semi = after.firstIndex(of: ";"), after.distance(from: amp, to: semi) <= 10 else {
        out += "&"
        rest = rest[rest.index(after: amp)...]
        continue
      }
      let entity = after[after.index(after: amp)..<semi]
      let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
      if let text = named[String(entity)] {
        out += text
      } else if entity.hasPrefix("#"), let code = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst()),
        let scalar = Unicode.Scalar(code)
      {
        out.unicodeScalars.append(scalar)
      } else {
        out += after[amp...semi]
      }
      rest = rest[rest.index(after: semi)...]
    }
    return out + rest
  }
}
