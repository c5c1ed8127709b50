import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneGeometry

/// The contact between two flights in continuous time, under unsynchronised cameras.
///
/// `refit(_:span:ends:)` fits each flight on the detections inside the frames its fit kept; the
/// instants between one flight's last kept frame and the next flight's first lie on an unknown side
/// of the contact (a bounce or a hit) and are used by neither. Here the contact's instant is a
/// continuous parameter shared by the two flights that meet there: every camera instant between the
/// two spans is assigned to the flight on its side of the contact, each flight is fitted to the
/// detections on its side, and the contact is placed again — alternating, like the assignment and
/// refitting steps of fitting a piecewise (switching) trajectory model with an unknown change point
/// (Hinkley, *Biometrika* 1970, the maximum-likelihood change point of a two-phase regression; Bai &
/// Perron, *Econometrica* 1998, for the least-squares estimate of the break date), with each phase a
/// ballistic flight fitted at the cameras' own instants (`AsynchronousFlightFit`).
///
/// The contact instant minimises, over the instants between the spans, the truncated squared
/// reprojection distance of each camera's detection to the flight on its side (a detection neither
/// flight explains costs `gatePx`²): the data decide between which two detections it falls. Inside
/// that interval, where no detection tells the sides apart, it is placed where the two flights come
/// closest. The ball is continuous at a contact: both flights share the contact point, so each flight
/// is refitted through the point where its neighbour (as the last round left it) stands at their
/// contact, projected into every camera as one more detection at the contact's instant. A short flight
/// between two contacts (a bounce 2–6 frames before a hit) is then held at both ends by its longer
/// neighbours, as a chain of flights joined at shared points would be (the same holds for a flight
/// split where there was no contact: both halves pass through one point).
extension AsynchronousFlightFit {
  /// Two flights whose frames are at most this many frames apart meet at a contact.
  static let maxContactGap = 2
  /// Rounds of placing the contacts and refitting the flights.
  static let contactRounds = 3

  /// One flight to refit: the flight as segmented, the frames of the observations its fit kept (nil:
  /// none) and the end frames `BallFlightEnds` trimmed.
  public typealias Piece = (flight: BallFlight, span: ClosedRange<Int>?, ends: Set<Int>)

  /// Every flight of `pieces` (in any order) refitted at the cameras' own instants, with the contact
  /// between each two adjacent refitted flights fitted in continuous time: a flight's evidence then
  /// runs from the contact before it to the contact after it, and its frames (the match instants it
  /// reports) from the first frame after the contact before it to the last frame not after the
  /// contact after it. Returned in the order given, each with the frames still to be reported as
  /// observed: its trimmed end frames, and any frame it gained across a contact, that the detections
  /// between its span and the frame do not support (`stillObserved`). A flight whose refit is refused
  /// comes back as `refit(_:span:ends:)` would return it, and takes part in no contact.
  public func refit(_ pieces: [Piece]) -> [(flight: BallFlight, ends: Set<Int>)] {
    var out = pieces.map { (flight: $0.flight, ends: $0.ends) }
    let order = pieces.indices.filter { pieces[$0].span != nil }.sorted {
      pieces[$0].flight.frames.lowerBound < pieces[$1].flight.frames.lowerBound
    }
    // The flights as refitted on their own spans; nil when refused.
    var fits: [Int: (flight: BallFlight, scale: Double)] = [:]
    for i in order { fits[i] = fitted(pieces[i].flight, span: pieces[i].span!) }
    // The pairs that meet at a contact: adjacent in time, both refitted, the spans in order.
    var pairs: [(a: Int, b: Int)] = []
    for (a, b) in zip(order, order.dropFirst()) where fits[a] != nil && fits[b] != nil {
      let fa = pieces[a].flight.frames, fb = pieces[b].flight.frames
      guard fb.lowerBound - fa.upperBound <= Self.maxContactGap, fb.lowerBound > fa.lowerBound,
        pieces[a].span!.upperBound < pieces[b].span!.lowerBound
      else { continue }
      pairs.append((a, b))
    }
    var contact: [Int: Double] = [:]  // keyed by the pair's first flight
    for _ in 0..<Self.contactRounds where !pairs.isEmpty {
      for (a, b) in pairs {
        contact[a] = contactInstant(fits[a]!.flight, fits[b]!.flight, between: pieces[a].span!.upperBound, pieces[b].span!.lowerBound)
      }
      // Each flight refitted on the instants between its contacts, through the points where its
      // neighbours (as the last round left them) meet it.
      var before: [Int: (t: Double, other: Int)] = [:]
      for (a, b) in pairs { before[b] = (contact[a]!, a) }
      var next = fits
      for i in Set(pairs.flatMap { [$0.a, $0.b] }).sorted() {
        let span = pieces[i].span!
        var pins: [(instant: Double, point: SIMD3<Double>)] = []
        if let (t, a) = before[i] { pins.append((t, fits[a]!.flight.position(at: t / fps))) }
        if let t = contact[i], let (_, b) = pairs.first(where: { $0.a == i }) { pins.append((t, fits[b]!.flight.position(at: t / fps))) }
        let lo = before[i].map { $0.t.nextUp } ?? Double(span.lowerBound)
        let hi = contact[i] ?? Double(span.upperBound)
        if let fit = fitted(pieces[i].flight, span: span, window: lo...hi, from: fits[i]!.flight, pins: pins) { next[i] = fit }
      }
      fits = next
    }
    for i in order {
      guard let fit = fits[i] else { continue }
      var flight = fit.flight, ends = pieces[i].ends
      let frames = pieces[i].flight.frames
      var lo = frames.lowerBound, hi = frames.upperBound
      if let (a, _) = pairs.first(where: { $0.b == i }), let t = contact[a] {
        lo = Int(t.rounded(.down)) + 1
        ends.formUnion(pieces[a].ends)
      }
      if let (_, b) = pairs.first(where: { $0.a == i }), let t = contact[i] {
        hi = Int(t.rounded(.down))
        ends.formUnion(pieces[b].ends)
      }
      if lo > hi { continue }
      // Frames gained across a contact are checked like trimmed ends.
      ends.formUnion((lo...hi).filter { !frames.contains($0) })
      let span = pieces[i].span!
      flight.frames = lo...hi
      ends = ends.filter { (lo...hi).contains($0) && !span.contains($0) }
      out[i] = (flight, stillObserved(ends, on: flight, span: span, scale: fit.scale))
    }
    return out
  }

