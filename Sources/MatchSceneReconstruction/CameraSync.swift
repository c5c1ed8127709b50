import Foundation
import MatchSceneCore
import MatchSceneGeometry

/// Settings of `CameraSync`. The defaults suit 25–120 fps table-tennis and people data.
public struct CameraSyncOptions: Sendable, Equatable {
  /// Whole-frame offsets searched, ± frames of each camera against the reference camera.
  public var searchFrames = 60
  /// Truncation of the robust cost, pixels: an epipolar distance beyond it counts as this much (a wrong
  /// pairing or an outlier says nothing about the offset).
  public var truncationPx = 8.0
  /// Keypoints below this confidence are ignored.
  public var minConfidence = 0.3
  /// People are compared every `personFrameStride` reference frames when finding the phase (the ball
  /// at every frame; every frame in clips under 600 frames)…
  public var personFrameStride = 3
  /// … and every `searchPersonFrameStride` frames when searching whole frames (many candidates; fewer
  /// in clips under 3600 frames, every frame under 600).
  public var searchPersonFrameStride = 12
  /// Fewest compared observations for an offset to count.
  public var minPairs = 30
  /// A whole-frame offset is decisive when its cost is below this share of the best offset at least
  /// two frames away from it.
  public var decisiveRatio = 0.7
  /// Blocks of the match for the jackknife uncertainty of the phase.
  public var jackknifeBlocks = 10
  /// Longest stretch of the reference camera's frames looked at, frames (nil: the whole match). A
  /// clock offset is constant over a match, so a window in the middle of a long match decides as well
  /// as the whole of it, at a fraction of the cost (`CameraSync.window`).
  public var maxFrames: Int? = 7200

  public init() {}
}

/// One camera's estimated clock against the reference camera: `cameraFrame = referenceFrame + offset`.
public struct CameraSyncEstimate: Sendable, Equatable, Codable {
  public var camera: String
  public var reference: String
  /// The whole-frame offset (the nearest integer of `offset`).
  public var frames: Int
  /// The sub-frame phase, in [−0.7, 0.7] frames (beyond ±0.5 only when the whole-frame step chose a
  /// neighbour).
  public var phase: Double
  /// `frames + phase`.
  public var offset: Double
  /// Standard deviation of `offset`, frames, by a block jackknife over the match (Efron & Stein 1981).
  public var uncertaintyFrames: Double
  /// Observations compared at the chosen whole-frame offset (ball pairs and person pairs).
  public var pairs: Int
  /// Mean truncated cost at the chosen whole-frame offset, at offset 0, and at the best offset at least
  /// two frames from the chosen one (pixels², truncated at `truncationPx`²).
  public var cost: Double
  public var costAtZero: Double
  public var costRunnerUp: Double
  /// Whether the chosen whole-frame offset clearly beats every other (`decisiveRatio`).
  public var decisive: Bool
}

extension CameraSyncEstimate {
  /// The same estimate seen from the other camera: offset negated, names exchanged.
  func reversed(reference name: String) -> CameraSyncEstimate {
    var e = self
    e.camera = reference
    e.reference = name
    e.offset = -offset
    e.frames = Int(e.offset.rounded())
    e.phase = e.offset - e.offset.rounded()
    return e
  }
}

/// Estimates each camera's time offset from the detections themselves, against a reference camera,
/// in two steps:
///
/// 1. **Whole frames**: for every candidate offset d within ±`searchFrames`, the mean robust epipolar
///    (Sampson) distance between the reference camera's detections at frame f and this camera's at
///    f + d — the ball (one pair per frame) and the people (each reference person paired with the
///    person of this camera that fits it best, median over common keypoints). The right offset makes
///    the moving ball and limbs consistent with the calibrated epipolar geometry; the others do not.
///    The ball decides alone when the two cameras share at least 2 × `minPairs` ball pairs at some
///    offset. This is the search over candidate offsets of Sinha & Pollefeys, "Camera network calibration and
///    synchronization from silhouettes in archived video", IJCV 87(3), 2010, with the ball and
///    keypoints as the correspondences.
/// 2. **Sub-frame phase**: this camera's detections are interpolated linearly in time between its
///    frames (the constant-velocity model of Albl et al., "On the two-view geometry of
///    unsynchronized cameras", CVPR 2017), the same cost is evaluated on a 0.05-frame grid around d, then
///    on a 0.005-frame grid around its best, and a parabola
///    through the three best grid points gives the phase; a block jackknife over the match gives its
///    uncertainty.
///
/// The calibration must be roughly right (a few pixels): the cost is epipolar.
public struct CameraSync: Sendable {
  public var options: CameraSyncOptions

