import Foundation
import MatchSceneCore

/// Folder listings that never drop an entry silently.
enum FolderListing {
  /// The entries of `folder` not starting with `.`, sorted.
  ///
  /// Foundation lists a name whose bytes are not UTF-8 with U+FFFD in their place, and then cannot
  /// open it: such an entry would vanish from a match without a word, so it is an error naming it.
  /// - Parameter what: what the folder is, for the error when it cannot be listed (`the pose folder`).
  /// - Throws: `InputError` when the folder cannot be listed or an entry's name is not UTF-8.
  static func entries(of folder: URL, what: String) throws -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      throw InputError(file: folder.path, "cannot list \(what) (missing, not a folder or not readable)")
    }
    if let bad = names.first(where: { $0.unicodeScalars.contains("\u{FFFD}") }) {
      throw InputError(
        file: folder.appendingPathComponent(bad).path,
        "a name that is not valid UTF-8 (shown with �): MatchScene cannot open it; rename it or move it out of \(folder.path)")
    }
    return names.filter { !$0.hasPrefix(".") }.sorted()
  }
}
