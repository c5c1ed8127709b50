internal import CAssimp
import Foundation

/// assimp's C API keeps the last import error in one process-wide string (`aiGetErrorString`), so an
/// import and the read of its error must not interleave with another import.
let assimpImportLock = NSLock()

/// An imported scene: owns assimp's `aiScene` (released in `deinit` with `aiReleaseImport`) and exposes
/// its nodes, meshes, cameras and animations as plain Swift values.
///
/// Not `Sendable`: use it from one task (the values it returns are `Sendable`).
public final class AssimpScene {
  /// Post-processing steps applied at import (assimp's `aiPostProcessSteps`).
  public struct PostProcess: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let triangulate = PostProcess(rawValue: aiProcess_Triangulate.rawValue)
    public static let sortByPrimitiveType = PostProcess(rawValue: aiProcess_SortByPType.rawValue)
    public static let joinIdenticalVertices = PostProcess(rawValue: aiProcess_JoinIdenticalVertices.rawValue)
    public static let generateNormals = PostProcess(rawValue: aiProcess_GenNormals.rawValue)
    public static let preTransformVertices = PostProcess(rawValue: aiProcess_PreTransformVertices.rawValue)
    /// The minimal steps for round-trip checks: triangles only, one primitive type per mesh.
    public static let roundTrip: PostProcess = [.triangulate, .sortByPrimitiveType]
  }

  private let scene: UnsafePointer<aiScene>
  /// The file this scene was read from.
  public let url: URL

  /// Imports `url` with `postProcess`.
  /// - Throws: `AssimpError` with assimp's own message when the file cannot be read or parsed.
  public init(contentsOf url: URL, postProcess: PostProcess = .roundTrip) throws {
    self.url = url
    assimpImportLock.lock()
    defer { assimpImportLock.unlock() }
    guard let s = aiImportFile(url.path, postProcess.rawValue) else {
      let reason = String(cString: aiGetErrorString())
      throw AssimpError("cannot import \(url.path): \(reason.isEmpty ? "unknown error" : reason)")
    }
    scene = s
  }

  deinit { aiReleaseImport(scene) }

  /// The raw scene, for the bridge's other functions (valid while `self` lives).
  var raw: UnsafePointer<aiScene> { scene }

  /// Every node, depth-first from the root, parents before children.
  public var nodes: [AssimpNodeInfo] {
    var out: [AssimpNodeInfo] = []
    func visit(_ node: UnsafeMutablePointer<aiNode>, parent: String?, depth: Int) {
      let n = node.pointee
      let t = n.mTransformation
      out.append(
        AssimpNodeInfo(
          name: n.mName.swiftString, parent: parent, depth: depth, meshCount: Int(n.mNumMeshes),
          localTransform: [
            t.a1, t.a2, t.a3, t.a4, t.b1, t.b2, t.b3, t.b4, t.c1, t.c2, t.c3, t.c4, t.d1, t.d2, t.d3, t.d4,
          ].map { Double($0) }))
      for i in 0..<Int(n.mNumChildren) {
        if let child = n.mChildren[i] { visit(child, parent: n.mName.swiftString, depth: depth + 1) }
      }
    }
    if let root = scene.pointee.mRootNode { visit(root, parent: nil, depth: 0) }
    return out
  }

  /// Number of meshes (`mNumMeshes`).
  public var meshCount: Int { Int(scene.pointee.mNumMeshes) }

  /// Every mesh with its vertex and face counts.
  public var meshes: [AssimpMeshInfo] {
    (0..<Int(scene.pointee.mNumMeshes)).compactMap { i in
      guard let m = scene.pointee.mMeshes[i]?.pointee else { return nil }
      return AssimpMeshInfo(name: m.mName.swiftString, vertexCount: Int(m.mNumVertices), faceCount: Int(m.mNumFaces))
    }
  }

  /// Every camera.
  public var cameras: [AssimpCameraInfo] {
    (0..<Int(scene.pointee.mNumCameras)).compactMap { i in
      guard let c = scene.pointee.mCameras[i]?.pointee else { return nil }
      return AssimpCameraInfo(
        name: c.mName.swiftString, horizontalFOV: Double(c.mHorizontalFOV), aspect: Double(c.mAspect),
        clipNear: Double(c.mClipPlaneNear), clipFar: Double(c.mClipPlaneFar))
    }
  }

  /// Every animation with its channels.
  public var animations: [AssimpAnimationInfo] {
    (0..<Int(scene.pointee.mNumAnimations)).compactMap { i in
      guard let a = scene.pointee.mAnimations[i]?.pointee else { return nil }
      let channels: [AssimpChannelInfo] = (0..<Int(a.mNumChannels)).compactMap { c in
        guard let ch = a.mChannels[c]?.pointee else { return nil }
        return AssimpChannelInfo(
          nodeName: ch.mNodeName.swiftString, positionKeyCount: Int(ch.mNumPositionKeys),
          rotationKeyCount: Int(ch.mNumRotationKeys), scalingKeyCount: Int(ch.mNumScalingKeys))
      }
      return AssimpAnimationInfo(
        name: a.mName.swiftString, ticksPerSecond: a.mTicksPerSecond, durationTicks: a.mDuration, channels: channels)
    }
  }

  /// The position keys of channel `channel` of animation `animation`, times in seconds (ticks when the
  /// file gives no tick rate). Empty when either index is out of range.
  public func positionKeys(animation: Int, channel: Int) -> [AssimpVectorKey] {
    guard animation >= 0, animation < Int(scene.pointee.mNumAnimations),
      let a = scene.pointee.mAnimations[animation]?.pointee, channel >= 0, channel < Int(a.mNumChannels),
      let ch = a.mChannels[channel]?.pointee
    else { return [] }
    let tps = a.mTicksPerSecond > 0 ? a.mTicksPerSecond : 1
    return (0..<Int(ch.mNumPositionKeys)).map { k in
      let key = ch.mPositionKeys[k]
      return AssimpVectorKey(
        time: key.mTime / tps, value: SIMD3(Double(key.mValue.x), Double(key.mValue.y), Double(key.mValue.z)))
    }
  }

  /// The position keys driving the first channel of node `node` in the animation named `animation`, or
  /// nil when there is no such animation or channel.
  public func positionKeys(animation name: String, node: String) -> [AssimpVectorKey]? {
    let all = animations
    guard let a = all.firstIndex(where: { $0.name == name }),
      let c = all[a].channels.firstIndex(where: { $0.nodeName == node })
    else { return nil }
    return positionKeys(animation: a, channel: c)
  }
}
