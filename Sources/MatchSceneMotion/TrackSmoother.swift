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
  public var cutoff: Double = 10
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

  public func smooth(_ reconstruction: Reconstruction) -> Reconstruction {
    guard let range = reconstruction.frameRange else { return reconstruction }
    let fps = reconstruction.fps
    struct Key: Hashable { let track: String; let joint: String }
    var series: [Key: [TrackPoint?]] = [:]
    var out: [TrackPoint] = []
    for p in reconstruction.points {
      guard p.kind == .player else { out.append(p); continue }
      series[Key(track: p.track, joint: p.joint), default: Array(repeating: nil, count: range.count)][p.frame - range.lowerBound] = p
    }
    for (key, points) in series {
      let smoothed = smoothSeries(points.map { $0?.position }, fps: fps)
      for (i, position) in smoothed.enumerated() {
        guard let position else { continue }
        let frame = range.lowerBound + i
        let original = points[i]
        out.append(
          TrackPoint(
            frame: frame, time: Double(frame) / fps, track: key.track, kind: .player, joint: key.joint,
            position: position, reprojectionPx: original?.reprojectionPx ?? -1, views: original?.views ?? 0))
      }
    }
    out.sort { ($0.frame, $0.kind == .ball ? 1 : 0, $0.track) < ($1.frame, $1.kind == .ball ? 1 : 0, $1.track) }
    return Reconstruction(fps: fps, skeleton: reconstruction.skeleton, points: out)
  }

  /// One joint's positions per frame (nil = missing) → smoothed positions (nil where still missing).
  public func smoothSeries(_ positions: [SIMD3<Double>?], fps: Double) -> [SIMD3<Double>?] {
    var axes: [[Double?]] = (0..<3).map { a in positions.map { $0?[a] } }
    if options.hampelThreshold > 0 {
      let hampel = HampelFilter(halfWindow: options.hampelHalfWindow, threshold: options.hampelThreshold, floor: options.hampelFloor)
      var outliers = Set<Int>()
      for axis in axes { outliers.formUnion(hampel.outliers(axis)) }
      for i in outliers { for a in 0..<3 { axes[a][i] = nil } }
    }
    let maxGap = Int((options.maxGap * fps).rounded())
    axes = axes.map { GapFilling.fill($0, maxGap: maxGap) }
    axes = axes.map { smoothAxis($0, fps: fps) }
    return (0..<positions.count).map { i in
      guard let x = axes[0][i], let y = axes[1][i], let z = axes[2][i] else { return nil }
      return SIMD3(x, y, z)
    }
  }

  func smoothAxis(_ x: [Double?], fps: Double) -> [Double?] {
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
        smoothed = Butterworth(order: options.order, cutoff: min(options.cutoff, 0.45 * fps), sampleRate: fps)?.filtfilt(run) ?? run
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
