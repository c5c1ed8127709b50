import Foundation

/// Assembles a `GLTFDocument`: appends typed binary data to one buffer and keeps the object arrays.
///
/// Every data call appends a new buffer view starting on a 4-byte boundary (glTF 2.0 §3.6.2.4:
/// accessor offsets must be multiples of the component size; vertex attributes 4-byte aligned) and
/// returns the index of a new accessor over it. Float accessors always carry `min` and `max`
/// (required for POSITION and for animation inputs, §3.6.2.5 and §3.11), computed from the Float32
/// values actually stored. Non-finite values are rejected, since glTF forbids NaN and ±Inf in
/// float data (§3.6.2.2).
public struct GLTFBuilder: Sendable {
  /// What a buffer view holds, which decides its `target` (§3.6.1.2: only vertex attributes and
  /// indices get one; animation and other data must not).
  public enum Usage: Sendable {
    case vertexAttribute
    case animation
  }

  public private(set) var document: GLTFDocument
  private var binary = GLTFBinary()

  /// An empty document whose `asset.generator` is `generator`.
  public init(generator: String = "MatchScene") {
    document = GLTFDocument()
    document.asset = GLTFAsset(generator: generator)
  }

  // MARK: - Binary data

  /// Appends 3-component Float32 vectors (POSITION, NORMAL, translations, scales).
  /// - Throws: `GLTFError` when `values` is empty or holds NaN/Inf.
  public mutating func addVec3(_ values: [SIMD3<Float>], usage: Usage, name: String? = nil) throws -> Int {
    try addFloats(Self.flatten(values), type: .vec3, usage: usage, name: name)
  }

  /// Appends Float32 components, `type.componentCount` per element (`flat.count` a multiple of it).
  /// - Throws: `GLTFError` when `flat` is empty or holds NaN/Inf.
  public mutating func addFloats(_ flat: [Float], type: GLTFAccessorType, usage: Usage, name: String? = nil) throws
    -> Int
  {
    try addFloatData(flat, type: type, usage: usage, name: name)
  }

  /// Appends 4-component Float32 vectors (COLOR_0, rotations as x, y, z, w).
  /// - Throws: `GLTFError` when `values` is empty or holds NaN/Inf.
  public mutating func addVec4(_ values: [SIMD4<Float>], usage: Usage, name: String? = nil) throws -> Int {
    try addFloatData(Self.flatten(values), type: .vec4, usage: usage, name: name)
  }

  /// Appends Float32 scalars (animation times in seconds).
  /// - Throws: `GLTFError` when `values` is empty or holds NaN/Inf.
  public mutating func addScalars(_ values: [Float], usage: Usage = .animation, name: String? = nil) throws -> Int {
    try addFloatData(values, type: .scalar, usage: usage, name: name)
  }

