import MatchSceneCore

/// The smoothing methods offered per run.
public enum SmoothingMethod: String, Sendable, CaseIterable, Codable {
  /// Zero-phase Butterworth (default).
  case butterworth
  case oneEuro = "one-euro"
  case savitzkyGolay = "savitzky-golay"
  case kalman
  /// Outlier removal and gap filling only.
  case none
}

/// Settings of `TrackSmoother`.
public struct SmoothingOptions: Sendable, Equatable {
  public var method: SmoothingMethod = .butterworth
  /// Butterworth zero-phase order (even).
  public var order = 4
  /// Butterworth cutoff, Hz. Sport-dependent: 6–10 Hz suits whole-body motion; strokes want more.
  /// With `cutoffFromResiduals`, the highest cutoff the residual analysis may choose.
  public var cutoff: Double = 10
  /// Butterworth: choose each joint's cutoff from its own data by residual analysis
  /// (`ResidualCutoff`), at most `cutoff`; false filters every joint at `cutoff` exactly.
  public var cutoffFromResiduals = true
  /// Hampel window half-width, samples, and threshold in MADs (0 turns the Hampel filter off).
  public var hampelHalfWindow = 5
  public var hampelThreshold: Double = 4
  /// Hampel: deviations below this never count as outliers, metres.
  public var hampelFloor: Double = 0.02
  /// Gaps up to this long are filled (cubic), seconds; longer gaps stay empty.
  public var maxGap: Double = 0.25
  /// One Euro parameters.
  public var oneEuroMinCutoff: Double = 1.5
  public var oneEuroBeta: Double = 2
  /// Savitzky–Golay window half-width (samples) and degree.
  public var savitzkyGolayHalfWindow = 5
  public var savitzkyGolayDegree = 3
  /// Kalman: measurement noise (m) and jerk density.
  public var kalmanMeasurementSigma: Double = 0.008
  public var kalmanJerkDensity: Double = 500

  public init() {}
}

/// Smooths every player joint trajectory of a reconstruction: Hampel outlier removal, cubic filling
/// of short gaps, then the chosen smoother on each gap-free run. The ball is left alone (its flights
/// are fitted by physics instead: smoothing would round off its bounces and hits).
public struct TrackSmoother: Sendable {
  public var options: SmoothingOptions
  public init(options: SmoothingOptions = .init()) { self.options = options }

  /// Smooths every person's joints in place; the ball is left as it is. A sample keeps its reprojection
  /// error and views; one the Hampel filter replaced, or a gap filled, is `.filled` (a filled gap with
  /// reprojection error -1 and no views); an outlier in a gap too long to fill becomes missing. A
  /// frame filled whole where another person track was measured at the same place is emptied again
  /// (`removeDuplicateFills`): gap filling never draws one person twice.
  public func smooth(_ motion: inout MotionModel) {
    let fps = motion.fps
    for t in motion.personTracks {
      let n = motion.tracks[t].frameCount
      for (j, (smoothed, replaced)) in smoothJoints(of: motion.tracks[t], fps: fps).enumerated() {
        let base = j * n
        // A copy, so that writing the track back does not copy all of its samples.
        let original = Array(motion.tracks[t].samples[base..<(base + n)])
        for (i, position) in smoothed.enumerated() {
          var sample = original[i]
          if let position {
            if !sample.isPresent {
              sample = MotionSample(position: position, reprojectionPx: -1, views: 0, state: .filled)
            } else {
              sample.position = position
              if replaced.contains(i) { sample.state = .filled }
            }
          } else {
            sample = .missing
          }
          motion.tracks[t].samples[base + i] = sample
        }
      }
    }
    Self.removeDuplicateFills(&motion)
  }

  /// `smoothSeriesMarkingReplaced` of each joint of `track`, the joints on all cores (they are
  /// independent; one track at a time keeps the memory to one track's copies).
  func smoothJoints(of track: MotionTrack, fps: Double) -> [(positions: [SIMD3<Double>?], replaced: Set<Int>)] {
    let n = track.frameCount
    // `try!`: the body throws nothing, so neither does `parallelMap`.
    return try! parallelMap(Array(0..<track.jointCount)) { j in
      smoothSeriesMarkingReplaced(track.samples[(j * n)..<((j + 1) * n)].map { $0.isPresent ? $0.position : nil }, fps: fps)
    }
  }

