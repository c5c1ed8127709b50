import Foundation
import MatchSceneCore

/// `strokes.json`: `{"strokes": [FormStroke…]}`, keys sorted, camelCase as the other outputs.
public enum StrokesJSON {
  struct File: Codable { var strokes: [FormStroke] }

  public static func data(_ strokes: [FormStroke]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(File(strokes: strokes))
  }

  public static func write(_ strokes: [FormStroke], to url: URL) throws {
    try data(strokes).write(to: url, options: .atomic)
  }

  /// - Throws: `InputError` naming the file when it is not a strokes.json.
  public static func read(from url: URL) throws -> [FormStroke] {
    do {
      return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).strokes
    } catch {
      throw InputError(file: url.path, "expected a strokes.json written by `matchscene form` ({\"strokes\": […]}): \(error)")
    }
  }
}
