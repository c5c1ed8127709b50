import Foundation

// The subset of the glTF 2.0 JSON schema MatchScene writes (Khronos glTF 2.0 specification, §5
// "Properties Reference"). Every array property is optional so that an empty array is never written
// (the schema requires `minItems: 1` for most of them); `GLTFDocument.pruned()` turns empty arrays into nil.
// Indices and enumerations stay plain `Int`/`String` so that `GLTFValidator` can decode and report bad values.

/// A whole glTF asset: the JSON part and its single binary buffer (`buffers[0]`).
public struct GLTFDocument: Sendable, Equatable, Codable {
  public var asset = GLTFAsset()
  public var scene: Int?
  public var scenes: [GLTFScene]?
  public var nodes: [GLTFNode]?
  public var meshes: [GLTFMesh]?
  public var materials: [GLTFMaterial]?
  public var cameras: [GLTFCamera]?
  public var accessors: [GLTFAccessor]?
  public var bufferViews: [GLTFBufferView]?
  public var buffers: [GLTFBuffer]?
  public var animations: [GLTFAnimation]?
  public var skins: [GLTFSkin]?
  /// Document-level extension objects by extension name (e.g. `KHR_lights_punctual`'s `lights`).
  public var extensions: JSONValue?
  public var extensionsUsed: [String]?
  public var extensionsRequired: [String]?
  public var extras: JSONValue?
  /// Bytes of `buffers[0]` (not part of the JSON), as the pieces they were built from (`GLTFBinary`:
  /// written one after another, never joined). Its length is `buffers[0].byteLength`.
  public var binaryPieces = GLTFBinary()

  /// Bytes of `buffers[0]` (not part of the JSON) as one `Data`: reading it joins `binaryPieces` (a copy;
  /// the writers use the pieces), setting it replaces them.
  public var binary: Data {
    get { binaryPieces.data }
    set { binaryPieces = GLTFBinary(newValue) }
  }

  public init() {}

  enum CodingKeys: String, CodingKey {
    case asset, scene, scenes, nodes, meshes, materials, cameras, accessors, bufferViews, buffers, animations
    case skins, extensions, extensionsUsed, extensionsRequired, extras
  }

  /// A copy with every empty array replaced by nil (so it is left out of the JSON).
  public func pruned() -> GLTFDocument {
    func p<T>(_ a: [T]?) -> [T]? { (a?.isEmpty ?? true) ? nil : a }
    var d = self
    d.scenes = p(scenes)
    d.nodes = p(
      nodes?.map { n in
        var n = n
        n.children = p(n.children)
        return n
      })
    d.meshes = p(meshes)
    d.materials = p(materials)
    d.cameras = p(cameras)
    d.accessors = p(accessors)
    d.bufferViews = p(bufferViews)
    d.buffers = p(buffers)
    d.animations = p(animations)
    d.skins = p(skins)
    d.extensionsUsed = p(extensionsUsed)
    d.extensionsRequired = p(extensionsRequired)
    d.scenes = d.scenes?.map { s in
      var s = s
      s.nodes = p(s.nodes)
      return s
    }
    return d
  }
}

/// `asset` (§5.2): the glTF version and the generator.
public struct GLTFAsset: Sendable, Equatable, Codable {
  public var version: String
  public var generator: String?
  public var copyright: String?
  public init(version: String = "2.0", generator: String? = "MatchScene", copyright: String? = nil) {
    self.version = version
    self.generator = generator
    self.copyright = copyright
  }
}

/// `scene` (§5.27): the root nodes to render.
public struct GLTFScene: Sendable, Equatable, Codable {
  public var name: String?
  public var nodes: [Int]?
  public var extras: JSONValue?
  public init(name: String? = nil, nodes: [Int]? = nil, extras: JSONValue? = nil) {
    self.name = name
    self.nodes = nodes
    self.extras = extras
  }
}

/// `node` (§5.25). Translation, rotation (unit quaternion x, y, z, w) and scale compose as T·R·S (§3.5.3).
public struct GLTFNode: Sendable, Equatable, Codable {
  public var name: String?
  public var children: [Int]?
  public var mesh: Int?
  public var camera: Int?
  public var translation: [Float]?
  public var rotation: [Float]?
  public var scale: [Float]?
  /// The skin (§5.28) that deforms `mesh`; the node's own transform is then ignored (§3.7.3.1).
  public var skin: Int?
  /// Node-level extension objects (e.g. `KHR_lights_punctual`: `{"light": 0}`).
  public var extensions: JSONValue?
  public var extras: JSONValue?
  public init(
    name: String? = nil, children: [Int]? = nil, mesh: Int? = nil, camera: Int? = nil,
    translation: [Float]? = nil, rotation: [Float]? = nil, scale: [Float]? = nil, skin: Int? = nil,
    extensions: JSONValue? = nil, extras: JSONValue? = nil
  ) {
    self.name = name
    self.children = children
    self.mesh = mesh
    self.camera = camera
    self.skin = skin
    self.extensions = extensions
    self.translation = translation
    self.rotation = rotation
    self.scale = scale
    self.extras = extras
  }
}

