import Foundation
import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO

/// Each camera's pose from the table's top corners (and optionally the net posts' tops) clicked in its
/// image, in the venue frame the table defines (origin on the floor below the table's centre, x along its
/// length, z up; `VenueFrame`'s convention): the table's dimensions give the scale, and every camera is
/// placed on its own by `CameraPose` (PnP) with its known intrinsics.
///
/// The corners file is the one `locate-venue --corners` reads, with an optional net-post entry:
///
/// ```toml
/// [cam01]
/// corners = [[812.5, 604.0], [1310.2, 640.8], [1402.0, 733.1], [701.4, 690.3]]
/// net_posts = [[1060.1, 590.2], [1050.3, 712.9]]   # optional: the tops of the posts
/// ```
///
/// Corners go in the same order around the table in every camera. Which corner comes first and the
/// direction are found by trying the eight assignments to the table's model, the same in every camera,
/// and keeping the one that fits best with every camera above the table; the table's two ends cannot be
/// told apart (the world can be turned by 180° about z). Net posts, when given, are listed first the
/// post beside the side from the first to the second corner, which must be a long side.
public enum TableExtrinsics {
  /// One camera's clicks.
  public struct Clicks: Sendable {
    public var camera: String
    public var corners: [SIMD2<Double>]
    /// The net posts' tops, or none.
    public var netPosts: [SIMD2<Double>]
    public init(camera: String, corners: [SIMD2<Double>], netPosts: [SIMD2<Double>] = []) {
      self.camera = camera
      self.corners = corners
      self.netPosts = netPosts
    }
  }

  /// One camera's fitted pose.
  public struct CameraFit: Sendable {
    public var camera: Camera
    public var rmsPx: Double
    public var residualsPx: [Double]
    /// The clicked points in the venue frame (corners, then net posts) and their pixels, in click order.
    public var worldPoints: [SIMD3<Double>] = []
    public var pixels: [SIMD2<Double>] = []
  }

  /// Reads a corners file.
  /// - Throws: `InputError` naming the file and camera of a malformed entry.
  public static func read(_ file: URL) throws -> [Clicks] {
    let document = try TOMLDocument(contentsOf: file)
    var clicks: [Clicks] = []
    for name in document.rootView.keys.sorted() {
      guard let table = try document.rootView.subtable(name) else {
        throw InputError(file: file.path, location: .key(name), "expected a table [\(name)] with corners = [[x, y] × 4]")
      }
      guard let flat = try table.matrix("corners", rows: 4, columns: 2) else {
        throw table.fail("corners", "missing: the table's four top corners, [[x, y], [x, y], [x, y], [x, y]] in pixels")
      }
      let posts = try table.matrix("net_posts", rows: 2, columns: 2) ?? []
      let pairs = { (f: [Double]) in stride(from: 0, to: f.count, by: 2).map { SIMD2(f[$0], f[$0 + 1]) } }
      clicks.append(Clicks(camera: name, corners: pairs(flat), netPosts: pairs(posts)))
    }
    guard !clicks.isEmpty else { throw InputError(file: file.path, "no camera's corners; expected [<camera>] corners = [[x, y] × 4]") }
    return clicks
  }

  /// The table's top corners in the venue frame, in model order around the table.
  static func model(_ table: TableGeometry) -> [SIMD3<Double>] {
    let (l, w, h) = (table.length / 2, table.width / 2, table.surfaceHeight)
    return [SIMD3(-l, -w, h), SIMD3(l, -w, h), SIMD3(l, w, h), SIMD3(-l, w, h)]
  }

