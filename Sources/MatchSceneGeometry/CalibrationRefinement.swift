internal import CTriangulation
import MatchSceneCore

/// One 2D observation of a 3D point in one camera, by index into the cameras and points of a call.
public struct CalibrationObservation: Sendable, Equatable {
  /// Index of the camera that saw the point.
  public var camera: Int
  /// Index of the 3D point.
  public var point: Int
  /// Detected pixel (OpenCV convention, distorted image).
  public var pixel: SIMD2<Double>
  /// Weight of its residual (e.g. the detector's confidence); ≤ 0 or non-finite: not an observation.
  public var weight: Double

  public init(camera: Int, point: Int, pixel: SIMD2<Double>, weight: Double = 1) {
    self.camera = camera
    self.point = point
    self.pixel = pixel
    self.weight = weight
  }
}

/// Settings of `CalibrationRefinement.refine`. The defaults suit keypoint detectors on HD footage;
/// `check(cameraCount:)` runs before any work.
public struct CalibrationRefinementOptions: Sendable, Equatable {
  public enum Loss: Sendable, Equatable {
    /// Convex: converges from poses several degrees off. The default.
    case huber
    /// Gross outliers weigh almost nothing, but the cost is not convex: start close.
    case cauchy
  }

  /// Robust loss of each observation's pixel residual.
  public var loss: Loss = .huber
  /// Scale of the loss in pixels: residuals below it count fully (about 1–2 × the detector's noise).
  public var lossScalePx: Double = 2
  /// Levenberg–Marquardt iterations at most.
  public var maxIterations = 100
  /// Refine each free camera's focal length too (fx, fy scaled together).
  public var refineFocal = false
  /// Cameras held as they are (indices). With two or more, they fix the gauge; with one, it is the
  /// reference and a second camera keeps its distance to it.
  public var fixedCameras: Set<Int> = []
  /// The reference camera held fixed; nil: the one fixed camera, else the most observed.
  public var referenceCamera: Int?
  /// The camera whose distance to the reference is kept (the scale); nil: the most observed free one.
  /// Ignored when two or more cameras are fixed.
  public var scaleCamera: Int?
  /// A refined camera needs at least this many usable observations (≥ 3).
  public var minCameraObservations = 6
  /// With fewer than two fixed cameras, put the refined rig back into the given calibration's world
  /// frame: the least-squares similarity over the centres and axes of the cameras `worldAnchors`
  /// (`Similarity3.aligning`, Horn 1987) is applied to the refined cameras and points. Without it the
  /// automatic gauge holds one camera and one distance, and the whole world follows that camera's own
  /// error (every point shifted and turned). Off by default: the reference camera then stays bit for bit.
  public var holdWorldFrame = false
  /// The cameras whose given poses define the world frame with `holdWorldFrame` (nil: every camera;
  /// e.g. the cameras the self-check trusts).
  public var worldAnchors: Set<Int>?
  /// What `holdWorldFrame` keeps in place.
  public enum WorldFrameAnchor: Sendable, Equatable {
    /// The anchor cameras' centres and axes.
    case cameras
    /// The points as given (triangulated with the given calibration): the scene stays where the given
    /// calibration put it, only made consistent.
    case points
  }
  public var worldFrameAnchor: WorldFrameAnchor = .cameras

  public init() {}

  /// Throws `GeometryError.invalidArgument` naming the first bad setting.
  public func check(cameraCount: Int) throws {
    func fail(_ what: String) throws -> Never { throw GeometryError.invalidArgument("calibration refinement: \(what)") }
    if !(lossScalePx.isFinite && lossScalePx > 0) { try fail("loss scale \(lossScalePx) px must be positive") }
    if !(1...1000).contains(maxIterations) { try fail("max iterations \(maxIterations) must be 1…1000") }
    if minCameraObservations < 3 { try fail("min camera observations \(minCameraObservations) must be ≥ 3") }
    let all = 0..<cameraCount
    if let bad = fixedCameras.first(where: { !all.contains($0) }) { try fail("fixed camera \(bad) out of range") }
    if let r = referenceCamera, !all.contains(r) { try fail("reference camera \(r) out of range") }
    if let s = scaleCamera, !all.contains(s) { try fail("scale camera \(s) out of range") }
    if let r = referenceCamera, r == scaleCamera { try fail("reference and scale camera are both \(r)") }
  }

  var shim: mstri_bundle_options {
    var o = mstri_default_bundle_options()
    o.loss = loss == .huber ? Int32(MSTRI_LOSS_HUBER.rawValue) : Int32(MSTRI_LOSS_CAUCHY.rawValue)
    o.loss_scale_px = lossScalePx
    o.max_iterations = Int32(clamping: maxIterations)
    o.refine_focal = refineFocal ? 1 : 0
    o.reference_camera = Int32(clamping: referenceCamera ?? -1)
    o.scale_camera = Int32(clamping: scaleCamera ?? -1)
    o.min_camera_observations = Int32(clamping: minCameraObservations)
    return o
  }
}

