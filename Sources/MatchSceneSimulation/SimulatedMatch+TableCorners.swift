import Foundation
import MatchSceneBallFlight
import MatchSceneCore
import MatchSceneGeometry

extension SimulatedMatch {
  /// The table's four top corners as a person would click them in each camera's image: projected
  /// through the true cameras, plus Gaussian noise of `clickSigmaPx` pixels per axis, in the same order
  /// around the table in every camera. A camera that does not see all four corners inside its image
  /// is left out. The pixels do not depend on the world the match is described in.
  /// - Returns: a corners file `matchscene locate-venue --corners` reads (`TableCorners`), or nil when
  ///   no camera sees the whole table.
  public func tableCornersTOML(table: TableGeometry, clickSigmaPx: Double, seed: UInt64) -> String? {
    // The simulator's own world is the venue: the table top's centre at (0, 0, surfaceHeight).
    let (l, w, h) = (table.length / 2, table.width / 2, table.surfaceHeight)
    let corners = [SIMD3(-l, -w, h), SIMD3(l, -w, h), SIMD3(l, w, h), SIMD3(-l, w, h)]
    let cameras = trueCameras.isEmpty ? match.cameras : trueCameras
    var rng = SeededGenerator(seed: seed &+ 0x7AB1E)
    var out = "# the table's top corners clicked in each camera's image, pixels (simulated: σ \(clickSigmaPx) px)\n"
    var seen = 0
    for camera in cameras.sorted(by: { $0.name < $1.name }) {
      let pixels: [SIMD2<Double>] = corners.compactMap { camera.project($0) }
      let size = SIMD2(Double(camera.imageSize.width), Double(camera.imageSize.height))
      guard pixels.count == 4, pixels.allSatisfy({ p in inside(p, size) }) else { continue }
      let clicked = pixels.map { $0 + clickSigmaPx * SIMD2(rng.gaussian(), rng.gaussian()) }
      let list = clicked.map { String(format: "[%.3f, %.3f]", $0.x, $0.y) }
      out += "\n[\(camera.name)]\ncorners = [\(list.joined(separator: ", "))]\n"
      seen += 1
    }
    return seen > 0 ? out : nil
  }

  /// A pixel within an image of `size` pixels.
  private func inside(_ p: SIMD2<Double>, _ size: SIMD2<Double>) -> Bool {
    p.x >= 0 && p.y >= 0 && p.x < size.x && p.y < size.y
  }
}
