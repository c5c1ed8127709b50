import Foundation

/// The match's motion in the compact form the review app decodes once: per frame and per moving point (a
/// person's keypoint, the ball) its position in its parent node's frame (the calibration frame, z up; the
/// scene's root turns it to glTF's y up) in millimetres, and whether it has data then, packed in chunks of
/// frames by `ReviewMotionCodec`. 600 s at 60 fps for two players, one bystander and the ball: 4 MB in
/// base64, against 17 MB as plain Int16 and ~95 MB for the scene's animation.
public struct ReviewMotion: Encodable, Sendable {
  /// One moving point: the track (`P1`, `ball`) and its keypoint's node name (`nose`; "" for the ball).
  public struct Point: Encodable, Sendable {
    public var track: String
    public var key: String
  }
  /// A clip of the scene (`match`, `rally-01`): its first and last frame.
  public struct Clip: Encodable, Sendable {
    public var name: String
    public var firstFrame: Int
    public var lastFrame: Int
  }
  public var fps: Double
  /// The match's first frame (the first sample) and the number of frames.
  public var firstFrame: Int
  public var frames: Int
  public var points: [Point]
  /// Frames per chunk of `positionChunks` and `visibleChunks` (the last may hold fewer).
  public var chunkFrames: Int
  /// Per chunk, base64 of the positions (mm) packed by `ReviewMotionCodec`.
  public var positionChunks: [String]
  /// Per chunk, base64 of a bit per frame and point, 1 where the point has data (`ReviewMotionCodec`).
  public var visibleChunks: [String]
  /// The rallies' clips (not the whole match's).
  public var clips: [Clip]
}

/// Splits a `matchscene reconstruct` scene (GLB) into a static scene (venue, people's nodes, ball,
/// cameras; no animation) and `ReviewMotion`, so the review app loads a 10-minute match in seconds.
///
/// Reads the animation named `match` (STEP samples, one per frame, glTF 2.0 §3.11): each keypoint node of a
/// `player`/`person` node and the `ball` node's translation and scale (scale ≤ 5e-5: no data then).
/// The static GLB keeps every accessor and buffer view a mesh, skin or image uses, renumbered.
public enum ReviewSceneSplit {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// - Returns: the static GLB and the motion; throws `Failure` naming what the GLB lacked.
  public static func split(glb: Data) throws -> (scene: Data, motion: ReviewMotion) {
    let (json, bin) = try chunks(glb)
    guard var root = try JSONSerialization.jsonObject(with: json) as? [String: Any] else { throw Failure(description: "GLB JSON is not an object") }
    let nodes = root["nodes"] as? [[String: Any]] ?? []
    let accessors = root["accessors"] as? [[String: Any]] ?? []
    let views = root["bufferViews"] as? [[String: Any]] ?? []
    let animations = root["animations"] as? [[String: Any]] ?? []
    guard let match = animations.first(where: { $0["name"] as? String == "match" }) else {
      throw Failure(description: "scene has no animation named match")
    }
    let reader = AccessorReader(accessors: accessors, views: views, bin: bin)

    // The moving points: a person's keypoint children and the ball.
    var parent: [Int: Int] = [:]
    for (i, node) in nodes.enumerated() { for c in node["children"] as? [Int] ?? [] { parent[c] = i } }
    func extras(_ i: Int) -> [String: Any] { nodes[i]["extras"] as? [String: Any] ?? [:] }
    var points: [ReviewMotion.Point] = []
    var pointOfNode: [Int: Int] = [:]
    for (i, node) in nodes.enumerated() {
      let name = node["name"] as? String ?? ""
      if extras(i)["kind"] as? String == "ball" {
        pointOfNode[i] = points.count
        points.append(.init(track: extras(i)["track"] as? String ?? name, key: ""))
      } else if let p = parent[i], ["player", "person"].contains(extras(p)["kind"] as? String ?? ""),
        !name.contains("/"), !name.contains("-"), node["mesh"] == nil
      {
        pointOfNode[i] = points.count
        points.append(.init(track: extras(p)["track"] as? String ?? (nodes[p]["name"] as? String ?? ""), key: name))
      }
    }
    let own = match["extras"] as? [String: Any] ?? [:]
    let channels = match["channels"] as? [[String: Any]] ?? []
    let samplers = match["samplers"] as? [[String: Any]] ?? []
    let fps = (own["fps"] as? NSNumber)?.doubleValue ?? 50
    let firstFrame = (own["firstFrame"] as? NSNumber)?.intValue ?? 0
    var frames = 0
    if let last = (own["lastFrame"] as? NSNumber)?.intValue { frames = last - firstFrame + 1 }
    if frames <= 0, let s = samplers.first, let input = s["input"] as? Int { frames = try reader.floats(input).count }
    guard frames > 0, frames < 10_000_000 else { throw Failure(description: "animation match has \(frames) frames") }

    var positions = [Int16](repeating: 0, count: frames * points.count * 3)
    var visible = [UInt8](repeating: 1, count: frames * points.count)
    for channel in channels {
      guard let target = channel["target"] as? [String: Any], let node = target["node"] as? Int, let p = pointOfNode[node],
        let path = target["path"] as? String, path == "translation" || path == "scale",
        let s = channel["sampler"] as? Int, s < samplers.count,
        let input = samplers[s]["input"] as? Int, let output = samplers[s]["output"] as? Int
      else { continue }
      let times = try reader.floats(input), values = try reader.floats(output)
      guard values.count >= times.count * 3, !times.isEmpty else { throw Failure(description: "animation match: sampler \(s) has too few values") }
      // STEP: the sample at or before each frame's time.
      var k = 0
      for f in 0..<frames {
        let t = Float(Double(f) / fps) + 1e-4
        while k + 1 < times.count && times[k + 1] <= t { k += 1 }
        let v = values[(3 * k)..<(3 * k + 3)]
        if path == "translation" {
          for (a, x) in v.enumerated() {
            let mm = x.isFinite ? (Double(x) * 1000).rounded() : 0
            positions[(f * points.count + p) * 3 + a] = Int16(max(-32767, min(32767, mm)))
          }
        } else {
          visible[f * points.count + p] = v.allSatisfy { abs($0) > 5e-5 } ? 1 : 0
        }
      }
    }
    var clips: [ReviewMotion.Clip] = []
    for a in animations {
      guard let name = a["name"] as? String, name != "match", let e = a["extras"] as? [String: Any],
        let first = (e["firstFrame"] as? NSNumber)?.intValue, let last = (e["lastFrame"] as? NSNumber)?.intValue
      else { continue }
      clips.append(.init(name: name, firstFrame: first, lastFrame: last))
    }
    // Where a point has no data it keeps its last position (the page hides it), which packs to nothing.
    for p in points.indices {
      for f in 1..<max(1, frames) where visible[f * points.count + p] == 0 {
        for a in 0..<3 { positions[(f * points.count + p) * 3 + a] = positions[((f - 1) * points.count + p) * 3 + a] }
      }
    }
    let chunks = ReviewMotionCodec.encode(positions: positions, visible: visible, frames: frames, points: points.count)
    let motion = ReviewMotion(
      fps: fps, firstFrame: firstFrame, frames: frames, points: points, chunkFrames: ReviewMotionCodec.chunkFrames,
      positionChunks: chunks.map { $0.positions.base64EncodedString() }, visibleChunks: chunks.map { $0.visible.base64EncodedString() },
      clips: clips)

    // The static scene: no animation, no events in the scene's extras, only the data meshes use.
    root["animations"] = nil
    if var scenes = root["scenes"] as? [[String: Any]] {
      for i in scenes.indices {
        if var e = scenes[i]["extras"] as? [String: Any] {
          e["events"] = nil
          e["score"] = nil
          scenes[i]["extras"] = e
        }
      }
      root["scenes"] = scenes
    }
    return (try staticGLB(root: root, bin: bin), motion)
  }

