import MatchSceneCore

/// Settings of `CalibrationSelfCheck.check`.
public struct CalibrationSelfCheckOptions: Sendable, Equatable {
  /// A camera disagrees when its median residual exceeds this many times the median of the other
  /// cameras' medians…
  public var disagreementRatio: Double = 3
  /// …and this many pixels (detectors are rarely better than a pixel or two).
  public var floorPx: Double = 4
  /// Cameras with fewer residuals than this get figures but are neither flagged nor compared against.
  public var minObservations = 20

  public init() {}
}

/// Residual figures of one camera against points triangulated from all of them.
public struct CameraSelfCheck: Sendable, Equatable {
  public var camera: Int
  public var name: String
  /// Residuals measured (finite observations of finite points in front of the camera).
  public var observationCount: Int
  /// Median and RMS of the residual norms, pixels.
  public var medianPx: Double
  public var rmsPx: Double
  /// Noise scale: 1.4826 × the median absolute deviation of the residual norms from their median,
  /// pixels (the MAD's consistency factor for a normal law; Rousseeuw & Croux, "Alternatives to the
  /// median absolute deviation", JASA 88, 1993). Outliers barely move it. Note that the norms of 2D
  /// Gaussian residuals of σ per axis follow a Rayleigh law: this figure then reads about 0.67 σ, and
  /// the median norm 1.18 σ.
  public var noiseScalePx: Double
  /// Systematic residual: the component-wise median of (detection − reprojection), pixels. A pose or
  /// principal point that is off shows here; a detector's random noise does not.
  public var biasPx: SIMD2<Double>
  /// Whether it disagrees with the other cameras (see `CalibrationSelfCheckOptions`).
  public var flagged: Bool
}

/// A camera whose residuals disagree with the others', with a message naming it.
public struct CalibrationWarning: Sendable, Equatable, CustomStringConvertible {
  public var camera: Int
  public var name: String
  public var message: String
  public var description: String { message }
}

/// The outcome of a self-check: figures for every camera and the cameras that disagree.
public struct CalibrationSelfCheckResult: Sendable, Equatable {
  public var cameras: [CameraSelfCheck]
  public var warnings: [CalibrationWarning]
  /// Names of the flagged cameras.
  public var flaggedNames: [String] { warnings.map(\.name) }
}

/// Checks a calibration against the match it filmed: per camera, the residuals between detections and
/// the reprojected 3D points, their noise scale and systematic part; a camera whose residuals are
/// several times the others' is flagged by name (its calibration, not the detector, is then the likely
/// cause: the detector's errors are alike in every camera). Pure: no kernel state, no I/O.
public enum CalibrationSelfCheck {
  /// - Parameters:
  ///   - cameras: the calibration to check.
  ///   - points: 3D points triangulated from the observations (ideally robustly).
  ///   - observations: each point's detection in each camera, whether triangulation used it or not;
  ///     weights ≤ 0 or non-finite pixels mean no detection. Indices out of range are skipped.
  public static func check(
    cameras: [Camera], points: [SIMD3<Double>], observations: [CalibrationObservation],
    options: CalibrationSelfCheckOptions = .init()
  ) -> CalibrationSelfCheckResult {
    var byCamera = [[CalibrationObservation]](repeating: [], count: cameras.count)
    for o in observations
    where cameras.indices.contains(o.camera) && points.indices.contains(o.point) && o.weight > 0
      && o.pixel.x.isFinite && o.pixel.y.isFinite
    {
      byCamera[o.camera].append(o)
    }
    var figures = cameras.indices.map { c in
      let seen = byCamera[c]
      let projected = cameras[c].project(seen.map { points[$0.point] })
      var residuals: [SIMD2<Double>] = []
      for (o, p) in zip(seen, projected) {
        if let p { residuals.append(o.pixel - p) }
      }
      return figuresOf(residuals, camera: c, name: cameras[c].name)
    }
    var warnings: [CalibrationWarning] = []
    let comparable = figures.indices.filter { figures[$0].observationCount >= options.minObservations }
    if comparable.count >= 3 {
      for c in comparable {
        let others = ErrorStatistics(comparable.filter { $0 != c }.map { figures[$0].medianPx }).median
        let f = figures[c]
        guard f.medianPx > options.disagreementRatio * others, f.medianPx > options.floorPx else { continue }
        figures[c].flagged = true
        warnings.append(
          CalibrationWarning(
            camera: c, name: f.name,
            message: "camera \(f.name) disagrees with the others: median residual \(px(f.medianPx)) px against "
              + "\(px(others)) px for the other cameras (systematic offset (\(px(f.biasPx.x)), \(px(f.biasPx.y))) px, "
              + "noise \(px(f.noiseScalePx)) px over \(f.observationCount) detections); its calibration is likely off"))
      }
    }
    return CalibrationSelfCheckResult(cameras: figures, warnings: warnings)
  }

  static func figuresOf(_ residuals: [SIMD2<Double>], camera: Int, name: String) -> CameraSelfCheck {
    let norms = residuals.map { ($0 * $0).sum().squareRoot() }
    let median = ErrorStatistics(norms).median
    let mad = ErrorStatistics(norms.map { abs($0 - median) }).median
    let rms = norms.isEmpty ? 0 : (norms.reduce(0) { $0 + $1 * $1 } / Double(norms.count)).squareRoot()
    let bias = SIMD2(ErrorStatistics(residuals.map(\.x)).median, ErrorStatistics(residuals.map(\.y)).median)
    return CameraSelfCheck(
      camera: camera, name: name, observationCount: residuals.count, medianPx: median, rmsPx: rms,
      noiseScalePx: 1.4826 * mad, biasPx: bias, flagged: false)
  }

  static func px(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return r == 0 ? "0.0" : String(r)
  }
}
