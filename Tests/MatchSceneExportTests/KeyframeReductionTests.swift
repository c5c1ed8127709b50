import Foundation
import MatchSceneCore
import TestSupport
import XCTest

@testable import MatchSceneExport
@testable import MatchSceneAssimp

/// `SceneOptions.keyframeTolerance`: error-bounded keyframe reduction, checked by resampling.
final class KeyframeReductionTests: XCTestCase {
  // MARK: - The reduction itself

  func testPiecewiseLinearSignalKeepsExactlyItsCorners() {
    // Rises for 10 samples, holds for 10, falls for 5.
    let v: [Double] = (0...10).map(Double.init) + Array(repeating: 10, count: 10) + (1...5).map { 10 - 2 * Double($0) }
    let t = v.indices.map(Double.init)
    let kept = KeyframeReduction.linear(count: v.count, tolerance: 1e-9) { i, j, k in
      abs(v[i] + (v[j] - v[i]) * (t[k] - t[i]) / (t[j] - t[i]) - v[k])
    }
    XCTAssertEqual(kept, [0, 10, 20, 25])
  }

  func testSmoothSignalDropsMostKeysAndStaysWithinTolerance() {
    let n = 600
    let t = (0..<n).map { Double($0) / 60 }
    // A slow sway (peak acceleration 0.8 m/s²): straight segments of about 0.1 s stay within 1 mm.
    let v = t.map { SIMD3(0.5 * sin(2 * .pi * 0.2 * $0), 0.2 * cos(2 * .pi * 0.1 * $0), 1 + 0.1 * $0) }
    for tolerance in [1e-3, 1e-2] {
      let kept = KeyframeReduction.linear(
        count: n, tolerance: tolerance, error: KeyframeReduction.vec3Error(v, times: t))
      XCTAssertEqual(kept.first, 0)
      XCTAssertEqual(kept.last, n - 1)
      XCTAssertLessThan(kept.count, n / 4, "tolerance \(tolerance): \(kept.count) keys")
      // Brute force: every sample against the straight line between the kept keys around it.
      for (a, b) in zip(kept, kept.dropFirst()) {
        XCTAssertLessThan(a, b)
        for k in a...b {
          let u = (t[k] - t[a]) / (t[b] - t[a])
          XCTAssertLessThanOrEqual(length(v[a] + (v[b] - v[a]) * u - v[k]), tolerance)
        }
      }
    }
    XCTAssertEqual(KeyframeReduction.linear(count: 2, tolerance: 1) { _, _, _ in 0 }, [0, 1])
    XCTAssertEqual(KeyframeReduction.linear(count: 1, tolerance: 1) { _, _, _ in 0 }, [0])
  }

  func testStepChannelsKeepOnlyTheirChanges() {
    // STEP holds key i's value until the next key: the error at k is its distance from sample i.
    let v: [Double] = [0, 0, 1, 1, 1, 0, 0]
    XCTAssertEqual(KeyframeReduction.linear(count: v.count, tolerance: 0) { i, _, k in abs(v[k] - v[i]) }, [0, 2, 5, 6])
    let ramp = (0..<10).map { Double($0) * 0.3 }
    XCTAssertEqual(KeyframeReduction.linear(count: 10, tolerance: 1) { i, _, k in abs(ramp[k] - ramp[i]) }, [0, 4, 8, 9])
  }

  func testSlerpAndAngle() {
    let a = Quaternion.rotation(from: SIMD3(0, 1, 0), to: SIMD3(0, 1, 0))
    let b = Quaternion.rotation(from: SIMD3(0, 1, 0), to: SIMD3(1, 0, 0))
    assertClose(KeyframeReduction.angle(a, b), .pi / 2, absolute: 1e-12)
    assertClose(KeyframeReduction.angle(a, -b), .pi / 2, absolute: 1e-12, "q and −q are the same rotation")
    let half = KeyframeReduction.slerp(a, b, 0.5)
    assertClose(KeyframeReduction.angle(a, half), .pi / 4, absolute: 1e-12)
    assertClose(KeyframeReduction.angle(half, b), .pi / 4, absolute: 1e-12)
    let tiny = Quaternion.rotation(from: SIMD3(0, 1, 0), to: normalize(SIMD3(1e-6, 1, 0)))
    assertClose(KeyframeReduction.angle(a, tiny), 1e-6, relative: 1e-6, "accurate for small angles")
  }