  /// The GLB's JSON and BIN chunks (glTF 2.0 §4.4).
  static func chunks(_ glb: Data) throws -> (json: Data, bin: Data) {
    let bytes = [UInt8](glb)
    func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
    guard bytes.count >= 20, u32(0) == 0x4654_6C67 else { throw Failure(description: "not a GLB (no glTF magic)") }
    var at = 12
    var json = Data(), bin = Data()
    while at + 8 <= bytes.count {
      let length = u32(at), type = u32(at + 4)
      guard at + 8 + length <= bytes.count else { throw Failure(description: "GLB chunk at byte \(at) runs past the end") }
      let body = glb.subdata(in: (glb.startIndex + at + 8)..<(glb.startIndex + at + 8 + length))
      if type == 0x4E4F_534A { json = body } else if type == 0x004E_4942 { bin = body }
      at += 8 + length
    }
    return (json, bin)
  }

  /// Writes `root` as a GLB keeping only the accessors meshes and skins use and the buffer views those and
  /// images use, packed (4-byte aligned) into one buffer.
  static func staticGLB(root input: [String: Any], bin: Data) throws -> Data {
    var root = input
    var accessors = root["accessors"] as? [[String: Any]] ?? []
    var views = root["bufferViews"] as? [[String: Any]] ?? []
    var meshes = root["meshes"] as? [[String: Any]] ?? []
    var skins = root["skins"] as? [[String: Any]] ?? []
    var images = root["images"] as? [[String: Any]] ?? []
    guard !accessors.contains(where: { $0["sparse"] != nil }) else { throw Failure(description: "sparse accessors are not supported") }
    // Accessors in use, renumbered in order.
    var usedAccessors = Set<Int>()
    for mesh in meshes {
      for primitive in mesh["primitives"] as? [[String: Any]] ?? [] {
        for (_, a) in primitive["attributes"] as? [String: Int] ?? [:] { usedAccessors.insert(a) }
        if let a = primitive["indices"] as? Int { usedAccessors.insert(a) }
        for target in primitive["targets"] as? [[String: Int]] ?? [] { for (_, a) in target { usedAccessors.insert(a) } }
      }
    }
    for skin in skins { if let a = skin["inverseBindMatrices"] as? Int { usedAccessors.insert(a) } }
    let keptAccessors = usedAccessors.sorted()
    let newAccessor = Dictionary(uniqueKeysWithValues: keptAccessors.enumerated().map { ($1, $0) })
    var usedViews = Set<Int>()
    for a in keptAccessors { if let v = accessors[a]["bufferView"] as? Int { usedViews.insert(v) } }
    for image in images { if let v = image["bufferView"] as? Int { usedViews.insert(v) } }
    let keptViews = usedViews.sorted()
    let newView = Dictionary(uniqueKeysWithValues: keptViews.enumerated().map { ($1, $0) })
    var packed = Data()
    var outViews: [[String: Any]] = []
    for v in keptViews {
      var view = views[v]
      let offset = (view["byteOffset"] as? Int) ?? 0, length = (view["byteLength"] as? Int) ?? 0
      guard offset + length <= bin.count else { throw Failure(description: "buffer view \(v) runs past the binary chunk") }
      while packed.count % 4 != 0 { packed.append(0) }
      view["byteOffset"] = packed.count
      view["buffer"] = 0
      packed.append(bin.subdata(in: (bin.startIndex + offset)..<(bin.startIndex + offset + length)))
      outViews.append(view)
    }
    while packed.count % 4 != 0 { packed.append(0) }
    accessors = keptAccessors.map { a in
      var accessor = accessors[a]
      if let v = accessor["bufferView"] as? Int { accessor["bufferView"] = newView[v] }
      return accessor
    }
    views = outViews
    for m in meshes.indices {
      var primitives = meshes[m]["primitives"] as? [[String: Any]] ?? []
      for p in primitives.indices {
        if let attributes = primitives[p]["attributes"] as? [String: Int] { primitives[p]["attributes"] = attributes.mapValues { newAccessor[$0]! } }
        if let a = primitives[p]["indices"] as? Int { primitives[p]["indices"] = newAccessor[a]! }
        if let targets = primitives[p]["targets"] as? [[String: Int]] { primitives[p]["targets"] = targets.map { $0.mapValues { newAccessor[$0]! } } }
      }
      meshes[m]["primitives"] = primitives
    }
    for s in skins.indices { if let a = skins[s]["inverseBindMatrices"] as? Int { skins[s]["inverseBindMatrices"] = newAccessor[a]! } }
    for i in images.indices { if let v = images[i]["bufferView"] as? Int { images[i]["bufferView"] = newView[v]! } }
    root["accessors"] = accessors.isEmpty ? nil : accessors
    root["bufferViews"] = views.isEmpty ? nil : views
    if !meshes.isEmpty { root["meshes"] = meshes }
    if !skins.isEmpty { root["skins"] = skins }
    if !images.isEmpty { root["images"] = images }
    root["buffers"] = packed.isEmpty ? nil : [["byteLength": packed.count]]

    var json = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
    while json.count % 4 != 0 { json.append(0x20) }
    var out = Data()
    func put(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out.append(contentsOf: $0) } }
    put(0x4654_6C67)
    put(2)
    put(12 + 8 + json.count + (packed.isEmpty ? 0 : 8 + packed.count))
    put(json.count)
    put(0x4E4F_534A)
    out.append(json)
    if !packed.isEmpty {
      put(packed.count)
      put(0x004E_4942)
      out.append(packed)
    }
    return out
  }
}

