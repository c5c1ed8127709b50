import Foundation

/// The checks behind `GLTFValidator`, one pass over a decoded document. Collects `location: message` lines.
struct GLTFValidation {
  let document: GLTFDocument
  let binary: Data?
  let isGLB: Bool
  var errors: [String] = []
  /// Decoded components of every accessor whose data could be read, flat, element-major.
  var accessorValues: [Int: [Double]] = [:]
  /// Parent of each node (filled by `checkNodes`).
  var parents: [Int?] = []

  init(document: GLTFDocument, binary: Data?, isGLB: Bool) {
    self.document = document
    self.binary = binary
    self.isGLB = isGLB
  }

  mutating func fail(_ location: String, _ message: String) { errors.append("\(location): \(message)") }

  var accessors: [GLTFAccessor] { document.accessors ?? [] }
  var nodes: [GLTFNode] { document.nodes ?? [] }

  mutating func run() {
    if !document.asset.version.hasPrefix("2.") { fail("asset", "version '\(document.asset.version)', expected 2.x") }
    checkEmptyArrays()
    checkBuffers()
    checkBufferViews()
    for i in accessors.indices { checkAccessor(i) }
    checkMeshes()
    checkMaterials()
    checkCameras()
    checkNodes()
    checkScenes()
    checkSkins()
    checkAnimations()
  }

  /// The schema gives `minItems: 1` to the top-level arrays (§5.17): an empty array must be left out.
  mutating func checkEmptyArrays() {
    let d = document
    let arrays: [(String, Int?)] = [
      ("scenes", d.scenes?.count), ("nodes", d.nodes?.count), ("meshes", d.meshes?.count),
      ("materials", d.materials?.count), ("cameras", d.cameras?.count), ("accessors", d.accessors?.count),
      ("bufferViews", d.bufferViews?.count), ("buffers", d.buffers?.count), ("animations", d.animations?.count),
      ("skins", d.skins?.count), ("extensionsUsed", d.extensionsUsed?.count), ("extensionsRequired", d.extensionsRequired?.count),
    ]
    for (name, count) in arrays where count == 0 { fail(name, "empty array (must be left out)") }
    if let s = d.scene, !(0..<(d.scenes?.count ?? 0)).contains(s) { fail("scene", "index \(s) out of range") }
  }

  // MARK: - Buffers

  /// Bytes available for buffer `i`: the BIN chunk / `.bin` for buffer 0, nothing for others.
  func bufferData(_ i: Int) -> Data? { i == 0 ? binary : nil }

  mutating func checkBuffers() {
    for (i, buffer) in (document.buffers ?? []).enumerated() {
      let loc = "buffers[\(i)]"
      if buffer.byteLength < 1 { fail(loc, "byteLength \(buffer.byteLength) < 1") }
      if isGLB && i == 0 && buffer.uri != nil { fail(loc, "the GLB-stored buffer must not have a uri") }
      if isGLB && i > 0 && buffer.uri == nil { fail(loc, "only the first buffer may refer to the BIN chunk") }
      guard let data = bufferData(i) else {
        fail(loc, "no data available to check")
        continue
      }
      if data.count < buffer.byteLength {
        fail(loc, "byteLength \(buffer.byteLength) but only \(data.count) bytes of data")
      } else if isGLB && i == 0 && data.count - buffer.byteLength > 3 {
        fail(loc, "BIN chunk is \(data.count) bytes, more than 3 bytes larger than byteLength \(buffer.byteLength)")
      }
    }
    if isGLB, binary != nil, document.buffers?.first.map({ $0.uri == nil }) != true {
      fail("buffers", "a BIN chunk is present but buffers[0] does not refer to it")
    }
  }

  mutating func checkBufferViews() {
    let buffers = document.buffers ?? []
    for (i, view) in (document.bufferViews ?? []).enumerated() {
      let loc = "bufferViews[\(i)]"
      guard buffers.indices.contains(view.buffer) else {
        fail(loc, "buffer \(view.buffer) out of range")
        continue
      }
      let offset = view.byteOffset ?? 0
      if offset < 0 { fail(loc, "byteOffset \(offset) < 0") }
      if view.byteLength < 1 { fail(loc, "byteLength \(view.byteLength) < 1") }
      if offset + view.byteLength > buffers[view.buffer].byteLength {
        fail(
          loc,
          "bytes \(offset)..<\(offset + view.byteLength) run past buffer \(view.buffer) (\(buffers[view.buffer].byteLength) bytes)"
        )
      }
      if let stride = view.byteStride, stride < 4 || stride > 252 || stride % 4 != 0 {
        fail(loc, "byteStride \(stride) is not a multiple of 4 in 4...252")
      }
      if let t = view.target, t != GLTFBufferView.arrayBuffer && t != GLTFBufferView.elementArrayBuffer {
        fail(loc, "target \(t) is neither 34962 nor 34963")
      }
    }
  }

  // MARK: - Accessors

  /// Byte size of one element, with the column padding of small-component matrices (§3.6.2.4).
  static func elementSize(_ type: GLTFAccessorType, _ component: GLTFComponentType) -> Int {
    switch (type, component.byteSize) {
    case (.mat2, 1): 8
    case (.mat3, 1): 12
    case (.mat3, 2): 24
    default: type.componentCount * component.byteSize
    }
  }

