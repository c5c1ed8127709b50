import Foundation

extension GLTFValidation {
  /// Skins (glTF 2.0 §3.7.3, §5.28): joints in range and listed once, with a common root (the
  /// `skeleton` when given, which must then be an ancestor of, or one of, the joints); inverse bind
  /// matrices a float MAT4 accessor with one affine matrix per joint; a node with `skin` holds a mesh
  /// whose primitives all have JOINTS_0 (unsigned byte or short VEC4, indices within the joints) and
  /// WEIGHTS_0 (float VEC4, each vertex's weights summing to 1 within 2e-3, §3.7.3.2), and a primitive
  /// with JOINTS_0 only on such nodes; each joint's own scale, when given, uniform and positive.
  mutating func checkSkins() {
    let skins = document.skins ?? []
    for (s, skin) in skins.enumerated() {
      let loc = "skins[\(s)]"
      if skin.joints.isEmpty { fail(loc, "no joints") }
      if Set(skin.joints).count != skin.joints.count { fail(loc, "lists a joint twice") }
      guard skin.joints.allSatisfy({ nodes.indices.contains($0) }) else {
        fail(loc, "a joint is out of range")
        continue
      }
      let ancestors = skin.joints.map { chain(from: $0) }
      if let root = skin.skeleton {
        if !nodes.indices.contains(root) {
          fail(loc, "skeleton \(root) out of range")
        } else if let j = ancestors.firstIndex(where: { !$0.contains(root) }) {
          fail(loc, "skeleton \(root) is not an ancestor of joint \(skin.joints[j])")
        }
      } else if let first = ancestors.first, !first.contains(where: { a in ancestors.allSatisfy { $0.contains(a) } }) {
        fail(loc, "the joints have no common root")
      }
      // A joint's own transform is its bone's rest where importers key a bone relative to it (Godot 3:
      // rest⁻¹ · key, split into a rotation and a scale): a rest scaled unevenly shears every key (limbs
      // drawn apart), a zero scale cannot be inverted ("Basis must be normalized").
      for j in skin.joints {
        if let scale = nodes[j].scale, scale.count == 3, !(scale[0] > 0 && scale[0] == scale[1] && scale[1] == scale[2]) {
          fail("nodes[\(j)]", "joint of \(loc) with scale \(scale): a joint's rest scale must be uniform and positive")
        }
      }
      if let i = skin.inverseBindMatrices, let a = accessor(i, at: "\(loc).inverseBindMatrices") {
        if a.type != "MAT4" || a.componentType != GLTFComponentType.float.rawValue {
          fail("\(loc).inverseBindMatrices", "must be float MAT4")
        } else if a.count != skin.joints.count {
          fail("\(loc).inverseBindMatrices", "\(a.count) matrices for \(skin.joints.count) joints")
        } else if let m = accessorValues[i] {
          for k in 0..<a.count where m[16 * k + 3] != 0 || m[16 * k + 7] != 0 || m[16 * k + 11] != 0 || m[16 * k + 15] != 1 {
            fail("accessors[\(i)]", "matrix \(k) is not affine (last row must be 0, 0, 0, 1)")
            break
          }
        }
      }
    }
    for (n, node) in nodes.enumerated() {
      let primitives = node.mesh.flatMap { document.meshes?[safe: $0]?.primitives } ?? []
      let skinned = primitives.filter { $0.attributes["JOINTS_0"] != nil }
      guard let s = node.skin else {
        if !skinned.isEmpty { fail("nodes[\(n)]", "mesh has JOINTS_0 but the node has no skin") }
        continue
      }
      guard let skin = skins[safe: s] else {
        fail("nodes[\(n)]", "skin \(s) out of range")
        continue
      }
      if node.mesh == nil { fail("nodes[\(n)]", "has a skin but no mesh") }
      for (p, primitive) in primitives.enumerated() {
        checkSkinnedPrimitive(primitive, jointCount: skin.joints.count, at: "nodes[\(n)] mesh primitive \(p)")
      }
    }
  }

  private mutating func checkSkinnedPrimitive(_ primitive: GLTFPrimitive, jointCount: Int, at loc: String) {
    guard let j = primitive.attributes["JOINTS_0"], let w = primitive.attributes["WEIGHTS_0"] else {
      fail(loc, "skinned mesh needs JOINTS_0 and WEIGHTS_0")
      return
    }
    guard let joints = accessor(j, at: "\(loc).JOINTS_0"), let weights = accessor(w, at: "\(loc).WEIGHTS_0") else {
      return
    }
    let indexTypes = [GLTFComponentType.unsignedByte, .unsignedShort].map(\.rawValue)
    if joints.type != "VEC4" || !indexTypes.contains(joints.componentType) {
      fail("\(loc).JOINTS_0", "must be unsigned byte or short VEC4")
    } else if let values = accessorValues[j], let bad = values.firstIndex(where: { $0 >= Double(jointCount) }) {
      fail("accessors[\(j)]", "vertex \(bad / 4) names joint \(Int(values[bad])) of \(jointCount)")
    }
    if weights.type != "VEC4" || weights.componentType != GLTFComponentType.float.rawValue {
      fail("\(loc).WEIGHTS_0", "must be float VEC4")
    } else if let values = accessorValues[w] {
      for k in 0..<(values.count / 4) where abs(values[(4 * k)..<(4 * k + 4)].reduce(0, +) - 1) > 2e-3 {
        fail("accessors[\(w)]", "vertex \(k)'s weights do not sum to 1")
        break
      }
    }
  }

  /// `node` and its ancestors (parents from `checkNodes`), stopping at a cycle.
  private func chain(from node: Int) -> [Int] {
    var out = [node]
    var n = parents[safe: node] ?? nil
    while let p = n, !out.contains(p) {
      out.append(p)
      n = parents[safe: p] ?? nil
    }
    return out
  }
}
