internal import CAssimp
import Foundation
import MatchSceneCore

/// In-place edits of a scene copy (`aiCopyScene`) that work around assimp 5.2 exporter bugs. They only
/// change values, never allocate or free assimp memory.
enum AssimpSceneEdits {
  /// Rewrites every animation with one tick per second (key times and duration in seconds). Animations
  /// whose tick rate is unknown (0) are left alone.
  ///
  /// Workaround: assimp 5.2's FBX and Collada exporters write key times as if ticks were seconds (FBX
  /// honours mTicksPerSecond only for the stack length), so the glTF importer's millisecond ticks come out
  /// 1000× too slow. Remove once both exporters divide key times by mTicksPerSecond.
  static func retimeToSeconds(_ scene: UnsafeMutablePointer<aiScene>) {
    for a in 0..<Int(scene.pointee.mNumAnimations) {
      guard let animation = scene.pointee.mAnimations[a] else { continue }
      let tps = animation.pointee.mTicksPerSecond
      guard tps > 0 else { continue }
      for c in 0..<Int(animation.pointee.mNumChannels) {
        guard let channel = animation.pointee.mChannels[c] else { continue }
        for k in 0..<Int(channel.pointee.mNumPositionKeys) { channel.pointee.mPositionKeys[k].mTime /= tps }
        for k in 0..<Int(channel.pointee.mNumRotationKeys) { channel.pointee.mRotationKeys[k].mTime /= tps }
        for k in 0..<Int(channel.pointee.mNumScalingKeys) { channel.pointee.mScalingKeys[k].mTime /= tps }
      }
      animation.pointee.mDuration /= tps
      animation.pointee.mTicksPerSecond = 1
    }
  }

  /// Rounds the duration of every animation of at least a second up to whole seconds; call after
  /// `retimeToSeconds`.
  ///
  /// Workaround: assimp 5.2's FBX exporter writes an animation stack's stop time in whole seconds,
  /// truncated (`to_ktime`: int64(ticks) / int64(ticksPerSecond); assimp issues #4556 and #5711), and
  /// its importer drops the keys after the stop: a 5.98 s match came back as 5 s. Rounded up, every
  /// key survives and the stack is less than a second longer than its keys. Shorter animations are left
  /// alone: their stop time truncates to 0, and the importer then takes the keys' extent. Remove once
  /// to_ktime keeps the fraction.
  static func roundDurationsUpToWholeSeconds(_ scene: UnsafeMutablePointer<aiScene>) {
    for a in 0..<Int(scene.pointee.mNumAnimations) {
      guard let animation = scene.pointee.mAnimations[a], animation.pointee.mTicksPerSecond == 1,
        animation.pointee.mDuration >= 1
      else { continue }
      animation.pointee.mDuration = animation.pointee.mDuration.rounded(.up)
    }
  }

  /// Moves the root node's rigid transform M into its children: each child's local transform becomes
  /// M · child, and the animation keys of those children are mapped the same way (positions p → R p + t,
  /// rotations q → q_R q; scales unchanged, which is exact because M has no scale). The root becomes the
  /// identity. A root transform with scale or shear is left alone.
  ///
  /// Workaround: assimp 5.2's FBX exporter writes the root node as FBX's implicit RootNode and drops its
  /// transform, which would lose MatchScene's z-up → y-up rotation. Remove once the exporter keeps it.
  static func bakeRootTransformIntoChildren(_ scene: UnsafeMutablePointer<aiScene>) {
    guard let root = scene.pointee.mRootNode else { return }
    let m = root.pointee.mTransformation
    let rotation = Matrix3(rowMajor: [m.a1, m.a2, m.a3, m.b1, m.b2, m.b3, m.c1, m.c2, m.c3].map { Double($0) })
    let translation = SIMD3(Double(m.a4), Double(m.b4), Double(m.c4))
    guard m.d1 == 0, m.d2 == 0, m.d3 == 0, m.d4 == 1, rotation.isRotation(tolerance: 1e-5) else { return }
    if rotation == .identity && translation == .zero { return }
    let rootTransform = RigidTransform(rotation: rotation, translation: translation)
    let q = Quaternion.fromMatrix(rotation)
    let qRoot = aiQuaternion(w: ai_real(q.w), x: ai_real(q.x), y: ai_real(q.y), z: ai_real(q.z))

    var childNames = Set<String>()
    for i in 0..<Int(root.pointee.mNumChildren) {
      guard let child = root.pointee.mChildren[i] else { continue }
      child.pointee.mTransformation = multiply(m, child.pointee.mTransformation)
      childNames.insert(child.pointee.mName.swiftString)
    }
    root.pointee.mTransformation = identity

    for a in 0..<Int(scene.pointee.mNumAnimations) {
      guard let animation = scene.pointee.mAnimations[a] else { continue }
      for c in 0..<Int(animation.pointee.mNumChannels) {
        guard let channel = animation.pointee.mChannels[c],
          childNames.contains(channel.pointee.mNodeName.swiftString)
        else { continue }
        for k in 0..<Int(channel.pointee.mNumPositionKeys) {
          let v = channel.pointee.mPositionKeys[k].mValue
          let p = rootTransform.apply(SIMD3(Double(v.x), Double(v.y), Double(v.z)))
          channel.pointee.mPositionKeys[k].mValue = aiVector3D(x: ai_real(p.x), y: ai_real(p.y), z: ai_real(p.z))
        }
        for k in 0..<Int(channel.pointee.mNumRotationKeys) {
          channel.pointee.mRotationKeys[k].mValue = multiply(qRoot, channel.pointee.mRotationKeys[k].mValue)
        }
      }
    }
  }

