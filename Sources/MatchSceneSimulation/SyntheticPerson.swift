import MatchSceneCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A scripted person built by the simulator's body (`BodyKinematics`: COCO-17, constant bone lengths,
/// two-link arms), for tests and drills that need someone standing, turning and reaching: each frame the
/// script gives the pelvis and heading, and — seeing the chest's `BodyFrame` — where each wrist should be.
public struct SyntheticPerson: Sendable {
  /// Where the body is at one instant.
  public struct Pose: Sendable {
    /// Midpoint of the hips, venue metres.
    public var pelvis: SIMD3<Double>
    /// Azimuth the body faces, radians from +x counter-clockwise seen from above.
    public var heading: Double
    public init(pelvis: SIMD3<Double>, heading: Double) {
      self.pelvis = pelvis
      self.heading = heading
    }
  }

  /// Standing height, metres.
  public var height: Double

  public init(height: Double = 1.75) { self.height = height }

  /// The pelvis height of a person standing upright.
  public var pelvisHeight: Double {
    let d = BodyDimensions(height: height)
    return d.ankleHeight + d.legLength * 0.97
  }

  /// The reach of an arm from the shoulder, metres.
  public var armReach: Double { BodyDimensions(height: height).armReach }

  /// The chest's body frame (origin between the shoulders) of `pose`.
  public func chest(_ pose: Pose) -> BodyFrame {
    let t = BodyKinematics.torso(BodyDimensions(height: height), pelvis: pose.pelvis, heading: pose.heading, rotation: 0, lean: 0)
    return BodyFrame(origin: t.shoulderCentre, forward: t.forward)
  }

  /// The right (or left) shoulder of `pose`, venue metres.
  public func shoulder(_ pose: Pose, right: Bool) -> SIMD3<Double> {
    let t = BodyKinematics.torso(BodyDimensions(height: height), pelvis: pose.pelvis, heading: pose.heading, rotation: 0, lean: 0)
    return right ? t.rightShoulder : t.leftShoulder
  }

  /// Where a relaxed hand hangs, in the chest frame.
  public func restingHand(right: Bool) -> SIMD3<Double> {
    let d = BodyDimensions(height: height)
    return SIMD3((right ? 1 : -1) * (d.shoulderHalfWidth + 0.06), 0.05, -(d.armReach * 0.95))
  }

  /// One person `id` (COCO-17) over `frames` at `fps`: `pose(t)` places the body at match time t and
  /// `wrists(t, chest)` gives the left and right wrist targets (venue metres); a target out of reach is
  /// replaced by the nearest reachable point.
  public func motion(
    id: String = "P1", fps: Double, frames: ClosedRange<Int>, pose: (Double) -> Pose,
    wrists: (Double, BodyFrame) -> (left: SIMD3<Double>, right: SIMD3<Double>)
  ) -> MotionModel {
    let d = BodyDimensions(height: height)
    var model = MotionModel(fps: fps, skeleton: .coco17, frames: frames)
    var track = model.makeTrack(id: id, kind: .player)
    for frame in frames {
      let t = Double(frame) / fps
      let p = pose(t)
      let (left, right) = wrists(t, chest(p))
      let l = SIMD3(-sin(p.heading), cos(p.heading), 0)
      let foot = SIMD3(p.pelvis.x, p.pelvis.y, d.ankleHeight)
      let body = BodyPose(
        pelvis: p.pelvis, heading: p.heading, rotation: 0, lean: 0, lookAt: nil, leftWrist: left, rightWrist: right,
        leftAnkle: foot + 1.2 * d.hipHalfWidth * l, rightAnkle: foot - 1.2 * d.hipHalfWidth * l)
      for (j, q) in BodyKinematics.joints(d, body).enumerated() {
        track[joint: j, frame: frame] = MotionSample(position: q, reprojectionPx: 0, views: 0, state: .measured)
      }
    }
    model.tracks = [track]
    return model
  }

  /// `motion` with independent Gaussian noise of `sigma` metres per axis on every present sample.
  public static func addingNoise(_ motion: MotionModel, sigma: Double, seed: UInt64) -> MotionModel {
    var out = motion
    var rng = SeededGenerator(seed: seed)
    for t in out.tracks.indices {
      for i in out.tracks[t].samples.indices where out.tracks[t].samples[i].isPresent {
        out.tracks[t].samples[i].position += sigma * SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
      }
    }
    return out
  }
}
