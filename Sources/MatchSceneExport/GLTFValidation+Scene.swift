import Foundation

extension GLTFValidation {
  // MARK: - Meshes and materials

  /// Accessor `i`'s type, component type and count, or nil (reporting at `loc`) when `i` is out of range.
  mutating func accessor(_ i: Int, at loc: String) -> GLTFAccessor? {
    guard let a = accessors[safe: i] else {
      fail(loc, "accessor \(i) out of range")
      return nil
    }
    return a
  }

  mutating func checkMeshes() {
    let materialCount = document.materials?.count ?? 0
    for (m, mesh) in (document.meshes ?? []).enumerated() {
      if mesh.primitives.isEmpty { fail("meshes[\(m)]", "no primitives") }
      for (p, primitive) in mesh.primitives.enumerated() {
        let loc = "meshes[\(m)].primitives[\(p)]"
        if primitive.attributes.isEmpty { fail(loc, "no attributes") }
        var vertexCount: Int?
        for (semantic, index) in primitive.attributes.sorted(by: { $0.key < $1.key }) {
          guard let a = accessor(index, at: "\(loc).attributes.\(semantic)") else { continue }
          if let c = vertexCount, c != a.count {
            fail(loc, "attribute \(semantic) has \(a.count) elements, others \(c)")
          }
          vertexCount = vertexCount ?? a.count
          let isFloat = a.componentType == GLTFComponentType.float.rawValue
          switch semantic {
          case "POSITION":
            if a.type != "VEC3" || !isFloat { fail("\(loc).attributes.POSITION", "must be float VEC3") }
            if a.min == nil || a.max == nil { fail("accessors[\(index)]", "POSITION accessor needs min and max") }
          case "NORMAL":
            if a.type != "VEC3" || !isFloat { fail("\(loc).attributes.NORMAL", "must be float VEC3") }
          case "COLOR_0":
            if a.type != "VEC3" && a.type != "VEC4" { fail("\(loc).attributes.COLOR_0", "must be VEC3 or VEC4") }
          default: break
          }
        }
        if let i = primitive.indices, let a = accessor(i, at: "\(loc).indices") {
          let allowed = [GLTFComponentType.unsignedByte, .unsignedShort, .unsignedInt].map(\.rawValue)
          if a.type != "SCALAR" || !allowed.contains(a.componentType) {
            fail("\(loc).indices", "must be SCALAR of unsigned byte, short or int")
          } else if let values = accessorValues[i] {
            let reserved = Double(1 << (8 * (GLTFComponentType(rawValue: a.componentType)!.byteSize))) - 1
            if let bad = values.firstIndex(where: { $0 == reserved }) {
              fail("accessors[\(i)]", "index \(bad) holds the reserved value \(Int(reserved))")
            }
            if let n = vertexCount, let bad = values.firstIndex(where: { $0 >= Double(n) }) {
              fail("accessors[\(i)]", "index \(bad) is \(Int(values[bad])) but there are \(n) vertices")
            }
          }
          if (primitive.mode ?? GLTFPrimitive.triangles) == GLTFPrimitive.triangles && a.count % 3 != 0 {
            fail("\(loc).indices", "\(a.count) indices do not make whole triangles")
          }
        }
        if let material = primitive.material, !(0..<materialCount).contains(material) {
          fail("\(loc).material", "material \(material) out of range")
        }
        if let mode = primitive.mode, !(0...6).contains(mode) { fail("\(loc).mode", "mode \(mode) not in 0...6") }
      }
    }
  }

  mutating func checkMaterials() {
    for (m, material) in (document.materials ?? []).enumerated() {
      guard let pbr = material.pbrMetallicRoughness else { continue }
      let loc = "materials[\(m)].pbrMetallicRoughness"
      if let c = pbr.baseColorFactor, c.count != 4 || !c.allSatisfy({ (0...1).contains($0) }) {
        fail(loc, "baseColorFactor must be 4 numbers in [0, 1]")
      }
      for (name, x) in [("metallicFactor", pbr.metallicFactor), ("roughnessFactor", pbr.roughnessFactor)] {
        if let x, !(0...1).contains(x) { fail(loc, "\(name) \(x) not in [0, 1]") }
      }
    }
  }

