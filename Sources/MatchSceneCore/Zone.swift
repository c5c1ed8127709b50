/// A region of space whose entering and leaving are events (`zone_enter`, `zone_exit`): a box, a sphere
/// or an upright cylinder, fixed in the venue frame or carried by a person's `BodyFrame` ("a drum 40 cm
/// in front of the chest, 20 cm to the right").
///
/// Entering and leaving use two thresholds on the signed distance to the surface (hysteresis, as a
/// Schmitt trigger): a trigger point enters once it is `enterMargin` inside the surface and leaves once it
/// is `exitMargin` outside, so noise of a few centimetres at the surface cannot flicker; each change must
/// also hold on average over `minDwell` seconds (`ZoneDetector`).
public struct Zone: Sendable, Equatable {
  /// The zone's shape, centred on `Zone.center` in its frame (venue or body), axes along the frame's.
  public enum Shape: Sendable, Equatable {
    /// Edge lengths along the frame's x, y and z, metres.
    case box(size: SIMD3<Double>)
    case sphere(radius: Double)
    /// An upright cylinder: radius, and height along the frame's z (up), metres.
    case cylinder(radius: Double, height: Double)
  }

  /// Which frame the zone's centre is given in.
  public enum Attachment: Sendable, Equatable {
    /// The venue frame (`VenueFrame`: z up, x along the venue's long axis).
    case venue
    /// A person's body frame (`BodyFrame`): x right, y forward, z up, from `origin`. `track` limits the
    /// zone to one person (e.g. `P1`); nil gives every person their own copy.
    case body(origin: BodyFrame.Origin, track: String?)
  }

  /// What can enter the zone.
  public enum Trigger: Sendable, Hashable, CustomStringConvertible {
    /// A keypoint of the skeleton, by its name (`left_wrist`, `LWrist`).
    case keypoint(String)
    /// A keypoint by its role on the body, whatever the skeleton calls it.
    case role(JointRole)
    /// The ball's centre.
    case ball

    public var description: String {
      switch self {
      case .keypoint(let name): name
      case .role(let role): role.rawValue
      case .ball: "ball"
      }
    }
  }

  public var name: String
  public var shape: Shape
  /// The shape's centre in the zone's frame, metres.
  public var center: SIMD3<Double>
  public var attachment: Attachment
  public var triggers: [Trigger]
  /// How far inside the surface a trigger point must be to enter, metres (≥ 0).
  public var enterMargin: Double
  /// How far outside the surface it must be to leave, metres (≥ 0).
  public var exitMargin: Double
  /// How long an entry (or exit) must hold before it counts, seconds (≥ 0; 0: at once).
  public var minDwell: Double

  /// Margins default to 3 cm each (a 6 cm band: 3 σ of 2 cm joint noise) and the dwell to 0.1 s (7 samples at 60 fps: the average of 2 cm noise is 0.8 cm).
  public init(
    name: String, shape: Shape, center: SIMD3<Double>, attachment: Attachment = .venue, triggers: [Trigger],
    enterMargin: Double = 0.03, exitMargin: Double = 0.03, minDwell: Double = 0.1
  ) {
    self.name = name
    self.shape = shape
    self.center = center
    self.attachment = attachment
    self.triggers = triggers
    self.enterMargin = enterMargin
    self.exitMargin = exitMargin
    self.minDwell = minDwell
  }

  /// Signed distance from `point` (in the zone's frame) to the zone's surface, metres: negative inside.
  /// Exact for the sphere, the box and the cylinder (Quílez, "distance functions": box and capped
  /// cylinder).
  public func signedDistance(_ point: SIMD3<Double>) -> Double {
    let p = point - center
    switch shape {
    case .sphere(let radius):
      return (p * p).sum().squareRoot() - radius
    case .box(let size):
      let q = SIMD3(abs(p.x), abs(p.y), abs(p.z)) - size / 2
      let outside = SIMD3(max(q.x, 0), max(q.y, 0), max(q.z, 0))
      return (outside * outside).sum().squareRoot() + min(max(q.x, max(q.y, q.z)), 0)
    case .cylinder(let radius, let height):
      let dx = (p.x * p.x + p.y * p.y).squareRoot() - radius, dz = abs(p.z) - height / 2
      let ox = max(dx, 0), oz = max(dz, 0)
      return (ox * ox + oz * oz).squareRoot() + min(max(dx, dz), 0)
    }
  }
}
