import MatchSceneCore

/// The reconstruction's positions by track, joint and frame, with hold-nearest sampling for frames
/// without data.
///
/// Stored densely over the reconstruction's frame range, one series per track and joint, each already
/// filled the way `series` samples it, so that sampling a range is a copy (no per-frame lookups).
struct TrackTable {
  /// Frame rate of the reconstruction, frames per second.
  let fps: Double
  /// First to last frame of any point; nil without points.
  let frameRange: ClosedRange<Int>?
  /// Track ids in the model's order, with their kind (people first, then the ball).
  let trackIDs: [(id: String, kind: TrackKind)]
  /// Series index of each track's joints, in order of first appearance.
  private var index: [String: [(joint: String, series: Int)]] = [:]
  /// filled[s][i]: the position of series s at frame lowerBound + i, or the hold-nearest value.
  private var filled: [[SIMD3<Double>]] = []
  /// present[s][i]: whether series s has data at frame lowerBound + i itself.
  private var present: [[Bool]] = []
  /// Frames of series s that have data, ascending.
  private var knownFrames: [[Int]] = []

  /// - Throws: `GLTFError` naming track, joint and frame of the first non-finite position.
  init(_ motion: MotionModel) throws {
    fps = motion.fps
    // The frames any track has data at.
    var lo = Int.max, hi = Int.min
    for track in motion.tracks {
      for j in 0..<track.jointCount {
        for (i, sample) in track.series(joint: j).enumerated() where sample.isPresent {
          let p = sample.position
          let frame = track.firstFrame + i
          guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
            let joint = track.kind == .ball ? "ball" : motion.skeleton.keypoints[j]
            throw GLTFError("track \(track.id) joint \(joint) frame \(frame): position \(p) is not finite")
          }
          lo = min(lo, frame)
          hi = max(hi, frame)
        }
      }
    }
    guard lo <= hi else {
      frameRange = nil
      trackIDs = []
      return
    }
    frameRange = lo...hi
    let n = hi - lo + 1
    var people: [(id: String, kind: TrackKind)] = [], balls: [(id: String, kind: TrackKind)] = []
    for track in motion.tracks {
      for j in 0..<track.jointCount {
        let source = track.series(joint: j)
        guard source.contains(where: { $0.isPresent }) else { continue }
        if index[track.id] == nil {
          if track.kind == .ball { balls.append((track.id, track.kind)) } else { people.append((track.id, track.kind)) }
        }
        index[track.id, default: []].append((track.kind == .ball ? "ball" : motion.skeleton.keypoints[j], filled.count))
        // Hold the last known value forward; before the first known frame take the first known value.
        var values = [SIMD3<Double>](repeating: .zero, count: n)
        var here = [Bool](repeating: false, count: n)
        var known: [Int] = []
        var held: SIMD3<Double>?
        for i in 0..<n {
          let frame = lo + i
          let k = frame - track.firstFrame
          if k >= 0, k < track.frameCount, source[source.startIndex + k].isPresent {
            held = source[source.startIndex + k].position
            here[i] = true
            known.append(frame)
          }
          if let held { values[i] = held }
        }
        let first = values[known[0] - lo]
        for i in 0..<(known[0] - lo) { values[i] = first }
        filled.append(values)
        present.append(here)
        knownFrames.append(known)
      }
    }
    trackIDs = people + balls
  }

  private func series(_ track: String, _ joint: String) -> Int? {
    index[track]?.first(where: { $0.joint == joint })?.series
  }

  /// The joints of `track` with data, in order of first appearance.
  func joints(of track: String) -> [String] { index[track]?.map(\.joint) ?? [] }

  /// Whether `track` is on stage at `frame`: some joint has data at the frame, or known frames on both
  /// sides of it no more than `gap` frames apart (a short gap, bridged by interpolation). Before a
  /// track's first and after its last frame it is off stage.
  func present(track: String, frame: Int, gap: Int) -> Bool {
    guard let joints = index[track] else { return false }
    for (_, s) in joints {
      let known = knownFrames[s]
      // Index of the first known frame ≥ frame (binary search).
      var lo = 0, hi = known.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if known[mid] < frame { lo = mid + 1 } else { hi = mid }
      }
      if lo < known.count, known[lo] == frame { return true }
      if lo > 0, lo < known.count, known[lo] - known[lo - 1] <= gap { return true }
    }
    return false
  }

  /// Whether `track` has a position of `joint` at `frame` itself.
  func known(track: String, joint: String, frame: Int) -> Bool {
    guard let s = series(track, joint), let range = frameRange, range.contains(frame) else { return false }
    return present[s][frame - range.lowerBound]
  }

  /// Whether `track` has any position of `joint`.
  func has(track: String, joint: String) -> Bool { series(track, joint) != nil }

  /// The position of `joint` in `track` at every frame of `range`. A frame without data takes the nearest
  /// known frame before it, else the nearest after it (so nothing jumps to the origin). Nil when the
  /// track has no data of that joint at all.
  func series(track: String, joint: String, frames range: ClosedRange<Int>) -> [SIMD3<Double>]? {
    guard let s = series(track, joint), let all = frameRange else { return nil }
    let values = filled[s]
    let a = max(range.lowerBound, all.lowerBound), b = min(range.upperBound, all.upperBound)
    // Frames before the table hold its first value, frames after it its last.
    var out = [SIMD3<Double>](repeating: values[0], count: max(0, min(range.upperBound, all.lowerBound - 1) - range.lowerBound + 1))
    out.reserveCapacity(range.count)
    if a <= b { out += values[(a - all.lowerBound)...(b - all.lowerBound)] }
    out += repeatElement(values[values.count - 1], count: max(0, range.upperBound - max(range.lowerBound, all.upperBound + 1) + 1))
    return out
  }
}
