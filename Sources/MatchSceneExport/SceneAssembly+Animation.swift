import Dispatch
import MatchSceneCore

extension SceneAssembly {
  /// One animated property over an animation's frames: `components` Float32 per frame (`flat`), and
  /// the normalised shorts written instead (`shorts`) for rotations with `RotationEncoding.normalizedShort`.
  struct ChannelSamples {
    var node: Int
    var path: GLTFAnimationPath
    var interpolation: GLTFInterpolation
    var components: Int
    var flat: [Float]
    var shorts: [Int16]?
    var rule: KeyRule
    var label: String
  }

  /// Components as stored in the buffer.
  enum Stored: Hashable {
    case floats([Float])
    case shorts([Int16])
  }

  /// A channel as written: the frames kept (indices into the animation's frames), its output accessor
  /// and the output's components.
  struct WrittenChannel {
    var kept: [Int]
    var output: Int
    var picked: Stored
  }

  /// The state of one animation being written: its times and the inputs and samplers made so far.
  struct AnimationWriter {
    var name: String
    var times: [Float]
    var inputs: [[Int]: Int] = [:]
    var samplerIndex: [[Int]: Int] = [:]
    var samplers: [GLTFAnimationSampler] = []
    var channels: [GLTFAnimationChannel] = []

    /// Times `(frame − lowerBound) / fps` of `frames`, frames taken real on `axis` (a sparse match's
    /// keys then skip its empty stretches). - Throws: `GLTFError` when two are equal in Float32.
    init(name: String, frames: ClosedRange<Int>, fps: Double, axis: FrameAxis = .identity) throws {
      self.name = name
      let first = axis.real(frames.lowerBound)
      times = frames.map { Float(Double(axis.real($0) - first) / fps) }
      for k in times.indices.dropFirst() where !(times[k] > times[k - 1]) {
        throw GLTFError("animation \(name): times \(times[k - 1]) and \(times[k]) s are equal in Float32")
      }
    }

    /// The input accessor of the keys `kept`, written once per distinct set.
    mutating func input(_ kept: [Int], builder: inout GLTFBuilder) throws -> Int {
      if let i = inputs[kept] { return i }
      let label = kept.count == times.count ? "\(name)/time" : "\(name)/time-\(inputs.count)"
      let i = try builder.addScalars(kept.map { times[$0] }, name: label)
      inputs[kept] = i
      return i
    }

    /// A channel driving `path` of `node` from the keys `kept` and `output`; samplers with the same input,
    /// output and interpolation are shared.
    mutating func add(
      node: Int, path: GLTFAnimationPath, interpolation: GLTFInterpolation, kept: [Int], output: Int,
      builder: inout GLTFBuilder
    ) throws {
      let input = try input(kept, builder: &builder)
      let key = [input, output, interpolation == .step ? 1 : 0]
      let sampler: Int
      if let s = samplerIndex[key] {
        sampler = s
      } else {
        samplers.append(GLTFAnimationSampler(input: input, interpolation: interpolation, output: output))
        sampler = samplers.count - 1
        samplerIndex[key] = sampler
      }
      channels.append(GLTFAnimationChannel(sampler: sampler, node: node, path: path))
    }

    func finish(frames: ClosedRange<Int>, fps: Double, axis: FrameAxis = .identity) -> GLTFAnimation {
      GLTFAnimation(
        name: name, channels: channels, samplers: samplers,
        extras: [
          "firstFrame": .number(Double(axis.real(frames.lowerBound))), "lastFrame": .number(Double(axis.real(frames.upperBound))),
          "fps": .number(fps),
        ])
    }
  }

  /// Adds the animation `match` over `range` and the clips (`SceneOptions.clips`), each with times from
  /// 0 s. A clip inside `range` reuses the match's data: its outputs are views into the match's (glTF
  /// accessors may share a buffer view, §3.6.2.4) with their own time accessors, and with keyframe
  /// reduction the match keeps a key at every clip's first and last frame so that each clip starts and
  /// ends on a key. A clip reaching outside `range` is sampled on its own.
  mutating func addAnimations(
    range: ClosedRange<Int>?, clips: [(name: String, frames: ClosedRange<Int>)], fps: Double
  ) throws {
    guard !animated.isEmpty else { return }
    var match: (frames: ClosedRange<Int>, samples: [ChannelSamples], written: [WrittenChannel])?
    if let range {
      let inside = clips.filter { range.contains($0.frames.lowerBound) && range.contains($0.frames.upperBound) }
      let (samples, written) = try addAnimation(
        name: MatchSceneGLTF.animationName, frames: range, fps: fps,
        clips: inside.map { ($0.frames.lowerBound - range.lowerBound)...($0.frames.upperBound - range.lowerBound) })
      match = (range, samples, written)
    }
    for clip in clips {
      if let match, match.frames.contains(clip.frames.lowerBound), match.frames.contains(clip.frames.upperBound) {
        try addClipView(clip, of: match, fps: fps)
      } else {
        _ = try addAnimation(name: clip.name, frames: clip.frames, fps: fps, clips: [])
      }
    }
  }