/// `skin` (§5.28, §3.7.3): the nodes used as joints and, per joint, the inverse bind matrix (a MAT4
/// Float32 accessor, column-major) taking the mesh's coordinates into the joint's space at bind time.
/// A vertex ends up at Σ weight · globalTransform(joint) · inverseBind(joint) · v; the transform of the
/// node holding the mesh is ignored. `skeleton` is the common root of the joints.
public struct GLTFSkin: Sendable, Equatable, Codable {
  public var name: String?
  public var inverseBindMatrices: Int?
  public var skeleton: Int?
  public var joints: [Int]
  public init(name: String? = nil, inverseBindMatrices: Int? = nil, skeleton: Int? = nil, joints: [Int]) {
    self.name = name
    self.inverseBindMatrices = inverseBindMatrices
    self.skeleton = skeleton
    self.joints = joints
  }
}

/// `mesh` (§5.23).
public struct GLTFMesh: Sendable, Equatable, Codable {
  public var name: String?
  public var primitives: [GLTFPrimitive]
  public init(name: String? = nil, primitives: [GLTFPrimitive]) {
    self.name = name
    self.primitives = primitives
  }
}

/// `mesh.primitive` (§5.24). `mode` 4 (TRIANGLES) is the default and is left out.
public struct GLTFPrimitive: Sendable, Equatable, Codable {
  public static let triangles = 4
  public var attributes: [String: Int]
  public var indices: Int?
  public var material: Int?
  public var mode: Int?
  public init(attributes: [String: Int], indices: Int? = nil, material: Int? = nil, mode: Int? = nil) {
    self.attributes = attributes
    self.indices = indices
    self.material = material
    self.mode = mode
  }
}

/// `material` (§5.19) with its `pbrMetallicRoughness` (§5.22).
/// `alphaMode` "BLEND" makes the base colour's alpha a transparency (§3.9.4); nil means "OPAQUE".
public struct GLTFMaterial: Sendable, Equatable, Codable {
  public var name: String?
  public var pbrMetallicRoughness: GLTFPBRMetallicRoughness?
  public var doubleSided: Bool?
  public var alphaMode: String?
  public init(
    name: String? = nil, pbrMetallicRoughness: GLTFPBRMetallicRoughness? = nil, doubleSided: Bool? = nil,
    alphaMode: String? = nil
  ) {
    self.name = name
    self.pbrMetallicRoughness = pbrMetallicRoughness
    self.doubleSided = doubleSided
    self.alphaMode = alphaMode
  }
}

/// `material.pbrMetallicRoughness` (§5.22): linear RGBA base colour, metalness and roughness in [0, 1].
public struct GLTFPBRMetallicRoughness: Sendable, Equatable, Codable {
  public var baseColorFactor: [Float]?
  public var metallicFactor: Float?
  public var roughnessFactor: Float?
  public init(baseColorFactor: [Float]? = nil, metallicFactor: Float? = nil, roughnessFactor: Float? = nil) {
    self.baseColorFactor = baseColorFactor
    self.metallicFactor = metallicFactor
    self.roughnessFactor = roughnessFactor
  }
}

/// `camera` (§5.12, §3.10). MatchScene writes only perspective cameras.
public struct GLTFCamera: Sendable, Equatable, Codable {
  public var name: String?
  public var type: String
  public var perspective: GLTFPerspective?
  public init(name: String? = nil, perspective: GLTFPerspective) {
    self.name = name
    self.type = "perspective"
    self.perspective = perspective
  }
}

/// `camera.perspective` (§5.14): vertical field of view (radians), width/height, clip distances (metres).
/// A nil `zfar` asks for an infinite projection (§3.10.3).
public struct GLTFPerspective: Sendable, Equatable, Codable {
  public var yfov: Double
  public var aspectRatio: Double?
  public var znear: Double
  public var zfar: Double?
  public init(yfov: Double, aspectRatio: Double?, znear: Double, zfar: Double?) {
    self.yfov = yfov
    self.aspectRatio = aspectRatio
    self.znear = znear
    self.zfar = zfar
  }
}

