import MatchSceneCore

/// Whether a camera rig can triangulate at all: at least two cameras with detections, at two different
/// places. A point seen from one place lies somewhere on one ray; depth needs a baseline (Hartley &
/// Zisserman, Multiple View Geometry, 2nd ed., §12.2: the rays of a 3D point from coincident centres
/// do not intersect in a unique point).
public enum RigCheck {
  /// Centres closer than this (metres) count as one place: at the distances of a sports venue (≥ 2 m)
  /// a 1 cm baseline gives rays less than 0.3° apart, far below keypoint noise.
  public static let coincidenceDistance = 0.01

  /// Checks the cameras that have detections.
  /// - Parameters:
  ///   - match: the loaded match; only cameras with an entry in `detections` count.
  ///   - file: the folder or file named in the error.
  /// - Returns: warnings for cameras that share a place with another one while the rig still has two
  ///   places or more.
  /// - Throws: `InputError` naming the cameras when fewer than two cameras have detections or all of
  ///   them stand at one place.
  public static func check(_ match: Match, file: String) throws -> [Diagnostic] {
    let used = match.cameras.filter { match.detections[$0.name] != nil }
    guard used.count >= 2 else {
      let which = used.isEmpty ? "no camera has detections" : "only one camera (\(used[0].name)) has detections"
      throw InputError(
        file: file,
        "nothing was reconstructed: \(which); triangulation needs two or more cameras at different places that see the same scene")
    }
    // Group the cameras by place, in calibration order.
    var places: [[Camera]] = []
    for camera in used {
      if let i = places.firstIndex(where: { length($0[0].center - camera.center) < coincidenceDistance }) {
        places[i].append(camera)
      } else {
        places.append([camera])
      }
    }
    let shared = places.filter { $0.count > 1 }.map { group in
      group.map(\.name).joined(separator: ", ") + " (centres within \(Int(coincidenceDistance * 1000)) mm)"
    }
    guard places.count >= 2 else {
      throw InputError(
        file: file,
        "nothing was reconstructed: every camera with detections stands at one place: \(shared.joined(separator: "; ")); "
          + "triangulation needs two or more cameras at different places (check the calibration's translations)")
    }
    return shared.map {
      Diagnostic(.warning, InputError(file: file, "cameras at the same place: \($0); together they count as one view of depth"))
    }
  }
}
