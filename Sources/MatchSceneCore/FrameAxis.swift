/// The frame axis a run works on, mapped to the match's real frames: a match whose detections span
/// hours but hold a minute of data is processed on a compact axis where every empty stretch longer than a
/// pad of `G` frames is collapsed to `G` frames, so that memory and outputs follow the data, not the span.
///
/// The axis is a list of pieces, each a run of compact frames mapped one to one onto a run of real
/// frames (same length, so a piece is a shift). A collapsed gap keeps its first `G / 2` empty frames in
/// the piece before it and its last `G − G / 2` in the piece after it: every compact frame has its own real
/// frame, the map is increasing, and the frames around the data keep their real distance to it. Every
/// stage sees at most `G` empty frames where the match had more, which changes nothing when `G` is at
/// least the longest time any stage waits before ending something (gap filling, rally ends, flights,
/// identity linking, smoothing windows): see `padFrames(fps:longestThreshold:)`.
///
/// With no gap longer than `G` the axis is the identity (`pieces` empty): compact frame = real frame.
public struct FrameAxis: Sendable, Equatable {
  /// A run of compact frames `compactStart ..< compactStart + count` that are the real frames
  /// `realStart ..< realStart + count`.
  public struct Piece: Sendable, Equatable, Codable {
    public var compactStart: Int
    public var realStart: Int
    public var count: Int
    public init(compactStart: Int, realStart: Int, count: Int) {
      self.compactStart = compactStart
      self.realStart = realStart
      self.count = count
    }
    /// The compact frames of the piece.
    public var compactFrames: ClosedRange<Int> { compactStart...(compactStart + count - 1) }
    /// The real frames of the piece.
    public var realFrames: ClosedRange<Int> { realStart...(realStart + count - 1) }
  }

  /// In increasing order of both axes; empty for the identity.
  public let pieces: [Piece]

  /// An axis of `pieces` (increasing); one piece that is no shift is the identity.
  public init(pieces: [Piece]) {
    let shiftless = pieces.count == 1 && pieces[0].compactStart == pieces[0].realStart
    self.pieces = pieces.isEmpty || shiftless ? [] : pieces
  }

  /// Compact frame = real frame.
  public static let identity = FrameAxis(pieces: [])

  public var isIdentity: Bool { pieces.isEmpty }

  /// Seconds of empty frames kept between runs of data at the least (`padFrames`).
  public static let minimumPadSeconds = 10.0

  /// The pad `G`, frames: `minimumPadSeconds`, or twice `longestThreshold` seconds when that is longer
  /// (the smoothing's `maxGap` may be set up to 60 s), at `fps`.
  public static func padFrames(fps: Double, longestThreshold: Double = 0) -> Int {
    let seconds = max(minimumPadSeconds, 2 * longestThreshold)
    guard fps.isFinite, fps > 0 else { return 600 }
    return max(2, Int((seconds * fps).rounded(.up)))
  }

  /// The axis of `frames` (match frames holding data, any order, repeats allowed): every gap between two
  /// of them longer than `pad` empty frames collapsed to `pad` frames. The first frame keeps its number.
  /// The identity when no gap is that long.
  public static func compacting<S: Sequence>(_ frames: S, pad: Int) -> FrameAxis where S.Element == Int {
    let sorted = Set(frames).sorted()
    guard let first = sorted.first else { return .identity }
    let pad = max(0, pad)
    var pieces: [Piece] = []
    var realStart = first, compactStart = first, previous = first
    for f in sorted.dropFirst() {
      let empty = f - previous - 1
      if empty > pad {
        let before = pad / 2, after = pad - before
        let end = previous + before
        pieces.append(Piece(compactStart: compactStart, realStart: realStart, count: end - realStart + 1))
        compactStart += end - realStart + 1
        realStart = f - after
      }
      previous = f
    }
    pieces.append(Piece(compactStart: compactStart, realStart: realStart, count: previous - realStart + 1))
    return FrameAxis(pieces: pieces)
  }

