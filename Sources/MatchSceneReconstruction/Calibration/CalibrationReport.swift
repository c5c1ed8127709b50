import Foundation
import MatchSceneBallFlight
import MatchSceneCore

/// What `matchscene calibrate` found, per camera and per image: written as `calibration_report.json`
/// beside the calibration, and summarised as text.
public struct CalibrationReport: Sendable, Codable {
  /// How one camera's pose was found.
  public struct Extrinsics: Sendable, Codable {
    /// "table" (clicked table corners), "board" (a board seen by every camera) or "none" (identity).
    public var source: String
    /// RMS reprojection error of the points the pose was fitted to, pixels.
    public var rmsPx: Double?
    /// Per point (corners, then net posts; or the board's corners), pixels.
    public var residualsPx: [Double]?
    /// The file the points came from.
    public var file: String?
    /// The camera's centre in the world, metres.
    public var centre: [Double]
    /// With a match to refine on: how far the refinement moved the camera from the pose above (metres,
    /// degrees) and its median keypoint residual after it, pixels.
    public var refinedMoveM: Double?
    public var refinedTurnDeg: Double?
    public var refinedMedianPx: Double?
  }

  /// The joint refinement of every camera's pose on a match's players (`PlayerPoseRefinement`).
  public struct PlayerRefinement: Sendable, Codable {
    /// The match folder.
    public var match: String
    /// How the world frame and scale are fixed.
    public var gauge: String
    /// Keypoint and ball observations of the last round, and the clicked points' distances from their
    /// known positions after the alignment, metres.
    public var observations: Int
    public var anchorResidualsM: [Double]
    /// The scale the alignment applied to the adjusted rig (1: the scale the table's clicks gave).
    public var scale: Double
  }

  /// The poses from the players alone (`PlayerRig`): how each camera was linked to the reference camera
  /// and what fixed the world's frame and scale.
  public struct PlayerRigReport: Sendable, Codable {
    public struct Link: Sendable, Codable {
      public var camera: String
      /// Keypoints of the people matched between this camera and the reference, and those that fit the
      /// relative pose (five-point essential matrix, RANSAC).
      public var sharedKeypoints: Int
      public var inliers: Int
    }
    public var match: String
    public var reference: String
    public var scaleCamera: String
    public var links: [Link]
    /// Points and observations of the bundle adjustment, and its median residual after, pixels.
    public var points: Int
    public var observations: Int
    public var medianPx: Double
    /// How the world frame is fixed ("world = …") and where its scale comes from.
    public var gauge: String
    public var scaleFrom: String
    /// With a stated body height: the people's stature their limbs gave before scaling (units of the
    /// reference-to-scale-camera distance) and the limb samples.
    public var measuredStature: Double?
    public var limbSamples: Int?
  }

  public struct CameraEntry: Sendable, Codable {
    public var name: String
    public var imageSize: [Int]
    public var fx, fy, cx, cy: Double
    public var distortion: [Double]
    /// "checkerboard" or the calibration file the intrinsics were taken from.
    public var intrinsicsSource: String
    /// Zhang's calibration's RMS reprojection error over the images used, pixels.
    public var intrinsicsRMSPx: Double?
    public var images: [IntrinsicsCalibration.ImageOutcome]
    public var extrinsics: Extrinsics
  }

  public struct Board: Sendable, Codable {
    public var columns, rows: Int
    public var squareSizeM: Double
  }

  public var board: Board?
  /// What the world frame is.
  public var world: String
  public var cameras: [CameraEntry]
  public var playerRefinement: PlayerRefinement?
  public var playerRig: PlayerRigReport?

  public init(
    board: Board?, world: String, cameras: [CameraEntry], playerRefinement: PlayerRefinement? = nil, playerRig: PlayerRigReport? = nil
  ) {
    self.board = board
    self.world = world
    self.cameras = cameras
    self.playerRefinement = playerRefinement
    self.playerRig = playerRig
  }