  static let identity = aiMatrix4x4(
    a1: 1, a2: 0, a3: 0, a4: 0, b1: 0, b2: 1, b3: 0, b4: 0, c1: 0, c2: 0, c3: 1, c4: 0, d1: 0, d2: 0, d3: 0, d4: 1)

  /// a · b for assimp's row-major 4×4 matrices.
  static func multiply(_ a: aiMatrix4x4, _ b: aiMatrix4x4) -> aiMatrix4x4 {
    let x = [a.a1, a.a2, a.a3, a.a4, a.b1, a.b2, a.b3, a.b4, a.c1, a.c2, a.c3, a.c4, a.d1, a.d2, a.d3, a.d4]
    let y = [b.a1, b.a2, b.a3, b.a4, b.b1, b.b2, b.b3, b.b4, b.c1, b.c2, b.c3, b.c4, b.d1, b.d2, b.d3, b.d4]
    var r = [ai_real](repeating: 0, count: 16)
    for i in 0..<4 {
      for j in 0..<4 {
        var s: ai_real = 0
        for k in 0..<4 { s += x[4 * i + k] * y[4 * k + j] }
        r[4 * i + j] = s
      }
    }
    return aiMatrix4x4(
      a1: r[0], a2: r[1], a3: r[2], a4: r[3], b1: r[4], b2: r[5], b3: r[6], b4: r[7], c1: r[8], c2: r[9],
      c3: r[10], c4: r[11], d1: r[12], d2: r[13], d3: r[14], d4: r[15])
  }

  /// Hamilton product a · b.
  static func multiply(_ a: aiQuaternion, _ b: aiQuaternion) -> aiQuaternion {
    aiQuaternion(
      w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
      x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
      z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
  }

  /// Puts every camera back to what the glTF file says, for the Collada exporter: the horizontal field
  /// of view 2 atan(tan(yfov / 2) · aspect), and the camera at its node's origin looking down −z with +y
  /// up (glTF 2.0 §3.10.1), so that its node transform alone places it.
  ///
  /// Workaround: assimp 5.2's glTF importer sets `mHorizontalFOV` to yfov · aspect (linear in the angle,
  /// 6° too wide at 16:9 and f = 1400 px), which the Collada exporter writes as `xfov`; and the exporter
  /// multiplies the camera's own look-at frame into the node matrix, which with the importer's camera
  /// position put the cameras about 6 m from their place in Blender. Remove once the importer converts
  /// the angle through its tangent and the exporter leaves a −z camera's node matrix alone.
  static func restoreGLTFCameras(_ scene: UnsafeMutablePointer<aiScene>) {
    for i in 0..<Int(scene.pointee.mNumCameras) {
      guard let camera = scene.pointee.mCameras[i] else { continue }
      let aspect = Double(camera.pointee.mAspect)
      if aspect > 0 {
        let yfov = Double(camera.pointee.mHorizontalFOV) / aspect
        camera.pointee.mHorizontalFOV = Float(2 * atan(tan(yfov / 2) * aspect))
      }
      camera.pointee.mPosition = aiVector3D(x: 0, y: 0, z: 0)
      camera.pointee.mLookAt = aiVector3D(x: 0, y: 0, z: -1)
      camera.pointee.mUp = aiVector3D(x: 0, y: 1, z: 0)
    }
  }
}
