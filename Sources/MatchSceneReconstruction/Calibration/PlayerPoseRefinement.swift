import MatchSceneCore
import MatchSceneGeometry

/// Every camera's pose refined jointly on the players of a match, with a few points of known venue
/// position (the table's clicked corners) holding the world frame and its scale.
///
/// Each round reconstructs the match with the current cameras, samples the confident keypoints of the
/// reconstructed people and the ball (`CalibrationEvidence.sampleWithBall`), adds the anchors' clicks as
/// observations of their own points, and runs the robust bundle adjustment (`CalibrationRefinement`,
/// Huber loss: Triggs et al., "Bundle adjustment — a modern synthesis", 2000). The adjustment fixes the
/// rig only up to a similarity (Triggs et al. §9); the least-squares similarity that takes the adjusted
/// anchor points onto their known venue positions (Horn 1987, Umeyama 1991: `Similarity3.fit`) then
/// puts the rig in the venue frame at the table's scale.
public enum PlayerPoseRefinement {
  /// A point of known position in the world, clicked in some cameras.
  public struct Anchor: Sendable, Equatable {
    public var world: SIMD3<Double>
    /// (camera index into the match's cameras, clicked pixel).
    public var clicks: [Click]
    public struct Click: Sendable, Equatable {
      public var camera: Int
      public var pixel: SIMD2<Double>
      public init(camera: Int, pixel: SIMD2<Double>) {
        self.camera = camera
        self.pixel = pixel
      }
    }
    public init(world: SIMD3<Double>, clicks: [Click]) {
      self.world = world
      self.clicks = clicks
    }
  }

  /// Settings; the defaults suit a detector's keypoints on HD footage.
  public struct Options: Sendable {
    /// Reconstruct-and-adjust rounds (the second samples the people again with the refined cameras).
    public var rounds = 2
    public var reconstruction = ReconstructionOptions()
    public var evidence = CalibrationEvidence()
    public var adjustment = CalibrationRefinementOptions()
    /// Weight of one click against a keypoint of confidence 1.
    public var clickWeight = 1.0
    public init() {}
  }

  /// The refined rig.
  public struct Outcome: Sendable {
    /// The match's cameras, in its order, in the anchors' world.
    public var cameras: [Camera]
    /// The last round's adjustment (its cameras before the similarity).
    public var adjustment: CalibrationRefinementResult
    /// The similarity that took the last adjustment onto the anchors.
    public var alignment: Similarity3
    /// Each anchor's distance from its known position after the alignment, metres.
    public var anchorResidualsM: [Double]
    /// Keypoint and ball observations used in the last round.
    public var keypointObservations: Int
  }

  /// Refines `match.cameras` (posed, e.g. by `TableExtrinsics`) on its players.
  /// - Returns: nil when nothing was reconstructed, or the anchors do not span a plane (fewer than three
  ///   not on one line).
  /// - Throws: `GeometryError` from the reconstruction or the adjustment (a camera with too few
  ///   observations is named).
  public static func refine(
    match: Match, anchors: [Anchor], frames: ClosedRange<Int>? = nil, options: Options = .init()
  ) throws -> Outcome? {
    var match = match
    var last: Outcome?
    for _ in 0..<max(1, options.rounds) {
      let reconstructed = try Reconstructor(match: match, options: options.reconstruction).run(frames: frames)
      let (points, observations) = options.evidence.sampleWithBall(match: match, motion: reconstructed.motion)
      guard !points.isEmpty,
        let outcome = try adjust(cameras: match.cameras, points: points, observations: observations, anchors: anchors, options: options)
      else { return last }
      match.cameras = outcome.cameras
      last = outcome
    }
    return last
  }

  /// One adjustment: `cameras` and `points` refined on `observations` and the anchors' clicks together,
  /// then the similarity taking the adjusted anchors onto their known positions applied to the cameras.
  /// - Returns: nil when the anchors do not fix a similarity (fewer than three, or all on one line).
  /// - Throws: `GeometryError` from the adjustment.
  public static func adjust(
    cameras: [Camera], points: [SIMD3<Double>], observations: [CalibrationObservation], anchors: [Anchor],
    options: Options = .init()
  ) throws -> Outcome? {
    guard spanAPlane(anchors.map(\.world)) else { return nil }
    var points = points, observations = observations
    let keypointObservations = observations.count
    let first = points.count
    for anchor in anchors {
      for click in anchor.clicks where cameras.indices.contains(click.camera) {
        observations.append(
          CalibrationObservation(camera: click.camera, point: points.count, pixel: click.pixel, weight: options.clickWeight))
      }
      points.append(anchor.world)
    }
    let adjusted = try CalibrationRefinement.refine(
      cameras: cameras, points: points, observations: observations, options: options.adjustment)
    let placed = Array(adjusted.points[first...])
    guard let alignment = Similarity3.fit(from: placed, to: anchors.map(\.world)) else { return nil }
    let residuals = zip(placed, anchors).map { length(alignment.apply($0.0) - $0.1.world) }
    return Outcome(
      cameras: adjusted.cameras.map { alignment.apply($0) }, adjustment: adjusted, alignment: alignment,
      anchorResidualsM: residuals, keypointObservations: keypointObservations)
  }

  /// Whether the points fix a similarity: three or more, not all on one line.
  static func spanAPlane(_ points: [SIMD3<Double>]) -> Bool {
    guard points.count >= 3 else { return false }
    let a = points[0]
    guard let b = points.max(by: { length($0 - a) < length($1 - a) }), length(b - a) > 0 else { return false }
    let axis = b - a
    return points.contains { length(cross(axis, $0 - a)) > 1e-6 * dot(axis, axis) }
  }
}
