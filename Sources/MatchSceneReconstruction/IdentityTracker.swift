import MatchSceneCore

/// Links each frame's people into tracks that keep one id over the whole match.
///
/// Each track remembers where its centre was last seen, how fast it moved, and the person's body
/// proportions (running medians of a few limb lengths — a body's own signature, which does not change
/// over a match). A person in a new frame joins the track with the lowest cost — the distance from
/// its predicted centre plus a weighted difference of limb lengths — if within a gate that grows with
/// the time since the track was last seen (`trackGateSlack + v · Δt` for the first half second, v the
/// match's own speed bound from `PersonSpeeds`, at most `maxPersonSpeed`; growing at `walkingSpeed`
/// after that) and, for a track unseen for longer than
/// `reidentificationGap`, if the proportions agree. Assignment is greedy by cost over all
/// (track, person) pairs, which equals the optimal assignment whenever gates do not overlap — the
/// usual case for players at their own end of a table or court.
struct IdentityTracker {
  struct Track {
    var id: Int
    var lastFrame: Int
    var lastCentre: SIMD3<Double>
    var velocity: SIMD3<Double>
    var frames: Int
    var firstFrame: Int
    var firstCentre: SIMD3<Double>
    /// Recent limb-length samples per limb (for running medians).
    var limbSamples: [[Double]]
    /// The median of each limb's recent samples (nil where none yet), kept up to date by `record` (every
    /// track is recorded into when it opens): every frame compares each track's proportions with each
    /// person's, and recomputing the medians there cost seconds over a long match.
    var limbs: [Double?] = []
    /// Ground velocity after the tracklet's first `startFrames` sightings (nil while shorter): how the
    /// person was moving when it started, for extrapolating it back in time (`globalChains`).
    var startVelocity: SIMD3<Double>?
    static let startFrames = 10
    /// Where and when the track's speed was last measured from (`measureSpeed`; −1: not yet).
    var anchorFrame = -1
    var anchorCentre = SIMD3<Double>.zero

    /// `limbSamples` per limb in ascending order, kept by `record` (an insertion and a removal per
    /// sample instead of a sort of the window).
    var sortedLimbSamples: [[Double]] = []

    mutating func updateLimbs() {
      limbs = limbSamples.map { s in
        guard !s.isEmpty else { return nil }
        let sorted = s.sorted()
        return sorted[sorted.count / 2]
      }
    }

    /// The first index of ascending `sorted` whose value is not below `x` (a window is 60 samples: a scan).
    static func lowerBound(_ sorted: [Double], _ x: Double) -> Int { sorted.firstIndex { $0 >= x } ?? sorted.count }
  }
  private(set) var tracks: [Track] = []
  /// The speeds the tracked people were seen moving at, and the gate's speed bound from them.
  var speeds = PersonSpeeds()
  var speedBound: Double
  let fps: Double
  let options: ReconstructionOptions
  /// The world's up axis (unit vector): positions are compared across the ground.
  let up: SIMD3<Double>

  init(fps: Double, options: ReconstructionOptions, up: SIMD3<Double> = SIMD3(0, 0, 1)) {
    self.fps = fps
    self.options = options
    self.up = up
    self.speedBound = options.maxPersonSpeed
  }

