import ArgumentParser
import Foundation
import MatchSceneAnalysis
import MatchSceneAssets
import MatchSceneCore
import MatchSceneExport
import MatchSceneAssimp

/// Output formats of the 3D scene.
enum SceneFormat: String, ExpressibleByArgument, CaseIterable {
  case glb, gltf
  /// ASCII FBX through assimp (assimp 5.2's binary FBX does not re-import, so it is not offered).
  case fbx
  /// Collada through assimp: the `match` animation only (see `SceneExport.write`).
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
  ///
  /// glb and gltf store rotations as normalised 16-bit integers (glTF 2.0 §3.11), half the size of
  /// Float32, unless `floatRotations`. The scene handed to assimp for fbx, dae and obj always has Float32
  /// rotations: assimp 5.2's glTF importer copies the raw bytes of a normalised accessor into floats
  /// (garbage rotations); remove this when the assimp we link de-normalises animation outputs. Its
  /// Collada exporter also needs every channel of a node to have the same keys (`sharedKeysPerNode`)
  /// and keeps only one animation correct (the match).
  static func write(
    _ reconstruction: Reconstruction, cameras: [Camera], sport: SportSpec, worldUp: SIMD3<Double>, options: SceneOptions,
    format: SceneFormat, floatRotations: Bool = false, to folder: URL
  ) throws -> URL {
    var options = options
    let throughAssimp = format.assimpFormat != nil
    options.rotationEncoding = floatRotations || throughAssimp ? .float : .normalizedShort
    options.sharedKeysPerNode = throughAssimp
    // assimp 5.2's Collada exporter writes every animation's sources under the same ids, so the last
    // rally clip would replace the match: a .dae gets the match only. Remove when assimp names them apart.
    if format == .dae { options.clips = [] }
    let document = try MatchSceneGLTF.build(reconstruction, cameras: cameras, sport: sport, worldUp: worldUp, options: options)
    let destination = folder.appendingPathComponent(format.fileName)
    switch format {
    case .glb: try GLTFWriter.writeGLB(document, to: destination)
    case .gltf: try GLTFWriter.writeGLTF(document, to: destination)
    case .fbx, .dae, .obj:
      let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("matchscene-\(UUID().uuidString).glb")
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
  static func sizeAndTime(of url: URL, since start: Date) -> String {
    let seconds = Date().timeIntervalSince(start)
    let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    return String(format: "(%.1f MB) in %.1f s", Double(bytes ?? 0) / 1e6, seconds)
  }
}

/// A length on the command line: a number of metres (`0.001`), or a number with the unit `m`, `cm` or
/// `mm` (`1mm`, `0.5cm`, `0.002 m`). Negative and non-finite lengths are refused.
struct LengthArgument: ExpressibleByArgument {
  var metres: Double

  init(metres: Double) { self.metres = metres }

  init?(argument: String) {
    let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
    let units: [(suffix: String, metres: Double)] = [("mm", 1e-3), ("cm", 1e-2), ("m", 1)]
    var number = Substring(text)
    var scale = 1.0
    if let unit = units.first(where: { text.hasSuffix($0.suffix) }) {
      number = text.dropLast(unit.suffix.count)
      scale = unit.metres
    }
    guard let x = Double(number.trimmingCharacters(in: .whitespaces)), x.isFinite, x >= 0 else { return nil }
    metres = x * scale
  }

  var defaultValueDescription: String { metres == 0 ? "0" : "\(metres) m" }
}
