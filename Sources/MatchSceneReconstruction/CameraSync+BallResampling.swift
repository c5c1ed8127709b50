import MatchSceneCore

extension CameraSync {
  /// One camera's ball candidates at times shifted by `phase` frames, without cutting corners at contacts.
  ///
  /// Frame k gets the ball at t = k + phase, between frames k0 = ⌊t⌋ and k0 + 1 (the nearer frame's
  /// candidates, each paired with the nearest candidate of the other frame within 150 px; one without a
  /// partner is extrapolated from the near frame along the velocity on its other side, dropped when that
  /// side has none either). In free flight the image path is a straight line over a frame (gravity bends
  /// it by 0.3 mm over half a frame at 60 fps), and the candidate is interpolated linearly, as before. A
  /// bounce or a hit inside [k0, k0 + 1] breaks the path: a linear interpolation across it cuts the corner
  /// by up to a quarter of the change of velocity per frame (centimetres at a table-tennis bounce). So the
  /// ball is also followed to frames k0 − 1 and k0 + 2, and when the image velocity before
  /// (v₋ = P(k0) − P(k0 − 1)) and after (v₊ = P(k0 + 2) − P(k0 + 1)) differ by more than the noise allows,
  /// the path is modelled as two straight pieces meeting at a contact at k0 + s, s the least-squares
  /// solution of P(k0 + 1) − P(k0) = s v₋ + (1 − s) v₊: the camera's detection is then taken on the piece
  /// its instant falls on (P(k0) + u v₋ before the contact, P(k0 + 1) − (1 − u) v₊ after). This is the
  /// piecewise flight model of contacts (a velocity that jumps at an instant, Mehrtash & Dolan 1990 style
  /// ballistic segments) applied in the image, each camera at its own instant, which is what a
  /// continuous-time fit does with a camera that was not synchronised (Albl et al., CVPR 2017, model the
  /// time shift the same way).
  ///
  /// The noise is estimated from the camera's own ball track (the median absolute deviation of the
  /// second differences of the image positions, σ_2nd = 1.4826 MAD = √6 σ per coordinate); the velocity
  /// change counts as a contact when it exceeds 3.7 × 2σ (the 99.9 % point of a 2-D Gaussian with the
  /// velocity difference's standard deviation). With fewer than 20 second differences the interpolation
  /// stays linear. A candidate off the track on both sides (`isSpike`: a false detection) is not
  /// interpolated: it would pull two frames off where, synchronised, it spoilt one that the robust
  /// triangulation could reject; the ball is extrapolated from the other frame instead.
  /// - Parameters:
  ///   - balls: ball candidates by the camera's own frame number.
  ///   - k: the frame to resample.
  ///   - phase: frames to shift by.
  ///   - gate: `contactGate(balls)`, computed once per camera.
  static func resampledBalls(
    _ balls: [Int: [BallDetection2D]], at k: Int, phase: Double, gate: Double
  ) -> [BallDetection2D]? {
    let t = Double(k) + phase
    let k0 = Int(t.rounded(.down)), u = t - Double(k0)
    let (near, far) = u < 0.5 ? (k0, k0 + 1) : (k0 + 1, k0)
    guard let nearBalls = balls[near] else { return nil }
    let farBalls = balls[far] ?? []
    let resampled = nearBalls.compactMap { b -> BallDetection2D? in
      guard let o = nearest(b, farBalls) else {
        // No partner in the other frame (a dropped detection): extrapolated from the near frame, at most
        // half a frame. Dropping it, as the linear interpolation had to, would lose the view in two
        // frames where the synchronised camera loses it in one.
        return isSpike(b, at: near, in: balls, gate: gate) ? nil : extrapolated(b, at: near, to: t, in: balls)
      }
      let (p0, p1) = near == k0 ? (b, o) : (o, b)
      // A false candidate would pull two resampled frames off where, synchronised, it spoilt one: the
      // ball is then extrapolated from the other frame.
      switch (isSpike(p0, at: k0, in: balls, gate: gate), isSpike(p1, at: k0 + 1, in: balls, gate: gate)) {
      case (true, true): return nil
      case (true, false): return extrapolated(p1, at: k0 + 1, to: t, in: balls)
      case (false, true): return extrapolated(p0, at: k0, to: t, in: balls)
      case (false, false): break
      }
      let before = balls[k0 - 1].flatMap { nearest(p0, $0) }
      let after = balls[k0 + 2].flatMap { nearest(p1, $0) }
      let (x, y) = ballPosition(p0, p1, before: before, after: after, u: u, gate: gate)
      return BallDetection2D(x: x, y: y, confidence: b.confidence)
    }
    return resampled.isEmpty ? nil : resampled
  }

