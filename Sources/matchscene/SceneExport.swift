import ArgumentParser
import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneCore
import MatchSceneExport

/// Output formats of the 3D scene.
enum SceneFormat: String, ExpressibleByArgument, CaseIterable {
  case glb, gltf
  /// ASCII FBX through assimp (assimp 5.2's binary FBX does not re-import, so it is not offered).
  case fbx
  /// Collada through assimp.
  case dae
  /// A static OBJ of the first frame through assimp (OBJ has no animation).
  case obj

  var fileName: String { "scene.\(rawValue)" }
  var assimpFormat: String? {
    switch self {
    case .glb, .gltf: nil
    case .fbx: "fbxa"
    case .dae: "collada"
    case .obj: "obj"
    }
  }
}

/// Builds and writes the glTF scene of a reconstruction, with events, the score and per-rally clips.
enum SceneExport {
  static func options(events: [MatchEvent], scores: [ScoreEntry], frames: ClosedRange<Int>?) throws -> SceneOptions {
    var options = SceneOptions()
    var rallyStarts: [Int: Int] = [:]
    for e in events where e.type == .rallyStart { if let r = e.rally { rallyStarts[r] = e.frame } }
    for e in events where e.type == .rallyEnd {
      guard let r = e.rally, let start = rallyStarts[r], e.frame > start else { continue }
      var range = start...e.frame
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
  static func write(
    _ reconstruction: Reconstruction, cameras: [Camera], sport: SportSpec, worldUp: SIMD3<Double>, options: SceneOptions,
    format: SceneFormat, to folder: URL
  ) throws -> URL {
    let document = try MatchSceneGLTF.build(reconstruction, cameras: cameras, sport: sport, worldUp: worldUp, options: options)
    let destination = folder.appendingPathComponent(format.fileName)
    switch format {
    case .glb: try GLTFWriter.writeGLB(document, to: destination)
    case .gltf: try GLTFWriter.writeGLTF(document, to: destination)
    case .fbx, .dae, .obj:
      let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("matchscene-\(UUID().uuidString).glb")
      defer { try? FileManager.default.removeItem(at: temporary) }
      try GLTFWriter.writeGLB(document, to: temporary)
      try Assimp.convert(temporary, to: destination, format: format.assimpFormat!)
    }
    return destination
  }
}