  /// The instant (match frames) of the contact between flight `a` and the flight `b` after it, within
  /// `first...last` (the last frame `a`'s fit kept and the first `b`'s did): between the two camera
  /// instants where the split of the detections between the flights costs least (truncated squared
  /// reprojection distance, `gatePx`), where the flights come closest.
  func contactInstant(_ a: BallFlight, _ b: BallFlight, between first: Int, _ last: Int) -> Double {
    let lo = Double(first), hi = Double(last)
    // (instant, cost on a, cost on b) of every camera's detection between the spans.
    var marks: [(t: Double, a: Double, b: Double)] = []
    let cap = gatePx * gatePx
    func cost(_ flight: BallFlight, _ view: View, _ k: Int) -> Double {
      guard let predicted = view.camera.project(worldFromVenue.apply(flight.position(at: view.instants[k] / fps))),
        let miss = view.candidates[k].map({ norm($0 - predicted) }).min()
      else { return cap }
      return min(miss * miss, cap)
    }
    for view in views {
      var k = lowerBound(view.instants, lo.nextUp)
      while k < view.instants.count, view.instants[k] < hi {
        marks.append((view.instants[k], cost(a, view, k), cost(b, view, k)))
        k += 1
      }
    }
    marks.sort { $0.t < $1.t }
    // Split s puts marks[..<s] on a and marks[s...] on b.
    var onB = marks.reduce(0) { $0 + $1.b }, onA = 0.0
    var best = onB, bestSplits = [0]
    for (s, m) in marks.enumerated() {
      onA += m.a
      onB -= m.b
      let total = onA + onB
      if total < best - 1e-9 { best = total; bestSplits = [s + 1] } else if abs(total - best) <= 1e-9 { bestSplits.append(s + 1) }
    }
    // Inside the equally good intervals, the instant where the flights come closest.
    var choice = lo, closest = Double.infinity
    for s in bestSplits {
      let from = s == 0 ? lo : marks[s - 1].t, to = s == marks.count ? hi : marks[s].t
      let (t, gap) = closestApproach(a, b, from...to)
      if gap < closest { closest = gap; choice = t }
    }
    return choice
  }

  /// The instant (match frames) in `window` where flights `a` and `b` come closest, and their distance
  /// then (metres): a grid of at most 0.02 frame.
  func closestApproach(_ a: BallFlight, _ b: BallFlight, _ window: ClosedRange<Double>) -> (instant: Double, gap: Double) {
    let steps = max(1, Int(((window.upperBound - window.lowerBound) / 0.02).rounded(.up)))
    var best = window.lowerBound, gap = Double.infinity
    for k in 0...steps {
      let t = window.lowerBound + (window.upperBound - window.lowerBound) * Double(k) / Double(steps)
      let d = length(a.position(at: t / fps) - b.position(at: t / fps))
      if d < gap { gap = d; best = t }
    }
    return (best, gap)
  }
}
