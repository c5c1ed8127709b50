/// A small, fast, seedable random number generator (SplitMix64, Steele, Lea & Flood, OOPSLA 2014), so
/// that simulations and tests repeat exactly for a given seed on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  /// Uniform in `range`.
  public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
  }

  /// Standard normal sample (Box–Muller).
  public mutating func gaussian() -> Double {
    var u = uniform()
    while u <= 0 { u = uniform() }
    let v = uniform()
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
  }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool { uniform() < p }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