  /// The world points of one camera's clicks under an assignment (clicked corner k is model corner
  /// `order[k]`): the corners, then the net posts' tops (ITTF 2.6: 15.25 cm high and 15.25 cm outside the
  /// side lines).
  static func worldPoints(_ clicks: Clicks, order: [Int], table: TableGeometry) -> [SIMD3<Double>] {
    let corners = order.map { model(table)[$0] }
    guard clicks.netPosts.count == 2 else { return corners }
    let centre = SIMD3(0, 0, table.surfaceHeight)
    let overhang = 0.1525
    let sides = [(corners[0] + corners[1]) / 2, (corners[2] + corners[3]) / 2]
    return corners + sides.map { mid in
      let out = normalize(mid - centre)
      return mid + out * overhang + SIMD3(0, 0, table.netHeight)
    }
  }

  /// The orders tried: every first corner, both directions.
  static let orders: [[Int]] = (0..<8).map { a in (0..<4).map { k in a >= 4 ? (a - k + 4) % 4 : (a + k) % 4 } }

  /// Fits every camera of `clicks` whose intrinsics `cameras` holds.
  /// - Parameter maxRMSPx: a camera whose corners reproject worse than this is refused.
  /// - Throws: `InputError` naming `file` and the camera: one without intrinsics, no pose with every
  ///   camera above the table, or a camera whose corners fit badly (clicked in another order than the
  ///   others, or not the table's corners).
  public static func fit(
    _ clicks: [Clicks], cameras: [Camera], table: TableGeometry, file: String, maxRMSPx: Double = 8
  ) throws -> [CameraFit] {
    var pairs: [(Clicks, Camera)] = []
    for c in clicks {
      guard let camera = cameras.first(where: { $0.name == c.camera }) else {
        throw InputError(
          file: file, location: .key(c.camera),
          "no intrinsics for this camera (calibrated: \(cameras.map(\.name).joined(separator: ", "))); calibrate it first or remove its entry")
      }
      pairs.append((c, camera))
    }
    func fits(_ order: [Int], _ pair: (Clicks, Camera)) -> CameraFit? {
      let world = worldPoints(pair.0, order: order, table: table)
      let pixels = pair.0.corners + (pair.0.netPosts.count == 2 ? pair.0.netPosts : [])
      guard let r = CameraPose.solve(camera: pair.1, world: world, pixels: pixels) else { return nil }
      // The camera looks at the table's top: it is above it.
      guard r.camera.center.z > table.surfaceHeight else { return nil }
      return CameraFit(camera: r.camera, rmsPx: r.rmsPx, residualsPx: r.residualsPx, worldPoints: world, pixels: pixels)
    }
    var best: (cost: Double, fits: [CameraFit])?
    for order in orders {
      let all = pairs.map { fits(order, $0) }
      // A camera without a pose under this order costs as much as a badly clicked one.
      let cost = all.reduce(0) { $0 + min(($1?.rmsPx ?? .infinity), 1e4) }
      // Ties (the table's two ends) keep the first order tried.
      if cost < (best?.cost ?? .infinity) - 1e-9 { best = (cost, all.compactMap { $0 }.count == all.count ? all.map { $0! } : []) }
    }
    guard let best, !best.fits.isEmpty else {
      throw InputError(
        file: file, "no order of the corners places every camera above the table; are these the table's four top corners, clicked in the same order around it in every camera?")
    }
    for (k, fit) in best.fits.enumerated() where fit.rmsPx > maxRMSPx {
      let pair = pairs[k]
      let alone = orders.compactMap { fits($0, pair) }.min { $0.rmsPx < $1.rmsPx }
      let hint = alone.map { $0.rmsPx <= maxRMSPx }  == true
        ? String(format: "its corners are in another order than the other cameras' (alone they fit to %.2f px): click them in the same order around the table as in the other cameras", alone!.rmsPx)
        : "check that these are the table's four top corners, in order around it (not across), and that the intrinsics belong to this camera"
      throw InputError(file: file, location: .key(pair.0.camera), String(format: "the corners fit only to %.1f px RMS (limit %.1f px): ", fit.rmsPx, maxRMSPx) + hint)
    }
    return best.fits
  }
}
