import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneGeometry

/// The ball in continuous time under unsynchronised cameras: a flight between two contacts refitted to
/// every camera's 2D ball detections at that camera's own instants.
///
/// A camera that is not genlocked sees the ball at match frame k − offset − phase (its raw frame k,
/// its whole-frame offset and sub-frame phase from `CameraSync`). Resampling its detections to the
/// match's instants (`CameraSync.resampled`) interpolates a curved, noisy image path; here nothing is
/// interpolated: the flight model (gravity and drag, `BallModel`) is evaluated at each detection's own
/// instant, projected into its camera, and the flight's initial state (position and velocity at its
/// reference time) is found by minimising the robust (Huber) reprojection error over every camera —
/// continuous-time trajectory estimation from asynchronous cameras (Furgale, Rehder & Siegwart,
/// IROS 2013, with a physical rather than spline motion model; Albl et al., CVPR 2017, for the rolling /
/// unsynchronised views as continuous time). Levenberg–Marquardt with a forward-difference Jacobian
/// (Nocedal & Wright, *Numerical Optimization*, 2nd ed., §10.3), the Huber weights by iteratively
/// reweighted least squares with the scale from the median absolute residual. Pose2Sim and Anipose
/// assume synchronised cameras.
///
/// Only a flight's span between its contacts is used (`span`, the frames of its observations that
/// `BallFlightEnds` kept): a camera instant past a contact belongs to the other flight, and a
/// candidate further than `gatePx` from the flight's projection (the other side of a contact, a false
/// detection) is not used.
public struct AsynchronousFlightFit: Sendable {
  /// One camera's ball candidates at their match instants (frames, fractional), in time order.
  struct View: Sendable {
    var camera: Camera
    var instants: [Double]
    var candidates: [[SIMD2<Double>]]
  }

  var views: [View]
  /// The cameras whose detections were resampled at a phase (their clocks may be refined).
  public var phased: Set<String>
  /// Venue to calibration world (the analysis runs in venue coordinates).
  public var worldFromVenue: RigidTransform
  public var fps: Double
  /// A candidate this far from the flight's projection at its instant is not used, pixels.
  public var gatePx = 12.0
  /// Fewest detections, over at least two cameras, for a refit.
  public var minObservations = 8
  /// A refit that moves the flight at one of its frames by more than this is refused (metres).
  public var maxChange = 0.03
  /// A trimmed end frame is reported on the refitted flight when every camera's detection nearest to it
  /// lies within this many robust scales of the flight's projection.
  public var endGateScales = 3.0

  /// - Parameters:
  ///   - rawBalls: each camera's ball candidates by its own frame number, as read (not resampled).
  ///   - frameOffsets: each camera's whole-frame offset (match frame f is camera frame f + offset).
  ///   - phases: each camera's sub-frame phase (its frame k shows match time k − offset − phase).
  public init(
    cameras: [Camera], rawBalls: [String: [Int: [BallDetection2D]]], frameOffsets: [String: Int],
    phases: [String: Double], worldFromVenue: RigidTransform, fps: Double
  ) {
    self.worldFromVenue = worldFromVenue
    self.fps = fps
    phased = Set(phases.keys)
    views = cameras.compactMap { camera in
      guard let balls = rawBalls[camera.name], !balls.isEmpty else { return nil }
      let shift = Double(frameOffsets[camera.name] ?? 0) + (phases[camera.name] ?? 0)
      let frames = balls.keys.sorted()
      return View(
        camera: camera, instants: frames.map { Double($0) - shift },
        candidates: frames.map { balls[$0]!.map { SIMD2($0.x, $0.y) } })
    }
  }

  /// `flight` refitted to the detections whose instants fall within `span` (match frames); the flight
  /// unchanged when too few detections (fewer than `minObservations`, or one camera) fit it, or when the
  /// refit would move it by more than `maxChange` at a frame of `span`.
  public func refit(_ flight: BallFlight, span: ClosedRange<Int>) -> BallFlight {
    fitted(flight, span: span)?.flight ?? flight
  }

