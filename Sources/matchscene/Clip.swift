import ArgumentParser
import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneExport
import MatchSceneForm
import MatchSceneIO

/// `matchscene clip <out> --player P1 --stroke 12`: one player's stroke as a GLB.
struct Clip: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a GLB of one player and the ball over one stroke, centred on the player, optionally with a reference ghost.",
    discussion: """
      The clip's origin is the floor below the player's hip centre at contact, axes the venue's; the scene's \
      extras.clipFromWorld maps tracks.csv coordinates into it. --reference adds the reference stroke as a \
      translucent skeleton `ghost`, aligned at contact.
      """)

  @Argument(help: "Output folder of `matchscene reconstruct`.")
  var output: String

  @Option(help: "Player track id (P1, P2…).")
  var player: String

  @Option(help: "Stroke number (1-based; of --kind when given).")
  var stroke: Int?

  @Option(help: "Count only strokes of this kind: serve, forehand, backhand.")
  var kind: String?

  @Option(help: "Frames A-B (or a single frame A) instead of a stroke.")
  var frames: String?

  @Option(help: "Reference stroke JSON (`matchscene form --save-reference`) shown as a ghost.")
  var reference: String?

  @Option(help: "Where the ghost stands: beside (1 m to the player's left) or over the player.")
  var ghost: String = "beside"

  @Option(name: .shortAndLong, help: "GLB to write (default <out>/clips/<player>-stroke-<N>.glb).")
  var file: String?

  @Flag(help: "Replace an existing --file that is not a clip MatchScene wrote (never one of the clip's inputs).")
  var force = false

  func validate() throws {
    if let kind, StrokeKind(rawValue: kind) == nil {
      throw ValidationError("--kind must be serve, forehand or backhand, got '\(kind)'")
    }
    if frames != nil, stroke != nil || kind != nil { throw ValidationError("--frames excludes --stroke and --kind") }
    if let frames, ClosedRange(frames: frames) == nil { throw ValidationError("--frames must be A-B with A ≤ B, or a single frame A, got '\(frames)'") }
    if ClipRequest.GhostPlacement(rawValue: ghost) == nil { throw ValidationError("--ghost must be beside or over, got '\(ghost)'") }
    if reference != nil, frames != nil { throw ValidationError("--reference needs a stroke, not --frames") }
  }

  func run() throws {
    let folder = URL(fileURLWithPath: output)
    // The clip never overwrites what it reads, nor a file that is not a clip, unless --force.
    let inputs = MatchOutput.File.allCases.map { MatchOutput.url($0, in: folder) } + [reference].compactMap { $0.map { URL(fileURLWithPath: $0) } }
    let isClip = { (url: URL) in GLTFWriter.isMatchSceneGLB(url, sceneExtra: "clipFromWorld") }
    if let file { try OutputFile.check(URL(fileURLWithPath: file), option: "--file", force: force, inputs: inputs, isOurs: isClip) }
    let input = try FormInput.load(folder)
    let result = try FormAnalysis.run(motion: input.motion, venue: input.venue, events: input.events)
    // A sparse match's tracks read on a compact axis (`FrameAxis`): --frames and the messages speak of
    // real frames.
    let axis = input.motion.axis
    let requested = try frames.flatMap { ClosedRange(frames: $0) }.map { real in
      guard let compact = axis.compact(real) else {
        throw CommandFailure("--frames \(real.lowerBound)-\(real.upperBound) lies between the match's runs of data, where nothing was recorded")
      }
      return compact
    }
    var request = ClipRequest(player: player, stroke: stroke, kind: kind.flatMap(StrokeKind.init(rawValue:)), frames: requested)
    request.reference = try reference.map { try StrokeReference.read(from: URL(fileURLWithPath: $0)) }
    if let given = request.reference, let reference {
      var set = ReferenceSet()
      try set.add(given, file: reference, sport: input.sport)
      for warning in set.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
    }
    request.ghost = ClipRequest.GhostPlacement(rawValue: ghost) ?? .beside
    let clip = try StrokeClip.build(request, result: result, venue: input.venue, sport: try SportSpec.builtIn(input.sport))
    let realFrames = axis.real(clip.frames)
    if let given = request.reference, let stroke = clip.stroke, given.hand != stroke.hand {
      print("note: the ghost is the \(given.hand.rawValue)-handed reference mirrored for \(player)'s \(stroke.hand.rawValue) hand")
    }
    let suffix = clip.stroke.map { "-stroke-\($0.number).glb" } ?? "-frames-\(realFrames.lowerBound)-\(realFrames.upperBound).glb"
    let url = try file.map { URL(fileURLWithPath: $0) } ?? FileName.file(player, suffix: suffix, in: folder.appendingPathComponent("clips"))
    let data = try GLTFWriter.glbData(clip.document)
    let problems = GLTFValidator.validate(glb: data)
    guard problems.isEmpty else { throw CommandFailure("clip fails the glTF checks: \(problems.joined(separator: "; "))") }
    try OutputFile.write(data, to: url, option: file == nil ? "clip" : "--file", force: force, inputs: inputs, isOurs: isClip)
    if file == nil { try OutputFolder.record(["clips"], in: folder) }
    let what = clip.stroke.map { "stroke \($0.number) (\($0.kind.rawValue), contact frame \(axis.real($0.contactFrame)))" } ?? "frames"
    print("wrote \(url.path): \(player) \(what), frames \(realFrames.lowerBound)-\(realFrames.upperBound)\(request.reference == nil ? "" : ", with ghost")")
  }
}