/// `accessor` (§5.1, §3.6.2): a typed view of a buffer view.
public struct GLTFAccessor: Sendable, Equatable, Codable {
  public var name: String?
  public var bufferView: Int?
  public var byteOffset: Int?
  public var componentType: Int
  public var normalized: Bool?
  public var count: Int
  public var type: String
  public var min: [Double]?
  public var max: [Double]?

  enum CodingKeys: String, CodingKey {
    case name, bufferView, byteOffset, componentType, normalized, count, type, min, max
  }

  public init(
    name: String? = nil, bufferView: Int?, byteOffset: Int? = nil, componentType: Int, normalized: Bool? = nil,
    count: Int, type: String, min: [Double]? = nil, max: [Double]? = nil
  ) {
    self.name = name
    self.bufferView = bufferView
    self.byteOffset = byteOffset
    self.componentType = componentType
    self.normalized = normalized
    self.count = count
    self.type = type
    self.min = min
    self.max = max
  }
}

/// `bufferView` (§5.11): a byte range of a buffer. `target` 34962 (ARRAY_BUFFER) for vertex attributes,
/// 34963 (ELEMENT_ARRAY_BUFFER) for indices, nil for animation data.
public struct GLTFBufferView: Sendable, Equatable, Codable {
  public static let arrayBuffer = 34962
  public static let elementArrayBuffer = 34963
  public var name: String?
  public var buffer: Int
  public var byteOffset: Int?
  public var byteLength: Int
  public var byteStride: Int?
  public var target: Int?
  public init(
    name: String? = nil, buffer: Int, byteOffset: Int?, byteLength: Int, byteStride: Int? = nil, target: Int? = nil
  ) {
    self.name = name
    self.buffer = buffer
    self.byteOffset = byteOffset
    self.byteLength = byteLength
    self.byteStride = byteStride
    self.target = target
  }
}

/// `buffer` (§5.10). In a GLB the first buffer has no `uri` and lives in the BIN chunk (§4.4.3.3).
public struct GLTFBuffer: Sendable, Equatable, Codable {
  public var name: String?
  public var uri: String?
  public var byteLength: Int
  public init(name: String? = nil, uri: String? = nil, byteLength: Int) {
    self.name = name
    self.uri = uri
    self.byteLength = byteLength
  }
}

/// `animation` (§5.5, §3.11): channels that drive node properties from samplers.
public struct GLTFAnimation: Sendable, Equatable, Codable {
  public var name: String?
  public var channels: [GLTFAnimationChannel]
  public var samplers: [GLTFAnimationSampler]
  public var extras: JSONValue?
  public init(
    name: String? = nil, channels: [GLTFAnimationChannel], samplers: [GLTFAnimationSampler], extras: JSONValue? = nil
  ) {
    self.name = name
    self.channels = channels
    self.samplers = samplers
    self.extras = extras
  }
}

/// `animation.channel` (§5.6) with its target (§5.7): `path` is translation, rotation, scale or weights.
public struct GLTFAnimationChannel: Sendable, Equatable, Codable {
  public struct Target: Sendable, Equatable, Codable {
    public var node: Int?
    public var path: String
    public init(node: Int?, path: String) {
      self.node = node
      self.path = path
    }
  }
  public var sampler: Int
  public var target: Target
  public init(sampler: Int, node: Int, path: GLTFAnimationPath) {
    self.sampler = sampler
    self.target = Target(node: node, path: path.rawValue)
  }
}

/// Node property an animation channel drives (§5.7 `path`).
public enum GLTFAnimationPath: String, Sendable, CaseIterable {
  case translation, rotation, scale, weights
}

/// `animation.sampler` (§5.8): keyframe times (`input`, seconds) and values (`output`).
public struct GLTFAnimationSampler: Sendable, Equatable, Codable {
  public var input: Int
  public var interpolation: String?
  public var output: Int
  public init(input: Int, interpolation: GLTFInterpolation = .linear, output: Int) {
    self.input = input
    self.interpolation = interpolation.rawValue
    self.output = output
  }
}

/// Keyframe interpolation (§3.11 "Animations", §5.8 `interpolation`).
public enum GLTFInterpolation: String, Sendable, CaseIterable {
  case linear = "LINEAR"
  case step = "STEP"
  case cubicSpline = "CUBICSPLINE"
}
