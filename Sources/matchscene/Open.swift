import ArgumentParser
import Foundation
import MatchSceneCore
import MatchSceneIO
import MatchSceneReview

/// `matchscene open <out>`: the review app (`index.html`) in a reconstruction's output folder, opened in
/// the system browser.
struct Open: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the review app into an output folder (the match in 3D, its story, the strokes) and open it in the browser.",
    discussion: """
      Writes index.html and review/data.js into the output folder of `matchscene reconstruct` (which \
      must hold scene.glb): the match in 3D with bodies, names, the ball's trail and the cameras' views; \
      the rallies and events with the score as it stood, never ahead of the clock; every stroke with its \
      score card and angle curves against the reference (the analysis of `matchscene form`, run here). \
      It works from file:// with no browser flags. Three.js comes from a CDN (online) unless --three \
      names a local three.js folder with the classic scripts (Debian's libjs-three: \
      /usr/share/javascript/three, or a release up to r147), copied next to the page (<out>/three/). \
      The browser is started (xdg-open) only when there is a display and not --no-browser.
      """)

  @Argument(help: "Output folder of `matchscene reconstruct` (with scene.glb).")
  var output: String

  @Option(help: "Three.js location: a CDN base URL (ES modules), or a local three.js folder with three.min.js and examples/js/ (copied next to the page).")
  var three: String?

  @Option(help: "Reference stroke JSON (from `form --save-reference`) to score strokes of its kind against, as `form --reference` does.")
  var reference: String?

  @Option(name: .customLong("video"), help: "A camera's video to show beside the 3D view, with the skeletons drawn over it: <camera>=<file> (the scene's camera of that name; video time 0 = match time 0). Repeat for several.")
  var videos: [String] = []

  @Flag(help: "Do not start a browser; only write the app.")
  var noBrowser = false

  @Flag(help: "Replace an index.html or review/data.js in the folder that MatchScene did not write.")
  var force = false

  func run() throws {
    let folder = URL(fileURLWithPath: output)
    let out = try MatchOutput.open(folder)
    let sceneURL = folder.appendingPathComponent("scene.glb")
    guard let glb = FileManager.default.contents(atPath: sceneURL.path) else {
      throw CommandFailure(
        "\(output): no scene.glb; `matchscene open` shows the scene `matchscene reconstruct` writes (without --no-scene, --format glb)")
    }
    let inputs = MatchOutput.File.allCases.map { out.url($0) } + [sceneURL] + [reference].compactMap { $0.map { URL(fileURLWithPath: $0) } }
    let page = folder.appendingPathComponent(ReviewApp.pageName)
    let dataFolder = folder.appendingPathComponent(ReviewApp.dataFolder, isDirectory: true)
    let dataFile = dataFolder.appendingPathComponent(ReviewApp.dataFileName)
    try OutputFile.check(page, option: "open", force: force, inputs: inputs, isOurs: ReviewApp.isPage)
    try OutputFile.check(dataFile, option: "open", force: force, inputs: inputs, isOurs: ReviewApp.isDataFile)
    let source = try threeSource(pageFolder: folder)
    let shownVideos = try videos.map { try video($0, pageFolder: folder) }

    var notes: [String] = []
    let events = try out.events()
    // The strokes' analysis here and, on another core, the scene split into a static scene and the packed
    // motion (a twentieth of the size, decoded chunk by chunk).
    var strokes = ReviewData(title: "", scene: "", fps: out.manifest.fps, players: [:], events: [])
    let referenceURL = reference.map { URL(fileURLWithPath: $0) }
    let (failure, split) = concurrently(
      { () -> String? in
        do {
          try ReviewStrokes.add(to: &strokes, output: out, reference: referenceURL)
          return nil
        } catch { return "No strokes: \(error)" }
      }, { try? ReviewSceneSplit.split(glb: glb) })
    if let failure { notes.append(failure) }
    var data = ReviewData(
      title: folder.standardizedFileURL.lastPathComponent,
      scene: "data:model/gltf-binary;base64,\((split?.scene ?? glb).base64EncodedString())",
      fps: out.manifest.fps, players: out.playerNames, events: events, strokes: strokes.strokes, references: strokes.references,
      angles: strokes.angles, phases: strokes.phases)
    data.motion = split?.motion
    data.notes = notes
    data.videos = shownVideos
    let scoreJSON = out.has(.score) ? FileManager.default.contents(atPath: out.url(.score).path) : nil
    try FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true)
    try AtomicFile.write(try data.script(scoreJSON: scoreJSON), to: dataFile)
    try AtomicFile.write(ReviewApp.render(title: data.title, threeJS: source), to: page)
    var written = [ReviewApp.pageName, ReviewApp.dataFolder]
    if case .bundled(let name) = source { written.append(name) }
    try OutputFolder.record(written, in: folder)
    print("wrote \(page.path) (\(events.count) events, \(data.strokes.count) strokes)")
    for note in notes { print("note: \(note)") }
    if case .bundled(let name) = source { print("copied three.js to \(folder.appendingPathComponent(name).path)") }
    if !noBrowser { openInBrowser(page) }
  }

  /// Where the page loads three.js from (`view`'s rules): a CDN URL, a local folder copied next to the
  /// page, else the default CDN.
  private func threeSource(pageFolder: URL) throws -> ThreeJSSource {
    guard let three else { return .defaultCDN }
    if three.contains("://") {
      guard ThreeJSSource.isValidCDN(three) else {
        throw CommandFailure("--three \(three.debugDescription): expected an http:// or https:// URL without quotes, spaces or <>")
      }
      return .cdn(three)
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: three, isDirectory: &isFolder), isFolder.boolValue else {
      throw CommandFailure("--three \(three): no such folder (expected a three.js folder or a CDN URL)")
    }
    return try ThreeJSBundle.copy(from: URL(fileURLWithPath: three), to: pageFolder)
  }

  /// `--video <camera>=<file>`: the file must exist; the page refers to it relative to itself when it lies
  /// inside the page's folder, else by its `file://` URL (nothing is copied).
  private func video(_ argument: String, pageFolder: URL) throws -> ReviewVideo {
    guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex, argument.index(after: equals) != argument.endIndex else {
      throw CommandFailure("--video \(argument.debugDescription): expected <camera>=<file>, e.g. cam01=cam01.mp4")
    }
    let camera = String(argument[..<equals]), file = URL(fileURLWithPath: String(argument[argument.index(after: equals)...]))
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue else {
      throw CommandFailure("--video \(argument.debugDescription): \(file.path): no such file")
    }
    let base = pageFolder.standardizedFileURL.resolvingSymlinksInPath().path + "/"
    let full = file.standardizedFileURL.resolvingSymlinksInPath()
    if full.path.hasPrefix(base) {
      let relative = String(full.path.dropFirst(base.count))
      return ReviewVideo(camera: camera, src: relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative)
    }
    return ReviewVideo(camera: camera, src: full.absoluteString)
  }

  /// Starts the system browser on `page` (`xdg-open`) when there is a display; otherwise says how to open it.
  private func openInBrowser(_ page: URL) {
    let environment = ProcessInfo.processInfo.environment
    guard environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false else {
      print("no display: open \(page.absoluteString) in a browser")
      return
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xdg-open", page.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { print("could not start a browser (\(error)): open \(page.absoluteString)") }
  }
}
