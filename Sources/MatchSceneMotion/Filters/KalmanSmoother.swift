/// Kalman filter with a Rauch–Tung–Striebel backward pass (Kalman, J. Basic Eng. 1960; Rauch, Tung &
/// Striebel, AIAA J. 3(8), 1965) on a constant-acceleration model of one coordinate. Zero lag, and it
/// bridges missing samples by the model.
public struct KalmanSmoother: Sendable {
  /// Standard deviation of the measurement noise (units of the signal).
  public var measurementSigma: Double
  /// Spectral density of the jerk driving the model (units/s³)² · s: larger follows faster motion.
  public var jerkDensity: Double

  public init(measurementSigma: Double = 0.01, jerkDensity: Double = 200) {
    self.measurementSigma = measurementSigma
    self.jerkDensity = jerkDensity
  }

  typealias Vec = SIMD3<Double>
  typealias Mat = (Vec, Vec, Vec)  // rows

  static func mul(_ a: Mat, _ b: Mat) -> Mat {
    let bt = (Vec(b.0.x, b.1.x, b.2.x), Vec(b.0.y, b.1.y, b.2.y), Vec(b.0.z, b.1.z, b.2.z))
    func row(_ r: Vec) -> Vec { Vec((r * bt.0).sum(), (r * bt.1).sum(), (r * bt.2).sum()) }
    return (row(a.0), row(a.1), row(a.2))
  }
  static func mul(_ a: Mat, _ v: Vec) -> Vec { Vec((a.0 * v).sum(), (a.1 * v).sum(), (a.2 * v).sum()) }
  static func transpose(_ a: Mat) -> Mat {
    (Vec(a.0.x, a.1.x, a.2.x), Vec(a.0.y, a.1.y, a.2.y), Vec(a.0.z, a.1.z, a.2.z))
  }
  static func add(_ a: Mat, _ b: Mat) -> Mat { (a.0 + b.0, a.1 + b.1, a.2 + b.2) }
  static func sub(_ a: Mat, _ b: Mat) -> Mat { (a.0 - b.0, a.1 - b.1, a.2 - b.2) }
  static func inverse(_ a: Mat) -> Mat? {
    let (r0, r1, r2) = a
    let c0 = cross3(r1, r2), c1 = cross3(r2, r0), c2 = cross3(r0, r1)
    let det = (r0 * c0).sum()
    guard abs(det) > 1e-300 else { return nil }
    return transpose((c0 / det, c1 / det, c2 / det))
  }
  static func cross3(_ a: Vec, _ b: Vec) -> Vec {
    Vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
  }

  /// Smoothed positions for samples every `1/sampleRate` s; nil entries are missing measurements
  /// (estimated from the model). Returns nil everywhere if no sample is present.
  public func smooth(_ z: [Double?], sampleRate: Double) -> [Double?] {
    guard let firstIndex = z.firstIndex(where: { $0 != nil }) else { return z }
    let dt = 1 / sampleRate
    let F: Mat = (Vec(1, dt, dt * dt / 2), Vec(0, 1, dt), Vec(0, 0, 1))
    let q = jerkDensity
    let Q: Mat = (
      Vec(pow(dt, 5) / 20, pow(dt, 4) / 8, pow(dt, 3) / 6) * q, Vec(pow(dt, 4) / 8, pow(dt, 3) / 3, dt * dt / 2) * q,
      Vec(pow(dt, 3) / 6, dt * dt / 2, dt) * q
    )
    let r = measurementSigma * measurementSigma
    var x = Vec(z[firstIndex]!, 0, 0)
    var P: Mat = (Vec(r, 0, 0), Vec(0, 100, 0), Vec(0, 0, 1000))
    var filtered: [(Vec, Mat)] = [], predicted: [(Vec, Mat)] = []
    for i in firstIndex..<z.count {
      if i > firstIndex {
        x = Self.mul(F, x)
        P = Self.add(Self.mul(Self.mul(F, P), Self.transpose(F)), Q)
      }
      predicted.append((x, P))
      if let measurement = z[i] {
        // H = (1, 0, 0): scalar innovation.
        let s = P.0.x + r
        let k = Vec(P.0.x, P.1.x, P.2.x) / s
        x += k * (measurement - x.x)
        let kh: Mat = (Vec(k.x, 0, 0), Vec(k.y, 0, 0), Vec(k.z, 0, 0))
        P = Self.mul(Self.sub((Vec(1, 0, 0), Vec(0, 1, 0), Vec(0, 0, 1)), kh), P)
      }
      filtered.append((x, P))
    }
    // RTS backward pass.
    var smoothed = filtered
    if filtered.count >= 2 {
      for i in stride(from: filtered.count - 2, through: 0, by: -1) {
        let (xf, Pf) = filtered[i]
        let (xp, Pp) = predicted[i + 1]
        guard let PpInv = Self.inverse(Pp) else { continue }
        let C = Self.mul(Self.mul(Pf, Self.transpose(F)), PpInv)
        let xs = xf + Self.mul(C, smoothed[i + 1].0 - xp)
        let Ps = Self.add(Pf, Self.mul(Self.mul(C, Self.sub(smoothed[i + 1].1, Pp)), Self.transpose(C)))
        smoothed[i] = (xs, Ps)
      }
    }
    var out = [Double?](repeating: nil, count: z.count)
    for (j, s) in smoothed.enumerated() { out[firstIndex + j] = s.0.x }
    // Beyond the last measurement the model only extrapolates: leave those empty.
    if let lastIndex = z.lastIndex(where: { $0 != nil }), lastIndex + 1 < z.count {
      for i in (lastIndex + 1)..<z.count { out[i] = nil }
    }
    return out
  }
}

#if canImport(Glibc)
  import Glibc
#endif
