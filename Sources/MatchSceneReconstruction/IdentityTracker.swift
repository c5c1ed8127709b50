import MatchSceneCore

/// Links each frame's people into tracks that keep one id over the whole match.
///
/// Each track remembers where its centre was last seen and how fast it moved; a person in a new
/// frame joins the track whose predicted centre is nearest, if within a gate that grows with the
/// time since the track was last seen (`trackGateSlack + maxPersonSpeed · Δt`). Assignment is greedy
/// by distance over all (track, person) pairs, which equals the optimal assignment whenever gates do
/// not overlap — the usual case for players at their own end of a table or court.
struct IdentityTracker {
  struct Track {
    var id: Int
    var lastFrame: Int
    var lastCentre: SIMD3<Double>
    var velocity: SIMD3<Double>
    var frames: Int
  }
  private(set) var tracks: [Track] = []
  let fps: Double
  let options: ReconstructionOptions

  init(fps: Double, options: ReconstructionOptions) {
    self.fps = fps
    self.options = options
  }

  /// Assigns the centres of one frame's people to tracks; returns the track id of each (in order).
  mutating func assign(frame: Int, centres: [SIMD3<Double>?]) -> [Int?] {
    var result = [Int?](repeating: nil, count: centres.count)
    var candidates: [(cost: Double, track: Int, person: Int)] = []
    for (t, track) in tracks.enumerated() {
      let dt = Double(frame - track.lastFrame) / fps
      // Predict with the last velocity for short gaps only; long gaps hold the last place.
      let predicted = track.lastCentre + (dt < 0.5 ? track.velocity * dt : .zero)
      let gate = options.trackGateSlack + options.maxPersonSpeed * dt
      for (p, centre) in centres.enumerated() {
        guard let centre else { continue }
        let d = length(centre - predicted)
        if d <= gate { candidates.append((d, t, p)) }
      }
    }
    candidates.sort { $0.cost < $1.cost }
    var usedTracks = Set<Int>()
    for c in candidates where !usedTracks.contains(c.track) && result[c.person] == nil {
      usedTracks.insert(c.track)
      result[c.person] = tracks[c.track].id
      let dt = Double(frame - tracks[c.track].lastFrame) / fps
      let centre = centres[c.person]!
      if dt > 0 {
        let v = (centre - tracks[c.track].lastCentre) / dt
        tracks[c.track].velocity = 0.5 * tracks[c.track].velocity + 0.5 * v
      }
      tracks[c.track].lastCentre = centre
      tracks[c.track].lastFrame = frame
      tracks[c.track].frames += 1
    }
    for (p, centre) in centres.enumerated() where result[p] == nil {
      guard let centre else { continue }
      let id = tracks.count
      tracks.append(Track(id: id, lastFrame: frame, lastCentre: centre, velocity: .zero, frames: 1))
      result[p] = id
    }
    return result
  }
}