/// Residual figures of one camera over its usable observations, pixels.
public struct ResidualFigures: Sendable, Equatable {
  public var medianPx: Double
  public var rmsPx: Double
  /// sqrt(2 Σ wρ(s) / Σ w): the RMS where every residual lies inside the loss scale, less where
  /// outliers are.
  public var robustRmsPx: Double
}

/// What refinement did to one camera.
public struct CameraCorrection: Sendable, Equatable {
  public enum Role: Sendable, Equatable {
    /// Pose (and focal, if asked) refined.
    case refined
    /// Held fixed as the gauge's reference.
    case reference
    /// Refined with its distance to the reference kept (fixes the scale).
    case scale
    /// Held fixed by the caller.
    case fixed
  }

  /// The corrected camera.
  public var camera: Camera
  public var role: Role
  /// Angle of the rotation between the old and new orientation, degrees.
  public var rotationChangeDegrees: Double
  /// How far the optical centre moved, metres.
  public var positionChangeMetres: Double
  /// Length of the change of the translation vector t (x_cam = R x_world + t), metres.
  public var translationChangeMetres: Double
  /// New fx minus old fx, pixels (zero unless focal lengths are refined).
  public var focalChangePx: Double
  /// Observations naming this camera, and of those the ones used.
  public var observationCount: Int
  public var usedObservationCount: Int
  public var before: ResidualFigures
  public var after: ResidualFigures
}

/// The refined calibration and points, with per-camera corrections.
public struct CalibrationRefinementResult: Sendable {
  /// One per input camera, in order.
  public var corrections: [CameraCorrection]
  /// The refined points (points fewer than two cameras see usably are returned as given).
  public var points: [SIMD3<Double>]
  public var iterations: Int
  /// Whether a tolerance stopped the iterations or no step lowered the cost any more (false: the
  /// iteration limit did).
  public var converged: Bool
  /// Robust cost Σ wρ before and after, pixels².
  public var initialCost: Double
  public var finalCost: Double
  public var referenceCamera: Int?
  public var scaleCamera: Int?
  public var refinedPointCount: Int
  public var usedObservationCount: Int
  /// With `holdWorldFrame`: the similarity that was applied to put the adjusted rig back in the given
  /// world frame (nil: not asked, two or more cameras fixed, or the anchors were degenerate).
  public var worldAlignment: Similarity3?

  /// The corrected cameras, in input order.
  public var cameras: [Camera] { corrections.map(\.camera) }
}