  /// Samples, reduces and writes animation `name` over `frames`; `clips` (index ranges into `frames`)
  /// will view its data, so every channel keeps a key at their first and last frames, and a channel
  /// keeps every frame where that takes fewer bytes with the clips' time accessors counted (`cheaper`).
  mutating func addAnimation(name: String, frames: ClosedRange<Int>, fps: Double, clips: [ClosedRange<Int>]) throws
    -> ([ChannelSamples], [WrittenChannel])
  {
    let forced = Set(clips.flatMap { [$0.lowerBound, $0.upperBound] }).sorted()
    var writer = try AnimationWriter(name: name, frames: frames, fps: fps, axis: options.frameAxis)
    let seconds = writer.times.map(Double.init)
    // Sampling and reduction are independent per node: spread them over the cores, then write in order.
    let nodes = animated
    let constants = Constants(count: frames.count)
    let shared = ConcurrentSlots(self, count: nodes.count, empty: [(ChannelSamples, [Int])]())
    // One array of every frame for all the channels that keep every frame (all of them without keyframe
    // reduction): an array each held 8 bytes a frame per channel until the end of the export (89 MB for
    // a 10-minute match's 309 channels).
    let everyFrame = Array(0..<seconds.count)
    let shareEveryFrame: @Sendable ([Int]) -> [Int] = { kept in kept.count == everyFrame.count ? everyFrame : kept }
    DispatchQueue.concurrentPerform(iterations: nodes.count) { i in
      let me = shared.input
      let samples = me.channelSamples(
        node: nodes[i].node, driver: nodes[i].driver, name: name, frames: frames, fps: fps, constants: constants)
      let bytes = { (c: ChannelSamples) in c.components * (c.shorts == nil ? 4 : 2) }
      if me.options.sharedKeysPerNode {
        let kept = me.keep(samples, seconds: seconds, forced: forced)
        let all = samples.map(bytes).reduce(0, +)
        let chosen = shareEveryFrame(Self.cheaper(kept, bytesPerKey: all, frames: seconds.count, clips: clips))
        shared.slots[i] = samples.map { ($0, chosen) }
      } else {
        shared.slots[i] = samples.map { c in
          let kept = me.keep([c], seconds: seconds, forced: forced)
          return (c, shareEveryFrame(Self.cheaper(kept, bytesPerKey: bytes(c), frames: seconds.count, clips: clips)))
        }
      }
    }
    let perNode = shared.results()
    let samples = perNode.flatMap { $0.map(\.0) }
    var written: [WrittenChannel] = []
    written.reserveCapacity(samples.count)
    for (c, kept) in perNode.joined() {
      let picked: Stored =
        if let shorts = c.shorts {
          .shorts(Self.pick(shorts, kept: kept, components: c.components, frames: writer.times.count))
        } else {
          .floats(Self.pick(c.flat, kept: kept, components: c.components, frames: writer.times.count))
        }
      let output = try output(picked, components: c.components, label: c.label)
      try writer.add(
        node: c.node, path: c.path, interpolation: c.interpolation, kept: kept, output: output, builder: &builder)
      written.append(WrittenChannel(kept: kept, output: output, picked: picked))
    }
    _ = builder.addAnimation(writer.finish(frames: frames, fps: fps, axis: options.frameAxis))
    return (samples, written)
  }