  public init(options: CameraSyncOptions = .init()) { self.options = options }

  /// One camera's detections, undistorted to normalised image coordinates (z = 1 plane).
  struct View {
    var balls: [Int: [SIMD2<Double>]] = [:]
    var people: [Int: [[SIMD2<Double>?]]] = [:]
    var frames: ClosedRange<Int>?
  }

  /// Estimates every camera's offset against `match.cameras[reference]`, in the cameras' own frame
  /// numbers (ignoring `match.frameOffsets`). Every pair of cameras is compared (two cameras facing each
  /// other see the ball move along their epipolar lines and may not decide alone); the decisive pairs'
  /// offsets oᵢⱼ = τⱼ − τᵢ are then combined by weighted least squares (weights 1/σᵢⱼ², the reference's
  /// τ = 0), which also gives each offset's standard deviation. A camera linked to the reference by no
  /// chain of decisive pairs gets its direct estimate, marked not decisive. Cameras without detections
  /// are left out.
  /// - Throws: `GeometryError` when a camera's lens model cannot be inverted.
  public func estimate(_ match: Match, reference: Int = 0) throws -> [CameraSyncEstimate] {
    guard match.cameras.indices.contains(reference) else { return [] }
    let match = window(match, reference: reference)
    let views = try match.cameras.map { try view(match, camera: $0) }
    guard views[reference] != nil else { return [] }
    let present = match.cameras.indices.filter { views[$0] != nil }
    var pairs: [(i: Int, j: Int, e: CameraSyncEstimate)] = []
    for a in present.indices {
      for b in present.indices where b > a {
        let i = present[a], j = present[b]
        let pair = EpipolarPair(reference: match.cameras[i], other: match.cameras[j])
        if let e = estimate(pair: pair, reference: views[i]!, other: views[j]!, names: (match.cameras[i].name, match.cameras[j].name)) {
          pairs.append((i, j, e))
        }
      }
    }
    // Cameras linked to the reference by decisive pairs.
    let decisive = pairs.filter(\.e.decisive)
    var linked: Set<Int> = [reference]
    var grew = true
    while grew {
      grew = false
      for p in decisive where linked.contains(p.i) != linked.contains(p.j) {
        linked.insert(p.i)
        linked.insert(p.j)
        grew = true
      }
    }
    let unknowns = present.filter { $0 != reference && linked.contains($0) }
    let solved = Self.leastSquares(
      unknowns: unknowns, reference: reference,
      pairs: decisive.filter { linked.contains($0.i) }.map { ($0.i, $0.j, $0.e.offset, max($0.e.uncertaintyFrames, 0.01)) })
    var out: [CameraSyncEstimate] = []
    for c in present where c != reference {
      let direct = pairs.first { $0.i == reference && $0.j == c || $0.i == c && $0.j == reference }
      let involved = pairs.filter { $0.i == c || $0.j == c }
      guard var e = direct.map({ $0.i == reference ? $0.e : $0.e.reversed(reference: match.cameras[reference].name) })
        ?? involved.first?.e
      else { continue }
      e.camera = match.cameras[c].name
      e.reference = match.cameras[reference].name
      if let (offset, sigma) = solved[c] {
        e.offset = offset
        e.frames = Int(offset.rounded())
        e.phase = offset - offset.rounded()
        e.uncertaintyFrames = sigma
        e.pairs = involved.reduce(0) { $0 + $1.e.pairs }
        e.decisive = true
      } else {
        e.decisive = false
      }
      out.append(e)
    }
    return out
  }

