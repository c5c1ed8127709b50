import Foundation
import MatchSceneCore

/// Point labels and parameter text for a C3D file, made from names in the input (a custom skeleton's
/// joints, track ids, player names).
///
/// The C3D guide (C3D.ORG, "POINT:LABELS", "POINT:LABELS2") asks labels to be concise and unique — they
/// are how readers find a point — and recommends ASCII (UTF-8 is permitted, but localised text belongs
/// in `DESCRIPTIONS`); it advises at most 16 characters unless a file holds hundreds of points. Labels
/// are stored as one character array padded with spaces, so a space, a control character or a byte of
/// a cut UTF-8 character would change or break a label.
///
/// The rule, deterministic: a name made only of ASCII letters, digits, `_`, `-` and `.`, of at most the
/// allowed length, is kept as it is (every built-in skeleton's names, `P1`, `ball`: the files stay
/// byte-identical). Any other name is rewritten as `FileName` rewrites file names: every other
/// character becomes `_`, the result is cut to fit and `~` plus 6 hex digits of the original name's
/// FNV-1a hash are appended. Labels that still clash (ignoring case) get `-2`, `-3` … in file order.
enum C3DLabels {
  /// The most characters of a label, subject prefix included.
  static let maxLength = 32
  /// The most characters of a track id used as a subject prefix (without its `:`).
  static let maxPrefixLength = 12

  /// `name` as ASCII of at most `limit` characters (see the type's rule).
  static func part(_ name: String, limit: Int = maxLength) -> String {
    if !name.isEmpty && name.utf8.count <= limit && name.unicodeScalars.allSatisfy(isAllowed) { return name }
    var out = String(name.unicodeScalars.map { isAllowed($0) ? Character($0) : "_" })
    let tag = "~" + String(format: "%06x", UInt32(truncatingIfNeeded: FileName.fnv1a(name) >> 40))
    while out.utf8.count + tag.utf8.count > limit, !out.isEmpty { out.removeLast() }
    return out + tag
  }

  /// `parts(_:)` made pairwise different ignoring case: the first of a clashing group keeps its name,
  /// the later ones get `-2`, `-3` … (cut to `limit`), in the order given.
  static func unique(_ names: [String], limit: Int = maxLength) -> [String] {
    var taken = Set<String>()
    return names.map { name in
      var candidate = name
      var n = 2
      while taken.contains(candidate.lowercased()) {
        let suffix = "-\(n)"
        candidate = String(name.prefix(max(0, limit - suffix.count))) + suffix
        n += 1
      }
      taken.insert(candidate.lowercased())
      return candidate
    }
  }

  /// Free text for a parameter string (a description, a subject's name): UTF-8 kept, control characters
  /// made spaces, cut to at most 255 bytes at a character boundary (a parameter's dimension is one byte).
  static func text(_ value: String) -> String {
    var out = String(String.UnicodeScalarView(value.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    while out.utf8.count > 255 { out.removeLast() }
    return out
  }

  static func isAllowed(_ c: Unicode.Scalar) -> Bool {
    let v = c.value
    return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || c == "_" || c == "-" || c == "."
  }
}