  mutating func checkCameras() {
    for (c, camera) in (document.cameras ?? []).enumerated() {
      let loc = "cameras[\(c)]"
      switch camera.type {
      case "perspective":
        guard let p = camera.perspective else {
          fail(loc, "perspective camera without a perspective object")
          continue
        }
        if !(p.yfov > 0 && p.yfov < .pi) { fail(loc, "yfov \(p.yfov) not in (0, π)") }
        if let a = p.aspectRatio, !(a > 0) { fail(loc, "aspectRatio \(a) ≤ 0") }
        if !(p.znear > 0) { fail(loc, "znear \(p.znear) ≤ 0") }
        if let far = p.zfar, !(far > p.znear) { fail(loc, "zfar \(far) ≤ znear \(p.znear)") }
      case "orthographic": break
      default: fail(loc, "type '\(camera.type)' is neither perspective nor orthographic")
      }
    }
  }

  // MARK: - Nodes and scenes

  mutating func checkNodes() {
    let meshCount = document.meshes?.count ?? 0
    let cameraCount = document.cameras?.count ?? 0
    var parent = [Int?](repeating: nil, count: nodes.count)
    for (i, node) in nodes.enumerated() {
      let loc = "nodes[\(i)]"
      if let m = node.mesh, !(0..<meshCount).contains(m) { fail(loc, "mesh \(m) out of range") }
      if let c = node.camera, !(0..<cameraCount).contains(c) { fail(loc, "camera \(c) out of range") }
      if let t = node.translation, t.count != 3 || !t.allSatisfy(\.isFinite) {
        fail(loc, "translation must be 3 finite numbers")
      }
      if let s = node.scale, s.count != 3 || !s.allSatisfy(\.isFinite) { fail(loc, "scale must be 3 finite numbers") }
      if let r = node.rotation {
        if r.count != 4 || !r.allSatisfy(\.isFinite) {
          fail(loc, "rotation must be 4 finite numbers")
        } else {
          let norm = r.map { Double($0) * Double($0) }.reduce(0, +).squareRoot()
          if abs(norm - 1) > Self.unitTolerance { fail(loc, "rotation has length \(norm), not a unit quaternion") }
        }
      }
      for child in node.children ?? [] {
        guard nodes.indices.contains(child) else {
          fail(loc, "child \(child) out of range")
          continue
        }
        if child == i { fail(loc, "is its own child") }
        if let p = parent[child] {
          fail("nodes[\(child)]", "has more than one parent (listed by nodes \(p) and \(i))")
        } else {
          parent[child] = i
        }
      }
    }
    // A cycle shows up as a node reachable from itself by following parents.
    var reported = Set<Int>()
    for start in nodes.indices {
      var seen: Set<Int> = [start]
      var n = parent[start]
      while let p = n {
        if seen.contains(p) {
          if reported.insert(p).inserted { fail("nodes[\(p)]", "is part of a cycle in the node hierarchy") }
          break
        }
        seen.insert(p)
        n = parent[p]
      }
    }
    self.parents = parent
  }

  /// Unit-length tolerance for quaternions stored as Float32.
  static var unitTolerance: Double { 1e-4 }

  mutating func checkScenes() {
    for (s, scene) in (document.scenes ?? []).enumerated() {
      for root in scene.nodes ?? [] {
        guard nodes.indices.contains(root) else {
          fail("scenes[\(s)]", "node \(root) out of range")
          continue
        }
        if let p = parents[safe: root] ?? nil {
          fail("scenes[\(s)]", "root node \(root) is a child of node \(p)")
        }
      }
      if Set(scene.nodes ?? []).count != (scene.nodes ?? []).count { fail("scenes[\(s)]", "lists a node twice") }
    }
  }

  // MARK: - Animations