  /// Median absolute difference of the limbs both sides know (robust to one badly placed joint), and
  /// how many they share.
  /// Called for every (track, person) pair of every frame: sorts in a stack buffer, allocating nothing.
  static func limbDifference(_ a: [Double?], _ b: [Double?]) -> (Double, Int) {
    withUnsafeTemporaryAllocation(of: Double.self, capacity: min(a.count, b.count)) { d in
      var n = 0
      for (x, y) in zip(a, b) {
        guard let x, let y else { continue }
        // Insertion sort: a skeleton has a dozen limbs.
        let v = abs(x - y)
        var k = n
        while k > 0 && d[k - 1] > v {
          d[k] = d[k - 1]
          k -= 1
        }
        d[k] = v
        n += 1
      }
      guard n > 0 else { return (0, 0) }
      return (n % 2 == 1 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]), n)
    }
  }

  /// Assigns one frame's people to tracks; returns the track id of each (in order).
  /// - Parameters:
  ///   - centres: each person's centre (nil: too little of the person to place it).
  ///   - limbs: each person's limb lengths this frame (nil where a limb is missing).
  ///   - canStartTrack: whether each person is complete enough to open a new track.
  mutating func assign(frame: Int, centres: [SIMD3<Double>?], limbs: [[Double?]], canStartTrack: [Bool]) -> [Int?] {
    var result = [Int?](repeating: nil, count: centres.count)
    var candidates: [(cost: Double, track: Int, person: Int)] = []
    for (t, track) in tracks.enumerated() {
      let dt = Double(frame - track.lastFrame) / fps
      // Predict with the last velocity for short gaps only; long gaps hold the last place.
      let predicted = track.lastCentre + (dt < 0.5 ? track.velocity * dt : .zero)
      // Sprinting speed over short gaps, walking speed beyond: a long-lost person is looked for
      // within the distance they could have walked.
      let gate = gate(after: dt)
      let trackLimbs = track.limbs
      for (p, centre) in centres.enumerated() {
        guard let centre else { continue }
        // Across the ground: a partly seen person's centre jumps in height by up to half a metre.
        let d = Self.groundDistance(centre, predicted, up: up)
        // Beyond the gate, or a track too short to be re-identified: the proportions need not be
        // compared (the same pairs are left out as below, only sooner; every track of the match is
        // looked at every frame).
        guard d <= gate else { continue }
        let reidentifying = dt > options.reidentificationGap
        if reidentifying && track.frames < 30 { continue }
        let (difference, shared) = Self.limbDifference(trackLimbs, limbs[p])
        let known = shared >= 6 && track.frames >= 30
        // Re-identifying a person after a gap takes proportions that are known and agree: a tracklet
        // too short to know its person's proportions must not take whoever comes within the wide
        // gate of a long gap (a bystander's 16-frame tracklet, unseen for 1.1 s, took a player 3.7 m
        // away that way; letting it re-identify within walking distance only still merged people).
        // The offline tracklet joining (`globalChains`) links such tracklets with their person. A
        // track seen moments ago is continued by whoever stands where it is going: one noisy frame's
        // limbs (a joint seen by two cameras only) must not break it, so there the proportions only
        // weigh in the cost.
        if reidentifying, !known || difference > options.maxLimbDifference { continue }
        // With `reidentifyByBestExplanation`, re-identifying a person where another track is the better
        // explanation — its predicted place is nearer the person, in units of the distance it could
        // have moved since it was seen — is not allowed: at 2× keypoint noise two adults' proportions
        // can agree within a centimetre, and a bystander's track, lost for seconds, took a player 4 m
        // away whose own track was lost for a moment (its one-frame proportions then missed the
        // tolerance), and held on to him.
        if reidentifying, options.reidentifyByBestExplanation,
          isExplainedBetter(person: p, centres: centres, than: d / gate, except: t, frame: frame)
        {
          continue
        }
        candidates.append((d + options.limbDifferenceWeight * difference, t, p))
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
        // Ground velocity only: the centre's height jitters with what is seen of the person.
        var v = (centre - tracks[c.track].lastCentre) / dt
        v -= dot(v, up) * up
        tracks[c.track].velocity = 0.5 * tracks[c.track].velocity + 0.5 * v
      }
      measureSpeed(of: c.track, frame: frame, centre: centre)
      tracks[c.track].lastCentre = centre
      tracks[c.track].lastFrame = frame
      tracks[c.track].frames += 1
      if tracks[c.track].frames == Track.startFrames { tracks[c.track].startVelocity = tracks[c.track].velocity }
      Self.record(limbs[c.person], into: &tracks[c.track])
    }
    for (p, centre) in centres.enumerated() where result[p] == nil && canStartTrack[p] {
      guard let centre else { continue }
      // Not a new person if a track seen within the last half second stands right there.
      let crowded = tracks.contains { t in
        Double(frame - t.lastFrame) / fps <= 0.5 && Self.groundDistance(t.lastCentre, centre, up: up) < options.trackGateSlack
      }
      if crowded { continue }
      let id = tracks.count
      var track = Track(id: id, lastFrame: frame, lastCentre: centre, velocity: .zero, frames: 1, firstFrame: frame,
                        firstCentre: centre, limbSamples: Array(repeating: [], count: limbs[p].count))
      Self.record(limbs[p], into: &track)
      (track.anchorFrame, track.anchorCentre) = (frame, centre)
      tracks.append(track)
      result[p] = id
    }
    return result
  }
}

