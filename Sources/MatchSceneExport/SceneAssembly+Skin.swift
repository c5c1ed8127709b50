import MatchSceneCore

extension SceneAssembly {
  /// One joint of a player's skin: the node, its transform relative to the player node at bind time
  /// (rotation, translation; unit scale) and the geometry bound rigidly to it, in the joint's own frame.
  struct SkinJoint {
    var node: Int
    var rotation: Matrix3
    var translation: SIMD3<Double>
    var geometry: TriangleMesh
  }

  /// Adds player `track`'s rigged body (glTF 2.0 §3.7.3 "Skins"): skin `track` over `joints` (the
  /// keypoint and limb nodes, children of `playerNode`, which is the skin's `skeleton`) and a node
  /// `<track>/body` holding one mesh in which every joint's geometry (a keypoint's sphere, a limb's unit
  /// prism) is weighted 1 to that joint.
  ///
  /// The mesh is laid out at the bind pose in the scene's y-up frame: a vertex u of joint j's geometry
  /// is stored as v = rootFromWorld · bind_j · u, and joint j's inverse bind matrix is
  /// (rootFromWorld · bind_j)⁻¹, so that Σ w · global(j) · inverseBind(j) · v (§3.7.3.1) puts u where
  /// the joint node is at every frame — the same place as the unskinned keypoint sphere or limb prism.
  /// The body node is a child of `parent` (the root node `matchscene`, which is never scaled to 0) with
  /// no transform of its own. glTF ignores the transforms of a skinned mesh node and its parents; so
  /// does three.js in its default `attached` bind mode (it undoes the mesh's world matrix every frame),
  /// and Blender parents the mesh to the armature. (A scene root would suit the Khronos validator's
  /// advice better, but assimp then names its root `ROOT` instead of `matchscene`.)
  mutating func addSkin(
    track: String, playerNode: Int, joints: [SkinJoint], rootFromWorld: Matrix3, material: Int, parent: Int
  ) throws {
    var positions: [SIMD3<Float>] = []
    var normals: [SIMD3<Float>] = []
    var jointIndices: [UInt8] = []
    var weights: [Float] = []
    var indices: [UInt32] = []
    var inverseBind: [Float] = []
    guard joints.count <= 256 else { throw GLTFError("player \(track): \(joints.count) joints, at most 256") }
    for (j, joint) in joints.enumerated() {
      let r = rootFromWorld * joint.rotation
      let t = rootFromWorld * joint.translation
      let base = UInt32(positions.count)
      for (p, n) in zip(joint.geometry.positions, joint.geometry.normals) {
        let v = r * p + t
        let m = r * n
        positions.append(SIMD3(Float(v.x), Float(v.y), Float(v.z)))
        normals.append(SIMD3(Float(m.x), Float(m.y), Float(m.z)))
        jointIndices += [UInt8(j), 0, 0, 0]
        weights += [1, 0, 0, 0]
      }
      indices += joint.geometry.indices.map { $0 + base }
      // (R, t)⁻¹ = (Rᵀ, −Rᵀ t), column-major (§3.6.2.2: matrices are stored column-major).
      let rt = r.transposed
      let u = -(rt * t)
      for c in 0..<3 { inverseBind += [Float(rt.row(0)[c]), Float(rt.row(1)[c]), Float(rt.row(2)[c]), 0] }
      inverseBind += [Float(u.x), Float(u.y), Float(u.z), 1]
    }
    let primitive = GLTFPrimitive(
      attributes: [
        "POSITION": try builder.addVec3(positions, usage: .vertexAttribute, name: "\(track)/body/POSITION"),
        "NORMAL": try builder.addVec3(normals, usage: .vertexAttribute, name: "\(track)/body/NORMAL"),
        "JOINTS_0": try builder.addUnsignedBytes(jointIndices, type: .vec4, name: "\(track)/body/JOINTS_0"),
        "WEIGHTS_0": try builder.addFloats(weights, type: .vec4, usage: .vertexAttribute, name: "\(track)/body/WEIGHTS_0"),
      ],
      indices: try builder.addIndices(indices, name: "\(track)/body/indices"), material: material)
    let skin = builder.addSkin(
      GLTFSkin(
        name: track,
        inverseBindMatrices: try builder.addFloats(inverseBind, type: .mat4, usage: .animation, name: "\(track)/inverseBind"),
        skeleton: playerNode, joints: joints.map(\.node)))
    let mesh = builder.addMesh(GLTFMesh(name: "\(track)/body", primitives: [primitive]))
    _ = builder.addNode(
      GLTFNode(name: "\(track)/body", mesh: mesh, skin: skin, extras: ["track": .string(track), "kind": .string("body")]),
      parent: parent)
  }
}
