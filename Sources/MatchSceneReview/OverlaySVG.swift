import Foundation
import MatchSceneCore
import MatchSceneGeometry

/// An SVG overlay of one camera frame: the 2D detections (dots and skeleton lines) and the 3D
/// reconstruction projected into the camera (dashed skeletons, ball ring), with a legend giving each
/// track's mean pixel disagreement between its reprojection and the detection it is matched to.
///
/// Matching: each reprojected track takes, greedily in order of increasing cost, the unused detection
/// whose keypoints it is nearest to on average (over keypoints both have); the ball takes the nearest
/// ball detection. A track without a detection in view gets no number ("–").
public enum OverlaySVG {
  /// Per-track disagreement of one frame, pixels; nil when the track has nothing to compare with.
  public struct Disagreement: Sendable, Equatable {
    public var track: String
    public var meanPx: Double?
  }

  /// The SVG document (width × height = the camera's image size, pixel coordinates, y down).
  /// - Parameters:
  ///   - camera: projects the reconstruction (distortion included).
  ///   - frame: the match frame; only `reconstructed`'s samples of this frame are drawn.
  ///   - reconstructed: the tracks (their joints matched to `skeleton`'s by name).
  ///   - detections, balls: this camera's 2D detections of the frame.
  ///   - skeleton: keypoint order of the detections and bones to draw.
  public static func render(
    camera: Camera, frame: Int, detections: [PersonDetection2D], balls: [BallDetection2D],
    reconstructed: MotionModel, skeleton: Skeleton, background: String? = defaultBackground
  ) -> String {
    renderWithDisagreements(
      camera: camera, frame: frame, detections: detections, balls: balls, reconstructed: reconstructed,
      skeleton: skeleton, background: background
    ).svg
  }

  /// The image's default fill: dark, so the white detections show when the SVG is opened on its own.
  public static let defaultBackground = "#202020"

  /// `render` and the per-track disagreements its legend shows, computed once.
  /// - Parameter background: a CSS colour filling the image, or nil for a transparent image to lay
  ///   over the camera's video frame.
  public static func renderWithDisagreements(
    camera: Camera, frame: Int, detections: [PersonDetection2D], balls: [BallDetection2D],
    reconstructed: MotionModel, skeleton: Skeleton, background: String? = defaultBackground
  ) -> (svg: String, disagreements: [Disagreement]) {
    let projected = project(camera: camera, frame: frame, reconstructed: reconstructed, skeleton: skeleton)
    let scores = disagreements(projected: projected, detections: detections, balls: balls)
    let w = camera.imageSize.width, h = camera.imageSize.height
    let stroke = max(1.0, Double(max(w, h)) / 600)
    var svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)">
      <title>\(escaped(camera.name)) frame \(frame)</title>
      <rect width="\(w)" height="\(h)" fill="\(background.map(escaped) ?? "none")" stroke="#888" stroke-width="\(f(stroke))"/>

