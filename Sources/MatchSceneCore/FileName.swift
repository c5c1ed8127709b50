import Foundation

/// The one rule by which a name taken from an input (a camera, track, player, zone, drill, joint or
/// stored document) becomes part of a file name.
///
/// A name made only of letters, digits (any script), `-`, `_`, `.` and spaces, not starting with a dot
/// and at most `maxBytes` UTF-8 bytes long, is kept as it is, so ordinary names (`cam01`, `P1`) give
/// the same file names as always. Any other name is rewritten: every other character (a path
/// separator, a control character, NUL …) becomes `_`, a leading dot becomes `_` (no hidden files, no
/// `.` or `..`), the result is cut to fit and `~` plus 8 hex digits of the original name's FNV-1a hash
/// are appended, so two different rewritten names stay apart and the same name always gives the same
/// file name. The result is never empty and never contains `/` — it is one path component, the idea of
/// Go's `filepath.IsLocal`.
public enum FileName {
  /// The most UTF-8 bytes of a rewritten name, hash included. A file name may hold 255 bytes (ext4,
  /// APFS); this leaves room for what the writers add around the name (`_<frame>.svg`, an atomic
  /// write's temporary `.NAME.PID-UUID.tmp`, ffmpeg's `.NAME.partial.mp4`).
  public static let maxBytes = 100

  /// `name` as one safe path component (see the type's rule).
  public static func safe(_ name: String) -> String {
    if isOrdinary(name) { return name }
    var out = ""
    for (i, c) in name.unicodeScalars.enumerated() {
      let allowed = isAllowed(c) && !(i == 0 && c == ".")
      out.unicodeScalars.append(allowed ? c : "_")
    }
    let tag = "~" + String(format: "%08x", UInt32(truncatingIfNeeded: fnv1a(name) >> 32))
    var cut = out
    while cut.utf8.count + tag.utf8.count > maxBytes { cut.removeLast() }
    return cut + tag
  }

  /// Safe names for a set of names, one each, pairwise different even on a file system that ignores
  /// case (`P1` and `p1`): the first of a clashing group in sorted order keeps its safe name, the others
  /// get `-2`, `-3` … in that order, so the choice does not depend on the order of `names`.
  public static func unique(_ names: [String]) -> [String: String] {
    var taken = Set<String>()
    var out: [String: String] = [:]
    for name in Set(names).sorted() {
      let base = safe(name)
      var candidate = base
      var n = 2
      while taken.contains(candidate.lowercased()) {
        candidate = base + "-\(n)"
        n += 1
      }
      taken.insert(candidate.lowercased())
      out[name] = candidate
    }
    return out
  }

  /// `folder/<safe(name)><suffix>`, checked to lie inside `folder` (`OutputFolder.checkInside`).
  /// - Parameter suffix: what follows the name, e.g. `.mot` or `_100.svg`; it must not hold `/`.
  public static func file(_ name: String, suffix: String = "", in folder: URL) throws -> URL {
    precondition(!suffix.contains("/"), "a file name suffix holds no separator")
    let url = folder.appendingPathComponent(safe(name) + suffix)
    try OutputFolder.checkInside(url, folder: folder)
    return url
  }

  /// `folder/<name><suffix>` for each of `names`, the names made safe and pairwise different
  /// (`unique`), each checked to lie inside `folder`: one file per track or camera.
  public static func files(_ names: [String], suffix: String = "", in folder: URL) throws -> [String: URL] {
    precondition(!suffix.contains("/"), "a file name suffix holds no separator")
    var out: [String: URL] = [:]
    for (name, safe) in unique(names) {
      let url = folder.appendingPathComponent(safe + suffix)
      try OutputFolder.checkInside(url, folder: folder)
      out[name] = url
    }
    return out
  }

  /// Whether `name` is kept as it is.
  static func isOrdinary(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= maxBytes && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy(isAllowed)
  }

  static func isAllowed(_ c: Unicode.Scalar) -> Bool {
    if c.isASCII {
      let v = c.value
      return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || c == "-" || c == "_" || c == "." || c == " "
    }
    // Letters and digits of other scripts; no marks or symbols that could hide a character (bidi
    // controls, zero-width joiners are formats, not letters).
    return c.properties.isAlphabetic || c.properties.numericType == .decimal
  }

  /// 64-bit FNV-1a of the UTF-8 bytes (Fowler, Noll, Vo; IETF draft-eastlake-fnv).
  public static func fnv1a(_ text: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in text.utf8 {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h
  }
}
