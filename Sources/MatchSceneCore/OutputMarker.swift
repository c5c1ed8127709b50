import Foundation

/// The contents of an output folder's `.matchscene-output`: which command wrote the folder and which of
/// its entries (top-level files and folders) MatchScene wrote, so that a later run replaces those and
/// nothing else.
///
/// Format (UTF-8 text): the writing command on the first line (`matchscene reconstruct`), then a line
/// `files:` and one entry name per line. Markers written before the list existed hold the first line
/// only (`files` is nil then).
public struct OutputMarker: Sendable, Equatable {
  /// The first line, e.g. `matchscene reconstruct` or `matchscene sessions export 3`.
  public var command: String
  /// The entries MatchScene wrote at the top of the folder; nil for a marker without a list.
  public var files: [String]?

  public init(command: String, files: [String]?) {
    self.command = command
    self.files = files
  }

  /// Reads the text of a marker; any text is a marker (its first line the command).
  public init(text: String) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    command = lines.first ?? ""
    if let list = lines.firstIndex(of: "files:") {
      files = lines[(list + 1)...].filter { !$0.isEmpty }
    } else {
      files = nil
    }
  }

  /// The marker of `folder`, or nil when it has none (or it cannot be read).
  public static func read(in folder: URL) -> OutputMarker? {
    guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(OutputFolder.markerName).path) else {
      return nil
    }
    return OutputMarker(text: String(decoding: data, as: UTF8.self))
  }

  public var text: String {
    var out = command + "\n"
    if let files { out += "files:\n" + files.map { $0 + "\n" }.joined() }
    return out
  }

  /// The command without trailing numbers (`matchscene sessions export 3` → `matchscene sessions
  /// export`): two runs of the same command own the same kind of folder.
  public var commandKind: String {
    var words = command.split(separator: " ")
    while let last = words.last, last.allSatisfy(\.isNumber) { words.removeLast() }
    return words.joined(separator: " ")
  }

  /// The names that later commands add beside an output of `matchscene reconstruct` when they write
  /// into it (`form`, `drill`, `clip`, `overlay`, `view`), and the names `reconstruct` writes: the
  /// entries taken as MatchScene's in a folder whose marker has no list (written by an earlier
  /// version). Any other entry there is the user's.
  public static let knownEntries: Set<String> = Set(MatchOutputFile.allCases.map(\.rawValue)).union([
    markerSelf, "scene.glb", "scene.gltf", "scene.bin", "scene.fbx", "scene.obj", "scene.mtl", "scene.dae", "scene.blend",
    "scene.usdz", "zones.json", "mot", "opensim", "form.html", "clips", "overlay", "three", "scene.html", "compare.json",
    "compare.html",
  ])
  static let markerSelf = ".matchscene-output"
}
