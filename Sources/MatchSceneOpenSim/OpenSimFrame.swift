import Foundation
import MatchSceneCore
import MatchSceneIO

/// Where one person's markers go in OpenSim's ground frame (x forward, y up, z right, metres): the venue
/// frame (x the long axis, z up; `VenueFrame`), turned about the vertical so that the person faces +x
/// on average, then stood y up by `TRCWriter.openSimFromWorld`.
///
/// OpenSim's pelvis coordinates assume a subject facing +x: facing ±z the pelvis rotation sits near ∓90° and
/// tilt and list swap meaning (Delp et al., "OpenSim", IEEE TBME 2007; the gait models' ground frame).
public struct OpenSimFrame: Sendable, Equatable {
  /// World → venue.
  public var venueFromWorld: RigidTransform
  /// The person's mean facing direction in the venue frame, degrees counter-clockwise from +x seen from
  /// above; the markers are turned by minus this.
  public var facingDegrees: Double

  /// OpenSim ground coordinates of a world point.
  public func openSim(_ world: SIMD3<Double>) -> SIMD3<Double> {
    let v = venueFromWorld.apply(world)
    let a = -facingDegrees * .pi / 180
    let turned = SIMD3(cos(a) * v.x - sin(a) * v.y, sin(a) * v.x + cos(a) * v.y, v.z)
    return TRCWriter.openSimFromWorld(turned)
  }

  /// The frame for `track`: its facing is the circular mean over the frames with both hips of the
  /// horizontal direction (left hip − right hip) × up, i.e. forward for a body whose left is +y when it
  /// faces +x. 0° when the skeleton has no hips or the track never shows both.
  public static func facing(_ track: MotionTrack, skeleton: Skeleton, venue: VenueFrame) -> OpenSimFrame {
    let venueFromWorld = venue.venueFromWorld
    var sum = SIMD2<Double>(0, 0)
    if let l = skeleton.keypoints.firstIndex(of: "left_hip"), let r = skeleton.keypoints.firstIndex(of: "right_hip") {
      for frame in track.frames {
        let a = track[joint: l, frame: frame], b = track[joint: r, frame: frame]
        guard a.isPresent, b.isPresent else { continue }
        let left = venueFromWorld.apply(a.position) - venueFromWorld.apply(b.position)
        // (left × up) with up = +z: (left.y, −left.x).
        let forward = SIMD2(left.y, -left.x)
        let n = (forward * forward).sum().squareRoot()
        if n > 1e-9 { sum += forward / n }
      }
    }
    let degrees = (sum * sum).sum() > 1e-18 ? atan2(sum.y, sum.x) * 180 / .pi : 0
    return OpenSimFrame(venueFromWorld: venueFromWorld, facingDegrees: degrees)
  }
}
