import Foundation
import MatchSceneCore

extension SceneAssembly {
  /// The light's node name.
  static let sunName = "sun"

  /// Adds node `sun` under the root: a white directional light (`KHR_lights_punctual`, whose
  /// directional lights shine along their node's local −z, intensity in lux) pointing down at 30° from
  /// `−worldUp`, so that vertical surfaces (players, net) are lit too. Renderers without the extension
  /// ignore it; Blender imports it as a sun lamp.
  mutating func addSun(parent: Int, worldUp: SIMD3<Double>) throws {
    let up = normalize(worldUp)
    // Any direction across `up`: the one of the axes least aligned with it.
    let axes = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
    let across = normalize(cross(up, axes.min { abs(dot($0, up)) < abs(dot($1, up)) }!))
    let angle = Double.pi / 6
    let direction = -cos(angle) * up + sin(angle) * across
    let q = Quaternion.float32(Quaternion.rotation(from: SIMD3(0, 0, -1), to: direction))
    builder.setExtension(
      "KHR_lights_punctual",
      [
        "lights": [
          [
            "name": .string(Self.sunName), "type": "directional", "color": [1, 1, 1],
            "intensity": .number(options.lightIntensity),
          ]
        ]
      ])
    _ = builder.addNode(
      GLTFNode(name: Self.sunName, rotation: MatchSceneGLTF.array(q), extensions: ["KHR_lights_punctual": ["light": 0]]),
      parent: parent)
  }
}
