import Foundation
import MatchSceneCore

extension NormalisedCurves {
  /// Where the registered axis puts the forward swing start and contact, percent of the stroke (as the
  /// form analysis's `StrokeCurves`: backswing start 0, forward swing start 30, contact 50,
  /// follow-through end 100).
  public static let registeredForwardSwingPercent = Double(LandmarkRegistration.forwardSwingSample)
  public static let registeredContactPercent = Double(LandmarkRegistration.contactSample)

  /// A series over frames resampled on the landmark-registered axis (`LandmarkRegistration`, through the
  /// four landmarks `l`, fractional frames in time order), the values interpolated linearly between frames.
  /// Nil when under 80 % of the frames the stroke spans have a value, or a sample has no value on either
  /// side within 2 frames.
  public static func registered(_ values: [Int: Double], landmarks l: [Double]) -> [Double]? {
    guard l.count == 4, l[0] < l[1], l[1] < l[2], l[2] < l[3] else { return nil }
    let lo = Int(l[0].rounded(.down)), hi = Int(l[3].rounded(.up))
    guard hi - lo >= 2 else { return nil }
    let known = (lo...hi).filter { values[$0] != nil }.count
    guard Double(known) >= 0.8 * Double(hi - lo + 1) else { return nil }
    var out: [Double] = []
    out.reserveCapacity(points)
    for frame in LandmarkRegistration.positions(l) {
      guard let v = interpolate(values, at: frame) else { return nil }
      out.append(v)
    }
    return out
  }

  /// Linear interpolation between the nearest known frames on either side of `frame` (each within 2
  /// frames); the nearer one alone at an edge.
  static func interpolate(_ values: [Int: Double], at frame: Double) -> Double? {
    let f0 = Int(frame.rounded(.down))
    var below: (Int, Double)?, above: (Int, Double)?
    for f in stride(from: f0, through: f0 - 2, by: -1) {
      if let v = values[f] { below = (f, v); break }
    }
    for f in (f0 + 1)...(f0 + 2) {
      if let v = values[f] { above = (f, v); break }
    }
    switch (below, above) {
    case let (.some(b), .some(a)):
      return b.1 + (a.1 - b.1) * (frame - Double(b.0)) / Double(a.0 - b.0)
    case let (.some(b), nil): return frame - Double(b.0) <= 1 ? b.1 : nil
    case let (nil, .some(a)): return Double(a.0) - frame <= 1 ? a.1 : nil
    case (nil, nil): return nil
    }
  }
}