  /// Appends signed 16-bit components as a normalised accessor (componentType SHORT, `normalized`
  /// true): readers take each c as max(c / 32767, −1) (§3.11, `NormalizedShort`). glTF allows these for
  /// rotation (and morph weight) animation outputs only (§3.11); the buffer view has no `target`. `min`
  /// and `max` are the stored integers: "the `normalized` flag has no effect on these properties"
  /// (§3.6.2.5).
  /// - Throws: `GLTFError` when `flat` is empty or not a whole number of elements.
  public mutating func addNormalizedShorts(_ flat: [Int16], type: GLTFAccessorType, name: String? = nil) throws -> Int {
    let n = type.componentCount
    guard !flat.isEmpty, flat.count % n == 0 else {
      throw GLTFError("accessor \(name ?? "#\(accessorCount)") has \(flat.count) components, not whole \(type.rawValue)s")
    }
    let view = appendView(target: nil) { $0.append(flat) }
    let (lo, hi) = Self.bounds(flat, components: n) { Double($0) }
    return appendAccessor(
      GLTFAccessor(
        name: name, bufferView: view, componentType: GLTFComponentType.short.rawValue, normalized: true,
        count: flat.count / n, type: type.rawValue, min: lo, max: hi))
  }

  /// A float accessor over elements `elements` of float accessor `source`: the same buffer view from a
  /// later byte offset, no data copied (§3.6.2.4 allows several accessors per view). `values` are the
  /// flat components of those elements, for `min` and `max`.
  /// - Precondition: `source` is a float accessor added by this builder, `elements` lies within it and
  ///   `values` holds its components.
  public mutating func addView(of source: Int, elements: Range<Int>, values: ArraySlice<Float>, name: String? = nil)
    -> Int
  {
    let n = GLTFAccessorType(rawValue: document.accessors![source].type)!.componentCount
    let (lo, hi) = Self.bounds(values, components: n) { Double($0) }
    return addView(of: source, component: .float, elements: elements, count: values.count, min: lo, max: hi, name: name)
  }

  /// The same for a normalised SHORT accessor made by `addNormalizedShorts`; `values` are the stored
  /// integers of `elements`.
  public mutating func addView(of source: Int, elements: Range<Int>, values: ArraySlice<Int16>, name: String? = nil)
    -> Int
  {
    let n = GLTFAccessorType(rawValue: document.accessors![source].type)!.componentCount
    let (lo, hi) = Self.bounds(values, components: n) { Double($0) }
    return addView(of: source, component: .short, elements: elements, count: values.count, min: lo, max: hi, name: name)
  }

  private mutating func addView(
    of source: Int, component: GLTFComponentType, elements: Range<Int>, count: Int, min lo: [Double], max hi: [Double],
    name: String?
  ) -> Int {
    let a = document.accessors![source]
    let n = GLTFAccessorType(rawValue: a.type)!.componentCount
    precondition(a.componentType == component.rawValue && elements.upperBound <= a.count)
    precondition(count == elements.count * n)
    return appendAccessor(
      GLTFAccessor(
        name: name, bufferView: a.bufferView,
        byteOffset: (a.byteOffset ?? 0) + component.byteSize * n * elements.lowerBound, componentType: a.componentType,
        normalized: a.normalized, count: elements.count, type: a.type, min: lo, max: hi))
  }

  /// Per-component smallest and largest of `flat` (`components` per element, each read by `value`);
  /// +0 for a zero so that min/max read the same as the data in every viewer.
  static func bounds<C: Collection>(_ flat: C, components n: Int, _ value: (C.Element) -> Double) -> (
    min: [Double], max: [Double]
  ) {
    var lo = [Double](repeating: .infinity, count: n)
    var hi = [Double](repeating: -.infinity, count: n)
    for (k, e) in flat.enumerated() {
      let x = value(e)
      lo[k % n] = Swift.min(lo[k % n], x)
      hi[k % n] = Swift.max(hi[k % n], x)
    }
    return (lo.map { $0 + 0 }, hi.map { $0 + 0 })
  }

  /// Appends triangle indices, as UInt16 when every index is below 65535 and as UInt32 otherwise (the
  /// largest value of a component type is reserved, §3.7.2.1).
  /// - Throws: `GLTFError` when `indices` is empty or holds 4294967295.
  public mutating func addIndices(_ indices: [UInt32], name: String? = nil) throws -> Int {
    guard let top = indices.max() else { throw GLTFError("accessor \(name ?? "indices") is empty") }
    if top < UInt32(UInt16.max) { return try addIndices16(indices.map { UInt16($0) }, name: name) }
    return try addIndices32(indices, name: name)
  }

  /// Appends UInt16 indices. - Throws: `GLTFError` when empty or holding 65535.
  public mutating func addIndices16(_ indices: [UInt16], name: String? = nil) throws -> Int {
    guard !indices.isEmpty else { throw GLTFError("accessor \(name ?? "indices") is empty") }
    guard !indices.contains(.max) else { throw GLTFError("index 65535 is reserved for UInt16 indices") }
    var bytes = Data(capacity: indices.count * 2)
    for i in indices { withUnsafeBytes(of: i.littleEndian) { bytes.append(contentsOf: $0) } }
    let view = appendView(bytes, target: GLTFBufferView.elementArrayBuffer)
    return appendAccessor(
      GLTFAccessor(
        name: name, bufferView: view, componentType: GLTFComponentType.unsignedShort.rawValue,
        count: indices.count, type: GLTFAccessorType.scalar.rawValue))
  }

  /// Appends UInt32 indices. - Throws: `GLTFError` when empty or holding 4294967295.
  public mutating func addIndices32(_ indices: [UInt32], name: String? = nil) throws -> Int {
    guard !indices.isEmpty else { throw GLTFError("accessor \(name ?? "indices") is empty") }
    guard !indices.contains(.max) else { throw GLTFError("index 4294967295 is reserved for UInt32 indices") }
    var bytes = Data(capacity: indices.count * 4)
    for i in indices { withUnsafeBytes(of: i.littleEndian) { bytes.append(contentsOf: $0) } }
    let view = appendView(bytes, target: GLTFBufferView.elementArrayBuffer)
    return appendAccessor(
      GLTFAccessor(
        name: name, bufferView: view, componentType: GLTFComponentType.unsignedInt.rawValue,
        count: indices.count, type: GLTFAccessorType.scalar.rawValue))
  }

  /// Appends unsigned bytes as a vertex attribute (`JOINTS_0`: joint indices, four per vertex, §3.7.3.2).
  /// - Throws: `GLTFError` when `flat` is empty or not a whole number of elements.
  public mutating func addUnsignedBytes(_ flat: [UInt8], type: GLTFAccessorType, name: String? = nil) throws -> Int {
    let n = type.componentCount
    guard !flat.isEmpty, flat.count % n == 0 else {
      throw GLTFError("accessor \(name ?? "#\(accessorCount)"): \(flat.count) bytes are not whole \(type.rawValue)s")
    }
    // Vertex attribute elements start on 4-byte boundaries (§3.6.2.4): pad each element.
    let stride = (n + 3) / 4 * 4
    var bytes = Data(count: flat.count / n * stride)
    for (k, b) in flat.enumerated() { bytes[k / n * stride + k % n] = b }
    let view = appendView(bytes, target: GLTFBufferView.arrayBuffer)
    if stride != n { document.bufferViews![view].byteStride = stride }
    return appendAccessor(
      GLTFAccessor(
        name: name, bufferView: view, componentType: GLTFComponentType.unsignedByte.rawValue,
        count: flat.count / n, type: type.rawValue))
  }

  private mutating func addFloatData(
    _ flat: [Float], type: GLTFAccessorType, usage: Usage, name: String?
  ) throws -> Int {
    let n = type.componentCount
    guard !flat.isEmpty else { throw GLTFError("accessor \(name ?? "#\(accessorCount)") is empty") }
    var lo = [Float](repeating: .infinity, count: n)
    var hi = [Float](repeating: -.infinity, count: n)
    for (k, x) in flat.enumerated() {
      guard x.isFinite else {
        throw GLTFError(
          "accessor \(name ?? "#\(accessorCount)"): element \(k / n + 1) component \(k % n + 1) is \(x) "
            + "(glTF float data must be finite)")
      }
      lo[k % n] = Swift.min(lo[k % n], x)
      hi[k % n] = Swift.max(hi[k % n], x)
    }
    // The values themselves become the view's bytes (`GLTFBinary`: no copy on little-endian machines).
    let view = appendView(target: usage == .vertexAttribute ? GLTFBufferView.arrayBuffer : nil) { $0.append(flat) }
    // -0 and +0 compare equal; write +0 so min/max read the same as the data in every viewer.
    return appendAccessor(
      GLTFAccessor(
        name: name, bufferView: view, componentType: GLTFComponentType.float.rawValue,
        count: flat.count / n, type: type.rawValue, min: lo.map { Double($0 + 0) }, max: hi.map { Double($0 + 0) }))
  }

  private var accessorCount: Int { document.accessors?.count ?? 0 }

  /// Pads the buffer to 4 bytes, appends `bytes` and a buffer view over them.
  private mutating func appendView(_ bytes: Data, target: Int?) -> Int {
    appendView(target: target) { $0.append(bytes) }
  }

  /// Pads the buffer to 4 bytes, lets `append` add the view's bytes and appends a buffer view over them.
  private mutating func appendView(target: Int?, _ append: (inout GLTFBinary) -> Void) -> Int {
    binary.pad(toMultipleOf: 4)
    let start = binary.count
    append(&binary)
    let view = GLTFBufferView(buffer: 0, byteOffset: start, byteLength: binary.count - start, target: target)
    // Appended in place: rebuilding the array each time is quadratic in the thousands of views of a
    // long match with many clips.
    if document.bufferViews == nil { document.bufferViews = [] }
    document.bufferViews!.append(view)
    return document.bufferViews!.count - 1
  }

  private mutating func appendAccessor(_ accessor: GLTFAccessor) -> Int {
    if document.accessors == nil { document.accessors = [] }
    document.accessors!.append(accessor)
    return document.accessors!.count - 1
  }

  // MARK: - Objects

  /// Appends a node; with `parent`, also lists it among the parent's children. Returns its index.
  /// - Precondition: `parent` is an index returned by an earlier call.
  public mutating func addNode(_ node: GLTFNode, parent: Int? = nil) -> Int {
    var nodes = document.nodes ?? []
    nodes.append(node)
    let index = nodes.count - 1
    if let parent {
      precondition(parent < index, "parent node must be added first")
      nodes[parent].children = (nodes[parent].children ?? []) + [index]
    }
    document.nodes = nodes
    return index
  }

  /// Replaces node `index`'s extras.
  public mutating func setExtras(_ extras: JSONValue?, node index: Int) {
    document.nodes?[index].extras = extras
  }

  /// Replaces node `index` (keeping its children).
  public mutating func updateNode(_ index: Int, _ change: (inout GLTFNode) -> Void) {
    guard var node = document.nodes?[index] else { return }
    change(&node)
    document.nodes?[index] = node
  }

  public mutating func addMesh(_ mesh: GLTFMesh) -> Int {
    document.meshes = (document.meshes ?? []) + [mesh]
    return document.meshes!.count - 1
  }

  public mutating func addMaterial(_ material: GLTFMaterial) -> Int {
    document.materials = (document.materials ?? []) + [material]
    return document.materials!.count - 1
  }

  public mutating func addCamera(_ camera: GLTFCamera) -> Int {
    document.cameras = (document.cameras ?? []) + [camera]
    return document.cameras!.count - 1
  }

  public mutating func addSkin(_ skin: GLTFSkin) -> Int {
    document.skins = (document.skins ?? []) + [skin]
    return document.skins!.count - 1
  }

  /// Declares `name` in `extensionsUsed` (once).
  public mutating func useExtension(_ name: String) {
    if !(document.extensionsUsed ?? []).contains(name) { document.extensionsUsed = (document.extensionsUsed ?? []) + [name] }
  }

  /// Sets the document-level extension object `name`.
  public mutating func setExtension(_ name: String, _ value: JSONValue) {
    var all: [String: JSONValue] = [:]
    if case .object(let o) = document.extensions { all = o }
    all[name] = value
    document.extensions = .object(all)
    useExtension(name)
  }

  public mutating func addAnimation(_ animation: GLTFAnimation) -> Int {
    document.animations = (document.animations ?? []) + [animation]
    return document.animations!.count - 1
  }

  /// Appends a scene; the first one added becomes the default `scene`.
  public mutating func addScene(_ scene: GLTFScene) -> Int {
    document.scenes = (document.scenes ?? []) + [scene]
    if document.scene == nil { document.scene = 0 }
    return document.scenes!.count - 1
  }

  /// The finished document: the binary buffer padded to 4 bytes as `buffers[0]` (none when no data
  /// was added), and no empty arrays.
  public func finish() -> GLTFDocument {
    var d = document
    var bytes = binary
    bytes.pad(toMultipleOf: 4)
    if bytes.count > 0 { d.buffers = [GLTFBuffer(byteLength: bytes.count)] }
    d.binaryPieces = bytes
    return d.pruned()
  }
}

extension GLTFBuilder {
  /// The components of `v`, element after element (appended one by one: an array literal per element
  /// costs an allocation, which showed over the millions of samples of a long match).
  static func flatten<V: SIMD>(_ v: [V]) -> [Float] where V.Scalar == Float {
    var out: [Float] = []
    out.reserveCapacity(V.scalarCount * v.count)
    for e in v {
      for i in e.indices { out.append(e[i]) }
    }
    return out
  }
}
