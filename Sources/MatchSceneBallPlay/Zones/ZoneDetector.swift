import MatchSceneCore

/// Finds `zone_enter` and `zone_exit` events: every trigger point (a person's keypoint or the ball)
/// against every zone, through a hysteresis state machine on the signed distance to the zone's surface.
///
/// Per trigger point and zone: outside, the point enters once the mean signed distance of its samples
/// over the last `minDwell` seconds is at least `enterMargin` inside the
/// surface; the event is dated back to the frame it crossed the surface itself (the first sample of
/// the window inside it, and back while the samples before are inside), so an entry is found at the
/// frame it happened, not when the dwell confirmed it. Leaving mirrors it with `exitMargin` outside.
/// This is a Schmitt trigger (two thresholds) on a moving average (the dwell): a point lingering at the
/// surface flips only when the average of n samples strays beyond the far threshold, which with
/// noise σ takes √n·(margin + distance to the surface)/σ standard deviations. Missing samples are
/// skipped.
public struct ZoneDetector: Sendable {
  public var zones: [Zone]
  /// Seconds over which a body frame's origin and forward direction are averaged (centred), so that
  /// shoulder noise does not swing a body-attached zone; 0 uses each frame's own.
  public var bodySmoothing: Double

  public init(zones: [Zone], bodySmoothing: Double = 0.1) {
    self.zones = zones
    self.bodySmoothing = bodySmoothing
  }

  /// The zone events of `motion` (world coordinates), sorted by frame; positions in the world frame.
  /// - Parameter venue: maps `motion`'s world into the venue frame the zones are given in.
  public func events(in motion: MotionModel, venue: VenueFrame) -> [MatchEvent] {
    guard motion.frames != nil, !zones.isEmpty else { return [] }
    let inVenue = venue.isIdentity ? motion : motion.transformed(by: venue.venueFromWorld)
    let worldFromVenue = venue.worldFromVenue
    var bodyFrames: [Int: [BodyFrame?]] = [:]
    var out: [MatchEvent] = []
    for zone in zones {
      for (trackIndex, jointIndex, jointName, owner) in triggerSeries(zone, motion: inVenue) {
        var frames: [BodyFrame?]? = nil
        if case .body(let origin, _) = zone.attachment, let owner {
          let key = owner * 2 + (origin == .hips ? 0 : 1)
          if bodyFrames[key] == nil { bodyFrames[key] = Self.bodyFrames(inVenue, track: owner, origin: origin, smoothing: bodySmoothing) }
          frames = bodyFrames[key]
        }
        out += Self.crossings(
          zone, motion: inVenue, track: trackIndex, joint: jointIndex, jointName: jointName, bodyFrames: frames
        ).map { venue.isIdentity ? $0 : $0.transformed(by: worldFromVenue) }
      }
    }
    return out.sorted { ($0.frame, $0.type == .zoneExit ? 0 : 1) < ($1.frame, $1.type == .zoneExit ? 0 : 1) }
  }

  /// (track, joint, joint name, body owner track) for each trigger point of `zone`.
  func triggerSeries(_ zone: Zone, motion: MotionModel) -> [(Int, Int, String, Int?)] {
    var owners: [Int?]
    switch zone.attachment {
    case .venue: owners = [nil]
    case .body(_, let track):
      owners = motion.personTracks.filter { track == nil || motion.tracks[$0].id == track }.map { $0 }
    }
    var out: [(Int, Int, String, Int?)] = []
    for owner in owners {
      for trigger in zone.triggers {
        switch trigger {
        case .ball:
          if let b = motion.ballTrack { out.append((b, 0, "ball", owner)) }
        case .keypoint, .role:
          guard let joint = Self.jointIndex(trigger, skeleton: motion.skeleton) else { continue }
          let people = owner.map { [$0] } ?? motion.personTracks
          for t in people { out.append((t, joint, motion.skeleton.keypoints[joint], owner)) }
        }
      }
    }
    return out
  }

  /// The keypoint a trigger names in `skeleton`: the exact name, else the role (a role's name or a
  /// detector spelling of it); nil for the ball or a keypoint the skeleton lacks.
  public static func jointIndex(_ trigger: Zone.Trigger, skeleton: Skeleton) -> Int? {
    switch trigger {
    case .ball: return nil
    case .role(let role): return skeleton.index(of: role)
    case .keypoint(let name):
      if let i = skeleton.index(of: name) { return i }
      return (JointRole(rawValue: name) ?? JointRole.named(name)).flatMap { skeleton.index(of: $0) }
    }
  }

