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
  /// - Parameters:
  ///   - players: each player's position by frame, levelled (z up).
  ///   - near: the bounces' heading; a line more than 20° from it is not the players' ends.
  /// - Returns: nil without two players on opposite ends, with fewer than three blocks each.
  func playersClue(_ players: [[Int: SIMD3<Double>]], fps: Double, near heading: Double) -> VenueFusion.Clue? {
    let blockFrames = max(1, Int((options.playerBlockSeconds * fps).rounded()))
    let means: [[SIMD2<Double>]] = players.map { positions in
      var blocks: [Int: (sum: SIMD2<Double>, count: Int)] = [:]
      for (frame, p) in positions {
        let key = Int((Double(frame) / Double(blockFrames)).rounded(.down))
        let old = blocks[key] ?? (.zero, 0)
        blocks[key] = (old.sum + SIMD2(p.x, p.y), old.count + 1)
      }
      return blocks.keys.sorted().compactMap { k in
        blocks[k].flatMap { $0.count * 2 >= blockFrames ? $0.sum / Double($0.count) : nil }
      }
    }.filter { $0.count >= 3 }
    guard means.count >= 2 else { return nil }
    // The two most seen players.
    let two = means.sorted { $0.count > $1.count }.prefix(2).map { $0 }
    let centres = two.map { $0.reduce(SIMD2<Double>.zero, +) / Double($0.count) }
    let d = centres[1] - centres[0]
    let distance = (d * d).sum().squareRoot()
    guard distance > table.length else { return nil }
    let lineHeading = VenueFusion.halfTurn(atan2(d.y, d.x))
    guard abs(VenueFusion.halfTurn(lineHeading - heading)) <= 20 * Double.pi / 180 else { return nil }
    let normal = SIMD2(-d.y, d.x) / distance
    let variances = zip(two, centres).map { blocks, centre in
      let across = blocks.map { (($0 - centre) * normal).sum() }
      return Self.standardDeviation(across) * Self.standardDeviation(across) / Double(blocks.count)
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
