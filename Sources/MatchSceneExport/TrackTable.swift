import MatchSceneCore

/// The reconstruction's positions by track, joint and frame, with hold-nearest sampling for frames
/// without data.
struct TrackTable {
  /// positions[track][joint][frame], metres, calibration world.
  private var positions: [String: [String: [Int: SIMD3<Double>]]] = [:]
  /// Known frames of each track/joint, ascending.
  private var frames: [String: [String: [Int]]] = [:]

  /// - Throws: `GLTFError` naming track, joint and frame of the first non-finite position.
  init(_ reconstruction: Reconstruction) throws {
    fps = reconstruction.fps
    for p in reconstruction.points {
      guard p.position.x.isFinite, p.position.y.isFinite, p.position.z.isFinite else {
        throw GLTFError(
          "track \(p.track) joint \(p.joint) frame \(p.frame): position \(p.position) is not finite")
      }
      positions[p.track, default: [:]][p.joint, default: [:]][p.frame] = p.position
    }
    for (track, joints) in positions {
      for (joint, byFrame) in joints { frames[track, default: [:]][joint] = byFrame.keys.sorted() }
    }
  }

  /// Whether `track` is on stage at `frame`: some joint has data at the frame, or known frames on both
  /// sides of it no more than `gap` frames apart (a short gap, bridged by interpolation). Before a
  /// track's first and after its last frame it is off stage.
  func present(track: String, frame: Int, gap: Int) -> Bool {
    guard let joints = frames[track] else { return false }
    for (_, known) in joints {
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

  /// Frame rate of the reconstruction, frames per second.
  let fps: Double

  /// Whether `track` has a position of `joint` at `frame` itself.
  func known(track: String, joint: String, frame: Int) -> Bool { positions[track]?[joint]?[frame] != nil }

  /// Whether `track` has any position of `joint`.
  func has(track: String, joint: String) -> Bool { positions[track]?[joint] != nil }

  /// The position of `joint` in `track` at every frame of `range`. A frame without data takes the nearest
  /// known frame before it, else the nearest after it (so nothing jumps to the origin). Nil when the
  /// track has no data of that joint at all.
  func series(track: String, joint: String, frames range: ClosedRange<Int>) -> [SIMD3<Double>]? {
    guard let byFrame = positions[track]?[joint], let known = frames[track]?[joint], let first = known.first else {
      return nil
    }
    var out: [SIMD3<Double>] = []
    out.reserveCapacity(range.count)
    // Index of the first known frame > range.lowerBound (binary search), then advanced as f grows.
    var lo = 0, hi = known.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if known[mid] <= range.lowerBound { lo = mid + 1 } else { hi = mid }
    }
    var k = lo
    var held = byFrame[k > 0 ? known[k - 1] : first]!
    for f in range {
      while k < known.count && known[k] <= f {
        held = byFrame[known[k]]!
        k += 1
      }
      out.append(byFrame[f] ?? held)
    }
    return out
  }
}
