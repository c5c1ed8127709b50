import MatchSceneCore
import MatchSceneGeometry

/// How well one camera sees the match (a planning summary).
public struct CameraCoverage: Sendable, Equatable {
  public var camera: String
  /// Per person track (`P1`, `P2`, `B1`): fraction of the frames where the person is in the match in
  /// which all 17 keypoints project inside the image.
  public var personInside: [String: Double]
  /// Fraction of the frames with a ball where the ball projects inside the image.
  public var ballInside: Double
}

/// How well a rig sees a simulated match (`SimulatedMatch.coverage`).
public typealias Coverage = RigCoverage

/// How well a rig sees a simulated match.
public struct RigCoverage: Sendable, Equatable {
  public var cameras: [CameraCoverage]
  /// Fraction of all truth points seen by at least two cameras (what triangulation needs).
  public var multiViewFraction: Double
  /// Fraction of the truth points of each track seen by at least two cameras.
  public var multiViewFractionByTrack: [String: Double]

  /// A short human-readable table.
  public var summary: String {
    var lines: [String] = []
    let tracks = Set(cameras.flatMap { $0.personInside.keys }).sorted()
    lines.append((["camera"] + tracks.map { "\($0) inside" } + ["ball inside"]).joined(separator: "  "))
    for c in cameras {
      let cells = tracks.map { formatPercent(c.personInside[$0] ?? 0) } + [formatPercent(c.ballInside)]
      lines.append(([c.camera] + cells).joined(separator: "  "))
    }
    lines.append("points seen by ≥ 2 cameras: \(formatPercent(multiViewFraction))")
    return lines.joined(separator: "\n")
  }

  private func formatPercent(_ x: Double) -> String {
    let tenths = Int((x * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
  }
}

extension SimulatedMatch {
  /// Per camera, the fraction of frames each person and the ball are inside the image, and the
  /// fraction of truth points seen by at least two cameras (from the truth's `views`).
  public var coverage: RigCoverage {
    // The truth's present samples, in one list for the cameras' batch projection.
    var samples: [(track: Int, frame: Int, position: SIMD3<Double>, views: Int32)] = []
    for (t, track) in truth.tracks.enumerated() {
      for j in 0..<track.jointCount {
        for frame in track.frames {
          let s = track[joint: j, frame: frame]
          if s.isPresent { samples.append((t, frame, s.position, s.views)) }
        }
      }
    }
    let positions = samples.map(\.position)
    var cameras: [CameraCoverage] = []
    for camera in match.cameras {
      let pixels = camera.project(positions)
      // Per (track, frame): all joints inside?
      var allInside: [String: [Int: Bool]] = [:]
      var ballFrames = 0, ballInside = 0
      for (i, sample) in samples.enumerated() {
        let inside = pixels[i].map { camera.contains($0) } ?? false
        let track = truth.tracks[sample.track]
        if track.kind == .ball {
          ballFrames += 1
          if inside { ballInside += 1 }
        } else {
          allInside[track.id, default: [:]][sample.frame, default: true] =
            (allInside[track.id]?[sample.frame] ?? true) && inside
        }
      }
      var personInside: [String: Double] = [:]
      for (track, frames) in allInside {
        personInside[track] = Double(frames.values.filter { $0 }.count) / Double(max(frames.count, 1))
      }
      cameras.append(
        CameraCoverage(
          camera: camera.name, personInside: personInside,
          ballInside: ballFrames == 0 ? 0 : Double(ballInside) / Double(ballFrames)))
    }
    var total = 0, multi = 0
    var byTrack: [String: (Int, Int)] = [:]
    for sample in samples {
      total += 1
      let seen = sample.views >= 2
      if seen { multi += 1 }
      let id = truth.tracks[sample.track].id
      let old = byTrack[id] ?? (0, 0)
      byTrack[id] = (old.0 + 1, old.1 + (seen ? 1 : 0))
    }
    return RigCoverage(
      cameras: cameras, multiViewFraction: total == 0 ? 0 : Double(multi) / Double(total),
      multiViewFractionByTrack: byTrack.mapValues { Double($0.1) / Double($0.0) })
  }
}
