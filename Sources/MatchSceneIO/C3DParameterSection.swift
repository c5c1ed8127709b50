/// The records of a C3D parameter section (C3D User Guide, chapter 3): groups (negative id) and their
/// parameters (positive id), each record giving the byte offset to the next; the last offset is 0.
struct ParameterSection {
  private(set) var bytes: [UInt8] = []
  private var nextGroupID: Int8 = 1
  /// Byte offset in `bytes` of each record's "offset to next" field, to chain them.
  private var offsetFields: [Int] = []
  private var dataStartValueOffset: Int?

  /// Starts a group; returns its id for its parameters.
  mutating func group(_ name: String, _ description: String) -> Int8 {
    let id = nextGroupID
    nextGroupID += 1
    record(name: name, id: -id, body: [], description: description)
    return id
  }

  mutating func int16(_ group: Int8, _ name: String, _ values: [Int], _ description: String) {
    var data: [UInt8] = []
    for v in values {
      let u = UInt16(truncatingIfNeeded: v)
      data += [UInt8(u & 0xff), UInt8(u >> 8)]
    }
    let dims: [Int] = values.count == 1 ? [] : [values.count]
    let start = record(name: name, id: group, body: header(type: 2, dims: dims) + data, description: description)
    if name == "DATA_START" { dataStartValueOffset = start + 2 }  // after the type and dimension count bytes
  }

  mutating func float(_ group: Int8, _ name: String, _ values: [Float], _ description: String) {
    var data: [UInt8] = []
    for v in values {
      let b = v.bitPattern
      for k in 0..<4 { data.append(UInt8((b >> (8 * UInt32(k))) & 0xff)) }
    }
    let dims: [Int] = values.count == 1 ? [] : [values.count]
    record(name: name, id: group, body: header(type: 4, dims: dims) + data, description: description)
  }

  /// A character string (one dimension: its length).
  mutating func string(_ group: Int8, _ name: String, _ value: String, _ description: String) {
    let chars = Array(value.utf8.prefix(255))
    record(name: name, id: group, body: header(type: -1, dims: [max(1, chars.count)]) + (chars.isEmpty ? [32] : chars), description: description)
  }

  /// Strings padded with spaces to the longest (two dimensions: length, count).
  mutating func strings(_ group: Int8, _ name: String, _ values: [String], _ description: String) {
    let encoded = values.map { Array($0.utf8.prefix(255)) }
    let width = max(1, encoded.map(\.count).max() ?? 1)
    var data: [UInt8] = []
    for e in encoded { data += e + [UInt8](repeating: 32, count: width - e.count) }
    record(name: name, id: group, body: header(type: -1, dims: [width, values.count]) + data, description: description)
  }

  mutating func patchDataStart(_ block: Int) {
    guard let at = dataStartValueOffset else { return }
    let u = UInt16(truncatingIfNeeded: block)
    bytes[at] = UInt8(u & 0xff)
    bytes[at + 1] = UInt8(u >> 8)
  }

  private func header(type: Int8, dims: [Int]) -> [UInt8] {
    [UInt8(bitPattern: type), UInt8(dims.count)] + dims.map { UInt8(clamping: $0) }
  }

  /// Appends a record; returns the offset of its body in `bytes`. The previous record's "offset to
  /// next" is set to reach this one; this one's stays 0 until another follows.
  @discardableResult
  private mutating func record(name: String, id: Int8, body: [UInt8], description: String) -> Int {
    let nameBytes = Array(name.uppercased().utf8)
    let descriptionBytes = Array(description.utf8.prefix(255))
    bytes.append(UInt8(nameBytes.count))
    bytes.append(UInt8(bitPattern: id))
    bytes += nameBytes
    let offsetField = bytes.count
    bytes += [0, 0]
    let bodyStart = bytes.count
    bytes += body
    bytes.append(UInt8(descriptionBytes.count))
    bytes += descriptionBytes
    // Each record's offset counts from its own offset field to the next record's first byte.
    if let previous = offsetFields.last {
      let recordStart = offsetField - 2 - nameBytes.count
      let d = UInt16(recordStart - previous)
      bytes[previous] = UInt8(d & 0xff)
      bytes[previous + 1] = UInt8(d >> 8)
    }
    offsetFields.append(offsetField)
    return bodyStart
  }
}
