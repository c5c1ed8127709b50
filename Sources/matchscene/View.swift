import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneExport
import MatchSceneIO
import MatchSceneReview

/// `matchscene view <scene.glb>`: a self-contained HTML viewer next to the scene.
struct View: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write an HTML viewer next to a scene: orbit, play/pause, timeline, rally clips, camera views, events and score.",
    discussion: """
      Open the page in a browser, e.g. by double-clicking it: the scene is embedded, so it works from \
      file:// with no browser flags. Three.js comes from a CDN (online) unless --three names a local \
      three.js folder with the classic scripts (Debian's libjs-three: /usr/share/javascript/three, or a \
      release up to r147), whose three files are copied next to the page (<folder>/three/), so the folder \
      works offline anywhere. events.json beside the scene, when present, gives the events shown.
      """)

  @Argument(help: "The scene (.glb) written by `matchscene reconstruct`, or its output folder (its scene.glb).")
  var scene: String

  @Option(help: "Three.js location: a CDN base URL (ES modules), or a local three.js folder with three.min.js and examples/js/ (copied next to the page).")
  var three: String?

  @Flag(help: "With a local --three folder: load three.js from where it is instead of copying it next to the page.")
  var noCopyThree = false

  @Flag(help: "Reference the .glb instead of embedding it (smaller page; needs a web server, browsers block file:// loads).")
  var noEmbed = false

  @Flag(help: "Replace an existing page beside the scene that MatchScene did not write (never the scene itself).")
  var force = false

  func run() throws {
    var url = URL(fileURLWithPath: scene)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { throw CommandFailure("\(scene): no such file") }
    // An output folder stands for its scene.
    if isFolder.boolValue {
      url.appendPathComponent("scene.glb")
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw CommandFailure("\(scene) is a folder without scene.glb: give the scene file, or an output of `matchscene reconstruct` written with the scene")
      }
    }
    // The page replaces only a page `view` wrote, never the scene (`view page.html`).
    try OutputFile.check(
      url.deletingPathExtension().appendingPathExtension("html"), option: "view", force: force, inputs: [url], isOurs: ViewerPage.isPage)
    let source: ThreeJSSource
    if let three, three.contains("://") {
      guard ThreeJSSource.isValidCDN(three) else {
        throw CommandFailure("--three \(three.debugDescription): expected an http:// or https:// URL without quotes, spaces or <>")
      }
      source = .cdn(three)
    } else if let three {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: three, isDirectory: &isFolder), isFolder.boolValue else {
        throw CommandFailure("--three \(three): no such folder (expected a three.js folder or a CDN URL)")
      }
      source = noCopyThree ? .local(three) : try ThreeJSBundle.copy(from: URL(fileURLWithPath: three), to: url.deletingLastPathComponent())
    } else {
      source = .defaultCDN
    }
    let events = try MatchOutput.eventsBeside(url).map { try EventsJSON.read(from: $0) }
    let page = try ViewerPage.write(for: url, embed: !noEmbed, threeJS: source, events: events)
    var written = [page.lastPathComponent]
    if case .bundled(let folder) = source { written.append(folder) }
    try OutputFolder.record(written, in: url.deletingLastPathComponent())
    print("wrote \(page.path)\(events.map { " (\($0.count) events from events.json)" } ?? "")")
    if case .bundled(let folder) = source { print("copied three.js to \(url.deletingLastPathComponent().appendingPathComponent(folder).path)") }
  }
}
