import ArgumentParser
import Foundation
import MatchSceneExport
import MatchSceneReview

/// `matchscene view <scene.glb>`: a self-contained HTML viewer next to the scene.
struct View: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write an HTML viewer next to a scene: orbit, play/pause, timeline, rally clips, camera views, events and score.",
    discussion: "Open the page in a browser. Three.js comes from a CDN unless --three points to a local copy (offline).")

  @Argument(help: "The scene (.glb) written by `matchscene reconstruct`.")
  var scene: String

  @Option(help: "Three.js location: a CDN base URL or a local folder with build/three.module.js and examples/jsm/.")
  var three: String?

  @Flag(help: "Reference the .glb instead of embedding it (smaller page; needs a web server, browsers block file:// loads).")
  var noEmbed = false

  func run() throws {
    let url = URL(fileURLWithPath: scene)
    guard FileManager.default.fileExists(atPath: url.path) else { throw CommandFailure("\(scene): no such file") }
    let source: ThreeJSSource = three.map { $0.contains("://") ? .cdn($0) : .folder($0) } ?? .defaultCDN
    let page = try ViewerPage.write(for: url, embed: !noEmbed, threeJS: source)
    print("wrote \(page.path)")
  }
}
