/// `accessor.componentType` values (glTF 2.0 §3.6.2.2, §5.1): the OpenGL enums of the component types.
public enum GLTFComponentType: Int, Sendable, CaseIterable {
  case byte = 5120
  case unsignedByte = 5121
  case short = 5122
  case unsignedShort = 5123
  case unsignedInt = 5125
  case float = 5126

  /// Size of one component in bytes.
  public var byteSize: Int {
    switch self {
    case .byte, .unsignedByte: 1
    case .short, .unsignedShort: 2
    case .unsignedInt, .float: 4
    }
  }
}

/// `accessor.type` values (glTF 2.0 §3.6.2.2): how many components make one element.
public enum GLTFAccessorType: String, Sendable, CaseIterable {
  case scalar = "SCALAR"
  case vec2 = "VEC2"
  case vec3 = "VEC3"
  case vec4 = "VEC4"
  case mat2 = "MAT2"
  case mat3 = "MAT3"
  case mat4 = "MAT4"

  public var componentCount: Int {
    switch self {
    case .scalar: 1
    case .vec2: 2
    case .vec3: 3
    case .vec4, .mat2: 4
    case .mat3: 9
    case .mat4: 16
    }
  }
}
