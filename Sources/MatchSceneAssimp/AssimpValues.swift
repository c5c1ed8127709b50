import MatchSceneExport
/// Plain values read out of an assimp scene (no C types), for inspection and round-trip checks.

/// One node of an imported scene.
public struct AssimpNodeInfo: Sendable, Equatable {
  public var name: String
  /// Name of the parent node; nil for the root.
  public var parent: String?
  /// 0 for the root.
  public var depth: Int
  public var meshCount: Int
  /// Node-local transform, row-major 4×4 (assimp's `aiMatrix4x4` convention: translation in the last column).
  public var localTransform: [Double]
}

/// Size of one imported mesh.
public struct AssimpMeshInfo: Sendable, Equatable {
  public var name: String
  public var vertexCount: Int
  public var faceCount: Int
}

/// One imported camera.
public struct AssimpCameraInfo: Sendable, Equatable {
  public var name: String
  /// assimp's `mHorizontalFOV`, radians. assimp documents it as half the horizontal angle, but importers
  /// differ: assimp 5.2's glTF2 importer stores yfov × aspectRatio (neither half nor exact), so compare
  /// with the importer in mind.
  public var horizontalFOV: Double
  /// Width / height; 0 when the file gives none.
  public var aspect: Double
  public var clipNear: Double
  public var clipFar: Double
}

/// One keyframe of a position channel.
public struct AssimpVectorKey: Sendable, Equatable {
  /// Seconds (`mTime / mTicksPerSecond`).
  public var time: Double
  public var value: SIMD3<Double>
}

/// One animated node of an animation.
public struct AssimpChannelInfo: Sendable, Equatable {
  public var nodeName: String
  public var positionKeyCount: Int
  public var rotationKeyCount: Int
  public var scalingKeyCount: Int
}

/// One imported animation.
public struct AssimpAnimationInfo: Sendable, Equatable {
  public var name: String
  /// assimp's `mTicksPerSecond`; 0 when the file does not say.
  public var ticksPerSecond: Double
  /// assimp's `mDuration`, in ticks.
  public var durationTicks: Double
  /// `durationTicks / ticksPerSecond`, or nil when `ticksPerSecond` is 0.
  public var durationSeconds: Double? { ticksPerSecond > 0 ? durationTicks / ticksPerSecond : nil }
  public var channels: [AssimpChannelInfo]
}

/// One triangle mesh read from a user's file: vertices, unit normals and triangles (three indices each).
public typealias AssimpTriangleMesh = VenueMeshPart
