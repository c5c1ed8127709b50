import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneAssimp

/// Rotations stored as normalised SHORTs (`RotationEncoding.normalizedShort`): what a viewer decodes
/// and interpolates stays within the keyframe tolerance of the Float32 scene at every frame, and
/// readers other than ours still read the file.
final class QuantisedRotationTests: XCTestCase {
  static let clip = (name: "rally-01", frames: 25...45)

  /// The synthetic match with P1's right forearm swinging about the elbow (±1.2 rad about x at an
  /// uneven speed), so that its rotation needs keys.
  static func swinging() -> MotionModel {
    var r = SyntheticScene.points()
    for i in r.indices where r[i].track == "P1" && r[i].joint == "right_wrist" {
      let t = Double(r[i].frame - SyntheticScene.firstFrame) / SyntheticScene.fps
      let elbow = SyntheticScene.playerJoint(0, "right_elbow", t: t)
      let f = SyntheticScene.playerJoint(0, "right_wrist", t: t) - elbow
      let a = 1.2 * sin(2 * .pi * 0.7 * t)
      r[i].position = elbow + SIMD3(f.x, f.y * cos(a) - f.z * sin(a), f.y * sin(a) + f.z * cos(a))
    }
    return SyntheticScene.motion(r)
  }

  static func document(_ encoding: RotationEncoding, tolerance: Double) throws -> GLTFDocument {
    var options = SceneOptions(clips: [clip])
    options.rotationEncoding = encoding
    options.keyframeTolerance = tolerance
    return try SyntheticScene.document(swinging(), options: options)
  }

  // MARK: - A viewer's arithmetic (three.js r111), written out independently of the exporter

  /// `Quaternion.slerpFlat` of three.js r111: no normalisation of the inputs.
  static func threeSlerp(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] {
    if a == b { return a }
    var s = 1 - t, t = t
    let cos = zip(a, b).map(*).reduce(0, +)
    let dir: Double = cos >= 0 ? 1 : -1
    let sqrSin = 1 - cos * cos
    if sqrSin > Double.ulpOfOne {
      let sin = sqrSin.squareRoot()
      let len = atan2(sin, cos * dir)
      s = Foundation.sin(s * len) / sin
      t = Foundation.sin(t * len) / sin
    }
    var r = zip(a, b).map { $0 * s + $1 * t * dir }
    if s == 1 - t {
      let f = 1 / r.map { $0 * $0 }.reduce(0, +).squareRoot()
      r = r.map { $0 * f }
    }
    return r
  }

  /// The sampler's rotation at `time` as three.js interpolates the decoded keys.
  static func threeRotation(_ doc: GLTFDocument, _ sampler: GLTFAnimationSampler, at time: Double) -> [Double] {
    let times = doc.floats(sampler.input).map(Double.init)
    let q = doc.values(sampler.output)
    func key(_ i: Int) -> [Double] { Array(q[(4 * i)..<(4 * i + 4)]) }
    guard let after = times.firstIndex(where: { $0 > time + 1e-9 }) else { return key(times.count - 1) }
    guard after > 0 else { return key(0) }
    return threeSlerp(key(after - 1), key(after), (time - times[after - 1]) / (times[after] - times[after - 1]))
  }