  /// The axis a reader puts rows at `frames` (real frames within `span`) on: compact
  /// (`compacting`, pad `padFrames(fps:)`) when that keeps less than half of the span, else the
  /// identity, so that a dense file reads as before and a sparse match's file does not allocate its hours.
  public static func forRows<S: Sequence>(_ frames: S, span: ClosedRange<Int>, fps: Double) -> FrameAxis where S.Element == Int {
    let pad = padFrames(fps: fps)
    guard span.count > 4 * pad else { return .identity }
    let axis = compacting(frames, pad: pad)
    guard let last = axis.pieces.last, 2 * (last.compactStart + last.count - span.lowerBound) <= span.count else { return .identity }
    return axis
  }

  /// The index of the piece holding compact frame `compact`, or the nearest (first / last) outside them.
  func piece(compact: Int) -> Int { lastPiece { $0.compactStart <= compact } }

  /// The index of the last piece starting at or before real frame `real` (the first when none does).
  func piece(real: Int) -> Int { lastPiece { $0.realStart <= real } }

  /// The index of the last piece for which `startsBefore` holds (it holds for a prefix of `pieces`, both
  /// axes being increasing); 0 when it holds for none. Binary search.
  private func lastPiece(_ startsBefore: (Piece) -> Bool) -> Int {
    var lo = 0, hi = pieces.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if startsBefore(pieces[mid]) { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// The real frame of compact frame `compact` (outside the pieces, shifted as the nearest piece).
  public func real(_ compact: Int) -> Int {
    guard !pieces.isEmpty else { return compact }
    let p = pieces[piece(compact: compact)]
    return compact - p.compactStart + p.realStart
  }

  /// The compact frame of real frame `real`; nil inside a collapsed gap. Outside the pieces, shifted as
  /// the nearest piece.
  public func compact(_ real: Int) -> Int? {
    guard !pieces.isEmpty else { return real }
    let lo = piece(real: real)
    let p = pieces[lo]
    let c = real - p.realStart + p.compactStart
    if lo < pieces.count - 1, real >= p.realStart + p.count { return nil }
    return c
  }

  /// Seconds since real frame 0 of compact frame `compact` at `fps`.
  public func time(_ compact: Int, fps: Double) -> Double { Double(real(compact)) / fps }

  /// The real time of an instant `time` (seconds, perhaps between frames) near compact frame `frame`:
  /// shifted as that frame is.
  public func realTime(_ time: Double, frame: Int, fps: Double) -> Double {
    guard !pieces.isEmpty else { return time }
    return time + Double(real(frame) - frame) / fps
  }

  /// The compact frames of the real frames `range`: its first and last frames not in a collapsed
  /// stretch; nil when all of it lies in one.
  public func compact(_ range: ClosedRange<Int>) -> ClosedRange<Int>? {
    guard !pieces.isEmpty else { return range }
    let a = compact(range.lowerBound) ?? pieces[piece(real: range.lowerBound) + 1].compactStart
    let b = compact(range.upperBound) ?? pieces[piece(real: range.upperBound)].compactFrames.upperBound
    return a <= b ? a...b : nil
  }

  /// The real frames of the compact `range`: first to last.
  public func real(_ range: ClosedRange<Int>) -> ClosedRange<Int> { real(range.lowerBound)...real(range.upperBound) }

  /// The runs of compact frames within `range` that are each contiguous in real frames, with their real
  /// frames: the whole of `range` for the identity.
  public func runs(in range: ClosedRange<Int>) -> [(compact: ClosedRange<Int>, real: ClosedRange<Int>)] {
    guard !pieces.isEmpty else { return [(range, range)] }
    var out: [(compact: ClosedRange<Int>, real: ClosedRange<Int>)] = []
    for (i, p) in pieces.enumerated() {
      // The first and last pieces reach out to any frame before or after them.
      let lo = i == 0 ? Int.min : p.compactStart
      let hi = i == pieces.count - 1 ? Int.max : p.compactStart + p.count - 1
      let a = max(lo, range.lowerBound), b = min(hi, range.upperBound)
      guard a <= b else { continue }
      out.append((a...b, real(a)...real(b)))
    }
    return out
  }
}