  /// `refit(_:span:)`, and of the flight's trimmed end frames (`ends`, which `BallFlightEnds` took out
  /// as lying past a contact on the triangulated ball) those still to be reported as observed. An end
  /// frame is reported on the refitted flight instead when every detection whose instant lies between
  /// `span` and the frame (the frame included) lies within `endGateScales` robust scales (1.4826 × the
  /// median reprojection distance of the refit) of the refitted flight's projection, in at least two
  /// cameras, one of them within half a frame of it: no camera then sees the ball past a contact before
  /// the frame. Under unsynchronised cameras the triangulation at such a frame mixes instants, resampled
  /// detections from both sides of the contact; the flight does not.
  public func refit(_ flight: BallFlight, span: ClosedRange<Int>, ends: Set<Int>) -> (BallFlight, Set<Int>) {
    guard let fit = fitted(flight, span: span) else { return (flight, ends) }
    return (fit.flight, stillObserved(ends, on: fit.flight, span: span, scale: fit.scale))
  }

  /// Of the end frames `ends` (outside `span`), those a refitted flight `out` (robust reprojection scale
  /// `scale`) does not explain (see `refit(_:span:ends:)`): they stay as observed.
  func stillObserved(_ ends: Set<Int>, on out: BallFlight, span: ClosedRange<Int>, scale: Double) -> Set<Int> {
    let gate = endGateScales * scale
    return ends.filter { frame in
      let e = Double(frame)
      let window = e > Double(span.upperBound) ? Double(span.upperBound).nextUp...e : e...Double(span.lowerBound).nextDown
      var seen = 0, near = false
      for view in views {
        var i = lowerBound(view.instants, window.lowerBound), any = false
        while i < view.instants.count, view.instants[i] <= window.upperBound {
          defer { i += 1 }
          guard let predicted = view.camera.project(worldFromVenue.apply(out.position(at: view.instants[i] / fps))),
            let miss = view.candidates[i].map({ norm($0 - predicted) }).min()
          else { continue }
          if miss > gate { return true }
          any = true
          near = near || abs(view.instants[i] - e) <= 0.5
        }
        if any { seen += 1 }
      }
      return seen < 2 || !near
    }
  }

  /// The refitted flight and its robust reprojection scale (1.4826 × the median distance, at least
  /// half a pixel), nil when unchanged.
  func fitted(_ flight: BallFlight, span: ClosedRange<Int>) -> (flight: BallFlight, scale: Double)? {
    fitted(flight, span: span, window: Double(span.lowerBound)...Double(span.upperBound))
  }

  /// `fitted(_:span:)` on the detections whose instants lie in `window` (match frames, fractional),
  /// starting from `start` (default: `flight`); the change is still measured against `flight` over `span`.
  /// Each of `pins` (a match instant and a venue point the flight passes through then: a contact point
  /// it shares with the flight on the other side) enters as one more detection in every camera, the
  /// point projected, when within `gatePx` of the starting flight's projection.
  func fitted(
    _ flight: BallFlight, span: ClosedRange<Int>, window: ClosedRange<Double>, from start: BallFlight? = nil,
    pins: [(instant: Double, point: SIMD3<Double>)] = []
  ) -> (flight: BallFlight, scale: Double)? {
    let first = start ?? flight
    var (cams, times, pixels) = evidence(first, window: window)
    guard times.count >= minObservations, Set(cams).count >= 2 else { return nil }
    for pin in pins {
      let t = pin.instant / fps
      for (c, view) in views.enumerated() {
        guard let px = view.camera.project(worldFromVenue.apply(pin.point)),
          let predicted = view.camera.project(worldFromVenue.apply(first.position(at: t))), norm(px - predicted) <= gatePx
        else { continue }
        cams.append(c)
        times.append(t - first.referenceTime)
        pixels.append(px)
      }
    }

    func residuals(_ q: [Double]) -> [SIMD2<Double>]? {
      let positions = first.model.positions(from: SIMD3(q[0], q[1], q[2]), SIMD3(q[3], q[4], q[5]), at: times)
      var r: [SIMD2<Double>] = []
      r.reserveCapacity(times.count)
      for (k, p) in positions.enumerated() {
        guard let px = views[cams[k]].camera.project(worldFromVenue.apply(p)) else { return nil }
        r.append(px - pixels[k])
      }
      return r
    }
    // The Huber scale from the starting residuals (1.4826 × the median distance), at least half a pixel.
    let start = [first.position.x, first.position.y, first.position.z, first.velocity.x, first.velocity.y, first.velocity.z]
    guard var r = residuals(start) else { return nil }
    let sorted = r.map(norm).sorted()
    let huber = 1.345 * max(0.5, 1.4826 * sorted[sorted.count / 2])
    func weight(_ e: SIMD2<Double>) -> Double { let d = norm(e); return d <= huber ? 1 : huber / d }
    func cost(_ r: [SIMD2<Double>]) -> Double {
      r.reduce(0) { s, e in let d = norm(e); return s + (d <= huber ? 0.5 * d * d : huber * (d - 0.5 * huber)) }
    }
    var params = start, current = cost(r), lambda = 1e-3
    for _ in 0..<15 {
      guard let J = jacobian(params, at: r, residuals) else { return nil }
      var A = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
      var b = [Double](repeating: 0, count: 6)
      for n in r.indices {
        let w = weight(r[n])
        for i in 0..<6 {
          b[i] -= w * (J[i][n] * r[n]).sum()
          for j in i..<6 { A[i][j] += w * (J[i][n] * J[j][n]).sum() }
        }
      }
      for i in 0..<6 { for j in 0..<i { A[i][j] = A[j][i] } }
      var improved = false
      while lambda < 1e6 {
        var damped = A
        for i in 0..<6 { damped[i][i] *= 1 + lambda }
        guard let step = FlightFit.solve(damped, b) else { break }
        let candidate = zip(params, step).map(+)
        if let rc = residuals(candidate), cost(rc) < current {
          let gain = current - cost(rc)
          params = candidate
          r = rc
          current -= gain
          lambda = max(lambda / 10, 1e-9)
          improved = gain > 1e-9
          break
        }
        lambda *= 10
      }
      if !improved { break }
    }
    var out = first
    out.position = SIMD3(params[0], params[1], params[2])
    out.velocity = SIMD3(params[3], params[4], params[5])
    var moved = 0.0
    for frame in span { moved = max(moved, length(out.position(at: Double(frame) / fps) - flight.position(at: Double(frame) / fps))) }
    if moved > maxChange { return nil }
    let distances = r.map(norm).sorted()
    return (out, max(0.5, 1.4826 * distances[distances.count / 2]))
  }

