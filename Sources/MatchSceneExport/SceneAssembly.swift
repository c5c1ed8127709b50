import Foundation
import MatchSceneAssets
import MatchSceneCore

/// The state of one `MatchSceneGLTF.build` call: the builder and the nodes still to animate.
struct SceneAssembly {
  /// What drives an animated node.
  enum Driver {
    /// Translation follows one joint of one track.
    case point(track: String, joint: String)
    /// Translation at `from`, rotation turning +y towards `to`, scale (1, |to − from|, 1).
    case limb(track: String, from: String, to: String)
    /// Scale 1 while the track is on stage, 0 (hidden) before it appears, after it leaves and across
    /// gaps longer than `SceneOptions.hideGapsLongerThan` — so nobody stands frozen where last seen.
    case visibility(track: String)
  }

  var builder: GLTFBuilder
  let table: TrackTable
  let options: SceneOptions
  /// Animated nodes in the order their channels are written.
  var animated: [(node: Int, driver: Driver)] = []

  init(builder: GLTFBuilder, table: TrackTable, options: SceneOptions) {
    self.builder = builder
    self.table = table
    self.options = options
  }

  /// Shortest bone length used for a limb's scale, metres: keeps the node matrix invertible when two
  /// joints coincide.
  static let minimumLimbLength = 1e-4

  // MARK: - Geometry helpers

  /// Accessors of a mesh's vertices and triangles.
  struct Geometry {
    var position: Int
    var normal: Int
    var indices: Int
  }

