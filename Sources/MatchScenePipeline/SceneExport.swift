import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneAssimp
import MatchSceneCore
import MatchSceneExport

/// Output formats of the 3D scene.
public enum SceneFormat: String, Sendable, CaseIterable {
  case glb, gltf
  /// Binary FBX 7.4 by Blender's FBX exporter from our GLB (`BlenderFBX`): what Blender, Unity and Maya
  /// open, cameras at their poses, metres. Needs Blender. (Before: assimp's ASCII FBX, now `fbxAscii`.)
  case fbx
  /// ASCII FBX through assimp, for tools that read it (assimp, the FBX SDK); Blender refuses ASCII FBX.
  case fbxAscii = "fbx-ascii"
  /// Collada through assimp: the `match` animation only (see `SceneExport.write`).
  case dae
  /// A static OBJ of the first frame through assimp (OBJ has no animation).
  case obj

  /// `scene.glb`, `scene.gltf`, …
  public var fileName: String { self == .fbxAscii ? "scene.fbx" : "scene.\(rawValue)" }
  /// assimp's export format id; nil for the formats we write ourselves.
  public var assimpFormat: String? {
    switch self {
    case .glb, .gltf, .fbx: nil
    case .fbxAscii: "fbxa"
    case .dae: "collada"
    case .obj: "obj"
    }
  }
}

/// Builds and writes the glTF scene of a reconstruction, with events, the score and per-rally clips.
public enum SceneExport {
  /// Scene options carrying the match's events and score in the scene's `extras` and a clip per rally
  /// (`rally-01`, …), cut to `frames`. With a sparse match's `axis`, `frames` are its compact frames
  /// and the events' real ones (`FrameAxis`); the scene's times are then real (`SceneOptions.frameAxis`).
  public static func options(
    events: [MatchEvent], scores: [ScoreEntry], frames: ClosedRange<Int>?, axis: FrameAxis = .identity
  ) throws -> SceneOptions {
    var options = SceneOptions()
    options.frameAxis = axis
    var rallyStarts: [Int: Int] = [:]
    for e in events where e.type == .rallyStart { if let r = e.rally, let f = axis.compact(e.frame) { rallyStarts[r] = f } }
    for e in events where e.type == .rallyEnd {
      guard let r = e.rally, let start = rallyStarts[r], let end = axis.compact(e.frame), end > start else { continue }
      var range = start...end
      if let frames { range = max(range.lowerBound, frames.lowerBound)...min(range.upperBound, frames.upperBound) }
      guard range.count > 1 else { continue }
      options.clips.append((String(format: "rally-%02d", r), range))
    }
    let encoder = JSONEncoder()
    options.sceneExtras["events"] = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(events))
    options.sceneExtras["score"] = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(scores))
    return options
  }

  /// Writes `scene.<format>` into `folder`; returns its path.
  ///
  /// glb and gltf store rotations as normalised 16-bit integers (glTF 2.0 §3.11), half the size of
  /// Float32, unless `floatRotations`. The scene handed to assimp for fbx, dae and obj always has Float32
  /// rotations: assimp 5.2's glTF importer copies the raw bytes of a normalised accessor into floats
  /// (garbage rotations); remove this when the assimp we link de-normalises animation outputs. Its
  /// Collada exporter also needs every channel of a node to have the same keys (`sharedKeysPerNode`)
  /// and keeps only one animation correct (the match).
  public static func write(
    _ motion: MotionModel, cameras: [Camera], sport: SportSpec, worldUp: SIMD3<Double>, options: SceneOptions,
    format: SceneFormat, floatRotations: Bool = false, to folder: URL
  ) throws -> URL {
    var options = options
    let throughAssimp = format.assimpFormat != nil
    options.rotationEncoding = floatRotations || throughAssimp || format == .fbx ? .float : .normalizedShort
    options.sharedKeysPerNode = throughAssimp
    // assimp 5.2 is given unrigged players (a mesh per keypoint and limb node, as before the skins) and
    // no light: its exporters' handling of glTF skins and KHR_lights_punctual is untested here.
    if throughAssimp {
      options.rigPlayers = false
      options.includeLight = false
    }
    // assimp 5.2's Collada exporter writes every animation's sources under the same ids, so the last
    // rally clip would replace the match: a .dae gets the match only. Remove when assimp names them apart.
    if format == .dae { options.clips = [] }
    try options.loadVenueMesh()
    let document = try MatchSceneGLTF.build(motion: motion, cameras: cameras, sport: sport, worldUp: worldUp, options: options)
    let destination = folder.appendingPathComponent(format.fileName)
    switch format {
    case .glb: try GLTFWriter.writeGLB(document, to: destination)
    case .gltf: try GLTFWriter.writeGLTF(document, to: destination)
    case .fbx:
      let temporary = folder.appendingPathComponent(".scene-for-blender-\(UUID().uuidString).glb")
      defer { try? FileManager.default.removeItem(at: temporary) }
      try GLTFWriter.writeGLB(document, to: temporary)
      try BlenderFBX.convert(temporary, to: destination)
    case .fbxAscii, .dae, .obj:
      let temporary = folder.appendingPathComponent(".scene-for-assimp-\(UUID().uuidString).glb")
      defer { try? FileManager.default.removeItem(at: temporary) }
      // assimp binds animations by node name: repeated keypoint names become `P2/nose` and so on.
      try GLTFWriter.writeGLB(document.qualifyingRepeatedNodeNames(), to: temporary)
      try Assimp.convert(temporary, to: destination, format: format.assimpFormat!)
    }
    return destination
  }
}

extension SceneExport {
  /// "(12.3 MB) in 1.2 s": the size of the file at `url` (10⁶ bytes per MB) and the time since `start`.
  public static func sizeAndTime(of url: URL, since start: Date) -> String {
    sizeAndTime(of: url, seconds: Date().timeIntervalSince(start))
  }

  /// "(12.3 MB) in 1.2 s": the size of the file at `url` (10⁶ bytes per MB) and `seconds`.
  public static func sizeAndTime(of url: URL, seconds: Double) -> String {
    let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    return String(format: "(%.1f MB) in %.1f s", Double(bytes ?? 0) / 1e6, seconds)
  }
}