/// Robust bundle adjustment of a calibration from the match itself: the cameras' extrinsics (and
/// optionally focal lengths) and the 3D points that the observations triangulate, refined together
/// by the Eigen kernel `mstri_bundle_adjust` (Levenberg–Marquardt over the Schur complement of the
/// points with a Huber or Cauchy loss: Triggs et al., "Bundle adjustment — a modern synthesis", 2000,
/// §4.3 and §6; Hartley & Zisserman, Multiple View Geometry, 2nd ed., A6).
public enum CalibrationRefinement {
  /// Refines `cameras` and `points` from `observations`.
  ///
  /// Gauge: one camera fixed and the distance of a second one to it kept, or two or more cameras fixed
  /// (`options.fixedCameras`). Points are best triangulated robustly first (`Triangulator` with
  /// `.robust`) from the cameras as they are; `TriangulationBatch.calibrationSample` then gives the
  /// points and observations.
  /// - Throws: `GeometryError.invalidArgument` for bad options, indices, cameras or non-finite points
  ///   (checked before work); `.tooFewObservations` naming each camera to refine that has too few;
  ///   `.degenerate` when the reference and scale cameras share a centre.
  public static func refine(
    cameras: [Camera], points: [SIMD3<Double>], observations: [CalibrationObservation],
    options: CalibrationRefinementOptions = .init()
  ) throws -> CalibrationRefinementResult {
    try options.check(cameraCount: cameras.count)
    guard !cameras.isEmpty else { throw GeometryError.invalidArgument("calibration refinement: no cameras") }
    for (i, p) in points.enumerated() where !(p.x.isFinite && p.y.isFinite && p.z.isFinite) {
      throw GeometryError.invalidArgument("calibration refinement: point \(i) is not finite")
    }
    var indices = [Int32](repeating: 0, count: 2 * observations.count)
    var values = [Double](repeating: 0, count: 3 * observations.count)
    for (i, o) in observations.enumerated() {
      guard cameras.indices.contains(o.camera), points.indices.contains(o.point) else {
        throw GeometryError.invalidArgument(
          "calibration refinement: observation \(i) names camera \(o.camera), point \(o.point), out of range")
      }
      indices[2 * i] = Int32(o.camera)
      indices[2 * i + 1] = Int32(o.point)
      values[3 * i] = o.pixel.x
      values[3 * i + 1] = o.pixel.y
      values[3 * i + 2] = o.weight
    }
    let m = cameras.count
    let records = cameras.flatMap(\.shimRecord)
    var camerasOut = records
    var pointsFlat = points.flatMap { [$0.x, $0.y, $0.z] }
    let fixed = (0..<m).map { UInt8(options.fixedCameras.contains($0) ? 1 : 0) }
    var reports = [mstri_bundle_camera_report](repeating: mstri_bundle_camera_report(), count: m)
    var summary = mstri_bundle_summary()
    var shimOptions = options.shim
    let status = mstri_bundle_adjust(
      records, m, fixed, indices, values, observations.count, pointsFlat, points.count, &shimOptions,
      &camerasOut, &pointsFlat, &reports, &summary)
    try Shim.check(status, describeFailure(status, cameras: cameras, reports: reports, options: options))

    let stride = Int(MSTRI_CAMERA_STRIDE.rawValue)
    var refined = (0..<m).map { cameras[$0].updated(fromShimRecord: camerasOut[($0 * stride)..<(($0 + 1) * stride)]) }
    var refinedPoints = (0..<points.count).map { SIMD3(pointsFlat[3 * $0], pointsFlat[3 * $0 + 1], pointsFlat[3 * $0 + 2]) }
    var gauge: Similarity3?
    if options.holdWorldFrame, options.fixedCameras.count < 2 {
      let anchors = (options.worldAnchors ?? Set(0..<m)).sorted()
      switch options.worldFrameAnchor {
      case .cameras:
        gauge = Similarity3.aligning(refined, onto: cameras, anchors: anchors, lever: sceneDistance(cameras, anchors, points))
      case .points:
        gauge = Similarity3.fit(from: refinedPoints, to: points)
      }
      if let gauge {
        refined = refined.map { gauge.apply($0) }
        refinedPoints = refinedPoints.map { gauge.apply($0) }
      }
    }
    let corrections = (0..<m).map { c in
      let before = cameras[c]
      let after = refined[c]
      let r = reports[c]
      let turn = after.camFromWorld.rotation * before.camFromWorld.rotation.transposed
      return CameraCorrection(
        camera: after, role: role(r.role),
        rotationChangeDegrees: length(turn.rodriguesVector) * 180 / .pi,
        positionChangeMetres: length(after.center - before.center),
        translationChangeMetres: length(after.camFromWorld.translation - before.camFromWorld.translation),
        focalChangePx: after.fx - before.fx,
        observationCount: Int(r.observations), usedObservationCount: Int(r.used_observations),
        before: ResidualFigures(medianPx: r.median_before_px, rmsPx: r.rms_before_px, robustRmsPx: r.robust_rms_before_px),
        after: ResidualFigures(medianPx: r.median_after_px, rmsPx: r.rms_after_px, robustRmsPx: r.robust_rms_after_px))
    }
    return CalibrationRefinementResult(
      corrections: corrections,
      points: refinedPoints,
      iterations: Int(summary.iterations), converged: summary.converged != 0,
      initialCost: summary.initial_cost, finalCost: summary.final_cost,
      referenceCamera: summary.reference_camera >= 0 ? Int(summary.reference_camera) : nil,
      scaleCamera: summary.scale_camera >= 0 ? Int(summary.scale_camera) : nil,
      refinedPointCount: Int(summary.refined_points), usedObservationCount: Int(summary.used_observations),
      worldAlignment: gauge)
  }

  /// The median distance from the anchors' centres to the points' centroid (1 m without points): the
  /// lever that weighs a camera's orientation against its position in `Similarity3.aligning`.
  static func sceneDistance(_ cameras: [Camera], _ anchors: [Int], _ points: [SIMD3<Double>]) -> Double {
    guard !points.isEmpty else { return 1 }
    let centroid = points.reduce(SIMD3<Double>.zero, +) / Double(points.count)
    let d = anchors.map { length(cameras[$0].center - centroid) }.sorted()
    return d.isEmpty ? 1 : max(1e-3, d[d.count / 2])
  }

  static func role(_ raw: Int32) -> CameraCorrection.Role {
    switch raw {
    case Int32(MSTRI_ROLE_REFERENCE.rawValue): .reference
    case Int32(MSTRI_ROLE_SCALE.rawValue): .scale
    case Int32(MSTRI_ROLE_FIXED.rawValue): .fixed
    default: .refined
    }
  }

  /// The error context of a failed call: the cameras with too few observations by name.
  static func describeFailure(
    _ status: mstri_status, cameras: [Camera], reports: [mstri_bundle_camera_report],
    options: CalibrationRefinementOptions
  ) -> String {
    switch status {
    case MSTRI_TOO_FEW_OBSERVATIONS:
      let short = cameras.indices.filter { reports[$0].status == Int32(MSTRI_TOO_FEW_OBSERVATIONS.rawValue) }
      return short.map {
        "camera \(cameras[$0].name) has \(reports[$0].used_observations) usable observations of points other cameras see too, "
          + "\(options.minCameraObservations) needed to refine it"
      }.joined(separator: "; ")
    case MSTRI_DEGENERATE:
      return "the gauge's reference and scale cameras share a centre, or no damped step could be solved"
    default:
      return "calibration refinement of \(cameras.count) cameras"
    }
  }
}