  mutating func checkAccessor(_ i: Int) {
    let a = accessors[i]
    let loc = "accessors[\(i)]"
    guard let component = GLTFComponentType(rawValue: a.componentType) else {
      fail(loc, "componentType \(a.componentType) is not a glTF component type")
      return
    }
    guard let type = GLTFAccessorType(rawValue: a.type) else {
      fail(loc, "type '\(a.type)' is not a glTF accessor type")
      return
    }
    guard a.count >= 1 else {
      fail(loc, "count \(a.count) < 1")
      return
    }
    let n = type.componentCount
    for (name, bound) in [("min", a.min), ("max", a.max)] {
      if let bound, bound.count != n { fail(loc, "\(name) has \(bound.count) entries, \(a.type) needs \(n)") }
    }
    let offset = a.byteOffset ?? 0
    if offset % component.byteSize != 0 {
      fail(loc, "byteOffset \(offset) is not a multiple of the component size \(component.byteSize)")
    }
    let elementSize = Self.elementSize(type, component)
    var values: [Double]
    if let v = a.bufferView {
      guard let view = document.bufferViews?[safe: v] else {
        fail(loc, "bufferView \(v) out of range")
        return
      }
      let stride = view.byteStride ?? elementSize
      if view.byteStride != nil && stride < elementSize {
        fail(loc, "byteStride \(stride) of bufferView \(v) is smaller than the element size \(elementSize)")
        return
      }
      let needed = offset + stride * (a.count - 1) + elementSize
      if needed > view.byteLength {
        fail(
          loc,
          "\(a.count) × \(a.type) \(component) from byte \(offset) needs \(needed) bytes; bufferView \(v) has \(view.byteLength)"
        )
        return
      }
      if ((view.byteOffset ?? 0) + offset) % component.byteSize != 0 {
        fail(loc, "data start is not aligned to the component size \(component.byteSize)")
      }
      guard let data = bufferData(view.buffer),
        (view.byteOffset ?? 0) + view.byteLength
          <= min(data.count, document.buffers?[safe: view.buffer]?.byteLength ?? 0)
      else { return }
      values = Self.read(
        data, start: (view.byteOffset ?? 0) + offset, stride: stride, count: a.count, type: type, component: component)
    } else {
      values = [Double](repeating: 0, count: a.count * n)  // no buffer view: all zeros (§3.6.2.3)
    }
    if component == .float, let k = values.firstIndex(where: { !$0.isFinite }) {
      fail(loc, "element \(k / n) component \(k % n) is \(values[k]) (float data must be finite)")
      accessorValues[i] = values
      return
    }
    // Bounds are checked on the stored values: "the normalized flag has no effect on these properties".
    checkBounds(i, values: values, componentCount: n, isFloat: component == .float)
    if a.normalized == true {
      if component == .float || component == .unsignedInt {
        fail(loc, "normalized must not be true for \(component) components")
      } else {
        values = values.map { Self.normalize($0, component) }
      }
    }
    accessorValues[i] = values
  }

  /// `min`/`max` must equal the smallest/largest stored component values (§3.6.2.5: integers as
  /// stored even when `normalized`), compared in Float32 for floats.
  mutating func checkBounds(_ i: Int, values: [Double], componentCount n: Int, isFloat: Bool) {
    let a = accessors[i]
    var lo = [Double](repeating: .infinity, count: n)
    var hi = [Double](repeating: -.infinity, count: n)
    for (k, x) in values.enumerated() {
      lo[k % n] = Swift.min(lo[k % n], x)
      hi[k % n] = Swift.max(hi[k % n], x)
    }
    for (name, declared, actual) in [("min", a.min, lo), ("max", a.max, hi)] {
      guard let declared, declared.count == n else { continue }
      for c in 0..<n {
        let same: Bool
        if isFloat {
          let d = Float(declared[c])
          let x = Float(actual[c])
          same = d.isFinite && abs(d - x) <= 2 * x.ulp
        } else {
          same = declared[c] == actual[c]
        }
        if !same {
          fail("accessors[\(i)]", "\(name)[\(c)] is \(declared[c]) but the data's is \(actual[c])")
        }
      }
    }
  }

  static func normalize(_ x: Double, _ c: GLTFComponentType) -> Double {
    switch c {
    case .byte: Swift.max(x / 127, -1)
    case .unsignedByte: x / 255
    case .short: Swift.max(x / 32767, -1)
    case .unsignedShort: x / 65535
    case .unsignedInt: x / 4_294_967_295
    case .float: x
    }
  }

  /// Reads `count` elements, little-endian, with matrix column padding.
  static func read(
    _ data: Data, start: Int, stride: Int, count: Int, type: GLTFAccessorType, component: GLTFComponentType
  ) -> [Double] {
    let size = component.byteSize
    let rows: Int
    let columns: Int
    switch type {
    case .mat2: (rows, columns) = (2, 2)
    case .mat3: (rows, columns) = (3, 3)
    case .mat4: (rows, columns) = (4, 4)
    default: (rows, columns) = (type.componentCount, 1)
    }
    let columnStride = (rows * size + 3) / 4 * 4
    var out: [Double] = []
    out.reserveCapacity(count * rows * columns)
    data.withUnsafeBytes { raw in
      for e in 0..<count {
        for col in 0..<columns {
          for r in 0..<rows {
            let o = start + e * stride + (columns > 1 ? col * columnStride : 0) + r * size
            switch component {
            case .byte: out.append(Double(raw.load(fromByteOffset: o, as: Int8.self)))
            case .unsignedByte: out.append(Double(raw.load(fromByteOffset: o, as: UInt8.self)))
            case .short: out.append(Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: Int16.self))))
            case .unsignedShort:
              out.append(Double(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt16.self))))
            case .unsignedInt:
              out.append(Double(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self))))
            case .float:
              let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self))
              out.append(Double(Float(bitPattern: bits)))
            }
          }
        }
      }
    }
    return out
  }
}

extension Array {
  subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