      """
    // Detections: white dots and lines.
    svg += "<g id=\"detections\" stroke=\"#ffffff\" fill=\"#ffffff\" stroke-width=\"\(f(stroke))\">\n"
    for person in detections {
      for (a, b) in skeleton.bones where a < person.keypoints.count && b < person.keypoints.count {
        let p = person.keypoints[a], q = person.keypoints[b]
        guard p.isDetected, q.isDetected else { continue }
        svg += "<line x1=\"\(f(p.x))\" y1=\"\(f(p.y))\" x2=\"\(f(q.x))\" y2=\"\(f(q.y))\"/>\n"
      }
      for p in person.keypoints where p.isDetected {
        svg += "<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(2 * stroke))\"/>\n"
      }
    }
    for ball in balls where ball.confidence > 0 {
      svg += "<circle cx=\"\(f(ball.x))\" cy=\"\(f(ball.y))\" r=\"\(f(3 * stroke))\"/>\n"
    }
    svg += "</g>\n"
    // Reprojections: one colour per track, dashed bones, hollow joints.
    svg += "<g id=\"reprojections\" fill=\"none\" stroke-width=\"\(f(stroke))\">\n"
    for (i, track) in projected.enumerated() {
      let colour = palette[i % palette.count]
      svg += "<g class=\"track\" data-track=\"\(escaped(track.track))\" stroke=\"\(colour)\">\n"
      for (a, b) in skeleton.bones where !track.isBall {
        guard let p = track.pixels[a], let q = track.pixels[b] else { continue }
        svg += "<line x1=\"\(f(p.x))\" y1=\"\(f(p.y))\" x2=\"\(f(q.x))\" y2=\"\(f(q.y))\" stroke-dasharray=\"\(f(4 * stroke))\"/>\n"
      }
      for case let p? in track.pixels {
        svg += "<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(track.isBall ? 5 * stroke : 3 * stroke))\"/>\n"
      }
      svg += "</g>\n"
    }
    svg += "</g>\n"
    // Legend.
    let line = 18 * stroke
    svg += "<g id=\"legend\" font-family=\"sans-serif\" font-size=\"\(f(14 * stroke))\">\n"
    svg += "<rect x=\"\(f(8 * stroke))\" y=\"\(f(8 * stroke))\" width=\"\(f(220 * stroke))\" height=\"\(f(line * Double(scores.count + 1) + 8 * stroke))\" fill=\"#000000\" fill-opacity=\"0.5\"/>\n"
    svg += "<text x=\"\(f(14 * stroke))\" y=\"\(f(8 * stroke + line))\" fill=\"#ffffff\">\(escaped(camera.name)) · frame \(frame)</text>\n"
    for (i, score) in scores.enumerated() {
      let value = score.meanPx.map { String(format: "%.1f px", $0) } ?? "–"
      svg += "<text x=\"\(f(14 * stroke))\" y=\"\(f(8 * stroke + line * Double(i + 2)))\" fill=\"\(palette[i % palette.count])\" "
        + "data-track=\"\(escaped(score.track))\" data-mean-px=\"\(score.meanPx.map { f($0) } ?? "")\">"
        + "\(escaped(score.track)): \(value)</text>\n"
    }
    svg += "</g>\n</svg>\n"
    return (svg, scores)
  }

  /// Each track's mean disagreement (pixels) in this frame, in the order the legend lists them.
  public static func disagreements(
    camera: Camera, frame: Int, detections: [PersonDetection2D], balls: [BallDetection2D],
    reconstructed: MotionModel, skeleton: Skeleton
  ) -> [Disagreement] {
    disagreements(
      projected: project(camera: camera, frame: frame, reconstructed: reconstructed, skeleton: skeleton),
      detections: detections, balls: balls)
  }

  /// A track's projected keypoints (index = skeleton keypoint; the ball has one entry).
  struct ProjectedTrack {
    var track: String
    var isBall: Bool
    var pixels: [SIMD2<Double>?]
  }

  /// The tracks with a sample at `frame`, by id, projected by `camera`; a person's joints go to the
  /// keypoints of `skeleton` with their names.
  static func project(camera: Camera, frame: Int, reconstructed motion: MotionModel, skeleton: Skeleton) -> [ProjectedTrack] {
    let keypointOf = motion.skeleton.keypoints.map { skeleton.index(of: $0) }
    return motion.tracks.filter { $0.isPresent(frame: frame) }.sorted { $0.id < $1.id }.map { track in
      if track.kind == .ball {
        return ProjectedTrack(track: track.id, isBall: true, pixels: [camera.project(track[joint: 0, frame: frame].position)])
      }
      var pixels = [SIMD2<Double>?](repeating: nil, count: skeleton.count)
      let joints = (0..<track.jointCount).filter { track[joint: $0, frame: frame].isPresent }
      let projected = camera.project(joints.map { track[joint: $0, frame: frame].position })
      for (j, pixel) in zip(joints, projected) {
        if let i = keypointOf[j] { pixels[i] = pixel.flatMap(inImage(camera)) }
      }
      return ProjectedTrack(track: track.id, isBall: false, pixels: pixels)
    }
  }

  /// Keeps pixels within (a margin of) the image.
  private static func inImage(_ camera: Camera) -> (SIMD2<Double>) -> SIMD2<Double>? {
    let w = Double(camera.imageSize.width), h = Double(camera.imageSize.height)
    return { p in (-w...2 * w).contains(p.x) && (-h...2 * h).contains(p.y) ? p : nil }
  }

  static func disagreements(
    projected: [ProjectedTrack], detections: [PersonDetection2D], balls: [BallDetection2D]
  ) -> [Disagreement] {
    var result = projected.map { Disagreement(track: $0.track, meanPx: nil) }
    // Players: all (track, detection) costs, then greedy assignment by increasing cost.
    var costs: [(cost: Double, track: Int, detection: Int)] = []
    for (t, track) in projected.enumerated() where !track.isBall {
      for (d, person) in detections.enumerated() {
        var sum = 0.0, n = 0
        for (i, pixel) in track.pixels.enumerated() where i < person.keypoints.count {
          let k = person.keypoints[i]
          guard let pixel, k.isDetected else { continue }
          sum += ((pixel.x - k.x) * (pixel.x - k.x) + (pixel.y - k.y) * (pixel.y - k.y)).squareRoot()
          n += 1
        }
        if n > 0 { costs.append((sum / Double(n), t, d)) }
      }
    }
    var usedTracks = Set<Int>(), usedDetections = Set<Int>()
    for c in costs.sorted(by: { $0.cost < $1.cost }) where !usedTracks.contains(c.track) && !usedDetections.contains(c.detection) {
      usedTracks.insert(c.track)
      usedDetections.insert(c.detection)
      result[c.track].meanPx = c.cost
    }
    // The ball: nearest detection.
    for (t, track) in projected.enumerated() where track.isBall {
      guard let pixel = track.pixels.first ?? nil else { continue }
      result[t].meanPx = balls.filter { $0.confidence > 0 }
        .map { (($0.x - pixel.x) * ($0.x - pixel.x) + ($0.y - pixel.y) * ($0.y - pixel.y)).squareRoot() }.min()
    }
    return result
  }

  static let palette = ["#ff5050", "#4fa3ff", "#52d16b", "#ffd23f", "#c77dff", "#3fe0d0", "#ff9f40"]

  private static func f(_ x: Double) -> String { String(format: "%.2f", x) }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
