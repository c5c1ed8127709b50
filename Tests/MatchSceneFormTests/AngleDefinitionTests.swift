import MatchSceneCore
import MatchSceneForm
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The angle conventions on hand-built poses whose angles are known by construction.
final class AngleDefinitionTests: XCTestCase {
  /// A person facing +x, standing straight, arms hanging: every angle 0.
  static func standing() -> [SIMD3<Double>] {
    [
      SIMD3(0, 0.2, 1.4), SIMD3(0, -0.2, 1.4), SIMD3(0, 0.2, 1.1), SIMD3(0, -0.2, 1.1), SIMD3(0, 0.2, 0.85),
      SIMD3(0, -0.2, 0.85), SIMD3(0, 0.1, 0.9), SIMD3(0, -0.1, 0.9), SIMD3(0, 0.1, 0.5), SIMD3(0, -0.1, 0.5),
      SIMD3(0, 0.1, 0.08), SIMD3(0, -0.1, 0.08),
    ]
  }

  func angles(_ p: [SIMD3<Double>]) -> [FormAngle: Double] {
    let v = AngleKinematics.angles(BodyPoints(points: p, head: SIMD3(0, 0, 1.65)))
    return Dictionary(uniqueKeysWithValues: zip(FormAngle.allCases, v))
  }

  func testStandingPoseIsZero() {
    let a = angles(Self.standing())
    for angle in FormAngle.allCases where angle != .shoulderPlaneLeft && angle != .shoulderPlaneRight {
      assertClose(a[angle]!, 0, absolute: 1e-9, angle.rawValue)
    }
  }

  func testKnownPoses() {
    var p = Self.standing()
    // Right arm straight forward (flexion in the sagittal plane): elevation 90°, plane +90°.
    p[3] = SIMD3(0.3, -0.2, 1.4); p[5] = SIMD3(0.55, -0.2, 1.4)
    // Left arm straight out to the side (abduction): elevation 90°, plane 0° (mirrored convention).
    p[2] = SIMD3(0, 0.5, 1.4); p[4] = SIMD3(0, 0.75, 1.4)
    var a = angles(p)
    assertClose(a[.shoulderElevationRight]!, 90, absolute: 1e-9)
    assertClose(a[.shoulderPlaneRight]!, 90, absolute: 1e-9)
    assertClose(a[.shoulderElevationLeft]!, 90, absolute: 1e-9)
    assertClose(a[.shoulderPlaneLeft]!, 0, absolute: 1e-9)
    assertClose(a[.elbowFlexionRight]!, 0, absolute: 1e-9)
    // Right forearm bent up 90° from a hanging upper arm; left knee bent 90° with the thigh forward.
    p = Self.standing()
    p[5] = SIMD3(0.25, -0.2, 1.1)
    p[8] = SIMD3(0.4, 0.1, 0.9); p[10] = SIMD3(0.4, 0.1, 0.5)
    a = angles(p)
    assertClose(a[.elbowFlexionRight]!, 90, absolute: 1e-9)
    assertClose(a[.hipFlexionLeft]!, 90, absolute: 1e-9)
    assertClose(a[.kneeFlexionLeft]!, 90, absolute: 1e-9)
    assertClose(a[.hipFlexionRight]!, 0, absolute: 1e-9)
  }

  /// Trunk lean and the X-factor: shoulders rotated 30° to the left about a trunk leaning 20° forward.
  func testTrunkLeanAndRotation() {
    var p = Self.standing()
    let lean = 20.0 * Double.pi / 180, turn = 30.0 * Double.pi / 180
    let hip = SIMD3<Double>(0, 0, 0.9)
    let u = SIMD3(sin(lean), 0, cos(lean))
    let centre = hip + 0.5 * u
    let left0 = SIMD3<Double>(0, 1, 0)
    let left = cos(turn) * left0 + sin(turn) * cross(u, left0)
    p[0] = centre + 0.2 * left; p[1] = centre - 0.2 * left
    p[2] = p[0] - SIMD3(0, 0, 0.3); p[3] = p[1] - SIMD3(0, 0, 0.3)
    p[4] = p[2] - SIMD3(0, 0, 0.25); p[5] = p[3] - SIMD3(0, 0, 0.25)
    let a = angles(p)
    assertClose(a[.trunkLean]!, 20, absolute: 1e-9)
    assertClose(a[.trunkRotation]!, 30, absolute: 1e-9)
    // Turned the other way past 180°: reads −150°…, never 210° (wrapped range).
    let back = 200.0 * Double.pi / 180
    let l2 = cos(back) * left0 + sin(back) * cross(u, left0)
    p[0] = centre + 0.2 * l2; p[1] = centre - 0.2 * l2
    assertClose(angles(p)[.trunkRotation]!, -160, absolute: 1e-9)
  }

  /// Dempster's fractions sum to 1; a symmetric standing body has its centre of mass on the midline.
  func testCentreOfMass() {
    let t = SegmentTable.self
    let total = 2 * (t.hand.mass + t.forearm.mass + t.upperArm.mass + t.foot.mass + t.leg.mass + t.thigh.mass)
      + t.headNeck.mass + t.trunk.mass
    assertClose(total, 1, absolute: 1e-12)
    let com = SegmentTable.centreOfMass(BodyPoints(points: Self.standing(), head: SIMD3(0, 0, 1.65)))
    assertClose(com.y, 0, absolute: 1e-12)
    XCTAssert((0.85...1.1).contains(com.z), "centre of mass at \(com.z) m for a 1.65 m body")
  }

  /// The uncertainty grows with the reprojection error and shrinks with more views.
  func testUncertaintyFromReprojection() {
    let u = AngleUncertainty(metresPerPixel: 0.004)
    XCTAssertNil(u.sigma(reprojectionPx: 1, views: 1))
    assertClose(u.sigma(reprojectionPx: 1, views: 2)!, 0.004 * 2.0.squareRoot(), relative: 1e-12)
    XCTAssertLessThan(u.sigma(reprojectionPx: 1, views: 4)!, u.sigma(reprojectionPx: 1, views: 2)!)
  }
}
