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

  public init(position: SIMD3<Double>, meanReprojectionPx: Double, viewCount: Int) {
    self.position = position
    self.meanReprojectionPx = meanReprojectionPx
    self.viewCount = viewCount
  }
}

/// Results of one batch call, kept in the flat arrays the kernel filled (point-major for per-view
/// values), read through accessors so no per-point copies are made.
public struct TriangulationBatch: Sendable {
  public let pointCount: Int
  public let cameraCount: Int
  let positionsFlat: [Double]
  let statusRaw: [Int32]
  let meanReprojection: [Double]
  let reprojection: [Double]
  let used: [UInt8]

  /// World position of point `i`; zero where the status is not `.ok` (never NaN).
  public func position(_ i: Int) -> SIMD3<Double> {
    SIMD3(positionsFlat[3 * i], positionsFlat[3 * i + 1], positionsFlat[3 * i + 2])
  }

  public func status(_ i: Int) -> TriangulationStatus { Shim.pointStatus(statusRaw[i]) }

  /// Mean reprojection error of point `i` over its used views, pixels; −1 on failure.
  public func meanReprojectionPx(_ i: Int) -> Double { meanReprojection[i] }

  /// Pixel error of point `i` in `camera`, nil where that camera did not see it (or the point failed).
  public func reprojectionPx(point i: Int, camera c: Int) -> Double? {
    let e = reprojection[i * cameraCount + c]
    return e >= 0 ? e : nil
  }

  /// Whether `camera` was used for point `i`.
  public func isUsed(point i: Int, camera c: Int) -> Bool { used[i * cameraCount + c] != 0 }

  /// Point `i` as a success, or nil when it failed (see `status(_:)`).
  public func point(_ i: Int) -> TriangulatedPoint? {
    guard statusRaw[i] == 0 else { return nil }
    var n = 0
    for c in 0..<cameraCount where used[i * cameraCount + c] != 0 { n += 1 }
    return TriangulatedPoint(position: position(i), meanReprojectionPx: meanReprojection[i], viewCount: n)
  }
}

/// Triangulates 2D observations of many points from a fixed set of calibrated cameras, through the
/// Eigen kernel of `CTriangulation` (weighted DLT, Hartley & Zisserman §12.2; robust mode adds view
/// rejection and Levenberg–Marquardt with a Huber loss).
public struct Triangulator: Sendable {
  public let cameras: [Camera]
  public let options: TriangulationOptions
  /// Per camera, its noise scale in pixels, when views are gated in noise units (see
  /// `TriangulationOptions.gateSigmas`); nil gates in pixels (`maxReprojectionPx`).
  public let noiseScalesPx: [Double]?
  /// The cameras as the kernel's flat records.
  let records: [Double]

  /// - Parameter noiseScalesPx: per camera (in order), its noise scale in pixels (> 0); robust mode then
  ///   gates, and with `noiseWeighting` weighs, each view in units of it, and keeps the largest subset of
  ///   views consistent within the gate.
  /// - Throws: `GeometryError.invalidArgument` when the options are invalid, a camera has non-finite
  ///   values or non-positive focal lengths, or a noise scale is missing, not finite or not positive.
  public init(cameras: [Camera], options: TriangulationOptions = .init(), noiseScalesPx: [Double]? = nil) throws {
    var shimOptions = options.shim
    try Shim.check(mstri_check_options(&shimOptions), "triangulation options \(options)")
    for camera in cameras {
      let ok = camera.shimRecord.allSatisfy(\.isFinite) && camera.fx > 0 && camera.fy > 0
      if !ok { throw GeometryError.invalidArgument("camera \(camera.name) has invalid intrinsics") }
    }
    if let noiseScalesPx, noiseScalesPx.count != cameras.count || !noiseScalesPx.allSatisfy({ $0.isFinite && $0 > 0 }) {
      throw GeometryError.invalidArgument("noise scales \(noiseScalesPx): need one positive value per camera (\(cameras.count))")
    }
    self.cameras = cameras
    self.options = options
    self.noiseScalesPx = noiseScalesPx
    self.records = cameras.flatMap(\.shimRecord)
  }