extension IdentityTracker {
  /// Records the speed of track `index`, just continued at `frame` at `centre`, when its anchor (the
  /// place it was last measured from) lies a baseline back; a track unseen for more than twice the
  /// baseline, or just opened, starts a new anchor here.
  mutating func measureSpeed(of index: Int, frame: Int, centre: SIMD3<Double>) {
    let baseline = Int((PersonSpeeds.baseline * fps).rounded())
    let elapsed = frame - tracks[index].anchorFrame
    if tracks[index].anchorFrame >= 0, elapsed >= baseline, elapsed <= 2 * baseline {
      speeds.record(Self.groundDistance(centre, tracks[index].anchorCentre, up: up) * fps / Double(elapsed))
      speedBound = speeds.bound(walkingSpeed: options.walkingSpeed, maxPersonSpeed: options.maxPersonSpeed)
    } else if tracks[index].anchorFrame >= 0, elapsed < baseline {
      return
    }
    tracks[index].anchorFrame = frame
    tracks[index].anchorCentre = centre
  }

  /// How far a person may have moved in `dt` seconds: `trackGateSlack`, plus the match's own speed
  /// bound (`speedBound`, from `PersonSpeeds`; at most `maxPersonSpeed`) for the first half second and
  /// `walkingSpeed` after (a long-lost person has walked, not sprinted).
  func gate(after dt: Double) -> Double {
    options.trackGateSlack + speedBound * min(dt, 0.5) + options.walkingSpeed * max(0, dt - 0.5)
  }

  /// Distance between two points across the ground, the `up` component left out: partly seen people's
  /// centres differ in height by up to half a metre, people move horizontally.
  static func groundDistance(_ a: SIMD3<Double>, _ b: SIMD3<Double>, up: SIMD3<Double>) -> Double {
    let d = a - b
    return length(d - dot(d, up) * up)
  }

  /// Whether a track other than `index`, seen at least 30 times, predicts a place nearer person
  /// `person`'s centre than `share` of its gate — the share of its own gate at which track `index`
  /// would take the person — while no other person of the frame stands nearer that place (a track
  /// busy with someone else explains nothing here).
  func isExplainedBetter(person: Int, centres: [SIMD3<Double>?], than share: Double, except index: Int, frame: Int) -> Bool {
    guard let centre = centres[person] else { return false }
    for (k, other) in tracks.enumerated() where k != index && other.frames >= 30 {
      let dt = Double(frame - other.lastFrame) / fps
      guard dt > 0 else { continue }
      let predicted = other.lastCentre + (dt < 0.5 ? other.velocity * dt : .zero)
      let d = Self.groundDistance(centre, predicted, up: up)
      guard d / gate(after: dt) < share else { continue }
      let busy = centres.enumerated().contains { q, c in
        q != person && c.map { Self.groundDistance($0, predicted, up: up) < d } ?? false
      }
      if !busy { return true }
    }
    return false
  }

  /// Keeps the last 60 samples of each limb.
  /// The running medians are those of the samples sorted (`updateLimbs`), kept by inserting each new
  /// sample into, and removing the oldest from, a sorted copy of each limb's window.
  static func record(_ limbs: [Double?], into track: inout Track) {
    if track.limbSamples.count < limbs.count { track.limbSamples += Array(repeating: [], count: limbs.count - track.limbSamples.count) }
    guard track.sortedLimbSamples.count == track.limbSamples.count, track.limbs.count == track.limbSamples.count,
      limbs.allSatisfy({ $0.map { !$0.isNaN } ?? true })
    else {
      for (i, l) in limbs.enumerated() {
        guard let l else { continue }
        track.limbSamples[i].append(l)
        if track.limbSamples[i].count > 60 { track.limbSamples[i].removeFirst() }
      }
      track.updateLimbs()
      track.sortedLimbSamples = track.limbSamples.map { $0.sorted() }
      if track.sortedLimbSamples.contains(where: { $0.contains { $0.isNaN } }) { track.sortedLimbSamples = [] }
      return
    }
    for (i, l) in limbs.enumerated() {
      guard let l else { continue }
      track.limbSamples[i].append(l)
      track.sortedLimbSamples[i].insert(l, at: Track.lowerBound(track.sortedLimbSamples[i], l))
      if track.limbSamples[i].count > 60 {
        let oldest = track.limbSamples[i].removeFirst()
        track.sortedLimbSamples[i].remove(at: Track.lowerBound(track.sortedLimbSamples[i], oldest))
      }
      let sorted = track.sortedLimbSamples[i]
      track.limbs[i] = sorted[sorted.count / 2]
    }
  }
}

extension IdentityTracker {
  /// Replaces the tracklets (for tests of the offline linking on constructed tracklets).
  mutating func setTracks(_ tracks: [Track]) { self.tracks = tracks }
}