  /// Adds `clip`, a sub-range of the match, from the match's written channels (see `addAnimations`).
  mutating func addClipView(
    _ clip: (name: String, frames: ClosedRange<Int>),
    of match: (frames: ClosedRange<Int>, samples: [ChannelSamples], written: [WrittenChannel]), fps: Double
  ) throws {
    var writer = try AnimationWriter(name: clip.name, frames: clip.frames, fps: fps, axis: options.frameAxis)
    let a = clip.frames.lowerBound - match.frames.lowerBound
    let b = clip.frames.upperBound - match.frames.lowerBound
    var views: [[Int]: Int] = [:]
    for (c, w) in zip(match.samples, match.written) {
      // The kept keys within [a, b]; a and b are among them (forced, or every frame is kept).
      let lo = Self.firstIndex(in: w.kept, atLeast: a)
      let hi = Self.firstIndex(in: w.kept, atLeast: b + 1) - 1
      let kept = w.kept[lo...hi].map { $0 - a }
      let output: Int
      if lo == 0 && hi == w.kept.count - 1 {
        output = w.output
      } else if let v = views[[w.output, lo, hi]] {
        output = v
      } else {
        let components = (lo * c.components)..<((hi + 1) * c.components)
        let name = "\(clip.name)/\(c.label.drop { $0 != "/" }.dropFirst())"
        output =
          switch w.picked {
          case .floats(let values): builder.addView(of: w.output, elements: lo..<(hi + 1), values: values[components], name: name)
          case .shorts(let values): builder.addView(of: w.output, elements: lo..<(hi + 1), values: values[components], name: name)
          }
        views[[w.output, lo, hi]] = output
      }
      try writer.add(
        node: c.node, path: c.path, interpolation: c.interpolation, kept: kept, output: output, builder: &builder)
    }
    _ = builder.addAnimation(writer.finish(frames: clip.frames, fps: fps, axis: options.frameAxis))
  }

