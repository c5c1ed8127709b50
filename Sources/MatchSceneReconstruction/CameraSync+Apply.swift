import MatchSceneCore

extension CameraSync {
  /// `match` with the estimated clocks applied: each estimated camera's `frameOffsets` entry becomes the
  /// reference camera's plus its whole-frame offset, and when `phases` holds it, its detections are
  /// resampled at its phase (`resampled(_:phase:)`), so that its frame k then shows the scene at the
  /// reference camera's frame k − offset.
  public static func applying(
    _ estimates: [CameraSyncEstimate], to match: Match, phases: Set<String>
  ) -> Match {
    var out = match
    for e in estimates {
      let reference = match.frameOffsets[e.reference] ?? 0
      out.frameOffsets[e.reference] = reference
      out.frameOffsets[e.camera] = reference + e.frames
      if phases.contains(e.camera), let d = match.detections[e.camera] {
        out.detections[e.camera] = resampled(d, phase: e.phase)
      }
    }
    return out
  }

  /// One camera's detections at times shifted by `phase` frames: frame k gets what the camera would
  /// have seen at k + phase, interpolated linearly between frames ⌊k + phase⌋ and the next (the nearer
  /// frame's people and ball candidates, each paired with the nearest in the other frame within a gate;
  /// unpaired people and keypoints missing in the other frame are kept from the nearer frame, unpaired
  /// ball candidates are dropped). The ball is not interpolated across a bounce or a hit: see
  /// `resampledBalls(_:at:phase:gate:)`.
  public static func resampled(_ detections: CameraDetections, phase: Double) -> CameraDetections {
    guard phase != 0 else { return detections }
    var out = CameraDetections()
    let gate = contactGate(detections.balls)
    let frames = Set(detections.people.keys).union(detections.balls.keys)
    for k in frames {
      let t = Double(k) + phase
      let k0 = Int(t.rounded(.down)), u = t - Double(k0)
      let (near, far, w) = u < 0.5 ? (k0, k0 + 1, u) : (k0 + 1, k0, 1 - u)
      if let people = detections.people[near] {
        let others = detections.people[far] ?? []
        out.people[k] = people.map { interpolate($0, others, w) }
      }
      if let balls = resampledBalls(detections.balls, at: k, phase: phase, gate: gate) { out.balls[k] = balls }
    }
    return out
  }

  /// `person` moved `w` of the way towards the nearest of `others` (mean pixel distance over common
  /// keypoints ≤ 80 px, at least 3 of them).
  static func interpolate(_ person: PersonDetection2D, _ others: [PersonDetection2D], _ w: Double) -> PersonDetection2D {
    func meanGap(_ q: PersonDetection2D) -> Double {
      var sum = 0.0, n = 0
      for (a, b) in zip(person.keypoints, q.keypoints) where a.isDetected && b.isDetected {
        sum += ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        n += 1
      }
      return n >= 3 ? sum / Double(n) : .infinity
    }
    guard let other = others.min(by: { meanGap($0) < meanGap($1) }), meanGap(other) <= 80 else { return person }
    var out = person
    for (j, (a, b)) in zip(person.keypoints, other.keypoints).enumerated() where a.isDetected && b.isDetected {
      out.keypoints[j] = Keypoint2D(x: a.x + w * (b.x - a.x), y: a.y + w * (b.y - a.y), confidence: a.confidence)
    }
    return out
  }

  static func gap(_ a: BallDetection2D, _ b: BallDetection2D) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
  }
}
