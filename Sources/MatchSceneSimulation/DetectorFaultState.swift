import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state of one camera's harder detector faults (`DetectionNoise.jointBiasPx`,
/// `temporalCorrelation`, `tailDegreesOfFreedom`, `occlusionDropRate`) across frames. Draws only from its
/// own generator (`RandomStream.detectionFaults`), so switching these faults on leaves every other draw
/// of the detector unchanged.
struct DetectorFaultState {
  let noise: DetectionNoise
  var rng: SeededGenerator
  /// Fixed offset per keypoint, pixels (the same for every person in this camera).
  let bias: [SIMD2<Double>]
  /// AR(1) noise per (person slot, keypoint), pixels.
  private var error: [SIMD2<Double>]
  private var started: [Bool]

  init(noise: DetectionNoise, people: Int, rng: SeededGenerator) {
    self.noise = noise
    var rng = rng
    bias = (0..<17).map { _ in noise.jointBiasPx * SIMD2(rng.gaussian(), rng.gaussian()) }
    self.rng = rng
    error = Array(repeating: .zero, count: people * 17)
    started = Array(repeating: false, count: people * 17)
  }

  /// The noise to add to keypoint `joint` of person slot `person` in this frame: bias plus the AR(1)
  /// process eₜ = ρ eₜ₋₁ + √(1 − ρ²) σ wₜ, its first value drawn from the stationary law (σ wₜ), with
  /// wₜ unit-variance Gaussian or Student-t innovations.
  mutating func keypointNoise(person: Int, joint: Int) -> SIMD2<Double> {
    let i = person * 17 + joint
    let sigma = noise.pixelSigma
    let w = SIMD2(innovation(), innovation())
    if started[i] {
      let rho = noise.temporalCorrelation
      error[i] = rho * error[i] + (1 - rho * rho).squareRoot() * sigma * w
    } else {
      error[i] = sigma * w
      started[i] = true
    }
    return bias[joint] + error[i]
  }

  /// Whether an occluded keypoint is dropped this time (probability `occlusionDropRate`).
  mutating func dropsOccluded() -> Bool { rng.chance(noise.occlusionDropRate) }

  /// A unit-variance innovation: N(0, 1), or a Student-t with ν degrees of freedom scaled by √((ν − 2)/ν),
  /// drawn as Z / √(V/ν) with V ~ χ²(ν) = Gamma(ν/2, 2) (Marsaglia & Tsang, "A simple method for
  /// generating gamma variables", ACM TOMS 26(3), 2000).
  private mutating func innovation() -> Double {
    let z = rng.gaussian()
    guard let nu = noise.tailDegreesOfFreedom else { return z }
    let v = 2 * gamma(shape: nu / 2)
    return z / (v / nu).squareRoot() * ((nu - 2) / nu).squareRoot()
  }

  /// Gamma(shape, 1) by Marsaglia–Tsang (shape ≥ 1; smaller shapes boosted by U^(1/shape)).
  private mutating func gamma(shape: Double) -> Double {
    if shape < 1 {
      return gamma(shape: shape + 1) * pow(max(rng.uniform(), .leastNonzeroMagnitude), 1 / shape)
    }
    let d = shape - 1.0 / 3, c = 1 / (9 * d).squareRoot()
    while true {
      let x = rng.gaussian(), v0 = 1 + c * x
      guard v0 > 0 else { continue }
      let v = v0 * v0 * v0, u = rng.uniform()
      if u < 1 - 0.0331 * x * x * x * x { return d * v }
      if log(max(u, .leastNonzeroMagnitude)) < 0.5 * x * x + d * (1 - v + log(v)) { return d * v }
    }
  }
}

/// A cheap geometric occlusion test for COCO-17 people: each torso is a capsule from the mid-hip to the
/// mid-shoulder point; a keypoint is hidden in a camera when the ray from the optical centre to it passes
/// through a torso capsule at least `margin` nearer to the camera (its own torso too, except for the
/// torso's own keypoints: shoulders and hips).
struct TorsoOcclusion {
  /// Capsule radius, metres (about half a torso's width).
  var radius = 0.16
  /// How much nearer the camera the torso must be, metres.
  var margin = 0.12

  /// - Parameters:
  ///   - centre: the camera's optical centre, world frame.
  ///   - people: every person's 17 keypoints, world frame.
  func isHidden(person: Int, joint: Int, centre: SIMD3<Double>, people: [ArraySlice<SIMD3<Double>>]) -> Bool {
    let target = people[person][people[person].startIndex + joint]
    let rayLength = (target - centre).lengthSquared.squareRoot()
    for (other, body) in people.enumerated() {
      if other == person, [5, 6, 11, 12].contains(joint) { continue }
      let s = body.startIndex
      let hip = 0.5 * (body[s + 11] + body[s + 12]), shoulder = 0.5 * (body[s + 5] + body[s + 6])
      let (rayT, distance) = Self.closest(centre, target, hip, shoulder)
      if distance < radius, (1 - rayT) * rayLength > margin { return true }
    }
    return false
  }

  /// Closest approach of segments p0→p1 and q0→q1: the parameter along the first segment and the
  /// distance (Ericson, "Real-Time Collision Detection", 2005, §5.1.9).
  static func closest(
    _ p0: SIMD3<Double>, _ p1: SIMD3<Double>, _ q0: SIMD3<Double>, _ q1: SIMD3<Double>
  ) -> (Double, Double) {
    let d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0
    let a = (d1 * d1).sum(), e = (d2 * d2).sum(), f = (d2 * r).sum()
    var s = 0.0, t = 0.0
    if e <= 1e-12 {
      s = a > 1e-12 ? min(max(-(d1 * r).sum() / a, 0), 1) : 0
    } else {
      let c = (d1 * r).sum(), b = (d1 * d2).sum(), denom = a * e - b * b
      s = denom > 1e-12 ? min(max((b * f - c * e) / denom, 0), 1) : 0
      t = (b * s + f) / e
      if t < 0 {
        t = 0
        s = a > 1e-12 ? min(max(-c / a, 0), 1) : 0
      } else if t > 1 {
        t = 1
        s = a > 1e-12 ? min(max((b - c) / a, 0), 1) : 0
      }
    }
    let gap = (p0 + s * d1) - (q0 + t * d2)
    return (s, (gap * gap).sum().squareRoot())
  }
}

extension SIMD3 where Scalar == Double {
  fileprivate var lengthSquared: Double { (self * self).sum() }
}
