/// How a sample of a motion series came to be.
public enum SampleState: UInt8, Sendable, Codable {
  /// No value at this frame.
  case missing = 0
  /// Triangulated from the detections at this frame (perhaps smoothed, or moved to keep bone lengths).
  case measured = 1
  /// Made up from the frames around it: a gap filled by interpolation, an outlier replaced, a ball
  /// placed on its fitted flight where no camera pair saw it.
  case filled = 2
}

/// One sample of one joint (or the ball) at one frame.
public struct MotionSample: Sendable, Equatable {
  /// Metres, in the frame of the model (the calibration's world unless the model says otherwise).
  public var position: SIMD3<Double>
  /// Mean reprojection error over the views used, pixels; -1 where there were none.
  public var reprojectionPx: Double
  /// Camera views used.
  public var views: Int32
  public var state: SampleState

  public init(position: SIMD3<Double>, reprojectionPx: Double, views: Int, state: SampleState) {
    self.position = position
    self.reprojectionPx = reprojectionPx
    self.views = Int32(clamping: views)
    self.state = state
  }

  public static let missing = MotionSample(position: .zero, reprojectionPx: -1, views: 0, state: .missing)

  public var isPresent: Bool { state != .missing }
}

/// One tracked thing over the model's frames: a person (one series per skeleton keypoint) or the ball
/// (one series).
///
/// Samples are stored joint-major, `samples[joint * frameCount + (frame - firstFrame)]`, so that one
/// joint's series over time is contiguous (what the filters read and write).
public struct MotionTrack: Sendable {
  /// `P1`, `P2`… for players, `B1`… for other people, `ball`.
  public var id: String
  public var kind: TrackKind
  /// Series in this track: the skeleton's keypoint count for people, 1 for the ball.
  public let jointCount: Int
  public let firstFrame: Int
  public let frameCount: Int
  public var samples: [MotionSample]

  public init(id: String, kind: TrackKind, jointCount: Int, frames: ClosedRange<Int>) {
    self.id = id
    self.kind = kind
    self.jointCount = jointCount
    self.firstFrame = frames.lowerBound
    self.frameCount = frames.count
    self.samples = Array(repeating: .missing, count: jointCount * frames.count)
  }

  public var frames: ClosedRange<Int> { firstFrame...(firstFrame + frameCount - 1) }

  /// Index of the sample of `joint` at `frame` in `samples`.
  @inline(__always) public func index(joint: Int, frame: Int) -> Int { joint * frameCount + (frame - firstFrame) }

  public subscript(joint joint: Int, frame frame: Int) -> MotionSample {
    get { samples[index(joint: joint, frame: frame)] }
    set { samples[index(joint: joint, frame: frame)] = newValue }
  }

  /// The position of `joint` at `frame`, nil where missing or outside the model's frames.
  public func position(joint: Int, frame: Int) -> SIMD3<Double>? {
    guard frame >= firstFrame, frame < firstFrame + frameCount else { return nil }
    let s = samples[index(joint: joint, frame: frame)]
    return s.isPresent ? s.position : nil
  }

  /// One joint's samples over every frame, in order.
  public func series(joint: Int) -> ArraySlice<MotionSample> {
    samples[(joint * frameCount)..<((joint + 1) * frameCount)]
  }

  /// One joint's positions over every frame (nil where missing).
  public func positions(joint: Int) -> [SIMD3<Double>?] { series(joint: joint).map { $0.isPresent ? $0.position : nil } }

  /// Whether any joint has a sample at `frame`.
  public func isPresent(frame: Int) -> Bool {
    guard frame >= firstFrame, frame < firstFrame + frameCount else { return false }
    for j in 0..<jointCount where samples[index(joint: j, frame: frame)].isPresent { return true }
    return false
  }

  /// Frames with at least one sample.
  public var presentFrameCount: Int { (0..<frameCount).reduce(0) { $0 + (isPresent(frame: firstFrame + $1) ? 1 : 0) } }
}

/// The dense motion of a match that every stage after triangulation shares: per track, per joint,
/// per frame a position with its reprojection error, views and state (measured, filled or missing).
/// Tracks are indexed by integers with their ids as names; `rows` is the `tracks.csv` view.
public struct MotionModel: Sendable {
  public var fps: Double
  public var skeleton: Skeleton
  /// The frames every track spans; nil for an empty model.
  public var frames: ClosedRange<Int>?
  /// People first (in id order), then the ball.
  public var tracks: [MotionTrack]
  /// The real match frames of `frames` (`FrameAxis`): the identity unless the model runs on a compact
  /// axis (a sparse match); `rows` and `forEachRow` give real frames and times.
  public var axis: FrameAxis = .identity

  public init(fps: Double, skeleton: Skeleton, frames: ClosedRange<Int>?, tracks: [MotionTrack] = []) {
    self.fps = fps
    self.skeleton = skeleton
    self.frames = frames
    self.tracks = tracks
  }

  /// An empty track of `kind` spanning the model's frames (people get one series per keypoint).
  public func makeTrack(id: String, kind: TrackKind) -> MotionTrack {
    MotionTrack(id: id, kind: kind, jointCount: kind == .ball ? 1 : skeleton.count, frames: frames ?? 0...0)
  }

  /// The index in `tracks` of the track `id`.
  public func trackIndex(_ id: String) -> Int? { tracks.firstIndex { $0.id == id } }

  public func track(_ id: String) -> MotionTrack? { trackIndex(id).map { tracks[$0] } }

  /// Indices of the people's tracks (players and others).
  public var personTracks: [Int] { tracks.indices.filter { tracks[$0].kind != .ball } }
  /// Indices of the players' tracks.
  public var playerTracks: [Int] { tracks.indices.filter { tracks[$0].kind == .player } }
  /// The index of the ball's track, if any.
  public var ballTrack: Int? { tracks.firstIndex { $0.kind == .ball } }

  /// Seconds since match frame 0.
  public func time(_ frame: Int) -> Double { Double(frame) / fps }

  /// Sorts people by id (then the ball), the order of `rows` within a frame.
  public mutating func sortTracks() {
    tracks.sort { a, b in
      if (a.kind == .ball) != (b.kind == .ball) { return b.kind == .ball }
      return a.id < b.id
    }
  }
}

// MARK: - The row view

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

  /// The model with every position mapped by `transform` (e.g. `venueFromWorld`).
  public func transformed(by transform: RigidTransform) -> MotionModel {
    var out = self
    for t in out.tracks.indices {
      for i in out.tracks[t].samples.indices where out.tracks[t].samples[i].isPresent {
        out.tracks[t].samples[i].position = transform.apply(out.tracks[t].samples[i].position)
      }
    }
    return out
  }
}