  /// Each frame's body frame of `track` (venue coordinates), averaged over `smoothing` seconds.
  static func bodyFrames(_ motion: MotionModel, track t: Int, origin: BodyFrame.Origin, smoothing: Double) -> [BodyFrame?] {
    let track = motion.tracks[t], skeleton = motion.skeleton
    func series(_ role: JointRole) -> [SIMD3<Double>?] {
      skeleton.index(of: role).map { track.positions(joint: $0) } ?? Array(repeating: nil, count: track.frameCount)
    }
    let ls = series(.leftShoulder), rs = series(.rightShoulder), lh = series(.leftHip), rh = series(.rightHip)
    let mh = series(.midHip)
    let raw = (0..<track.frameCount).map {
      BodyFrame(leftShoulder: ls[$0], rightShoulder: rs[$0], leftHip: lh[$0], rightHip: rh[$0], midHip: mh[$0], origin: origin)
    }
    let half = Int((smoothing * motion.fps / 2).rounded())
    guard half > 0 else { return raw }
    return raw.indices.map { i in
      guard raw[i] != nil else { return nil }
      var o = SIMD3<Double>.zero, f = SIMD3<Double>.zero, n = 0.0
      for k in max(0, i - half)...min(raw.count - 1, i + half) {
        guard let b = raw[k] else { continue }
        o += b.origin
        f += b.forward
        n += 1
      }
      let len = (f * f).sum().squareRoot()
      return len > 1e-9 ? BodyFrame(origin: o / n, forward: f / len) : raw[i]
    }
  }

  /// The enter and exit events of one trigger point against one zone (venue coordinates).
  static func crossings(
    _ zone: Zone, motion: MotionModel, track t: Int, joint j: Int, jointName: String, bodyFrames: [BodyFrame?]?
  ) -> [MatchEvent] {
    let track = motion.tracks[t]
    let dwellFrames = Int((zone.minDwell * motion.fps - 1e-9).rounded(.up))
    var inside = false
    var enteredAt = 0
    var out: [MatchEvent] = []
    func point(_ i: Int) -> SIMD3<Double>? {
      let s = track.samples[track.index(joint: j, frame: track.firstFrame + i)]
      return s.isPresent ? s.position : nil
    }
    func event(_ kind: MatchEvent.Kind, _ i: Int) -> MatchEvent {
      let frame = track.firstFrame + i
      var e = MatchEvent(
        type: kind, frame: frame, time: motion.time(frame), track: track.id, position: point(i),
        speed: speed(i))
      e.zone = zone.name
      e.joint = jointName
      return e
    }
    // Central difference over ±33 ms (±2 frames at 60 fps): over ±1 frame, 2 cm of noise alone would
    // add about 1.5 m/s.
    let halfSpan = max(1, Int((0.033 * motion.fps).rounded()))
    func speed(_ i: Int) -> Double? {
      let a = max(0, i - halfSpan), b = min(track.frameCount - 1, i + halfSpan)
      guard b > a, let p = point(a), let q = point(b) else { return nil }
      let d = q - p
      return (d * d).sum().squareRoot() * motion.fps / Double(b - a)
    }
    // Signed distances of the present samples: (frame offset, distance).
    var distances: [(i: Int, d: Double)] = []
    for i in 0..<track.frameCount {
      guard let p = point(i) else { continue }
      var local = p
      if let bodyFrames {
        guard let frame = bodyFrames[i] else { continue }
        local = frame.bodyPoint(p)
      }
      distances.append((i, zone.signedDistance(local)))
    }
    /// The frame the surface was crossed: from sample `k` (or the first sample after it on the new
    /// side), back while the samples before stay on the new side — judged on a 3-sample mean, which
    /// divides the noise by √3 and keeps a steady crossing where it is.
    func smoothed(_ m: Int) -> Double {
      let a = max(0, m - 1), b = min(distances.count - 1, m + 1)
      return distances[a...b].reduce(0) { $0 + $1.d } / Double(b - a + 1)
    }
    /// Never before `floor`, the sample after the previous event: an exit is never dated before its
    /// entry (a short visit's 3-sample means can all lie outside).
    func crossing(_ k: Int, last: Int, inward: Bool, floor: Int) -> Int {
      func onNewSide(_ m: Int) -> Bool { inward ? smoothed(m) < 0 : smoothed(m) > 0 }
      var m = max(k, floor)
      while m < last, !onNewSide(m) { m += 1 }
      while m > floor, onNewSide(m - 1) { m -= 1 }
      return m
    }
    // The window of samples within the dwell before sample k: the change holds when their mean is
    // beyond the threshold (averaging n samples divides the noise by √n).
    var first = 0, sum = 0.0
    var floor = 0  // the sample after the last event's
    for k in distances.indices {
      sum += distances[k].d
      while distances[k].i - distances[first].i > dwellFrames {
        sum -= distances[first].d
        first += 1
      }
      guard distances[k].i - distances[first].i >= dwellFrames || dwellFrames == 0 else { continue }
      let mean = sum / Double(k - first + 1)
      let beyond = { (d: Double) in inside ? d >= zone.exitMargin : d <= -zone.enterMargin }
      guard beyond(mean) else { continue }
      let sample = min(crossing(first, last: k, inward: !inside, floor: floor), k)
      floor = sample + 1
      let at = distances[sample].i
      if inside {
        var e = event(.zoneExit, at)
        e.duration = motion.time(track.firstFrame + at) - motion.time(track.firstFrame + enteredAt)
        out.append(e)
      } else {
        enteredAt = at
        out.append(event(.zoneEnter, at))
      }
      inside.toggle()
    }
    return out
  }
}
