import MatchSceneCore

/// Where standing people's feet rest: evidence of the venue's floor taken from the reconstruction.
///
/// A foot at rest (its sole keypoints nearly still over a short window, as in the stance phase of
/// standing or walking: Perry & Burnfield, *Gait Analysis*, 2nd ed., 2010, ch. 2) carries the body's
/// weight on the surface below it, so its lowest sole keypoint lies on that surface. People on raised
/// surfaces are told apart by the data, not by a constant: a foot on a moving treadmill belt is never
/// still (it travels with the belt through its stance), and people whose resting feet disagree with
/// the largest group in height are left out (`FloorContact.floorGroup`).
public struct FloorContact: Sendable, Equatable {
  /// The person's track.
  public var track: String
  /// Median position of the person's resting sole keypoint, world frame (metres).
  public var position: SIMD3<Double>
  /// Foot-frames at rest behind it.
  public var footFrames: Int
  /// Median absolute deviation of those foot-frames' heights, metres.
  public var heightSpread: Double
}

/// Settings of `FloorContact.find`.
public struct FloorContactOptions: Sendable, Equatable {
  /// Window over which a foot must stay still, seconds (a standing stance lasts much longer; a
  /// walking stance about 0.6 s at 1 m/s).
  public var windowSeconds = 0.25
  /// Largest horizontal shift between the mean positions of the half-windows before and after a
  /// resting foot's frame, metres (their centres lie half a window apart: 0.03 m in 0.125 s is
  /// 0.24 m/s; a treadmill belt runs at ≥ 0.5 m/s, a swinging foot faster).
  public var stillMetres = 0.03
  /// A person counts with at least this many resting foot-frames.
  public var minFootFrames = 10
  /// People's contacts agree on one floor when within this height of the group's (metres), or
  /// three times their own spread if larger.
  public var agreementMetres = 0.05

  public init() {}
}

extension FloorContact {
  /// One contact per person whose feet rest long enough, from the sole keypoints (heels and toes) of
  /// `motion`'s people in `motion`'s frame. Skeletons without sole keypoints (ankles only: the ankle's
  /// height above the sole is the person's own) give none.
  public static func find(in motion: MotionModel, options: FloorContactOptions = .init()) -> [FloorContact] {
    let skeleton = motion.skeleton
    let feet: [[Int]] = [
      [.leftHeel, .leftBigToe, .leftSmallToe], [.rightHeel, .rightBigToe, .rightSmallToe],
    ].map { $0.compactMap { skeleton.index(of: $0) } }
    guard feet.allSatisfy({ !$0.isEmpty }) else { return [] }
    let half = max(2, Int((options.windowSeconds * motion.fps / 2).rounded()))
    var contacts: [FloorContact] = []
    for t in motion.personTracks {
      let track = motion.tracks[t]
      var lows: [SIMD3<Double>] = []
      for foot in feet {
        // Each sole keypoint at rest where the mean of its half-window after the frame lies within
        // `stillMetres` (horizontally) of the mean of the half-window before it (means, so that the
        // triangulation's jitter of a far, two-view person does not count as motion).
        let resting: [[SIMD3<Double>?]] = foot.map { joint in
          let series = track.positions(joint: joint)
          return series.indices.map { i in
            guard let p = series[i], i >= half, i + half < series.count else { return nil }
            let before = series[(i - half)..<i].compactMap { $0 }, after = series[(i + 1)...(i + half)].compactMap { $0 }
            guard 2 * before.count > half, 2 * after.count > half else { return nil }
            let shift = after.reduce(SIMD3<Double>.zero, +) / Double(after.count) - before.reduce(SIMD3<Double>.zero, +) / Double(before.count)
            return (shift.x * shift.x + shift.y * shift.y).squareRoot() <= options.stillMetres ? p : nil
          }
        }
        // The foot's lowest resting sole keypoint in each frame.
        for i in 0..<track.frameCount {
          if let low = resting.compactMap({ $0[i] }).min(by: { $0.z < $1.z }) { lows.append(low) }
        }
      }
      guard lows.count >= options.minFootFrames else { continue }
      let centre = SIMD3(median(lows.map(\.x)), median(lows.map(\.y)), median(lows.map(\.z)))
      let spread = median(lows.map { abs($0.z - centre.z) })
      contacts.append(FloorContact(track: track.id, position: centre, footFrames: lows.count, heightSpread: spread))
    }
    return contacts
  }

  /// The contacts on one floor: the largest group whose heights agree (within
  /// `options.agreementMetres` or three times a contact's own spread), the lowest group on a tie (a
  /// raised surface stands on the floor, not under it). The groups are those around each contact in
  /// turn (a one-dimensional consensus: Fischler & Bolles, CACM 24(6), 1981).
  public static func floorGroup(_ contacts: [FloorContact], options: FloorContactOptions = .init()) -> [FloorContact] {
    var best: [FloorContact] = []
    for c in contacts {
      let group = contacts.filter { abs($0.position.z - c.position.z) <= max(options.agreementMetres, 3 * max($0.heightSpread, c.heightSpread)) }
      let lower = group.map(\.position.z).reduce(0, +) / Double(group.count) < best.map(\.position.z).reduce(0, +) / Double(max(1, best.count))
      if group.count > best.count || (group.count == best.count && lower) { best = group }
    }
    return best
  }
}
