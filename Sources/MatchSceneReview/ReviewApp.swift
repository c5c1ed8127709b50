import Foundation
import MatchSceneCore

/// The review app `matchscene open` writes into an output folder: `index.html` (the app) and
/// `review/data.js` (the match: `ReviewData`), loaded as classic scripts so the app works from `file://`
/// with no browser flag, offline with a local three.js.
///
/// One page: the match in 3D (bodies, names, the ball and its trail, table and net, a floor that fades
/// out, soft shadows; orbit, follow-the-ball and the calibrated cameras at their own aspect; speed
/// 0.1–2×, frame step, loops of a rally or a stroke; keys), the match's story (rallies with the score as
/// it stood, events in words, only those at or before the clock; a click seeks there) and the strokes
/// (filter by player, kind and score, sorted by score; score card, comments, angle curves on shared
/// scales against the reference's band; a click loops the stroke in 3D).
public enum ReviewApp {
  /// The page's file name in the output folder.
  public static let pageName = "index.html"
  /// The folder of the app's data beside the page, and the data script in it.
  public static let dataFolder = "review"
  public static let dataFileName = "data.js"
  /// The first line of the data script, by which a later run knows the file as its own.
  static let dataFileHeader = "// MatchScene review data (matchscene open); loaded by index.html"

  /// Renders `index.html`.
  /// - Parameters:
  ///   - title: the match's name (the output folder's).
  ///   - threeJS: where three.js comes from (`ThreeJSBundle.copy` for an offline copy beside the page).
  public static func render(title: String, threeJS: ThreeJSSource) -> String {
    template
      .replacingOccurrences(of: "__TITLE__", with: ViewerPage.htmlEscaped(title))
      .replacingOccurrences(of: "__DATA__", with: "\(dataFolder)/\(dataFileName)")
      .replacingOccurrences(of: "__SCRIPT__", with: script)
      .replacingOccurrences(of: "__THREE_NAME__", with: ViewerPage.jsonString(threeJS.displayName))
      .replacingOccurrences(of: "__BIND_TRACKS__", with: ViewerPage.bindTracksByNodeJS)
      .replacingOccurrences(of: "__PLACE_ORBIT__", with: ViewerPage.placeOrbitJS)
      .replacingOccurrences(of: "__THREE_SCRIPTS__", with: threeJS.scriptTags)
  }

  /// Whether `url` holds a page `render` made (its title starts `MatchScene review — `).
  public static func isPage(_ url: URL) -> Bool { head(url).contains("<title>MatchScene review — ") }

  /// Whether `url` holds a data script `ReviewData.script` made.
  public static func isDataFile(_ url: URL) -> Bool { head(url).hasPrefix(dataFileHeader) }

  private static func head(_ url: URL) -> String {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return "" }
    defer { try? handle.close() }
    return String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
  }
}
