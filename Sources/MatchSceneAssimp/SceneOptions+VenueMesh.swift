import Foundation
import MatchSceneExport

extension SceneOptions {
  /// Reads `venueMesh` (any format assimp reads) into `venueMeshParts`; does nothing without one.
  /// - Throws: `AssimpError` when the file cannot be read or holds no triangles.
  public mutating func loadVenueMesh() throws {
    guard let venueMesh, venueMeshParts == nil else { return }
    venueMeshParts = try Assimp.loadMesh(venueMesh)
  }
}