  // MARK: - Reduced scenes

  /// The value of a sampler at time `time`: glTF's LINEAR (lerp; slerp for rotations) or STEP.
  func sample(_ doc: GLTFDocument, _ sampler: GLTFAnimationSampler, at time: Double) -> [Double] {
    let times = doc.floats(sampler.input).map(Double.init)
    let n = GLTFAccessorType(rawValue: doc.accessors![sampler.output].type)!.componentCount
    let values = doc.floats(sampler.output).map(Double.init)
    func key(_ i: Int) -> [Double] { Array(values[(n * i)..<(n * i + n)]) }
    guard let after = times.firstIndex(where: { $0 > time + 1e-9 }) else { return key(times.count - 1) }
    guard after > 0 else { return key(0) }
    let i = after - 1
    if sampler.interpolation == "STEP" { return key(i) }
    let u = (time - times[i]) / (times[after] - times[i])
    let a = key(i)
    var b = key(after)
    if n == 4 {
      // Slerp, written out independently of KeyframeReduction.
      var d = zip(a, b).map(*).reduce(0, +)
      if d < 0 {
        b = b.map { -$0 }
        d = -d
      }
      let theta = acos(min(1, d))
      if theta < 1e-9 { return a }
      return zip(a, b).map { (sin((1 - u) * theta) * $0 + sin(u * theta) * $1) / sin(theta) }
    }
    return zip(a, b).map { $0 + ($1 - $0) * u }
  }

  func distance(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot() }

  /// Rotation angle between two quaternions given as arrays, radians.
  func angle(_ a: [Double], _ b: [Double]) -> Double {
    let d = abs(zip(a, b).map(*).reduce(0, +)) / (distance(a, [0, 0, 0, 0]) * distance(b, [0, 0, 0, 0]))
    return 2 * acos(min(1, d))
  }

  func reduced(
    _ tolerance: Double, clips: [(name: String, frames: ClosedRange<Int>)] = [], sharedKeysPerNode: Bool = false
  ) throws -> (full: GLTFDocument, reduced: GLTFDocument) {
    var options = SceneOptions(clips: clips)
    options.ballTrail = 0.1
    let full = try SyntheticScene.document(options: options)
    options.keyframeTolerance = tolerance
    options.sharedKeysPerNode = sharedKeysPerNode
    return (full, try SyntheticScene.document(options: options))
  }