  /// The report as JSON (sorted keys, pretty-printed).
  public func json() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }

  /// A few lines per camera: intrinsics, images used and rejected, the pose's fit.
  public var summary: String {
    var out = "world: \(world)\n"
    for c in cameras {
      out += "\(c.name)  \(c.imageSize[0])×\(c.imageSize[1])  "
        + String(format: "f %.1f %.1f  c %.1f %.1f  (", c.fx, c.fy, c.cx, c.cy) + c.intrinsicsSource
      if let rms = c.intrinsicsRMSPx {
        out += String(format: ": %d of %d images, %.3f px RMS", c.images.filter(\.used).count, c.images.count, rms)
      }
      out += ")\n"
      for image in c.images where !image.used { out += "  rejected \(image.file): \(image.rejection ?? "")\n" }
      let e = c.extrinsics
      out += "  pose from \(e.source)"
      if let rms = e.rmsPx { out += String(format: ": %.2f px RMS", rms) }
      out += String(format: "; centre (%.3f, %.3f, %.3f) m\n", e.centre[0], e.centre[1], e.centre[2])
      if let move = e.refinedMoveM, let turn = e.refinedTurnDeg {
        out += String(format: "  refined on the players: moved %.1f cm, turned %.2f°", move * 100, turn)
        if let median = e.refinedMedianPx { out += String(format: ", median residual %.2f px", median) }
        out += "\n"
      }
    }
    return out
  }
}

/// The rig seen from above as an SVG drawing: each camera's centre and viewing direction on the world's
/// x–y plane, and the table when the world is the table's venue frame.
public enum RigDrawing {
  /// - Parameter table: drawn centred on the origin, its length along x, when given.
  public static func svg(cameras: [Camera], table: TableGeometry?) -> String {
    var points = cameras.map { SIMD2($0.center.x, $0.center.y) }
    if let table { points += [SIMD2(-table.length / 2, -table.width / 2), SIMD2(table.length / 2, table.width / 2)] }
    points.append(.zero)
    let lo = points.reduce(points[0]) { pointwiseMin($0, $1) } - 1
    // Room on the right for the labels.
    let hi = points.reduce(points[0]) { pointwiseMax($0, $1) } + SIMD2(2.5, 1)
    let size = 600.0
    let scale = size / max(hi.x - lo.x, hi.y - lo.y)
    // SVG's y runs down: the world's y is drawn up.
    func map(_ p: SIMD2<Double>) -> (Double, Double) { ((p.x - lo.x) * scale, (hi.y - p.y) * scale) }
    let (w, h) = ((hi.x - lo.x) * scale, (hi.y - lo.y) * scale)
    var out = String(format: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.1f %.1f\" font-family=\"sans-serif\" font-size=\"12\">\n", w, h, w, h)
    out += "<title>Camera rig seen from above (world x right, y up; 1 m = \(String(format: "%.1f", scale)) px)</title>\n"
    out += String(format: "<rect width=\"%.1f\" height=\"%.1f\" fill=\"white\"/>\n", w, h)
    if let table {
      let (x0, y0) = map(SIMD2(-table.length / 2, table.width / 2))
      out += String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#1f5fa0\" stroke=\"white\"/>\n", x0, y0, table.length * scale, table.width * scale)
      let (nx0, ny0) = map(SIMD2(0, table.width / 2 + 0.1525)), (nx1, ny1) = map(SIMD2(0, -table.width / 2 - 0.1525))
      out += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-width=\"2\"/>\n", nx0, ny0, nx1, ny1)
    }
    let (ox, oy) = map(.zero)
    out += String(format: "<path d=\"M%.1f %.1f h30 M%.1f %.1f v-30\" stroke=\"#888\" fill=\"none\"/>\n", ox, oy, ox, oy)
    for camera in cameras {
      let c = SIMD2(camera.center.x, camera.center.y)
      let f = SIMD2(camera.forward.x, camera.forward.y)
      let (cx, cy) = map(c), (fx, fy) = map(c + f * (0.6 / max(1e-9, (f * f).sum().squareRoot())))
      out += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c03030\" stroke-width=\"2\"/>\n", cx, cy, fx, fy)
      out += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#c03030\"/>\n", cx, cy)
      out += String(format: "<text x=\"%.1f\" y=\"%.1f\">", cx + 7, cy - 7) + escape(camera.name)
        + String(format: " (%.2f m up)</text>\n", camera.center.z)
    }
    return out + "</svg>\n"
  }

  static func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
  }
}
