import MatchSceneCore
import MatchSceneGeometry

/// Viewing rays of every keypoint of every person one camera saw in one frame, in world coordinates.
struct ViewRays {
  /// Camera centre in world coordinates (origin of every ray).
  let origin: SIMD3<Double>
  /// [person][joint] unit direction, nil where the keypoint is missing or below the confidence floor.
  let directions: [[SIMD3<Double>?]]

  init(camera: Camera, people: [PersonDetection2D], minConfidence: Double) throws {
    origin = camera.center
    let worldFromCam = camera.worldFromCam.rotation
    var pixels: [SIMD2<Double>] = []
    for person in people { for k in person.keypoints { pixels.append(SIMD2(k.x, k.y)) } }
    let normalised = try camera.undistort(pixels)
    var index = 0
    var directions: [[SIMD3<Double>?]] = []
    for person in people {
      var row: [SIMD3<Double>?] = []
      for k in person.keypoints {
        defer { index += 1 }
        guard k.isDetected, k.confidence >= minConfidence, let n = normalised[index] else {
          row.append(nil)
          continue
        }
        row.append(normalize(worldFromCam * SIMD3(n.x, n.y, 1)))
      }
      directions.append(row)
    }
    self.directions = directions
  }

  /// Shortest distance between two lines `o1 + s·d1` and `o2 + t·d2` (unit directions), metres.
  /// Near-parallel lines fall back to the distance of `o2` from the first line.
  static func lineDistance(_ o1: SIMD3<Double>, _ d1: SIMD3<Double>, _ o2: SIMD3<Double>, _ d2: SIMD3<Double>) -> Double {
    let n = cross(d1, d2)
    let nn = length(n)
    let w = o2 - o1
    if nn < 1e-9 { return length(w - dot(w, d1) * d1) }
    return abs(dot(w, n)) / nn
  }

  /// Median ray distance between person `a` here and person `b` of `other`, over joints both saw;
  /// nil when they share fewer than `minShared` joints.
  /// The distances are sorted without allocating (`withSortedValues`).
  func distance(person a: Int, to other: ViewRays, person b: Int, minShared: Int) -> Double? {
    let ra = directions[a], rb = other.directions[b]
    let joints = min(ra.count, rb.count)
    return withSortedValues(capacity: joints) { emit in
      for j in 0..<joints {
        if let da = ra[j], let db = rb[j] { emit(Self.lineDistance(origin, da, other.origin, db)) }
      }
    } _: { d in
      let n = d.count
      guard n >= minShared else { return nil }
      return n % 2 == 1 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2])
    }
  }
}
