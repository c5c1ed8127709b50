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

extension MotionModel {
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