  /// Index of the first element of ascending `sorted` that is ≥ `x` (`sorted.count` when none).
  static func firstIndex(in sorted: [Int], atLeast x: Int) -> Int {
    var lo = 0, hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if sorted[mid] < x { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// The elements `kept` of `flat` (`components` per element; `flat` itself when every one of the
  /// `frames` is kept).
  static func pick<T>(_ flat: [T], kept: [Int], components m: Int, frames n: Int) -> [T] {
    if kept.count == n { return flat }
    var picked: [T] = []
    picked.reserveCapacity(kept.count * m)
    for k in kept { picked += flat[(k * m)..<(k * m + m)] }
    return picked
  }

  /// The output accessor of `values`, written once per distinct content (a limb's translation is its
  /// first joint's).
  mutating func output(_ values: Stored, components: Int, label: String) throws -> Int {
    let key = OutputKey(components: components, values: values)
    if let o = outputs[key] { return o }
    let type: GLTFAccessorType = components == 4 ? .vec4 : .vec3
    let o =
      switch values {
      case .floats(let flat): try builder.addFloats(flat, type: type, usage: .animation, name: label)
      case .shorts(let flat): try builder.addNormalizedShorts(flat, type: type, name: label)
      }
    outputs[key] = o
    return o
  }

  /// Scale (1, 1, 1) where `seen`, `MatchSceneGLTF.hiddenScale` elsewhere, flat.
  static func visibilityScale(_ seen: [Bool]) -> [Float] {
    var scale: [Float] = []
    scale.reserveCapacity(3 * seen.count)
    for s in seen {
      let x: Float = s ? 1 : MatchSceneGLTF.hiddenScale
      scale += [x, x, x]
    }
    return scale
  }

  /// Constant samples shared by the STEP channels of `completeTransformChannels`.
  struct Constants: Sendable {
    var identity: [Float]
    var identityShorts: [Int16]
    var ones: [Float]
    var zeros: [Float]
    init(count n: Int) {
      identity = [Float](repeating: 0, count: 4 * n)
      identityShorts = [Int16](repeating: 0, count: 4 * n)
      for k in 0..<n {
        identity[4 * k + 3] = 1
        identityShorts[4 * k + 3] = NormalizedShort.encode(1)
      }
      ones = [Float](repeating: 1, count: 3 * n)
      zeros = [Float](repeating: 0, count: 3 * n)
    }
  }

  /// The animated properties of `node` over `frames`, in the order its channels are written: translation,
  /// rotation, scale. Translation-only nodes also get constant identity rotation and unit scale, player
  /// nodes zero translation and identity rotation (`SceneOptions.completeTransformChannels`), as STEP
  /// channels whose samplers are shared.
  func channelSamples(
    node: Int, driver: Driver, name: String, frames: ClosedRange<Int>, fps: Double, constants: Constants
  ) -> [ChannelSamples] {
    let n = frames.count
    let linear = options.interpolation
    let complete = options.completeTransformChannels
    let ones = constants.ones
    let zeros = constants.zeros
    let shortRotations = options.rotationEncoding == .normalizedShort
    func flat(_ p: [SIMD3<Double>]) -> [Float] {
      var out: [Float] = []
      out.reserveCapacity(3 * p.count)
      for v in p {  // appended one by one: an array literal per sample costs an allocation
        out.append(Float(v.x))
        out.append(Float(v.y))
        out.append(Float(v.z))
      }
      return out
    }
    var out: [ChannelSamples] = []
    do {
      func add(
        _ path: GLTFAnimationPath, _ interpolation: GLTFInterpolation, _ m: Int, _ values: [Float], _ rule: KeyRule,
        _ label: String, shorts: [Int16]? = nil
      ) {
        out.append(
          ChannelSamples(
            node: node, path: path, interpolation: interpolation, components: m, flat: values, shorts: shorts, rule: rule,
            label: label))
      }
      func addIdentityRotation() {
        add(
          .rotation, .step, 4, constants.identity, .changes, "\(name)/identity-rotation",
          shorts: shortRotations ? constants.identityShorts : nil)
      }
      switch driver {
      case .point(let track, let joint):
        add(.translation, linear, 3, flat(table.series(track: track, joint: joint, frames: frames)!), .distance,
          "\(name)/\(track)/\(joint)")
        if complete { addIdentityRotation() }
        // Hidden (`MatchSceneGLTF.hiddenScale`, STEP) at frames without data: the held position is not shown.
        let seen = frames.map { table.known(track: track, joint: joint, frame: $0) }
        if seen.allSatisfy({ $0 }) {
          if complete { add(.scale, .step, 3, ones, .changes, "\(name)/unit-scale") }
        } else {
          add(.scale, .step, 3, Self.visibilityScale(seen), .changes, "\(name)/\(track)/\(joint)/visible")
        }
      case .limb(let track, let from, let to):
        var pose = limbPoses(track: track, from: from, to: to, frames: frames)
        // Hidden (`MatchSceneGLTF.hiddenScale`) at frames where either joint has no data.
        for (k, f) in frames.enumerated()
        where !table.known(track: track, joint: from, frame: f) || !table.known(track: track, joint: to, frame: f) {
          pose.scale[k] = SIMD3(repeating: MatchSceneGLTF.hiddenScale)
        }
        let label = "\(name)/\(track)/\(from)-\(to)"
        add(.translation, linear, 3, GLTFBuilder.flatten(pose.translation), .distance, "\(label)/T")
        // A rotation error θ moves the limb's far end by at most L θ, L its greatest length in the clip.
        let longest = pose.scale.map { Double($0.y) }.max() ?? Self.minimumLimbLength
        let angle = options.keyframeTolerance / max(longest, Self.minimumLimbLength)
        let rotation = GLTFBuilder.flatten(pose.rotation)
        add(
          .rotation, linear, 4, rotation, .angle(angle), "\(label)/R",
          shorts: shortRotations ? NormalizedShort.encode(rotation) : nil)
        // STEP, so that a limb is hidden for the whole of a frame without data rather than shrinking
        // towards it; its length is constant after the analysis (bone lengths), so nothing else steps.
        add(.scale, .step, 3, GLTFBuilder.flatten(pose.scale), .distance, "\(label)/S")
      case .visibility(let track):
        let gap = Int((options.hideGapsLongerThan * fps).rounded())
        var scale: [Float] = []
        scale.reserveCapacity(3 * n)
        for f in frames {
          let s: Float = table.present(track: track, frame: f, gap: gap) ? 1 : MatchSceneGLTF.hiddenScale
          scale.append(s)
          scale.append(s)
          scale.append(s)
        }
        if complete { add(.translation, .step, 3, zeros, .changes, "\(name)/zero-translation") }
        if complete { addIdentityRotation() }
        add(.scale, .step, 3, scale, .changes, "\(name)/\(track)/visible")
      case .trail(let track, let joint, let delay, let size):
        let late = (frames.lowerBound - delay)...(frames.upperBound - delay)
        let label = "\(name)/\(MatchSceneGLTF.ballName)/trail-\(delay)"
        add(.translation, linear, 3, flat(table.series(track: track, joint: joint, frames: late)!), .distance, label)
        if complete { addIdentityRotation() }
        var scale: [Float] = []
        scale.reserveCapacity(3 * n)
        for f in late {
          let s: Float = table.known(track: track, joint: joint, frame: f) ? size : MatchSceneGLTF.hiddenScale
          scale.append(s)
          scale.append(s)
          scale.append(s)
        }
        add(.scale, .step, 3, scale, .changes, "\(label)/visible")
      }
    }
    return out
  }
}

/// An input read by, and one result slot per iteration of, `DispatchQueue.concurrentPerform`.
///
/// `@unchecked Sendable` because the iterations only read `input` and each writes its own slot; the
/// slots are read back with `results()` after `concurrentPerform` has returned.
final class ConcurrentSlots<Input, Result>: @unchecked Sendable {
  let input: Input
  let slots: UnsafeMutableBufferPointer<Result>

  init(_ input: Input, count: Int, empty: Result) {
    self.input = input
    slots = .allocate(capacity: count)
    slots.initialize(repeating: empty)
  }

  /// The results, in iteration order.
  func results() -> [Result] { Array(slots) }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }
}
