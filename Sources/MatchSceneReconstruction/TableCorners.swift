import Foundation
import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO

/// The venue from the table's four top corners clicked in one or more camera images: a corners file
///
/// ```toml
/// # the table's top corners in each camera's image, pixels, in the same order around the table
/// [cam01]
/// corners = [[812.5, 604.0], [1310.2, 640.8], [1402.0, 733.1], [701.4, 690.3]]
/// ```
///
/// gives the table's pose by `PlanarTargetPose` (a homography per camera, refined over all cameras);
/// a click error of a pixel or two moves the centre by millimetres, where the ball's bounces leave
/// centimetres.
public enum TableCorners {
  /// The clicks of `file` for the calibrated `cameras`.
  /// - Throws: `InputError` naming the file and camera of a malformed entry or an uncalibrated camera.
  public static func read(_ file: URL, cameras: [Camera]) throws -> [PlanarTargetPose.Clicks] {
    let document = try TOMLDocument(contentsOf: file)
    var clicks: [PlanarTargetPose.Clicks] = []
    for name in document.rootView.keys.sorted() {
      guard let table = try document.rootView.subtable(name) else {
        throw InputError(file: file.path, location: .key(name), "expected a table [\(name)] with corners = [[x, y] × 4]")
      }
      guard let camera = cameras.first(where: { $0.name == name }) else {
        throw InputError(
          file: file.path, location: .key(name),
          "no calibrated camera of that name (calibrated: \(cameras.map(\.name).joined(separator: ", ")))")
      }
      guard let flat = try table.matrix("corners", rows: 4, columns: 2) else {
        throw table.fail("corners", "missing: the table's four top corners, [[x, y], [x, y], [x, y], [x, y]] in pixels")
      }
      let corners = (0..<4).map { SIMD2(flat[2 * $0], flat[2 * $0 + 1]) }
      for c in corners where abs(c.x) > 1e6 || abs(c.y) > 1e6 {
        throw table.fail("corners", "pixel (\(c.x), \(c.y)) is beyond ±10⁶ px")
      }
      clicks.append(PlanarTargetPose.Clicks(camera: camera, corners: corners))
    }
    guard !clicks.isEmpty else { throw InputError(file: file.path, "no camera's corners; expected [<camera>] corners = [[x, y] × 4]") }
    return clicks
  }

  /// The venue frame of the table whose corners were clicked (origin on the floor below its centre,
  /// up out of its top, long axis along its length; its two ends cannot be told apart), and the
  /// corners' root-mean-square reprojection error in pixels.
  /// - Throws: `InputError` naming `file` when no pose fits.
  public static func venue(_ clicks: [PlanarTargetPose.Clicks], table: TableGeometry, file: String) throws
    -> (venue: VenueFrame, rmsPx: Double)
  {
    guard let pose = PlanarTargetPose.locate(clicks, length: table.length, width: table.width) else {
      throw InputError(file: file, "no table pose fits these corners in front of the cameras; are they the table's four top corners, in order around it?")
    }
    let worldFromTable = pose.worldFromTarget
    let up = worldFromTable.rotation * SIMD3(0, 0, 1)
    let origin = worldFromTable.apply(SIMD3(0, 0, -table.surfaceHeight))
    let longAxis = worldFromTable.rotation * SIMD3(1, 0, 0)
    guard let venue = VenueFrame(up: up, origin: origin, longAxis: longAxis, source: .estimated) else {
      throw InputError(file: file, "the corners give a degenerate table pose")
    }
    return (venue, pose.rmsPx)
  }
}

extension TableCorners {
  /// The table's pose from its clicked corners as evidence for `VenueLocator`, with standard errors
  /// from the clicks' noise: the pose refitted to `rounds` sets of clicks moved by Gaussian noise of
  /// the larger of `clickSigmaPx` and the fit's RMS reprojection error (an error in the calibration
  /// shows as a larger residual), and the spread of the refitted centres and headings (Monte Carlo
  /// propagation of the measurement noise — JCGM 101:2008, "Evaluation of measurement data —
  /// Supplement 1 to the GUM"), or, with three cameras or more, the jackknife over cameras when larger.
  /// - Throws: `InputError` naming `file` when no pose fits.
  public static func evidence(
    _ clicks: [PlanarTargetPose.Clicks], table: TableGeometry, file: String, clickSigmaPx: Double = 2, rounds: Int = 24, seed: UInt64 = 1
  ) throws -> (evidence: VenueEvidence, rmsPx: Double) {
    guard let pose = PlanarTargetPose.locate(clicks, length: table.length, width: table.width) else {
      throw InputError(file: file, "no table pose fits these corners in front of the cameras; are they the table's four top corners, in order around it?")
    }
    let centre = pose.worldFromTarget.translation
    let up = pose.worldFromTarget.rotation * SIMD3(0, 0, 1)
    let axis = pose.worldFromTarget.rotation * SIMD3(1, 0, 0), across = cross(up, axis)
    let sigma = max(clickSigmaPx, pose.rmsPx)
    // Another fit's centre along, across and up from this one's, and its heading's turn about up, degrees.
    func relative(_ p: PlanarTargetPose.Result) -> (offset: SIMD3<Double>, turn: Double) {
      let d = p.worldFromTarget.translation - centre
      var a = p.worldFromTarget.rotation * SIMD3(1, 0, 0)
      if dot(a, axis) < 0 { a = -a }
      return (SIMD3(dot(d, axis), dot(d, across), dot(d, up)), atan2(dot(cross(axis, a), up), dot(axis, a)) * 180 / Double.pi)
    }
    var rng = SeededGenerator(seed: seed)
    var offsets: [SIMD3<Double>] = [], turns: [Double] = []
    for _ in 0..<rounds {
      let moved = clicks.map { c in
        PlanarTargetPose.Clicks(camera: c.camera, corners: c.corners.map { $0 + sigma * SIMD2(rng.gaussian(), rng.gaussian()) })
      }
      guard let p = PlanarTargetPose.locate(moved, length: table.length, width: table.width) else { continue }
      let r = relative(p)
      offsets.append(r.offset)
      turns.append(r.turn)
    }
    func rms(_ values: [Double], scale: Double = 1) -> Double {
      values.isEmpty ? .infinity : (scale * values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot()
    }
    // Cameras whose calibrations disagree: the jackknife over cameras (each left out in turn; Efron &
    // Tibshirani 1993, ch. 11) sees what the click noise does not. The larger of the two is kept.
    var cameraOffsets: [SIMD3<Double>] = [], cameraTurns: [Double] = []
    if clicks.count >= 3 {
      for left in clicks.indices {
        var rest = clicks
        rest.remove(at: left)
        guard let p = PlanarTargetPose.locate(rest, length: table.length, width: table.width) else { continue }
        let r = relative(p)
        cameraOffsets.append(r.offset)
        cameraTurns.append(r.turn)
      }
    }
    let n = Double(cameraOffsets.count), scale = n > 1 ? n - 1 : 0
    func spread(_ noise: [Double], _ cameras: [Double]) -> Double { max(rms(noise), cameras.isEmpty ? 0 : rms(cameras, scale: scale)) }
    let evidence = VenueEvidence(
      name: "corners", tableCentre: centre, longAxis: axis, alongSigma: spread(offsets.map(\.x), cameraOffsets.map(\.x)),
      acrossSigma: spread(offsets.map(\.y), cameraOffsets.map(\.y)), heightSigma: spread(offsets.map(\.z), cameraOffsets.map(\.z)),
      headingSigma: spread(turns, cameraTurns))
    return (evidence, pose.rmsPx)
  }
}
