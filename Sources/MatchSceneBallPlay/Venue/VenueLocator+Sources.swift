#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import MatchSceneCore

extension VenueLocator {
  /// The long axis from where the players stand: the line between the two players' mean positions
  /// in the levelled plane (players stand beyond the table's two ends). Positions are averaged over
  /// blocks of `options.playerBlockSeconds` (a player's position is correlated from frame to frame);
  /// each player's mean is uncertain by its blocks' spread across the line over √blocks, plus
  /// `options.playerStanceSigma` for a stance that favours one side (a backhand corner), so
  ///
  ///     σ_heading = √(σ₁² + σ₂² + 2 s²) / distance.
  ///
  /// The players are the two most seen people who stay within 1.5 m (RMS) of their mean, beyond the
  /// two ends of the table the bounces show (a bystander walking around is not one).
  /// - Parameters:
  ///   - people: each person's position by frame, levelled (z up).
  ///   - near: the bounces' table; a line more than 20° from its heading is not the players' ends.
  /// - Returns: nil without two such people, each seen over at least three blocks.
  func playersClue(_ people: [[Int: SIMD3<Double>]], fps: Double, near table: TableOutlineFit.Result) -> VenueFusion.Clue? {
    let blockFrames = max(1, Int((options.playerBlockSeconds * fps).rounded()))
    let axis = SIMD2(cos(table.heading), sin(table.heading))
    let candidates: [(blocks: [SIMD2<Double>], mean: SIMD2<Double>, along: Double)] = people.compactMap { positions in
      var sums: [Int: (sum: SIMD2<Double>, count: Int)] = [:]
      for (frame, p) in positions {
        let key = Int((Double(frame) / Double(blockFrames)).rounded(.down))
        let old = sums[key] ?? (.zero, 0)
        sums[key] = (old.sum + SIMD2(p.x, p.y), old.count + 1)
      }
      let blocks = sums.keys.sorted().compactMap { k in sums[k].flatMap { $0.count * 2 >= blockFrames ? $0.sum / Double($0.count) : nil } }
      guard blocks.count >= 3 else { return nil }
      let mean = blocks.reduce(SIMD2<Double>.zero, +) / Double(blocks.count)
      let spread = (blocks.map { (($0 - mean) * ($0 - mean)).sum() }.reduce(0, +) / Double(blocks.count)).squareRoot()
      let along = ((mean - table.centre) * axis).sum()
      return spread <= 1.5 && abs(along) > self.table.length / 2 ? (blocks, mean, along) : nil
    }.sorted { $0.blocks.count > $1.blocks.count }
    guard let first = candidates.first, let second = candidates.first(where: { $0.along * first.along < 0 }) else { return nil }
    let d = second.mean - first.mean
    let distance = (d * d).sum().squareRoot()
    let lineHeading = VenueFusion.halfTurn(atan2(d.y, d.x))
    guard abs(VenueFusion.halfTurn(lineHeading - table.heading)) <= 20 * Double.pi / 180 else { return nil }
    let normal = SIMD2(-d.y, d.x) / distance
    let variances = [first, second].map { player in
      let across = player.blocks.map { (($0 - player.mean) * normal).sum() }
      return Self.standardDeviation(across) * Self.standardDeviation(across) / Double(player.blocks.count)
    }
    let stance = options.playerStanceSigma
    let sigma = (variances.reduce(0, +) + 2 * stance * stance).squareRoot() / distance
    return VenueFusion.Clue(source: "players", heading: (lineHeading, sigma))
  }

  /// An outside source in the levelled frame.
  func clue(_ evidence: VenueEvidence, levelling: Matrix3) -> VenueFusion.Clue {
    let centre = levelling * evidence.tableCentre, axis = levelling * evidence.longAxis
    return VenueFusion.Clue(
      source: evidence.name, heading: (VenueFusion.halfTurn(atan2(axis.y, axis.x)), evidence.headingSigma * Double.pi / 180),
      centre: (SIMD2(centre.x, centre.y), evidence.alongSigma, evidence.acrossSigma), height: (centre.z, evidence.heightSigma))
  }
}