  /// Weighted least squares for τ (τ_reference = 0) from pair offsets τⱼ − τᵢ = o with standard
  /// deviation σ: the normal equations solved by Gaussian elimination; each τ's standard deviation is
  /// the square root of the inverse normal matrix's diagonal.
  static func leastSquares(
    unknowns: [Int], reference: Int, pairs: [(Int, Int, Double, Double)]
  ) -> [Int: (Double, Double)] {
    let n = unknowns.count
    guard n > 0 else { return [:] }
    let index = Dictionary(uniqueKeysWithValues: unknowns.enumerated().map { ($0.element, $0.offset) })
    var a = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
    var b = [Double](repeating: 0, count: n)
    for (i, j, o, sigma) in pairs {
      let w = 1 / (sigma * sigma)
      let ii = index[i], jj = index[j]
      // Row: τj − τi = o.
      if let jj { a[jj][jj] += w; b[jj] += w * o }
      if let ii { a[ii][ii] += w; b[ii] -= w * o }
      if let ii, let jj { a[ii][jj] -= w; a[jj][ii] -= w }
    }
    // Invert a (symmetric positive definite when every unknown is linked) by Gauss–Jordan.
    var inv = (0..<n).map { r in (0..<n).map { $0 == r ? 1.0 : 0.0 } }
    for col in 0..<n {
      guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12 else {
        return [:]
      }
      a.swapAt(col, pivot)
      inv.swapAt(col, pivot)
      let p = a[col][col]
      for k in 0..<n {
        a[col][k] /= p
        inv[col][k] /= p
      }
      for r in 0..<n where r != col {
        let f = a[r][col]
        guard f != 0 else { continue }
        for k in 0..<n {
          a[r][k] -= f * a[col][k]
          inv[r][k] -= f * inv[col][k]
        }
      }
    }
    var out: [Int: (Double, Double)] = [:]
    for (camera, k) in index {
      var tau = 0.0
      for m in 0..<n { tau += inv[k][m] * b[m] }
      out[camera] = (tau, max(inv[k][k], 0).squareRoot())
    }
    return out
  }

