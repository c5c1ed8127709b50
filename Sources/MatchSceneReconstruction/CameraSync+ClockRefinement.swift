import Foundation
import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneGeometry

extension AsynchronousFlightFit {
  /// Refines the sub-frame clocks of the cameras named in `refinable` jointly with the ball's flights:
  /// every flight's initial state and those cameras' time shifts are the unknowns of one robust
  /// reprojection problem over all flights (a bundle adjustment with time as the camera parameter), solved
  /// by Gauss–Newton steps whose flight blocks are eliminated by the Schur complement (Triggs et al.,
  /// "Bundle Adjustment — A Modern Synthesis", 2000, §6.1). The other cameras hold the match's clock.
  ///
  /// Why: `CameraSync` finds the phase from linearly interpolated detections, within about 0.01 frame;
  /// a ball at 8 m/s moves 1.3 mm in that time, as much as its median error on a synchronised rig. The
  /// flights' physics (gravity and drag) fixes each camera's instants far more tightly.
  ///
  /// Only each flight's interior is used (two frames in from its ends, away from the contacts), and a
  /// flight whose refit `fitted(_:span:)` refuses is left out. A step is at most 0.1 frame per camera.
  /// - Returns: each refined camera's correction, frames (its instants moved later by this much: its
  ///   phase less by it); empty when fewer than three flights inform it.
  public mutating func refineClocks(flights: [BallFlight], refinable: Set<String>, iterations: Int = 3) -> [String: Double] {
    let free = views.indices.filter { refinable.contains(views[$0].camera.name) }
    guard !free.isEmpty else { return [:] }
    let n = free.count
    var total = [Double](repeating: 0, count: n)
    for _ in 0..<iterations {
      var reduced = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
      var rhs = [Double](repeating: 0, count: n)
      var used = 0
      for whole in flights where whole.frames.count > 8 {
        let span = (whole.frames.lowerBound + 2)...(whole.frames.upperBound - 2)
        guard let fit = fitted(whole, span: span), let blocks = normalBlocks(fit.flight, span: span, free: free, scale: fit.scale)
        else { continue }
        // Eliminate the flight: S −= Bᵀ A⁻¹ B, s −= Bᵀ A⁻¹ b.
        let aInvB = (0..<n).compactMap { c in FlightFit.solve(blocks.a, blocks.b.map { $0[c] }) }
        guard aInvB.count == n, let aInvR = FlightFit.solve(blocks.a, blocks.rFlight) else { continue }
        for c in 0..<n {
          reduced[c][c] += blocks.d[c]
          rhs[c] += blocks.rClock[c]
          for e in 0..<n { reduced[c][e] -= (0..<6).reduce(0) { $0 + blocks.b[$1][c] * aInvB[e][$1] } }
          rhs[c] -= (0..<6).reduce(0) { $0 + blocks.b[$1][c] * aInvR[$1] }
        }
        used += 1
      }
      guard used >= 3, let step = FlightFit.solve(reduced, rhs) else { break }
      for (k, v) in free.enumerated() {
        let shift = max(-0.1, min(0.1, step[k]))
        views[v].instants = views[v].instants.map { $0 + shift }
        total[k] += shift
      }
      if step.map(abs).max()! < 1e-4 { break }
    }
    return Dictionary(uniqueKeysWithValues: zip(free.map { views[$0].camera.name }, total))
  }

  /// The Gauss–Newton normal equations of one flight's evidence (Huber weights at `scale`): the flight
  /// block `a` (6×6) and its right side, the coupling `b` (6 × free cameras), and each free camera's
  /// diagonal `d` and right side; nil when a point falls behind a camera.
  func normalBlocks(_ flight: BallFlight, span: ClosedRange<Int>, free: [Int], scale: Double)
    -> (a: [[Double]], rFlight: [Double], b: [[Double]], d: [Double], rClock: [Double])?
  {
    let (cams, times, pixels) = evidence(flight, span: span)
    guard times.count >= minObservations else { return nil }
    func projected(_ q: [Double], shift: Double = 0) -> [SIMD2<Double>]? {
      let positions = flight.model.positions(
        from: SIMD3(q[0], q[1], q[2]), SIMD3(q[3], q[4], q[5]), at: times.map { $0 + shift / fps })
      var out: [SIMD2<Double>] = []
      out.reserveCapacity(times.count)
      for (k, p) in positions.enumerated() {
        guard let px = views[cams[k]].camera.project(worldFromVenue.apply(p)) else { return nil }
        out.append(px)
      }
      return out
    }
    let q = [flight.position.x, flight.position.y, flight.position.z, flight.velocity.x, flight.velocity.y, flight.velocity.z]
    guard let p0 = projected(q), let later = projected(q, shift: 0.05), let earlier = projected(q, shift: -0.05) else { return nil }
    guard let jFlight = jacobian(q, at: p0, { projected($0) }) else { return nil }
    let n = free.count
    var a = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6), rFlight = [Double](repeating: 0, count: 6)
    var b = [[Double]](repeating: [Double](repeating: 0, count: n), count: 6)
    var d = [Double](repeating: 0, count: n), rClock = [Double](repeating: 0, count: n)
    let huber = 1.345 * scale
    for k in times.indices {
      let r = p0[k] - pixels[k]
      let w = norm(r) <= huber ? 1 : huber / norm(r)
      let g = (later[k] - earlier[k]) / 0.1  // pixels per frame of the camera's clock
      for i in 0..<6 {
        rFlight[i] -= w * (jFlight[i][k] * r).sum()
        for j in 0..<6 { a[i][j] += w * (jFlight[i][k] * jFlight[j][k]).sum() }
      }
      guard let c = free.firstIndex(of: cams[k]) else { continue }
      for i in 0..<6 { b[i][c] += w * (jFlight[i][k] * g).sum() }
      d[c] += w * (g * g).sum()
      rClock[c] -= w * (g * r).sum()
    }
    return (a, rFlight, b, d, rClock)
  }
}

extension AsynchronousFlightFit {
  /// This fit with the clocks of the cameras it resampled at a phase (`phased`) refined on the ball's
  /// flights (`refineClocks`), the flights segmented from `motion`'s ball (venue coordinates) as the
  /// analysis will (`FlightSegmentation` with `model`, `surfaces` and `segmentation`); and each
  /// correction by camera name (frames, the camera's instants later by that much). Unchanged, with no
  /// corrections, when `motion` has no ball.
  public func refiningClocks(
    on motion: MotionModel, model: BallModel, surfaces: BallSurfaces, segmentation: FlightSegmentationOptions
  ) -> (AsynchronousFlightFit, [String: Double]) {
    guard let b = motion.ballTrack else { return (self, [:]) }
    let ball = motion.tracks[b]
    let observations = ball.frames.compactMap { frame in ball.position(joint: 0, frame: frame).map { (frame: frame, position: $0) } }
    let flights = FlightSegmentation(model: model, surfaces: surfaces, options: segmentation).flights(observations, fps: motion.fps)
    var out = self
    let corrections = out.refineClocks(flights: flights, refinable: phased)
    return (out, corrections)
  }
}
