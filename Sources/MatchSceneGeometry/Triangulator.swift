internal import CTriangulation
import MatchSceneCore

/// A triangulated point with its quality figures.
public struct TriangulatedPoint: Sendable, Equatable {
  /// World coordinates, metres.
  public var position: SIMD3<Double>
  /// Mean pixel reprojection error over the views used.
  public var meanReprojectionPx: Double
  /// Number of views used.
  public var viewCount: Int
}

/// Results of one batch call, in flat arrays (point-major for per-view values).
public struct TriangulationBatch: Sendable {
  public let pointCount: Int
  public let cameraCount: Int
  /// World points; zero where the status is not `.ok` (never NaN).
  public var positions: [SIMD3<Double>]
  public var status: [TriangulationStatus]
  /// Mean reprojection error over used views, pixels; −1 on failure.
  public var meanReprojectionPx: [Double]
  /// Per point and camera: pixel error of the final point, −1 where the view was missing.
  public var reprojectionPx: [Double]
  /// Per point and camera: whether the view was used.
  public var usedViews: [Bool]

  /// Point `i` as a success or its failure status.
  public func point(_ i: Int) -> TriangulatedPoint? {
    guard status[i] == .ok else { return nil }
    var used = 0
    for c in 0..<cameraCount where usedViews[i * cameraCount + c] { used += 1 }
    return TriangulatedPoint(position: positions[i], meanReprojectionPx: meanReprojectionPx[i], viewCount: used)
  }
}

/// Triangulates 2D observations of many points from a fixed set of calibrated cameras, through the
/// Eigen kernel of `CTriangulation` (weighted DLT, Hartley & Zisserman §12.2; robust mode adds view
/// rejection and Levenberg–Marquardt with a Huber loss).
public struct Triangulator: Sendable {
  public let cameras: [Camera]
  public let options: TriangulationOptions
  private let records: [Double]

  /// - Throws: `GeometryError.invalidArgument` when the options are invalid or a camera has
  ///   non-finite values or non-positive focal lengths.
  public init(cameras: [Camera], options: TriangulationOptions = .init()) throws {
    var shimOptions = options.shim
    try Shim.check(mstri_check_options(&shimOptions), "triangulation options \(options)")
    for camera in cameras {
      let ok = camera.shimRecord.allSatisfy(\.isFinite) && camera.fx > 0 && camera.fy > 0
      if !ok { throw GeometryError.invalidArgument("camera \(camera.name) has invalid intrinsics") }
    }
    self.cameras = cameras
    self.options = options
    self.records = cameras.flatMap(\.shimRecord)
  }

  /// Triangulates `observations.count / cameras.count` points in one call.
  /// - Parameter observations: point-major: the observation of point p in camera c is at
  ///   `p * cameras.count + c`; use `Keypoint2D.missing` where a camera did not see the point.
  public func triangulate(_ observations: [Keypoint2D]) throws -> TriangulationBatch {
    let m = cameras.count
    precondition(m > 0 && observations.count % m == 0, "observations must be point-major, cameras.count per point")
    let n = observations.count / m
    var flat = [Double](repeating: 0, count: 3 * observations.count)
    for (i, o) in observations.enumerated() {
      flat[3 * i] = o.x
      flat[3 * i + 1] = o.y
      flat[3 * i + 2] = o.confidence
    }
    var points = [Double](repeating: 0, count: 3 * n)
    var reprojection = [Double](repeating: -1, count: n * m)
    var mean = [Double](repeating: -1, count: n)
    var used = [UInt8](repeating: 0, count: n * m)
    var status = [Int32](repeating: 0, count: n)
    var shimOptions = options.shim
    if n > 0 {
      try Shim.check(
        mstri_triangulate(records, m, flat, n, &shimOptions, &points, &reprojection, &mean, &used, &status),
        "triangulate \(n) points")
    }
    return TriangulationBatch(
      pointCount: n, cameraCount: m,
      positions: (0..<n).map { SIMD3(points[3 * $0], points[3 * $0 + 1], points[3 * $0 + 2]) },
      status: status.map(Shim.pointStatus), meanReprojectionPx: mean, reprojectionPx: reprojection,
      usedViews: used.map { $0 != 0 })
  }

  /// Triangulates one point from one observation per camera (in camera order).
  /// - Returns: the point, or the reason it could not be triangulated.
  public func triangulate(point views: [Keypoint2D]) throws -> Result<TriangulatedPoint, TriangulationFailure> {
    let batch = try triangulate(views)
    if let p = batch.point(0) { return .success(p) }
    return .failure(TriangulationFailure(status: batch.status[0]))
  }
}

/// Why one point could not be triangulated (an expected geometric outcome, not a program error).
public struct TriangulationFailure: Error, Sendable, Equatable {
  public var status: TriangulationStatus
  public init(status: TriangulationStatus) { self.status = status }
}
