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
    /// Scale 1 while the track is on stage, `MatchSceneGLTF.hiddenScale` before it appears, after it leaves and across
    /// gaps longer than `SceneOptions.hideGapsLongerThan` — so nobody stands frozen where last seen.
    case visibility(track: String)
    /// Translation follows one joint of one track `delay` frames late; scale `size` at frames whose
    /// delayed frame has data, `MatchSceneGLTF.hiddenScale` elsewhere (`SceneOptions.ballTrail`).
    case trail(track: String, joint: String, delay: Int, size: Float)
  }

  /// An accessor's data with its type, to share identical animation outputs (a limb's translation is
  /// its first joint's). Equal when the data are; the hash reads the count and at most 64 of the
  /// values (hashing every value of a 36,000-frame channel took a tenth of the export).
  struct OutputKey: Hashable {
    var components: Int
    var values: Stored

    func hash(into hasher: inout Hasher) {
      hasher.combine(components)
      switch values {
      case .floats(let v): Self.sample(v, into: &hasher)
      case .shorts(let v): Self.sample(v, into: &hasher)
      }
    }

    static func sample<T: Hashable>(_ v: [T], into hasher: inout Hasher) {
      hasher.combine(v.count)
      guard !v.isEmpty else { return }
      let step = max(1, v.count / 64)
      for i in stride(from: 0, to: v.count, by: step) { hasher.combine(v[i]) }
    }
  }

  var builder: GLTFBuilder
  let table: TrackTable
  let options: SceneOptions
  /// Animated nodes in the order their channels are written.
  var animated: [(node: Int, driver: Driver)] = []
  /// Animation outputs written so far, by content.
  var outputs: [OutputKey: Int] = [:]

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
    if let parts = options.venueMeshParts {
      let color = sport.venue.colors["table"] ?? SIMD3(1, 1, 1)
      let material = addMaterial("venue", color: color)
      for (k, part) in parts.enumerated() {
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

  /// A node per person (players and others alike, `extras.kind` telling which), named by track id, with
  /// a child per keypoint and per limb. With `SceneOptions.rigPlayers` the keypoint and limb nodes carry
  /// no mesh of their own: they are the joints of the player's skin, and the sphere and prism they drew
  /// are bound to them in the mesh of node `<track>/body` (`addSkin`), a child of `parent`.
  mutating func addPlayers(skeleton: Skeleton, parent: Int, firstFrame: Int?, rootFromWorld: Matrix3) throws {
    let people = table.trackIDs.filter { $0.kind != .ball }
    let players = people.map(\.id)
    guard let firstFrame, !players.isEmpty else { return }
    let rig = options.rigPlayers
    let sphereMesh = TriangleMesh.icosphere(radius: options.jointRadius, subdivisions: 1)
    let prismMesh = TriangleMesh.prismAlongY(radius: options.limbRadius, sides: 6)
    let sphere = rig ? nil : try addGeometry(sphereMesh, name: "joint")
    let prism = rig ? nil : try addGeometry(prismMesh, name: "limb")
    let start = firstFrame...firstFrame
    for (p, track) in players.enumerated() {
      let joints = skeleton.keypoints.filter { table.has(track: track, joint: $0) }
      guard !joints.isEmpty else { continue }
      let color = options.playerColors[p % options.playerColors.count]
      let material = addMaterial(track, color: color)
      let jointMesh = sphere.map {
        builder.addMesh(GLTFMesh(name: "\(track)/joint", primitives: [Self.primitive($0, material: material)]))
      }
      let limbMesh = prism.map {
        builder.addMesh(GLTFMesh(name: "\(track)/limb", primitives: [Self.primitive($0, material: material)]))
      }
      let playerNode = builder.addNode(
        GLTFNode(name: track, extras: ["track": .string(track), "kind": .string(people[p].kind.rawValue)]),
        parent: parent)
      animated.append((playerNode, .visibility(track: track)))
      var skinJoints: [SkinJoint] = []
      for joint in joints {
        let at = table.series(track: track, joint: joint, frames: start)![0]
        let node = builder.addNode(
          GLTFNode(name: joint, mesh: jointMesh, translation: MatchSceneGLTF.array(at)), parent: playerNode)
        animated.append((node, .point(track: track, joint: joint)))
        skinJoints.append(SkinJoint(node: node, rotation: .identity, translation: at, geometry: sphereMesh))
      }
      for (a, b) in skeleton.bones {
        let from = skeleton.keypoints[a]
        let to = skeleton.keypoints[b]
        guard joints.contains(from), joints.contains(to) else { continue }
        let pose = limbPoses(track: track, from: from, to: to, frames: start)
        // The node's own (rest) transform has no scale: importers that take it as a bone's rest and
        // express each key relative to it (Godot 3's rest⁻¹ · key, then a rotation and a scale) need an
        // orthonormal rest; a rest scaled (1, length, 1), or 0 where the first frame is hidden, shears
        // every key or cannot be inverted. The animation carries the limb's length from the first frame.
        let node = builder.addNode(
          GLTFNode(
            name: "\(track)/\(from)-\(to)", mesh: limbMesh, translation: pose.translation[0].array,
            rotation: pose.rotation[0].array),
          parent: playerNode)
        animated.append((node, .limb(track: track, from: from, to: to)))
        let q = pose.rotation[0]
        let t = pose.translation[0]
        skinJoints.append(
          SkinJoint(
            node: node, rotation: Quaternion.toMatrix(SIMD4(Double(q.x), Double(q.y), Double(q.z), Double(q.w))),
            translation: SIMD3(Double(t.x), Double(t.y), Double(t.z)), geometry: prismMesh))
      }
      if rig {
        try addSkin(
          track: track, playerNode: playerNode, joints: skinJoints, rootFromWorld: rootFromWorld, material: material,
          parent: parent)
      }
    }
  }

  mutating func addBalls(sport: SportSpec, parent: Int, firstFrame: Int?) throws {
    let balls = table.trackIDs.filter { $0.kind == .ball }.map(\.id)
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
          ?? table.joints(of: track).first
      else { continue }
      let at = table.series(track: track, joint: joint, frames: firstFrame...firstFrame)![0]
      let node = builder.addNode(
        GLTFNode(
          name: k == 0 ? MatchSceneGLTF.ballName : track, mesh: mesh, translation: MatchSceneGLTF.array(at),
          extras: ["track": .string(track), "kind": .string(TrackKind.ball.rawValue)]),
        parent: parent)
      animated.append((node, .point(track: track, joint: joint)))
      if k == 0 && options.ballTrail > 0 {
        try addTrail(track: track, joint: joint, geometry: geometry, color: color, at: at, parent: parent)
      }
    }
  }

  /// The ball's trail (`SceneOptions.ballTrail`): `ballTrailSpheres` nodes `ball/trail-k` beside the
  /// ball, sphere k of N delayed by max(k, round(k/N · ballTrail · fps)) frames, scaled by 1 − k/(N + 1)
  /// and drawn with alpha 1 − k/(N + 1) (`alphaMode` BLEND, §3.9.4), so the trail shrinks and fades.
  mutating func addTrail(
    track: String, joint: String, geometry: Geometry, color: SIMD3<Double>, at: SIMD3<Double>, parent: Int
  ) throws {
    let n = options.ballTrailSpheres
    let frames = options.ballTrail * table.fps
    for k in 1...n {
      let fade = 1 - Double(k) / Double(n + 1)
      let material = builder.addMaterial(
        GLTFMaterial(
          name: "\(MatchSceneGLTF.ballName)/trail-\(k)",
          pbrMetallicRoughness: GLTFPBRMetallicRoughness(
            baseColorFactor: [Float(color.x), Float(color.y), Float(color.z), Float(fade)], metallicFactor: 0,
            roughnessFactor: 0.8),
          alphaMode: "BLEND"))
      let mesh = builder.addMesh(
        GLTFMesh(name: "\(MatchSceneGLTF.ballName)/trail-\(k)", primitives: [Self.primitive(geometry, material: material)]))
      let delay = max(k, Int((Double(k) / Double(n) * frames).rounded()))  // frames ≤ 60 s · fps: SceneOptions.check
      let size = Float(fade)
      let node = builder.addNode(
        GLTFNode(
          name: "\(MatchSceneGLTF.ballName)/trail-\(k)", mesh: mesh, translation: MatchSceneGLTF.array(at),
          scale: [size, size, size], extras: ["track": .string(track), "delaySeconds": .number(Double(delay) / table.fps)]),
        parent: parent)
      animated.append((node, .trail(track: track, joint: joint, delay: delay, size: size)))
    }
  }

  // MARK: - Cameras

  /// A glTF camera at `camera`'s pose. glTF cameras look down local −z with +y up (§3.10.1); OpenCV cameras
  /// look down +z with +y down, so the node's rotation is worldFromCam.rotation · diag(1, −1, −1).
  /// yfov = 2 atan(h / 2fy), aspectRatio = w / h (§3.10.3); the node's extras carry the rest of the
  /// calibration (`Camera.gltfExtras`: image size, principal point, distortion).
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
        rotation: MatchSceneGLTF.array(q), extras: camera.gltfExtras),
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
}

extension SIMD3<Float> {
  var array: [Float] { [x, y, z] }
}

extension SIMD4<Float> {
  var array: [Float] { [x, y, z, w] }
}
