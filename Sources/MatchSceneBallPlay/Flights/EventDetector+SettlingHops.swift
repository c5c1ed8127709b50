import MatchSceneCore

extension EventDetector {
  /// `events` with their bounces checked against the hop chains of the ball's low stretches
  /// (`SettlingHops`): inside a stretch, on its surface, a bounce stays when the chain has a bounce
  /// (a contact with a hop of at least `minimumHop` after it, or one whose hop it cannot measure)
  /// within `agreement` frames; else it is dropped — the ball settled, lay, rolled or was held there,
  /// and the flights' contact was the noise (not
  /// within `agreement` frames of the stretch's ends, where the chain sees only part of a hop); a
  /// chain bounce no event is near is added. Other events are kept as they are.
  /// - Parameters:
  ///   - ball: the observed ball positions by frame.
  ///   - agreement: frames within which a flight's bounce and a chain's contact are one contact.
  func checkedAgainstHops(
    _ events: [MatchEvent], stretches: [SettlingHops.Stretch], ball: [Int: SIMD3<Double>], fps: Double, agreement: Int = 3
  ) -> [MatchEvent] {
    guard !stretches.isEmpty else { return events }
    var out: [MatchEvent] = []
    func stretch(of e: MatchEvent) -> SettlingHops.Stretch? {
      stretches.first { $0.frames.contains(e.frame) && $0.contacts.first?.surface ?? e.surface == e.surface }
    }
    func isBounce(_ c: SettlingHops.Contact) -> Bool { c.descended && (c.hopAfter ?? 0) >= options.minimumHop }
    for e in events {
      // Near a stretch's ends the chain sees only part of the hop: the ball came from, or left for,
      // above the stretch.
      guard e.type == .bounce, let s = stretch(of: e), e.frame - s.frames.lowerBound > agreement,
        s.frames.upperBound - e.frame > agreement
      else {
        out.append(e)
        continue
      }
      // The chain explains the ball here: a flight's bounce stays where it has a bounce, or a contact
      // whose hop after it is not measured (the ball carried, or seen rising too briefly).
      let near = s.contacts.filter { abs($0.time - e.time) * fps <= Double(agreement) }
      guard near.contains(where: { isBounce($0) || $0.hopAfter == nil }) else { continue }
      out.append(e)
    }
    let checked = out.count
    for s in stretches {
      for c in s.contacts where isBounce(c) {
        let frame = Int((c.time * fps).rounded())
        guard !events.contains(where: { $0.type == .bounce && abs($0.frame - frame) <= agreement }) else { continue }
        let up = (2 * 9.81 * c.hopAfter!).squareRoot()
        var horizontal = 0.0
        if let a = ball[frame - 3] ?? ball[frame - 2], let b = ball[frame + 3] ?? ball[frame + 2] {
          horizontal = length(SIMD3(b.x - a.x, b.y - a.y, 0)) / (Double(ballFrameSpan(frame, ball)) / fps)
        }
        let onTable = c.surface == .table
        out.append(
          MatchEvent(type: .bounce, frame: frame, time: c.time, position: c.position,
                     speed: (up * up + horizontal * horizontal).squareRoot(), surface: c.surface,
                     side: onTable ? TableSide(x: c.position.x) : nil))
      }
    }
    guard out.count > checked else { return out }
    return out.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
  }

  /// The frames between the observations `checkedAgainstHops` takes the horizontal speed from.
  private func ballFrameSpan(_ frame: Int, _ ball: [Int: SIMD3<Double>]) -> Int {
    let a = ball[frame - 3] != nil ? frame - 3 : frame - 2
    let b = ball[frame + 3] != nil ? frame + 3 : frame + 2
    return b - a
  }
}