  /// Triangulates `observations.count / cameras.count` points in one call.
  /// - Parameter observations: point-major: the observation of point p in camera c is at
  ///   `p * cameras.count + c`; use `Keypoint2D.missing` where a camera did not see the point.
  public func triangulate(_ observations: [Keypoint2D]) throws -> TriangulationBatch {
    let m = cameras.count
    precondition(m > 0 && observations.count % m == 0, "observations must be point-major, cameras.count per point")
    return try Self.withFlat(observations) { try triangulate(flat: $0, pointCount: observations.count / m) }
  }

  /// Calls `body` with the observations as flat (x, y, confidence) triples: `Keypoint2D`'s own storage
  /// when it is three stored Doubles (no copy), else a flattened copy.
  static func withFlat<R>(_ observations: [Keypoint2D], _ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
    if keypointIsThreeDoubles {
      return try observations.withUnsafeBufferPointer { buffer in
        try buffer.withMemoryRebound(to: Double.self) { try body($0) }
      }
    }
    let flat = observations.flatMap { [$0.x, $0.y, $0.confidence] }
    return try flat.withUnsafeBufferPointer { try body($0) }
  }

  /// Whether `Keypoint2D`'s memory is exactly (x, y, confidence) as Doubles.
  static let keypointIsThreeDoubles =
    MemoryLayout<Keypoint2D>.stride == 3 * MemoryLayout<Double>.stride
    && MemoryLayout<Keypoint2D>.offset(of: \Keypoint2D.x) == 0
    && MemoryLayout<Keypoint2D>.offset(of: \Keypoint2D.y) == 8
    && MemoryLayout<Keypoint2D>.offset(of: \Keypoint2D.confidence) == 16

  /// Triangulates from flat (x, y, confidence) triples, point-major; see `triangulate(_:)`.
  public func triangulate(flat: UnsafeBufferPointer<Double>, pointCount n: Int) throws -> TriangulationBatch {
    let m = cameras.count
    precondition(flat.count >= 3 * n * m, "need 3 values per point and camera")
    // The kernel writes every element of every output when it succeeds (and the arrays are dropped when
    // it fails), so they are not filled first: a pass over 70 bytes per point of a 4-camera batch.
    var points = [Double](unfilledCount: 3 * n)
    var reprojection = [Double](unfilledCount: n * m)
    var mean = [Double](unfilledCount: n)
    var used = [UInt8](unfilledCount: n * m)
    var status = [Int32](unfilledCount: n)
    var shimOptions = options.shim
    if n > 0 {
      try Shim.check(
        mstri_triangulate_scaled(
          records, m, noiseScalesPx, flat.baseAddress, n, &shimOptions, &points, &reprojection, &mean, &used, &status),
        "triangulate \(n) points")
    }
    return TriangulationBatch(
      pointCount: n, cameraCount: m, positionsFlat: points, statusRaw: status, meanReprojection: mean,
      reprojection: reprojection, used: used)
  }

  /// Triangulates one point from one observation per camera (in camera order).
  /// - Returns: the point, or the reason it could not be triangulated.
  public func triangulate(point views: [Keypoint2D]) throws -> Result<TriangulatedPoint, TriangulationFailure> {
    let batch = try triangulate(views)
    if let p = batch.point(0) { return .success(p) }
    return .failure(TriangulationFailure(status: batch.status(0)))
  }
}

/// Why one point could not be triangulated (an expected geometric outcome, not a program error).
public struct TriangulationFailure: Error, Sendable, Equatable {
  public var status: TriangulationStatus
  public init(status: TriangulationStatus) { self.status = status }
}

extension Array where Element: BitwiseCopyable {
  /// An array of `count` elements left for a C kernel to write, all of them, before any is read.
  fileprivate init(unfilledCount count: Int) {
    self.init(unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
  }
}