/// Reads float accessors (glTF 2.0 §3.6) from a GLB's binary chunk, honouring `byteStride`.
struct AccessorReader {
  var accessors: [[String: Any]]
  var views: [[String: Any]]
  var bin: Data

  func floats(_ index: Int) throws -> [Float] {
    guard index < accessors.count else { throw ReviewSceneSplit.Failure(description: "accessor \(index) does not exist") }
    let a = accessors[index]
    guard (a["componentType"] as? Int) == 5126, let v = a["bufferView"] as? Int, v < views.count else {
      throw ReviewSceneSplit.Failure(description: "accessor \(index): expected FLOAT data in a buffer view")
    }
    let width = ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16][a["type"] as? String ?? ""] ?? 1
    let count = a["count"] as? Int ?? 0
    let view = views[v]
    let start = ((view["byteOffset"] as? Int) ?? 0) + ((a["byteOffset"] as? Int) ?? 0)
    let stride = (view["byteStride"] as? Int) ?? width * 4
    guard count == 0 || start + stride * (count - 1) + width * 4 <= bin.count else {
      throw ReviewSceneSplit.Failure(description: "accessor \(index) runs past the binary chunk")
    }
    var out = [Float](repeating: 0, count: count * width)
    bin.withUnsafeBytes { raw in
      for i in 0..<count {
        for c in 0..<width {
          let bits = raw.loadUnaligned(fromByteOffset: start + i * stride + c * 4, as: UInt32.self)
          out[i * width + c] = Float(bitPattern: UInt32(littleEndian: bits))
        }
      }
    }
    return out
  }
}
