import Foundation
import MatchSceneCore

/// Copies the three.js files the viewer needs next to the page, so the page and its folder work
/// anywhere, offline, opened from `file://`.
///
/// Only the classic-script layout loads from `file://` (browsers block ES modules there): `three.min.js`
/// and `examples/js/…`, as in Debian's `libjs-three` (r111) and three.js releases up to r147 (r148
/// dropped `examples/js`).
public enum ThreeJSBundle {
  /// The files, relative to a three.js folder, in load order.
  public static let files = [
    "three.min.js", "examples/js/controls/OrbitControls.js", "examples/js/loaders/GLTFLoader.js",
  ]

  /// The folder name the files go into, beside the page.
  public static let folderName = "three"

  /// Copies `files` from `source` (a three.js folder; `build/three.min.js` is taken when the top level
  /// has none) into `<pageFolder>/three/`, replacing earlier copies; returns the page's source.
  /// - Throws: `InputError` naming the missing file and what to use instead.
  public static func copy(from source: URL, to pageFolder: URL) throws -> ThreeJSSource {
    let target = pageFolder.appendingPathComponent(folderName, isDirectory: true)
    for file in files {
      var from = source.appendingPathComponent(file)
      if file == "three.min.js" && !FileManager.default.fileExists(atPath: from.path) {
        from = source.appendingPathComponent("build/three.min.js")
      }
      guard let data = FileManager.default.contents(atPath: from.path) else {
        throw InputError(
          file: source.path,
          "no \(file) (the classic-script three.js that loads from file://); use Debian's libjs-three "
            + "(--three /usr/share/javascript/three) or a three.js release up to r147, or a CDN URL")
      }
      let to = target.appendingPathComponent(file)
      try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
      try AtomicFile.write(data, to: to)
    }
    return .bundled(folderName)
  }
}