  mutating func addGeometry(_ mesh: TriangleMesh, name: String) throws -> Geometry {
    Geometry(
      position: try builder.addVec3(
        mesh.positions.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) }, usage: .vertexAttribute,
        name: "\(name)/POSITION"),
      normal: try builder.addVec3(
        mesh.normals.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) }, usage: .vertexAttribute,
        name: "\(name)/NORMAL"),
      indices: try builder.addIndices(mesh.indices, name: "\(name)/indices"))
  }

  static func primitive(_ g: Geometry, material: Int) -> GLTFPrimitive {
    GLTFPrimitive(attributes: ["POSITION": g.position, "NORMAL": g.normal], indices: g.indices, material: material)
  }

  /// A matte, non-metallic material of linear RGB `color`.
  mutating func addMaterial(_ name: String, color: SIMD3<Double>, doubleSided: Bool = false) -> Int {
    builder.addMaterial(
      GLTFMaterial(
        name: name,
        pbrMetallicRoughness: GLTFPBRMetallicRoughness(
          baseColorFactor: [Float(color.x), Float(color.y), Float(color.z), 1], metallicFactor: 0,
          roughnessFactor: 0.8),
        doubleSided: doubleSided ? true : nil))
  }

  // MARK: - Venue

  mutating func addVenue(sport: SportSpec, parent: Int) throws {
    var primitives: [GLTFPrimitive] = []
    if let url = options.venueMesh {
      let color = sport.venue.colors["table"] ?? SIMD3(1, 1, 1)
      let material = addMaterial("venue", color: color)
      for (k, part) in try Assimp.loadMesh(url).enumerated() {
        let g = Geometry(
          position: try builder.addVec3(part.positions, usage: .vertexAttribute, name: "venue/\(k)/POSITION"),
          normal: try builder.addVec3(part.normals, usage: .vertexAttribute, name: "venue/\(k)/NORMAL"),
          indices: try builder.addIndices(part.indices, name: "venue/\(k)/indices"))
        primitives.append(Self.primitive(g, material: material))
      }
    } else {
      for part in try VenueGeometry.parts(of: sport) {
        let material = addMaterial(part.name, color: sport.venue.colors[part.colorKey]!, doubleSided: part.doubleSided)
        primitives.append(Self.primitive(try addGeometry(part.mesh, name: "venue/\(part.name)"), material: material))
      }
    }
    guard !primitives.isEmpty else { return }
    let mesh = builder.addMesh(GLTFMesh(name: MatchSceneGLTF.venueName, primitives: primitives))
    _ = builder.addNode(GLTFNode(name: MatchSceneGLTF.venueName, mesh: mesh), parent: parent)
  }

  // MARK: - Players and ball

  mutating func addPlayers(_ reconstruction: Reconstruction, parent: Int, firstFrame: Int?) throws {
    let players = reconstruction.trackIDs.filter { $0.kind == .player }.map(\.id)
    guard let firstFrame, !players.isEmpty else { return }
    let skeleton = reconstruction.skeleton
    let sphere = try addGeometry(.icosphere(radius: options.jointRadius, subdivisions: 1), name: "joint")
    let prism = try addGeometry(.prismAlongY(radius: options.limbRadius, sides: 6), name: "limb")
    let start = firstFrame...firstFrame
    for (p, track) in players.enumerated() {
      let joints = skeleton.keypoints.filter { table.has(track: track, joint: $0) }
      guard !joints.isEmpty else { continue }
      let color = options.playerColors[p % options.playerColors.count]
      let material = addMaterial(track, color: color)
      let jointMesh = builder.addMesh(
        GLTFMesh(name: "\(track)/joint", primitives: [Self.primitive(sphere, material: material)]))
      let limbMesh = builder.addMesh(
        GLTFMesh(name: "\(track)/limb", primitives: [Self.primitive(prism, material: material)]))
      let playerNode = builder.addNode(
        GLTFNode(name: track, extras: ["track": .string(track), "kind": .string(TrackKind.player.rawValue)]),
        parent: parent)
      animated.append((playerNode, .visibility(track: track)))
      for joint in joints {
        let at = table.series(track: track, joint: joint, frames: start)![0]
        let node = builder.addNode(
          GLTFNode(name: joint, mesh: jointMesh, translation: MatchSceneGLTF.array(at)), parent: playerNode)
        animated.append((node, .point(track: track, joint: joint)))
      }
      for (a, b) in skeleton.bones {
        let from = skeleton.keypoints[a]
        let to = skeleton.keypoints[b]
        guard joints.contains(from), joints.contains(to) else { continue }
        let pose = limbPoses(track: track, from: from, to: to, frames: start)
        let node = builder.addNode(
          GLTFNode(
            name: "\(track)/\(from)-\(to)", mesh: limbMesh, translation: pose.translation[0].array,
            rotation: pose.rotation[0].array, scale: pose.scale[0].array),
          parent: playerNode)
        animated.append((node, .limb(track: track, from: from, to: to)))
      }
    }
  }

  mutating func addBalls(_ reconstruction: Reconstruction, sport: SportSpec, parent: Int, firstFrame: Int?) throws {
    let balls = reconstruction.trackIDs.filter { $0.kind == .ball }.map(\.id)
    guard let firstFrame, !balls.isEmpty else { return }
    guard let color = sport.venue.colors["ball"] else {
      throw InputError(file: "sports/\(sport.id).toml", location: .key("colors.ball"), "missing colour")
    }
    let material = addMaterial(MatchSceneGLTF.ballName, color: color)
    let geometry = try addGeometry(.icosphere(radius: sport.ball.radius, subdivisions: 1), name: "ball")
    let mesh = builder.addMesh(
      GLTFMesh(name: MatchSceneGLTF.ballName, primitives: [Self.primitive(geometry, material: material)]))
    for (k, track) in balls.enumerated() {
      // The ball track carries joint `ball`; take whatever joint it has.
      guard
        let joint = ["ball"].first(where: { table.has(track: track, joint: $0) })
          ?? reconstruction.points.first(where: { $0.track == track })?.joint
      else { continue }
      let at = table.series(track: track, joint: joint, frames: firstFrame...firstFrame)![0]
      let node = builder.addNode(
        GLTFNode(
          name: k == 0 ? MatchSceneGLTF.ballName : track, mesh: mesh, translation: MatchSceneGLTF.array(at),
          extras: ["track": .string(track), "kind": .string(TrackKind.ball.rawValue)]),
        parent: parent)
      animated.append((node, .point(track: track, joint: joint)))
    }
  }

  // MARK: - Cameras

  /// A glTF camera at `camera`'s pose. glTF cameras look down local −z with +y up (§3.10.1); OpenCV cameras
  /// look down +z with +y down, so the node's rotation is worldFromCam.rotation · diag(1, −1, −1).
  /// yfov = 2 atan(h / 2fy), aspectRatio = w / h (§3.10.3).
  mutating func addCamera(_ camera: Camera, parent: Int) throws {
    let w = Double(camera.imageSize.width)
    let h = Double(camera.imageSize.height)
    guard w > 0, h > 0, camera.fy.isFinite, camera.fy > 0, camera.camFromWorld.rotation.isRotation(tolerance: 1e-5),
      camera.camFromWorld.translation.x.isFinite, camera.camFromWorld.translation.y.isFinite,
      camera.camFromWorld.translation.z.isFinite
    else { throw GLTFError("camera \(camera.name): invalid image size, focal length or pose") }
    let index = builder.addCamera(
      GLTFCamera(
        name: camera.name,
        perspective: GLTFPerspective(
          yfov: 2 * atan(h / (2 * camera.fy)), aspectRatio: w / h, znear: options.cameraZNear,
          zfar: options.cameraZFar)))
    let worldFromCam = camera.worldFromCam
    let flip = Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1])
    let q = Quaternion.float32(Quaternion.fromMatrix(worldFromCam.rotation * flip))
    _ = builder.addNode(
      GLTFNode(
        name: camera.name, camera: index, translation: MatchSceneGLTF.array(worldFromCam.translation),
        rotation: MatchSceneGLTF.array(q)),
      parent: parent)
  }

  // MARK: - Animation

  /// Translation, rotation and scale of a limb prism at each frame: it starts at joint `from` and its
  /// +y axis reaches joint `to`. Consecutive quaternions are kept in the same hemisphere.
  func limbPoses(track: String, from: String, to: String, frames: ClosedRange<Int>)
    -> (translation: [SIMD3<Float>], rotation: [SIMD4<Float>], scale: [SIMD3<Float>])
  {
    let a = table.series(track: track, joint: from, frames: frames)!
    let b = table.series(track: track, joint: to, frames: frames)!
    var t: [SIMD3<Float>] = []
    var r: [SIMD4<Float>] = []
    var s: [SIMD3<Float>] = []
    var previous = SIMD4<Double>(0, 0, 0, 1)
    for k in a.indices {
      let d = b[k] - a[k]
      let l = length(d)
      var q = l > Self.minimumLimbLength ? Quaternion.rotation(from: SIMD3(0, 1, 0), to: d / l) : previous
      if (q * previous).sum() < 0 { q = -q }
      previous = q
      t.append(SIMD3(Float(a[k].x), Float(a[k].y), Float(a[k].z)))
      r.append(Quaternion.float32(q))
      s.append(SIMD3(1, Float(max(l, Self.minimumLimbLength)), 1))
    }
    return (t, r, s)
  }

  /// Adds animation `name` over `frames`: one shared time accessor `(frame − lowerBound) / fps`, and a
  /// sampler and channel per animated property.
  mutating func addAnimation(name: String, frames: ClosedRange<Int>, fps: Double) throws {
    guard !animated.isEmpty else { return }
    let times = frames.map { Float(Double($0 - frames.lowerBound) / fps) }
    for k in times.indices.dropFirst() where !(times[k] > times[k - 1]) {
      throw GLTFError("animation \(name): times \(times[k - 1]) and \(times[k]) s are equal in Float32")
    }
    let input = try builder.addScalars(times, name: "\(name)/time")
    var channels: [GLTFAnimationChannel] = []
    var samplers: [GLTFAnimationSampler] = []
    func add(_ output: Int, node: Int, path: GLTFAnimationPath) {
      samplers.append(GLTFAnimationSampler(input: input, interpolation: options.interpolation, output: output))
      channels.append(GLTFAnimationChannel(sampler: samplers.count - 1, node: node, path: path))
    }
    // Constant identity rotation and unit scale, shared by every translation-only node (see
    // `SceneOptions.completeTransformChannels`).
    var constant: (rotation: Int, scale: Int)?
    var zeroTranslation: Int?
    if options.completeTransformChannels,
      animated.contains(where: { if case .limb = $0.driver { false } else { true } })
    {
      let rotation = try builder.addVec4(
        Array(repeating: SIMD4(0, 0, 0, 1), count: times.count), usage: .animation, name: "\(name)/identity-rotation")
      let scale = try builder.addVec3(
        Array(repeating: SIMD3(1, 1, 1), count: times.count), usage: .animation, name: "\(name)/unit-scale")
      samplers.append(GLTFAnimationSampler(input: input, interpolation: .step, output: rotation))
      samplers.append(GLTFAnimationSampler(input: input, interpolation: .step, output: scale))
      constant = (samplers.count - 2, samplers.count - 1)
      if animated.contains(where: { if case .visibility = $0.driver { true } else { false } }) {
        let zero = try builder.addVec3(
          Array(repeating: SIMD3(0, 0, 0), count: times.count), usage: .animation, name: "\(name)/zero-translation")
        samplers.append(GLTFAnimationSampler(input: input, interpolation: .step, output: zero))
        zeroTranslation = samplers.count - 1
      }
    }
    for (node, driver) in animated {
      switch driver {
      case .point(let track, let joint):
        let p = table.series(track: track, joint: joint, frames: frames)!
        let output = try builder.addVec3(
          p.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) }, usage: .animation,
          name: "\(name)/\(track)/\(joint)")
        add(output, node: node, path: .translation)
        if let constant {
          channels.append(GLTFAnimationChannel(sampler: constant.rotation, node: node, path: .rotation))
          channels.append(GLTFAnimationChannel(sampler: constant.scale, node: node, path: .scale))
        }
      case .limb(let track, let from, let to):
        let pose = limbPoses(track: track, from: from, to: to, frames: frames)
        let label = "\(name)/\(track)/\(from)-\(to)"
        add(
          try builder.addVec3(pose.translation, usage: .animation, name: "\(label)/T"), node: node, path: .translation)
        add(try builder.addVec4(pose.rotation, usage: .animation, name: "\(label)/R"), node: node, path: .rotation)
        add(try builder.addVec3(pose.scale, usage: .animation, name: "\(label)/S"), node: node, path: .scale)
      case .visibility(let track):
        let gap = Int((options.hideGapsLongerThan * fps).rounded())
        let scale = frames.map { table.present(track: track, frame: $0, gap: gap) ? SIMD3<Float>(1, 1, 1) : SIMD3<Float>(0, 0, 0) }
        let output = try builder.addVec3(scale, usage: .animation, name: "\(name)/\(track)/visible")
        samplers.append(GLTFAnimationSampler(input: input, interpolation: .step, output: output))
        channels.append(GLTFAnimationChannel(sampler: samplers.count - 1, node: node, path: .scale))
        if let constant, let zeroTranslation {
          channels.append(GLTFAnimationChannel(sampler: zeroTranslation, node: node, path: .translation))
          channels.append(GLTFAnimationChannel(sampler: constant.rotation, node: node, path: .rotation))
        }
      }
    }
    _ = builder.addAnimation(
      GLTFAnimation(
        name: name, channels: channels, samplers: samplers,
        extras: [
          "firstFrame": .number(Double(frames.lowerBound)), "lastFrame": .number(Double(frames.upperBound)),
          "fps": .number(fps),
        ]))
  }
}

extension SIMD3<Float> {
  var array: [Float] { [x, y, z] }
}

extension SIMD4<Float> {
  var array: [Float] { [x, y, z, w] }
}
