import MatchSceneCore

// The motion model as rows of `tracks.csv` (`TrackPoint`): the CSV edge, where the dense model meets the
// long table.
extension MotionModel {
  /// A model holding `points` (rows of any order); a point's frame outside `frames` widens them.
  /// Rows are measured samples unless `reprojectionPx` is negative (filled), as `tracks.csv` writes them.
  public init(points: [TrackPoint], fps: Double, skeleton: Skeleton) {
    var lo = Int.max, hi = Int.min
    for p in points {
      lo = min(lo, p.frame)
      hi = max(hi, p.frame)
    }
    // Points spread over a span mostly empty (a sparse match's tracks.csv) go on a compact axis.
    let axis = lo <= hi ? FrameAxis.forRows(points.lazy.map(\.frame), span: lo...hi, fps: fps) : .identity
    self.init(fps: fps, skeleton: skeleton, frames: lo <= hi ? lo...axis.compact(hi)! : nil)
    self.axis = axis
    var trackOf: [String: Int] = [:]
    var names: [String: Int] = [:]
    for (i, name) in skeleton.keypoints.enumerated() where names[name] == nil { names[name] = i }
    for p in points {
      let t: Int
      if let known = trackOf[p.track] {
        t = known
      } else {
        t = tracks.count
        trackOf[p.track] = t
        tracks.append(makeTrack(id: p.track, kind: p.kind))
      }
      let joint = p.kind == .ball ? 0 : names[p.joint]
      guard let joint else { continue }
      tracks[t][joint: joint, frame: axis.compact(p.frame)!] = MotionSample(
        position: p.position, reprojectionPx: p.reprojectionPx, views: p.views,
        state: p.reprojectionPx < 0 ? .filled : .measured)
    }
    sortTracks()
  }

  /// Every present sample as a `tracks.csv` row: by frame, people in id order with their joints in
  /// skeleton order, then the ball. A `.filled` sample's row has reprojection error -1 and 0 views.
  public var rows: [TrackPoint] {
    var out: [TrackPoint] = []
    out.reserveCapacity(tracks.reduce(0) { $0 + $1.samples.count / 2 })
    forEachRow { out.append($0) }
    return out
  }

  /// Calls `body` with each of `rows` in order, without making the array (a 10-minute match has 1.6
  /// million rows). Within a frame the tracks come in `trackOrder` (indices into `tracks`; tracks left
  /// out give no rows), by default people by id, then the ball.
  public func forEachRow(trackOrder: [Int]? = nil, _ body: (TrackPoint) throws -> Void) rethrows {
    guard let frames else { return }
    let order = trackOrder ?? tracks.indices.sorted { a, b in
      let x = tracks[a], y = tracks[b]
      if (x.kind == .ball) != (y.kind == .ball) { return y.kind == .ball }
      return x.id < y.id
    }
    for frame in frames {
      let real = axis.real(frame)
      let time = Double(real) / fps
      for t in order {
        let track = tracks[t]
        for j in 0..<track.jointCount {
          let s = track.samples[track.index(joint: j, frame: frame)]
          guard s.isPresent else { continue }
          try body(
            TrackPoint(
              frame: real, time: time, track: track.id, kind: track.kind,
              joint: track.kind == .ball ? "ball" : skeleton.keypoints[j], position: s.position,
              // A filled sample (a gap interpolated, an outlier replaced) was not measured: -1 and no
              // views, which tracks.csv writes as empty cells.
              reprojectionPx: s.state == .filled ? -1 : s.reprojectionPx, views: s.state == .filled ? 0 : Int(s.views)))
        }
      }
    }
  }
}
