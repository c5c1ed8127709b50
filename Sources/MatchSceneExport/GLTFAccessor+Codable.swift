extension GLTFAccessor {
  /// Encodes the accessor as the schema has it (§5.1), with the `min` and `max` of FLOAT accessors
  /// written as the shortest decimals that read back as the same Float32 ("JSON-stored minimum and
  /// maximum values represent single precision floats", §3.6.2.5): `0.3`, not `0.30000001192092896`.
  /// Integer bounds are written as integers.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeIfPresent(name, forKey: .name)
    try c.encodeIfPresent(bufferView, forKey: .bufferView)
    try c.encodeIfPresent(byteOffset, forKey: .byteOffset)
    try c.encode(componentType, forKey: .componentType)
    try c.encodeIfPresent(normalized, forKey: .normalized)
    try c.encode(count, forKey: .count)
    try c.encode(type, forKey: .type)
    if componentType == GLTFComponentType.float.rawValue {
      try c.encodeIfPresent(min?.map(Float.init), forKey: .min)
      try c.encodeIfPresent(max?.map(Float.init), forKey: .max)
    } else {
      try c.encodeIfPresent(min, forKey: .min)
      try c.encodeIfPresent(max, forKey: .max)
    }
  }
}