  func estimate(
    pair: EpipolarPair, reference: View, other: View, names: (String, String)
  ) -> CameraSyncEstimate? {
    guard let refFrames = reference.frames else { return nil }
    let cap = options.truncationPx * options.truncationPx
    // Short clips compare people at more frames (every frame below 300 frames), long matches fewer.
    let searchStride = max(1, min(options.searchPersonFrameStride, refFrames.count / 300))
    let phaseStride = max(1, min(options.personFrameStride, refFrames.count / 300))
    // Step 1: whole frames. The ball, when the cameras share enough of it, decides alone: it moves tens
    // of pixels a frame and the people a few, so people's pairs would only dilute its evidence.
    var ballCosts: [Int: (sum: Double, count: Int)] = [:], peopleCosts: [Int: (sum: Double, count: Int)] = [:]
    for d in -options.searchFrames...options.searchFrames {
      var ballSum = 0.0, ballCount = 0, peopleSum = 0.0, peopleCount = 0
      for f in refFrames {
        if let a = reference.balls[f], let b = other.balls[f + d], let e = pair.bestDistance(a, b) {
          ballSum += min(e * e, cap)
          ballCount += 1
        }
        guard f % searchStride == 0, let ps = reference.people[f], let qs = other.people[f + d] else {
          continue
        }
        for p in ps {
          guard let e = qs.compactMap({ pair.personDistance(p, $0) }).min() else { continue }
          peopleSum += min(e * e, cap)
          peopleCount += 1
        }
      }
      ballCosts[d] = (ballSum, ballCount)
      peopleCosts[d] = (peopleSum, peopleCount)
    }
    let useBall = ballCosts.values.contains { $0.count >= 2 * options.minPairs }
    var costs: [Int: (cost: Double, count: Int)] = [:]
    for (d, c) in useBall ? ballCosts : peopleCosts where c.count >= options.minPairs {
      costs[d] = (c.sum / Double(c.count), c.count)
    }
    guard let best = costs.min(by: { $0.value.cost < $1.value.cost || $0.value.cost == $1.value.cost && abs($0.key) < abs($1.key) })
    else { return nil }
    let runnerUp = costs.filter { abs($0.key - best.key) >= 2 }.map(\.value.cost).min() ?? cap
    let decisive = best.value.cost < options.decisiveRatio * runnerUp

    // Step 2: the phase, on a 0.05-frame grid around the whole-frame offset, then on a 0.005-frame grid
    // around that (the ball, or the people when the ball is not shared enough, as in step 1).
    let blocks = max(1, options.jackknifeBlocks)
    func scan(_ grid: [Double], people usePeople: Bool) -> (sums: [[Double]], counts: [[Int]]) {
      var sums = [[Double]](repeating: [Double](repeating: 0, count: grid.count), count: blocks)
      var counts = [[Int]](repeating: [Int](repeating: 0, count: grid.count), count: blocks)
      let span = Double(refFrames.count)
      for f in refFrames {
        let block = min(blocks - 1, Int(Double(f - refFrames.lowerBound) / span * Double(blocks)))
        let people = usePeople && f % phaseStride == 0 ? reference.people[f] : nil
        let ball = reference.balls[f]
        if people == nil && ball == nil { continue }
        for (g, phase) in grid.enumerated() {
          let t = Double(f + best.key) + phase
          let k0 = Int(t.rounded(.down)), u = t - Double(k0)
          if let a = ball, let b = Interpolation.balls(other.balls[k0], other.balls[k0 + 1], u),
            let e = pair.bestDistance(a, b)
          {
            sums[block][g] += min(e * e, cap)
            counts[block][g] += 1
          }
          guard let ps = people, let qs = Interpolation.people(other.people[k0], other.people[k0 + 1], u) else {
            continue
          }
          for p in ps {
            guard let e = qs.compactMap({ pair.personDistance(p, $0) }).min() else { continue }
            sums[block][g] += min(e * e, cap)
            counts[block][g] += 1
          }
        }
      }
      return (sums, counts)
    }
    /// The phase minimising the mean cost over the blocks but `left`: the best grid point moved to the
    /// vertex of the parabola through it and its neighbours.
    func fit(_ grid: [Double], _ scanned: (sums: [[Double]], counts: [[Int]]), leaving left: Int?) -> Double? {
      var total = [Double](repeating: 0, count: grid.count), n = [Int](repeating: 0, count: grid.count)
      for b in 0..<blocks where b != left {
        for g in grid.indices {
          total[g] += scanned.sums[b][g]
          n[g] += scanned.counts[b][g]
        }
      }
      let mean = grid.indices.map { n[$0] >= options.minPairs / 2 ? total[$0] / Double(n[$0]) : Double.infinity }
      guard let g = mean.indices.min(by: { mean[$0] < mean[$1] }), mean[g].isFinite else { return nil }
      guard g > 0, g < grid.count - 1, mean[g - 1].isFinite, mean[g + 1].isFinite else { return grid[g] }
      let curvature = mean[g - 1] - 2 * mean[g] + mean[g + 1]
      let shift = curvature > 0 ? 0.5 * (mean[g - 1] - mean[g + 1]) / curvature : 0
      return grid[g] + (grid[g + 1] - grid[g]) * max(-0.5, min(0.5, shift))
    }
    let coarse = (-14...14).map { Double($0) * 0.05 }
    guard let rough = fit(coarse, scan(coarse, people: !useBall), leaving: nil) else { return nil }
    let fine = (-12...12).map { rough + Double($0) * 0.005 }
    let scanned = scan(fine, people: !useBall)
    guard let phase = fit(fine, scanned, leaving: nil) else { return nil }
    let leaveOut = (0..<blocks).compactMap { fit(fine, scanned, leaving: $0) }
    var sigma = 0.5
    if leaveOut.count >= 2 {
      let n = Double(leaveOut.count)
      let mean: Double = leaveOut.reduce(0, +) / n
      var ss = 0.0
      for x in leaveOut { ss += (x - mean) * (x - mean) }
      sigma = ((n - 1) / n * ss).squareRoot()
    }
    // The scan's resolution bounds what the jackknife can say; a phase at the scan's edge is not
    // bracketed by a minimum (the leave-one-out fits all land on the same edge), so it is not known.
    sigma = max(sigma, 0.01)
    if phase <= fine[0] + 1e-12 || phase >= fine[fine.count - 1] - 1e-12 { sigma = max(sigma, 0.5) }
    let offset = Double(best.key) + phase
    return CameraSyncEstimate(
      camera: names.1, reference: names.0, frames: Int(offset.rounded()), phase: offset - offset.rounded(),
      offset: offset, uncertaintyFrames: sigma, pairs: best.value.count, cost: best.value.cost,
      costAtZero: costs[0]?.cost ?? cap, costRunnerUp: runnerUp, decisive: decisive)
  }

