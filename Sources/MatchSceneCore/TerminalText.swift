/// Text from an input (a session's name, a player's name, a path) made safe to print on a terminal.
public enum TerminalText {
  /// `text` with every control character — C0 (including escape, which starts terminal sequences that
  /// move the cursor, retitle the window or rewrite the screen), DEL, C1 (ECMA-48) and the Unicode
  /// bidirectional controls (which reorder what is shown, CVE-2021-42574) — written as a Swift escape
  /// `\u{1B}`, and then its backslashes doubled so the escapes stay unambiguous. Ordinary text, any script, is kept.
  public static func escaped(_ text: String) -> String {
    var out = ""
    let doubleBackslashes = needsEscaping(text)
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else if scalar == "\\" && doubleBackslashes {
        out += "\\\\"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `text` holds a character that `escaped` rewrites (then its backslashes are doubled too;
  /// an ordinary name with a backslash prints as it is).
  static func needsEscaping(_ text: String) -> Bool { text.unicodeScalars.contains(where: isControl) }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return v < 0x20 || (v >= 0x7F && v <= 0x9F) || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
      || v == 0x200E || v == 0x200F || v == 0x061C
  }
}