  /// Every camera's candidate nearest to the flight's projection at each of its instants within `span`
  /// (match frames), when within `gatePx`: the camera's index, the instant (seconds from the flight's
  /// reference time) and the pixel.
  func evidence(_ flight: BallFlight, span: ClosedRange<Int>) -> (cams: [Int], times: [Double], pixels: [SIMD2<Double>]) {
    evidence(flight, window: Double(span.lowerBound)...Double(span.upperBound))
  }

  /// `evidence(_:span:)` over the instants in `window` (match frames, fractional).
  func evidence(_ flight: BallFlight, window: ClosedRange<Double>) -> (cams: [Int], times: [Double], pixels: [SIMD2<Double>]) {
    let lo = window.lowerBound, hi = window.upperBound
    var cams: [Int] = [], times: [Double] = [], pixels: [SIMD2<Double>] = []
    for (c, view) in views.enumerated() {
      var i = lowerBound(view.instants, lo)
      while i < view.instants.count, view.instants[i] <= hi {
        defer { i += 1 }
        let t = view.instants[i] / fps
        guard let predicted = view.camera.project(worldFromVenue.apply(flight.position(at: t))) else { continue }
        guard let nearest = view.candidates[i].min(by: { norm($0 - predicted) < norm($1 - predicted) }),
          norm(nearest - predicted) <= gatePx
        else { continue }
        cams.append(c)
        times.append(t - flight.referenceTime)
        pixels.append(nearest)
      }
    }
    return (cams, times, pixels)
  }

  /// The derivatives of `f` (pixel vectors) with respect to each of the flight's 6 parameters
  /// (position, velocity) at `q`, where `f(q)` is `base`, by forward differences; nil when `f` fails.
  func jacobian(_ q: [Double], at base: [SIMD2<Double>], _ f: ([Double]) -> [SIMD2<Double>]?) -> [[SIMD2<Double>]]? {
    var out = [[SIMD2<Double>]](repeating: [], count: 6)
    for k in 0..<6 {
      var shifted = q
      let h = k < 3 ? 1e-6 : 1e-5
      shifted[k] += h
      guard let moved = f(shifted) else { return nil }
      out[k] = zip(moved, base).map { ($0 - $1) / h }
    }
    return out
  }

  /// The Euclidean length of a pixel vector.
  func norm(_ e: SIMD2<Double>) -> Double { (e * e).sum().squareRoot() }

  /// The first index of `sorted` whose value is at least `x`.
  func lowerBound(_ sorted: [Double], _ x: Double) -> Int {
    var lo = 0, hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if sorted[mid] < x { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}
