import ArgumentParser
import Foundation
import MatchSceneCore

/// `--world-transform yaw=30,x=1.8,y=-2.4`: where the simulator's venue (its own world: the table's
/// centre on the floor at the origin, z up, x along the table) lies in the world the match is written
/// in — turned `yaw` degrees about up, then moved by (x, y, z) metres. Keys left out are 0; up stays z.
struct WorldTransformArgument: ExpressibleByArgument {
  static let keys = ["yaw", "x", "y", "z"]
  var values: [String: Double] = [:]

  init?(argument: String) {
    for part in argument.split(separator: ",") {
      let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      guard pair.count == 2, Self.keys.contains(pair[0]), values[pair[0]] == nil, let x = Double(pair[1]), x.isFinite,
        abs(x) <= 1e4
      else { return nil }
      values[pair[0]] = x
    }
    guard !values.isEmpty else { return nil }
  }

  /// `x_world = R_z(yaw) · x_venue + (x, y, z)`.
  var worldFromVenue: RigidTransform {
    let yaw = (values["yaw"] ?? 0) * Double.pi / 180
    return RigidTransform(
      rotation: Matrix3.rodrigues(SIMD3(0, 0, yaw)),
      translation: SIMD3(values["x"] ?? 0, values["y"] ?? 0, values["z"] ?? 0))
  }
}