  mutating func checkAnimations() {
    for (a, animation) in (document.animations ?? []).enumerated() {
      let loc = "animations[\(a)]"
      if animation.channels.isEmpty { fail(loc, "no channels") }
      if animation.samplers.isEmpty { fail(loc, "no samplers") }
      for (s, sampler) in animation.samplers.enumerated() {
        checkSampler(sampler, at: "\(loc).samplers[\(s)]")
      }
      var targets = Set<String>()
      for (c, channel) in animation.channels.enumerated() {
        let cloc = "\(loc).channels[\(c)]"
        guard let path = GLTFAnimationPath(rawValue: channel.target.path) else {
          fail(cloc, "target path '\(channel.target.path)' is not translation, rotation, scale or weights")
          continue
        }
        if let node = channel.target.node {
          if !nodes.indices.contains(node) { fail(cloc, "target node \(node) out of range") }
          if !targets.insert("\(node)/\(path.rawValue)").inserted {
            fail(cloc, "node \(node) \(path.rawValue) is targeted twice in one animation")
          }
        }
        guard let sampler = animation.samplers[safe: channel.sampler] else {
          fail(cloc, "sampler \(channel.sampler) out of range")
          continue
        }
        guard let output = accessors[safe: sampler.output] else { continue }
        let expected: String =
          switch path {
          case .translation, .scale: "VEC3"
          case .rotation: "VEC4"
          case .weights: "SCALAR"
          }
        if output.type != expected {
          fail(cloc, "\(path.rawValue) needs \(expected) output, accessor \(sampler.output) is \(output.type)")
        } else if !Self.allowedOutput(output, for: path) {
          fail(
            cloc,
            "\(path.rawValue) output accessor \(sampler.output) has componentType \(output.componentType)"
              + (output.normalized == true ? " normalized" : "") + "; glTF allows "
              + (path == .translation || path == .scale ? "FLOAT only" : "FLOAT or normalized BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT"))
        } else if path == .rotation, let q = accessorValues[sampler.output] {
          for k in 0..<(q.count / 4) {
            let norm: Double = q[(4 * k)..<(4 * k + 4)].reduce(0) { $0 + $1 * $1 }.squareRoot()
            if abs(norm - 1) > Self.unitTolerance {
              fail("accessors[\(sampler.output)]", "rotation \(k) has length \(norm), not a unit quaternion")
              break
            }
          }
        }
      }
    }
  }

  /// Component types of animation outputs (§3.11, the table of `path` values): translation and scale
  /// FLOAT only; rotation and weights FLOAT or a normalised signed or unsigned 8- or 16-bit integer.
  static func allowedOutput(_ a: GLTFAccessor, for path: GLTFAnimationPath) -> Bool {
    if a.componentType == GLTFComponentType.float.rawValue { return a.normalized != true }
    switch path {
    case .translation, .scale: return false
    case .rotation, .weights:
      let integers = [GLTFComponentType.byte, .unsignedByte, .short, .unsignedShort].map(\.rawValue)
      return a.normalized == true && integers.contains(a.componentType)
    }
  }

  mutating func checkSampler(_ sampler: GLTFAnimationSampler, at loc: String) {
    let interpolation = GLTFInterpolation(rawValue: sampler.interpolation ?? "LINEAR")
    if interpolation == nil {
      fail(loc, "interpolation '\(sampler.interpolation!)' is not LINEAR, STEP or CUBICSPLINE")
    }
    guard let input = accessor(sampler.input, at: "\(loc).input"),
      let output = accessor(sampler.output, at: "\(loc).output")
    else { return }
    if input.type != "SCALAR" || input.componentType != GLTFComponentType.float.rawValue {
      fail(loc, "input accessor \(sampler.input) must be float SCALAR")
    }
    if input.min == nil || input.max == nil {
      fail("accessors[\(sampler.input)]", "animation input needs min and max")
    }
    if let times = accessorValues[sampler.input] {
      if let t0 = times.first, t0 < 0 { fail("accessors[\(sampler.input)]", "first time \(t0) < 0") }
      for k in times.indices.dropFirst() where !(times[k] > times[k - 1]) {
        fail(
          "accessors[\(sampler.input)]", "times not strictly increasing at key \(k) (\(times[k - 1]) then \(times[k]))")
        break
      }
    }
    let perKey = interpolation == .cubicSpline ? 3 : 1
    if output.count != input.count * perKey {
      fail(loc, "output has \(output.count) elements, input \(input.count) × \(perKey) expected")
    }
  }
}