  func testEveryReducedChannelReproducesEveryFrameWithinTheTolerance() throws {
    try requireTier(.integration)  // slow in a debug build: a whole simulated match
    for (tolerance, shared) in [(0.001, false), (0.005, false), (0.02, false), (0.005, true)] {
      let (full, reduced) = try reduced(
        tolerance, clips: [(name: "rally-01", frames: 25...45)], sharedKeysPerNode: shared)
      XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(reduced)), [])
      XCTAssertEqual(full.nodes, reduced.nodes)
      XCTAssertEqual(full.animations!.count, reduced.animations!.count)
      var fullKeys = 0
      var reducedKeys = 0
      for (a, (fa, ra)) in zip(full.animations!, reduced.animations!).enumerated() {
        XCTAssertEqual(fa.channels.count, ra.channels.count)
        let frameTimes = full.floats(fa.samplers[0].input).map(Double.init)
        for (fc, rc) in zip(fa.channels, ra.channels) {
          XCTAssertEqual(fc.target, rc.target)
          let fs = fa.samplers[fc.sampler]
          let rs = ra.samplers[rc.sampler]
          XCTAssertEqual(fs.interpolation, rs.interpolation)
          let reducedTimes = reduced.floats(rs.input)
          XCTAssertEqual(reducedTimes.first, 0, "animation \(a): the first key is kept")
          XCTAssertEqual(reducedTimes.last.map(Double.init), frameTimes.last, "the last key is kept")
          fullKeys += frameTimes.count
          reducedKeys += reducedTimes.count
          // The limb's length bounds the rotation's tolerance: its far end moves less than the tolerance.
          var limit = tolerance
          if fc.target.path == "rotation",
            let scale = fa.channels.first(where: { $0.target.node == fc.target.node && $0.target.path == "scale" })
          {
            let longest = full.vec3s(fa.samplers[scale.sampler].output).map(\.y).max()!
            limit = tolerance / longest
          }
          for (k, time) in frameTimes.enumerated() {
            let expected = sample(full, fs, at: time)
            let actual = sample(reduced, rs, at: time)
            let error = fc.target.path == "rotation" ? angle(expected, actual) : distance(expected, actual)
            if fs.interpolation == "STEP" {
              XCTAssertEqual(actual, expected, "animation \(a) node \(fc.target.node!) \(fc.target.path) frame \(k)")
            } else {
              XCTAssertLessThanOrEqual(
                error, limit * (1 + 1e-4) + 2e-6,
                "animation \(a) node \(fc.target.node!) \(fc.target.path) frame \(k) (tolerance \(tolerance))")
            }
          }
        }
      }
      XCTAssertLessThan(Double(reducedKeys), 0.7 * Double(fullKeys), "tolerance \(tolerance): drops keys")
      print("keyframe tolerance \(tolerance) m: \(reducedKeys) of \(fullKeys) keys kept")
    }
  }

  func testReducedBallKeepsFewerKeysAndIdenticalTimesAreShared() throws {
    // In free flight at 50 fps, dropping one frame of the ball errs by g (2 Δt)² / 8 ≈ 2 mm: at 1 mm
    // nothing goes, at 5 mm about two frames in three.
    let (_, reduced) = try reduced(0.005)
    let match = reduced.animations![0]
    let ball = try XCTUnwrap(reduced.node("ball"))
    let channel = try XCTUnwrap(match.channels.first { $0.target.node == ball && $0.target.path == "translation" })
    let keys = reduced.accessors![match.samplers[channel.sampler].input].count
    XCTAssertLessThan(keys, SyntheticScene.frameCount / 2, "a parabola needs fewer keys than frames at 5 mm")
    XCTAssertGreaterThan(keys, 2, "but more than its ends")
    // Inputs are written once per distinct set of kept frames.
    let inputs = Set(match.samplers.map(\.input))
    XCTAssertLessThan(inputs.count, match.samplers.count)
    let contents = inputs.map { reduced.floats($0) }
    XCTAssertEqual(Set(contents).count, contents.count, "no two time accessors hold the same times")
    // Constant channels keep only their ends.
    let nose = reduced.nodes![reduced.node("P1")!].children!.first { reduced.nodes![$0].name == "nose" }!
    let rotation = try XCTUnwrap(match.channels.first { $0.target.node == nose && $0.target.path == "rotation" })
    XCTAssertEqual(reduced.accessors![match.samplers[rotation.sampler].input].count, 2)
  }

  func testReducedSceneReimportsWithTheSameNamesAndDurations() throws {
    let folder = try makeTemporaryFolder("matchscene-reduced")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (full, reduced) = try reduced(0.005, clips: [(name: "rally-01", frames: 25...45)])
    let fullURL = folder.appendingPathComponent("full.glb")
    let reducedURL = folder.appendingPathComponent("reduced.glb")
    try GLTFWriter.write(full, to: fullURL)
    try GLTFWriter.write(reduced, to: reducedURL)
    XCTAssertEqual(GLTFValidator.validate(fileAt: reducedURL), [])
    let a = try AssimpScene(contentsOf: fullURL)
    let b = try AssimpScene(contentsOf: reducedURL)
    XCTAssertEqual(a.nodes.map(\.name), b.nodes.map(\.name))
    XCTAssertEqual(a.animations.map(\.name), b.animations.map(\.name))
    for (x, y) in zip(a.animations, b.animations) {
      assertClose(try XCTUnwrap(y.durationSeconds), try XCTUnwrap(x.durationSeconds), absolute: 1e-6, x.name)
      XCTAssertEqual(Set(x.channels.map(\.nodeName)), Set(y.channels.map(\.nodeName)), x.name)
    }
    let ballKeys = try XCTUnwrap(b.positionKeys(animation: "match", node: "ball"))
    XCTAssertLessThan(ballKeys.count, SyntheticScene.frameCount)
    for key in ballKeys {
      assertClose(key.value, SyntheticScene.ball(t: key.time), absolute: 1e-5, "kept keys are the original samples")
    }
    let fileSizes = try [fullURL, reducedURL].map { try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as! Int }
    XCTAssertLessThan(fileSizes[1], fileSizes[0])
  }

  /// A channel keeps every frame when that takes fewer bytes than its own keys with their time
  /// accessors, counted again in each clip that views it.
  func testAChannelKeepsEveryFrameWhenThatIsSmaller() {
    let n = 100
    let most = Array(stride(from: 0, to: 96, by: 4)).flatMap { [$0, $0 + 1, $0 + 2] } + [99]  // 73 keys
    XCTAssertEqual(SceneAssembly.cheaper(most, bytesPerKey: 8, frames: n, clips: []), Array(0..<n), "12 × 73 > 8 × 100")
    XCTAssertEqual(SceneAssembly.cheaper(most, bytesPerKey: 12, frames: n, clips: []), most, "16 × 73 < 12 × 100")
    let some = Array(stride(from: 0, to: 100, by: 3)) + [99]  // 35 keys
    XCTAssertEqual(SceneAssembly.cheaper(some, bytesPerKey: 8, frames: n, clips: []), some)
    // A clip over frames 0…79 also needs a time of its own for each of the 60 keys in it.
    XCTAssertEqual(SceneAssembly.cheaper(most, bytesPerKey: 12, frames: n, clips: [0...79]), Array(0..<n))
    XCTAssertEqual(SceneAssembly.cheaper(Array(0..<n), bytesPerKey: 8, frames: n, clips: []), Array(0..<n))
  }

  /// Noisy limbs keep every frame, and all such channels share the animation's one time accessor of
  /// every frame, in the match and in the clip viewing it.
  func testChannelsKeepingEveryFrameShareOneTimeAccessor() throws {
    // ±2 mm of deterministic jitter on every player joint: at 1 mm little can be dropped.
    var rec = SyntheticScene.points()
    for i in rec.indices where rec[i].kind == .player {
      let h = Double((i &* 2_654_435_761) % 1000) / 1000 - 0.5
      rec[i].position += SIMD3(0.004 * h, -0.004 * h, 0.004 * (0.5 - abs(h)))
    }
    var options = SceneOptions(clips: [(name: "rally-01", frames: 25...45)])
    options.keyframeTolerance = 0.001
    options.rotationEncoding = .normalizedShort
    let doc = try SyntheticScene.document(SyntheticScene.motion(rec), options: options)
    XCTAssertEqual(GLTFValidator.validate(glb: try GLTFWriter.glbData(doc)), [])
    for (animation, frames) in zip(doc.animations!, [SyntheticScene.frameCount, 21]) {
      let full = Set(animation.samplers.map(\.input).filter { doc.accessors![$0].count == frames })
      let rotations = animation.channels.filter {
        $0.target.path == "rotation" && doc.accessors![animation.samplers[$0.sampler].input].count == frames
      }
      XCTAssertGreaterThan(rotations.count, 10, "\(animation.name!): noisy limb rotations keep every frame")
      XCTAssertEqual(full.count, 1, "\(animation.name!): one time accessor of every frame")
    }
  }

  func testToleranceMustBeFiniteAndNonNegative() {
    for bad in [-0.001, .nan, .infinity] {
      var options = SceneOptions()
      options.keyframeTolerance = bad
      XCTAssertThrowsError(try SyntheticScene.document(options: options), "\(bad)")
    }
  }
}