  /// Where the rotation matrix three.js builds from `q` as it is (`Matrix4.compose`) sends +y.
  static func yAxis(_ q: [Double]) -> SIMD3<Double> {
    let (x, y, z, w) = (q[0], q[1], q[2], q[3])
    return SIMD3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x))
  }

  /// How far the matrix three.js builds from `q` (as it is) turns things from unit quaternion `truth`,
  /// radians, at most: the angle between the two plus 2 |‖q‖² − 1| (M(q) = I + ‖q‖² (M(q/‖q‖) − I)).
  /// The angle is 4 atan2(|a − b|, |a + b|) of the normalised pair, well conditioned for small angles.
  static func turn(_ q: [Double], _ truth: [Double]) -> Double {
    let norm2 = q.map { $0 * $0 }.reduce(0, +)
    let a = q.map { $0 / norm2.squareRoot() }
    let t = truth.map { $0 / truth.map { $0 * $0 }.reduce(0, +).squareRoot() }
    let sign: Double = zip(a, t).map(*).reduce(0, +) < 0 ? -1 : 1
    let minus = zip(a, t).map { ($0 - sign * $1) * ($0 - sign * $1) }.reduce(0, +).squareRoot()
    let plus = zip(a, t).map { ($0 + sign * $1) * ($0 + sign * $1) }.reduce(0, +).squareRoot()
    return 4 * atan2(minus, plus) + 2 * abs(norm2 - 1)
  }

  // MARK: - Tests

  /// The reduction itself, on a long slowly turning rotation with an angle limit only a few times the
  /// quantisation error: every dropped sample, interpolated by three.js from the decoded keys, is
  /// within the limit (a reduction that measured the Float32 keys instead would overshoot by up to the
  /// quantisation error).
  func testReductionMeasuresTheDecodedKeysAtEveryDroppedSample() throws {
    let n = 3000
    let seconds = (0..<n).map { Double($0) / 60 }
    var flat: [Float] = []
    for t in seconds {
      let angle = 1.0 * sin(0.5 * t) + 0.3 * sin(1.7 * t)
      let axis = normalize(SIMD3(0.3 * cos(0.2 * t), 1, 0.2))
      let q = Quaternion.float32(SIMD4(axis.x * sin(angle / 2), axis.y * sin(angle / 2), axis.z * sin(angle / 2), cos(angle / 2)))
      flat += [q.x, q.y, q.z, q.w]
    }
    let limit = 4e-4
    let channel = SceneAssembly.ChannelSamples(
      node: 0, path: .rotation, interpolation: .linear, components: 4, flat: flat, shorts: NormalizedShort.encode(flat),
      rule: .angle(limit), label: "test")
    var options = SceneOptions()
    options.keyframeTolerance = 0.001
    let assembly = SceneAssembly(
      builder: GLTFBuilder(), table: try TrackTable(SyntheticScene.motion()), options: options)
    let kept = assembly.keep([channel], seconds: seconds, forced: [])
    XCTAssertLessThan(kept.count, n / 3, "keys dropped")
    let decoded = channel.shorts!.map(NormalizedShort.decode)
    func key(_ i: Int) -> [Double] { Array(decoded[(4 * i)..<(4 * i + 4)]) }
    var worst = 0.0
    for (a, b) in zip(kept, kept.dropFirst()) {
      for k in a...b {
        let q = Self.threeSlerp(key(a), key(b), (seconds[k] - seconds[a]) / (seconds[b] - seconds[a]))
        let error = Self.turn(q, flat[(4 * k)..<(4 * k + 4)].map(Double.init))
        worst = max(worst, error)
        XCTAssertLessThanOrEqual(error, limit * (1 + 1e-6), "sample \(k) between keys \(a) and \(b)")
      }
    }
    print("\(kept.count) of \(n) keys, worst \(worst) rad of \(limit)")
  }

  func testEncodingRoundsToTheNearestStepAndNeverWritesMinus32768() {
    XCTAssertEqual(NormalizedShort.encode(1), 32767)
    XCTAssertEqual(NormalizedShort.encode(-1), -32767)
    XCTAssertEqual(NormalizedShort.encode(0), 0)
    XCTAssertEqual(NormalizedShort.encode(-1.5), -32767, "clamped")
    XCTAssertEqual(NormalizedShort.decode(-32768), -1)
    for k in 0...20000 {
      let x = Float(-1 + Double(k) / 10000)
      XCTAssertLessThanOrEqual(
        abs(NormalizedShort.decode(NormalizedShort.encode(x)) - Double(x)), NormalizedShort.maximumError * (1 + 1e-9), "\(x)")
    }
  }

  /// Every limb's far end, rotated by what three.js makes of the decoded keys, against the Float32
  /// scene with every frame: within 0.1 mm from quantisation alone, within the tolerance when reduced.
  func testDecodedRotationsKeepEveryLimbEndWithinTheTolerance() throws {
    let reference = try Self.document(.float, tolerance: 0)
    for tolerance in [0, 0.0002, 0.001, 0.005] {
      let doc = try Self.document(.normalizedShort, tolerance: tolerance)
      XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [], "tolerance \(tolerance)")
      var worst = 0.0
      var rotationKeys = 0
      for (fa, qa) in zip(reference.animations!, doc.animations!) {
        let frameTimes = reference.floats(fa.samplers[0].input).map(Double.init)
        for (fc, qc) in zip(fa.channels, qa.channels) where fc.target.path == "rotation" {
          XCTAssertEqual(fc.target, qc.target)
          let output = doc.accessors![qa.samplers[qc.sampler].output]
          XCTAssertEqual(output.componentType, GLTFComponentType.short.rawValue)
          XCTAssertEqual(output.normalized, true)
          guard let scale = fa.channels.first(where: { $0.target.node == fc.target.node && $0.target.path == "scale" }),
            reference.nodes![fc.target.node!].name!.contains("-")
          else { continue }
          let longest = reference.vec3s(fa.samplers[scale.sampler].output).map(\.y).max()!
          let exact = reference.values(fa.samplers[fc.sampler].output)
          rotationKeys += doc.accessors![qa.samplers[qc.sampler].input].count
          let name = "\(fa.name!) \(reference.nodes![fc.target.node!].name!)"
          for (k, time) in frameTimes.enumerated() {
            let q = Self.threeRotation(doc, qa.samplers[qc.sampler], at: time)
            let truth = Array(exact[(4 * k)..<(4 * k + 4)])
            let error = longest * length(Self.yAxis(q) - Self.yAxis(truth))
            worst = max(worst, error)
            XCTAssertLessThanOrEqual(
              error, tolerance > 0 ? tolerance * (1 + 1e-4) + 2e-6 : 1e-4, "\(name) frame \(k) (tolerance \(tolerance))")
            // The rotation itself, as the Float32 test checks it (angle within tolerance / L), with the
            // length of the decoded quaternion counted: three.js builds the matrix from q as it is.
            // Quantisation alone (e = half a step a component): angle ≤ 2|Δq| ≤ 4e, 2|‖q‖² − 1| ≤ 8e.
            let turn = Self.turn(q, truth)
            XCTAssertLessThanOrEqual(
              turn, tolerance > 0 ? tolerance / longest * (1 + 1e-4) + 2e-6 : 12 * NormalizedShort.maximumError,
              "\(name) frame \(k) (tolerance \(tolerance)): rotation error")
          }
        }
      }
      print("tolerance \(tolerance) m: limb ends within \(String(format: "%.2e", worst)) m, \(rotationKeys) rotation keys")
    }
  }

  func testReductionStillDropsKeysOfTheSwingingForearm() throws {
    let doc = try Self.document(.normalizedShort, tolerance: 0.001)
    let match = doc.animations![0]
    let forearm = try XCTUnwrap(doc.node("P1/right_elbow-right_wrist"))
    let channel = try XCTUnwrap(match.channels.first { $0.target.node == forearm && $0.target.path == "rotation" })
    let keys = doc.accessors![match.samplers[channel.sampler].input].count
    XCTAssertGreaterThan(keys, 4, "the swing needs keys")
    XCTAssertLessThan(keys, SyntheticScene.frameCount, "but not every frame")
  }

  /// assimp 5.2 cannot de-normalise the rotations (it copies the integers' bytes into floats), but it
  /// reads everything else of the file as it reads the Float32 one.
  func testShortRotationSceneReimportsWithAssimpLikeTheFloatScene() throws {
    let folder = try makeTemporaryFolder("matchscene-short-rotations")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scenes: [AssimpScene] = []
    for encoding in RotationEncoding.allCases {
      let url = folder.appendingPathComponent("\(encoding).glb")
      try GLTFWriter.write(try Self.document(encoding, tolerance: 0.001), to: url)
      XCTAssertEqual(GLTFValidator.validate(fileAt: url), [])
      scenes.append(try AssimpScene(contentsOf: url))
    }
    let (a, b) = (scenes[0], scenes[1])
    XCTAssertEqual(a.nodes.map(\.name), b.nodes.map(\.name))
    XCTAssertEqual(a.nodes.map(\.parent), b.nodes.map(\.parent))
    XCTAssertEqual(a.meshes, b.meshes)
    XCTAssertEqual(a.animations.map(\.name), ["match", "rally-01"])
    XCTAssertEqual(a.animations.map(\.name), b.animations.map(\.name))
    for (x, y) in zip(a.animations, b.animations) {
      assertClose(try XCTUnwrap(y.durationSeconds), try XCTUnwrap(x.durationSeconds), absolute: 1e-9, x.name)
      XCTAssertEqual(x.channels.map(\.nodeName), y.channels.map(\.nodeName), x.name)
      XCTAssertEqual(x.channels.map(\.positionKeyCount), y.channels.map(\.positionKeyCount), x.name)
      XCTAssertEqual(x.channels.map(\.rotationKeyCount), y.channels.map(\.rotationKeyCount), x.name)
    }
    XCTAssertEqual(
      a.positionKeys(animation: "rally-01", node: "ball"), b.positionKeys(animation: "rally-01", node: "ball"))
  }
}