  /// `camera`'s detections in normalised coordinates; nil when it has none.
  func view(_ match: Match, camera: Camera) throws -> View? {
    guard let detections = match.detections[camera.name] else { return nil }
    var pixels: [SIMD2<Double>] = []
    for frame in detections.balls.keys.sorted() {
      for b in detections.balls[frame]! where b.x.isFinite && b.y.isFinite { pixels.append(SIMD2(b.x, b.y)) }
    }
    let peopleFrames = detections.people.keys.sorted()
    for frame in peopleFrames {
      for person in detections.people[frame]! {
        for k in person.keypoints where k.isDetected && k.confidence >= options.minConfidence {
          pixels.append(SIMD2(k.x, k.y))
        }
      }
    }
    let normalised = try camera.undistort(pixels)
    var next = 0
    var view = View()
    for frame in detections.balls.keys.sorted() {
      var list: [SIMD2<Double>] = []
      for b in detections.balls[frame]! where b.x.isFinite && b.y.isFinite {
        if let n = normalised[next] { list.append(n) }
        next += 1
      }
      if !list.isEmpty { view.balls[frame] = list }
    }
    for frame in peopleFrames {
      var list: [[SIMD2<Double>?]] = []
      for person in detections.people[frame]! {
        list.append(person.keypoints.map { k -> SIMD2<Double>? in
          guard k.isDetected && k.confidence >= options.minConfidence else { return nil }
          defer { next += 1 }
          return normalised[next]
        })
      }
      if !list.isEmpty { view.people[frame] = list }
    }
    let frames = Array(view.balls.keys) + Array(view.people.keys)
    guard let lo = frames.min(), let hi = frames.max() else { return nil }
    view.frames = lo...hi
    return view
  }
}

/// The epipolar geometry of two calibrated cameras in normalised coordinates: x̂_otherᵀ E x̂_reference = 0
/// with E = [t]× R, R = R_other R_referenceᵀ and t = t_other − R t_reference (camFromWorld of each:
/// x_cam = R x_world + t). Distances are Sampson's first-order geometric error (Hartley & Zisserman,
/// "Multiple View Geometry", 2nd ed., §11.4.3), scaled to pixels by the mean focal length.
struct EpipolarPair: Sendable {
  /// Rows of E.
  let e0, e1, e2: SIMD3<Double>
  let focal: Double