  /// One joint's positions per frame (nil = missing) → smoothed positions (nil where still missing).
  public func smoothSeries(_ positions: [SIMD3<Double>?], fps: Double) -> [SIMD3<Double>?] {
    smoothSeriesMarkingReplaced(positions, fps: fps).positions
  }

  /// `smoothSeries`, with the indices of the samples the Hampel filter found to be outliers.
  func smoothSeriesMarkingReplaced(_ positions: [SIMD3<Double>?], fps: Double) -> (positions: [SIMD3<Double>?], replaced: Set<Int>) {
    var axes: [[Double?]] = (0..<3).map { a in positions.map { $0?[a] } }
    var outliers = Set<Int>()
    if options.hampelThreshold > 0 {
      let hampel = HampelFilter(halfWindow: options.hampelHalfWindow, threshold: options.hampelThreshold, floor: options.hampelFloor)
      for axis in axes { outliers.formUnion(hampel.outliers(axis)) }
      for i in outliers { for a in 0..<3 { axes[a][i] = nil } }
    }
    let maxGap = Int((options.maxGap * fps).rounded())
    axes = axes.map { GapFilling.fill($0, maxGap: maxGap) }
    let cutoff = options.method == .butterworth && options.cutoffFromResiduals
      ? ResidualCutoff.cutoff(runs: Self.runs(axes), sampleRate: fps, order: options.order, maxCutoff: min(options.cutoff, 0.45 * fps))
      : nil
    axes = axes.map { smoothAxis($0, fps: fps, cutoff: cutoff) }
    let smoothed: [SIMD3<Double>?] = (0..<positions.count).map { i in
      guard let x = axes[0][i], let y = axes[1][i], let z = axes[2][i] else { return nil }
      return SIMD3(x, y, z)
    }
    return (smoothed, outliers)
  }

  /// The gap-free runs where all of `axes` have values: per run, each axis's values.
  static func runs(_ axes: [[Double?]]) -> [[[Double]]] {
    guard let count = axes.first?.count else { return [] }
    var out: [[[Double]]] = []
    var i = 0
    while i < count {
      guard axes.allSatisfy({ $0[i] != nil }) else { i += 1; continue }
      var j = i
      while j < count, axes.allSatisfy({ $0[j] != nil }) { j += 1 }
      out.append(axes.map { $0[i..<j].map { $0! } })
      i = j
    }
    return out
  }

  /// One axis smoothed run by run; `cutoff` (Hz) replaces `options.cutoff` for the Butterworth filter.
  func smoothAxis(_ x: [Double?], fps: Double, cutoff: Double? = nil) -> [Double?] {
    if options.method == .kalman {
      let kalman = KalmanSmoother(measurementSigma: options.kalmanMeasurementSigma, jerkDensity: options.kalmanJerkDensity)
      // Only where there was data (after gap filling): do not invent long gaps.
      return zip(kalman.smooth(x, sampleRate: fps), x).map { s, o in o == nil ? nil : s }
    }
    var y = x
    var i = 0
    while i < x.count {
      guard x[i] != nil else { i += 1; continue }
      var j = i
      while j < x.count, x[j] != nil { j += 1 }
      let run = x[i..<j].map { $0! }
      let smoothed: [Double]
      switch options.method {
      case .butterworth:
        smoothed = Butterworth(order: options.order, cutoff: cutoff ?? min(options.cutoff, 0.45 * fps), sampleRate: fps)?.filtfilt(run) ?? run
      case .oneEuro:
        smoothed = OneEuroFilter(minCutoff: options.oneEuroMinCutoff, beta: options.oneEuroBeta).filter(run, sampleRate: fps)
      case .savitzkyGolay:
        smoothed = SavitzkyGolay(halfWindow: options.savitzkyGolayHalfWindow, degree: options.savitzkyGolayDegree)?.smooth(run) ?? run
      case .kalman, .none:
        smoothed = run
      }
      for (k, v) in smoothed.enumerated() { y[i + k] = v }
      i = j
    }
    return y
  }
}
