import MatchSceneCore

extension SceneAssembly {
  /// How the keys of a channel may be thinned out (`SceneOptions.keyframeTolerance`).
  enum KeyRule {
    /// vec3 samples (translations, limb scales) within `keyframeTolerance`, Euclidean.
    case distance
    /// Quaternion samples within this many radians.
    case angle(Double)
    /// STEP samples: keep every change.
    case changes
  }

  /// The keys kept of `channels` (one channel, or every channel of a node with
  /// `SceneOptions.sharedKeysPerNode`): every frame without keyframe reduction; otherwise always the
  /// first, the last and `forced`, each stretch between those reduced on its own
  /// (`KeyframeReduction.linear`), a sample dropped only where every channel stays within its tolerance
  /// (`relativeError`).
  func keep(_ channels: [ChannelSamples], seconds: [Double], forced: [Int]) -> [Int] {
    let n = seconds.count
    guard options.keyframeTolerance > 0, n > 2 else { return Array(0..<n) }
    let errors = channels.map { relativeError($0, seconds: seconds) }
    let error: (Int, Int, Int) -> Double =
      errors.count == 1
      ? errors[0]
      : { i, j, k in
        var worst = 0.0
        for e in errors {
          worst = Swift.max(worst, e(i, j, k))
          if !(worst <= 1) { break }
        }
        return worst
      }
    let bounds = Array(Set([0, n - 1] + forced.filter { $0 > 0 && $0 < n - 1 })).sorted()
    var kept = [0]
    for (start, end) in zip(bounds, bounds.dropFirst()) {
      let piece = KeyframeReduction.linear(count: end - start + 1, tolerance: 1) {
        error(start + $0, start + $1, start + $2)
      }
      kept += piece.dropFirst().map { start + $0 }
    }
    return kept
  }

  /// The error of `c` at sample k when only samples i and j (i < k < j) are kept, as a fraction of what
  /// it may be (≤ 1 is within the tolerance): LINEAR channels interpolate between keys i and j, STEP
  /// channels hold key i (glTF 2.0 §3.11). vec3s are compared by distance (`keyframeTolerance`),
  /// rotations by `KeyframeReduction.shownError` (the rule's angle), `.changes` channels must not change.
  ///
  /// The error is measured between what a reader shows and the samples `c.flat`: a reader interpolates
  /// the values written, so for rotations stored as normalised shorts (`c.shorts`) it is the decoded
  /// integers that are interpolated, and their quantisation counts against the tolerance at every
  /// dropped sample.
  func relativeError(_ c: ChannelSamples, seconds: [Double]) -> (Int, Int, Int) -> Double {
    let n = seconds.count
    let tolerance = options.keyframeTolerance
    let step = c.interpolation == .step
    if c.components == 3 {
      var v3: [SIMD3<Double>] = []
      v3.reserveCapacity(n)
      for k in 0..<n {
        v3.append(SIMD3(Double(c.flat[3 * k]), Double(c.flat[3 * k + 1]), Double(c.flat[3 * k + 2])))
      }
      if case .changes = c.rule { return { i, _, k in v3[i] == v3[k] ? 0 : .infinity } }
      if step { return { i, _, k in length(v3[k] - v3[i]) / tolerance } }
      let error = KeyframeReduction.vec3Error(v3, times: seconds)
      return { error($0, $1, $2) / tolerance }
    }
    // The rotation samples, and the values a reader takes the keys for: decoded as a reader decodes
    // them (unit to within 3.1e-5 and used as they are, `shownError`), or the samples themselves.
    let v4 = Self.vec4s(n) { Double(c.flat[$0]) }
    let keys4 = c.shorts.map { s in Self.vec4s(n) { NormalizedShort.decode(s[$0]) } } ?? v4
    guard case .angle(let limit) = c.rule else { return { i, _, k in keys4[i] == keys4[k] ? 0 : .infinity } }
    if step { return { i, _, k in KeyframeReduction.shownError(keys4[i], v4[k]) / limit } }
    let error = KeyframeReduction.rotationError(keys: keys4, samples: v4, times: seconds)
    return { error($0, $1, $2) / limit }
  }

  /// `kept` (ascending indices into `n` frames), or every frame when that takes fewer bytes of binary
  /// data. A channel's own keys cost `bytesPerKey` and 4 bytes of time each, and 4 bytes of time again
  /// for each key within a clip that views the channel (`clips`, index ranges; a clip's times start at 0
  /// s, so it cannot share the animation's). Every frame costs `bytesPerKey` a frame and no time of its
  /// own: all the channels that keep every frame share one time accessor, and so do the clips' views of
  /// them. Noisy data can leave so many keys that every frame is cheaper (Float32 time plus normalised
  /// SHORT rotation: 12 bytes a key against 8 a frame), and every frame is exact.
  static func cheaper(_ kept: [Int], bytesPerKey: Int, frames n: Int, clips: [ClosedRange<Int>]) -> [Int] {
    guard kept.count < n else { return kept }
    var own = (bytesPerKey + 4) * kept.count
    for clip in clips {
      own += 4 * (firstIndex(in: kept, atLeast: clip.upperBound + 1) - firstIndex(in: kept, atLeast: clip.lowerBound))
    }
    return bytesPerKey * n < own ? Array(0..<n) : kept
  }

  /// `n` vec4s whose component i is `component(i)` (element-major).
  static func vec4s(_ n: Int, _ component: (Int) -> Double) -> [SIMD4<Double>] {
    var out: [SIMD4<Double>] = []
    out.reserveCapacity(n)
    for k in 0..<n {
      out.append(SIMD4(component(4 * k), component(4 * k + 1), component(4 * k + 2), component(4 * k + 3)))
    }
    return out
  }
}