  init(reference: Camera, other: Camera) {
    let rr = reference.camFromWorld.rotation, ro = other.camFromWorld.rotation
    let r = ro * rr.transposed
    let t = other.camFromWorld.translation - r * reference.camFromWorld.translation
    // [t]× R, row by row.
    let tx = Matrix3(rowMajor: [0, -t.z, t.y, t.z, 0, -t.x, -t.y, t.x, 0])
    let e = tx * r
    e0 = SIMD3(e[0, 0], e[0, 1], e[0, 2])
    e1 = SIMD3(e[1, 0], e[1, 1], e[1, 2])
    e2 = SIMD3(e[2, 0], e[2, 1], e[2, 2])
    focal = 0.25 * (reference.fx + reference.fy + other.fx + other.fy)
  }

  /// Sampson distance, pixels, of reference point `a` and other point `b` (normalised coordinates).
  @inline(__always)
  func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let xa = SIMD3(a.x, a.y, 1), xb = SIMD3(b.x, b.y, 1)
    let ea = SIMD3((e0 * xa).sum(), (e1 * xa).sum(), (e2 * xa).sum())
    let etb = xb.x * e0 + xb.y * e1 + e2
    let num = (xb * ea).sum()
    let den = ea.x * ea.x + ea.y * ea.y + etb.x * etb.x + etb.y * etb.y
    guard den > 0 else { return .infinity }
    return abs(num) / den.squareRoot() * focal
  }

  /// The smallest distance over every pairing of candidates.
  func bestDistance(_ a: [SIMD2<Double>], _ b: [SIMD2<Double>]) -> Double? {
    var best = Double.infinity
    for p in a { for q in b { best = min(best, distance(p, q)) } }
    return best.isFinite ? best : nil
  }

  /// Median distance over the keypoints both people have (at least 4), or nil.
  func personDistance(_ p: [SIMD2<Double>?], _ q: [SIMD2<Double>?]) -> Double? {
    var d: [Double] = []
    d.reserveCapacity(p.count)
    for k in 0..<min(p.count, q.count) {
      if let a = p[k], let b = q[k] { d.append(distance(a, b)) }
    }
    guard d.count >= 4 else { return nil }
    return median(d)
  }
}

/// Linear interpolation of one camera's detections between two consecutive frames, at `u` ∈ [0, 1)
/// of the way: each candidate (ball or person) of the first frame is paired with the nearest of the
/// second within a gate, and only paired ones are interpolated.
enum Interpolation {
  /// Gate for the ball, normalised units (about 140 px at 1400 px focal length).
  static let ballGate = 0.1
  /// Gate for a person's mean keypoint distance, normalised units (about 70 px).
  static let personGate = 0.05

  static func balls(_ a: [SIMD2<Double>]?, _ b: [SIMD2<Double>]?, _ u: Double) -> [SIMD2<Double>]? {
    guard let a, let b else { return nil }
    var out: [SIMD2<Double>] = []
    for p in a {
      guard let q = b.min(by: { dist($0, p) < dist($1, p) }), dist(q, p) <= ballGate else { continue }
      out.append(p + u * (q - p))
    }
    return out.isEmpty ? nil : out
  }

  static func people(_ a: [[SIMD2<Double>?]]?, _ b: [[SIMD2<Double>?]]?, _ u: Double) -> [[SIMD2<Double>?]]? {
    guard let a, let b else { return nil }
    var out: [[SIMD2<Double>?]] = []
    for p in a {
      var best: (Double, [SIMD2<Double>?])?
      for q in b {
        guard let d = meanDistance(p, q), d <= personGate, d < (best?.0 ?? .infinity) else { continue }
        best = (d, q)
      }
      guard let q = best?.1 else { continue }
      out.append(zip(p, q).map { x, y in
        guard let x, let y else { return nil }
        return x + u * (y - x)
      })
    }
    return out.isEmpty ? nil : out
  }

  static func meanDistance(_ p: [SIMD2<Double>?], _ q: [SIMD2<Double>?]) -> Double? {
    var sum = 0.0, n = 0
    for (x, y) in zip(p, q) {
      if let x, let y {
        sum += dist(x, y)
        n += 1
      }
    }
    return n >= 3 ? sum / Double(n) : nil
  }

  @inline(__always)
  static func dist(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let d = a - b
    return (d * d).sum().squareRoot()
  }
}