  /// The image position at k0 + u (u ∈ [0, 1)) from the candidates at k0 − 1 … k0 + 2 (see
  /// `resampledBalls`): linear between `p0` and `p1` unless the velocities before and after differ by more
  /// than `gate` pixels per frame and their meeting point lies inside the frame interval.
  static func ballPosition(
    _ p0: BallDetection2D, _ p1: BallDetection2D, before: BallDetection2D?, after: BallDetection2D?,
    u: Double, gate: Double
  ) -> (x: Double, y: Double) {
    let linear = (x: p0.x + u * (p1.x - p0.x), y: p0.y + u * (p1.y - p0.y))
    guard let pm = before, let p2 = after, gate.isFinite else { return linear }
    let vm = (x: p0.x - pm.x, y: p0.y - pm.y), vp = (x: p2.x - p1.x, y: p2.y - p1.y)
    let b = (x: vm.x - vp.x, y: vm.y - vp.y)
    let bb = b.x * b.x + b.y * b.y
    guard bb > gate * gate else { return linear }
    // P1 − P0 − v₊ = s (v₋ − v₊)
    let c = (x: p1.x - p0.x - vp.x, y: p1.y - p0.y - vp.y)
    let s = (c.x * b.x + c.y * b.y) / bb
    guard s > 0, s < 1 else { return linear }
    return u < s ? (x: p0.x + u * vm.x, y: p0.y + u * vm.y) : (x: p1.x - (1 - u) * vp.x, y: p1.y - (1 - u) * vp.y)
  }

  /// The velocity-change gate for `resampledBalls`, in pixels per frame: 3.7 × 2σ, σ the per-coordinate
  /// detection noise from the median absolute deviation of the track's second differences; infinite
  /// (no contact model) with fewer than 20 of them.
  static func contactGate(_ balls: [Int: [BallDetection2D]]) -> Double {
    var second: [Double] = []
    for (k, candidates) in balls {
      guard let previous = balls[k - 1], let next = balls[k + 1] else { continue }
      for b in candidates {
        guard let p = nearest(b, previous), let n = nearest(b, next) else { continue }
        second.append(p.x - 2 * b.x + n.x)
        second.append(p.y - 2 * b.y + n.y)
      }
    }
    guard second.count >= 40 else { return .infinity }
    let median = second.sorted()[second.count / 2]
    let deviations = second.map { abs($0 - median) }.sorted()
    let sigma = 1.4826 * deviations[deviations.count / 2] / 6.0.squareRoot()
    return 3.7 * 2 * max(sigma, 0.05)
  }

  /// Candidate `p` of frame `k` moved to time `t` (frames) along the image velocity from the frame on the
  /// far side of `k` from `t` (k − 1 when t > k); nil when that frame has no candidate within 150 px.
  static func extrapolated(_ p: BallDetection2D, at k: Int, to t: Double, in balls: [Int: [BallDetection2D]]) -> BallDetection2D? {
    let side = t >= Double(k) ? k - 1 : k + 1
    guard let q = balls[side].flatMap({ nearest(p, $0) }) else { return nil }
    let w = (t - Double(k)) / Double(k - side)
    return BallDetection2D(x: p.x + w * (p.x - q.x), y: p.y + w * (p.y - q.y), confidence: p.confidence)
  }

  /// Whether candidate `p` of frame `k` lies off the camera's ball track on both sides: more than
  /// 2 × 3.7 √6 σ (the velocity gate × 1.22 × 2; σ the detection noise, see `contactGate`) from the
  /// straight-line extrapolations of frames k − 2, k − 1 and of frames k + 2, k + 1. A bounce or a hit
  /// bends the track on one side only (the extrapolation from the other side reaches `p`), so only an
  /// isolated false detection is off both; two contacts within three frames can look the same, and lose
  /// that detection. False when a neighbour is missing or the gate is unknown.
  static func isSpike(_ p: BallDetection2D, at k: Int, in balls: [Int: [BallDetection2D]], gate: Double) -> Bool {
    guard gate.isFinite,
      let q1 = balls[k - 1].flatMap({ nearest(p, $0) }), let q2 = balls[k - 2].flatMap({ nearest(q1, $0) }),
      let r1 = balls[k + 1].flatMap({ nearest(p, $0) }), let r2 = balls[k + 2].flatMap({ nearest(r1, $0) })
    else { return false }
    let limit = 2 * gate * (6.0 / 4.0).squareRoot()
    func off(_ a: BallDetection2D, _ b: BallDetection2D) -> Bool {
      let x = 2 * a.x - b.x - p.x, y = 2 * a.y - b.y - p.y
      return x * x + y * y > limit * limit
    }
    return off(q1, q2) && off(r1, r2)
  }

  /// The candidate of `others` nearest to `b`, if within 150 px.
  static func nearest(_ b: BallDetection2D, _ others: [BallDetection2D]) -> BallDetection2D? {
    guard let o = others.min(by: { gap(b, $0) < gap(b, $1) }), gap(b, o) <= 150 else { return nil }
    return o
  }
}
