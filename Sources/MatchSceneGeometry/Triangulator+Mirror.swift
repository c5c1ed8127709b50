internal import CTriangulation
import MatchSceneCore

extension Triangulator {
  /// The views in which the detector swapped a person's left and right keypoints, judged against a
  /// first 3D estimate by the `CTriangulation` kernel (`mstri_mirror_swaps`): a view is mirrored when
  /// exchanging every mirror pair brings its detections to less than half their distance from the
  /// reprojected pairs, and by more than `minGainPx` per pair (at least two pairs compared).
  /// - Parameters:
  ///   - observations: what `batch` was triangulated from: people one after the other, each
  ///     `keypointCount` points, each point `cameras.count` observations (point-major).
  ///   - batch: the first estimate; failed points are left out of the comparison.
  ///   - pairs: mirror pairs (left, right) as keypoint indices.
  /// - Returns: one flag per person and camera, person-major (`person * cameras.count + camera`).
  /// - Throws: `GeometryError` when the kernel rejects the arguments (an index out of range).
  public func mirroredViews(
    _ observations: [Keypoint2D], batch: TriangulationBatch, keypointCount: Int, pairs: [(Int, Int)],
    minGainPx: Double = 10
  ) throws -> [Bool] {
    let m = cameras.count
    precondition(keypointCount > 0 && observations.count % (m * keypointCount) == 0, "whole people, point-major")
    let people = observations.count / (m * keypointCount)
    let flatPairs = pairs.flatMap { [Int32($0.0), Int32($0.1)] }
    let valid = batch.statusRaw.map { $0 == 0 ? UInt8(1) : 0 }
    var flags = [UInt8](repeating: 0, count: people * m)
    try Self.withFlat(observations) { flat in
      try Shim.check(
        mstri_mirror_swaps(
          records, m, flat.baseAddress, batch.positionsFlat, valid, people, keypointCount, flatPairs, pairs.count,
          options.minConfidence, minGainPx, &flags),
        "left/right swap repair of \(people) people")
    }
    return flags.map { $0 != 0 }
  }
}
