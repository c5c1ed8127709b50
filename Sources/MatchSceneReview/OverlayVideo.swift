import Foundation
import MatchSceneCore

/// Draws a camera's 2D detections and the reconstruction reprojected into it on the camera's own video
/// and writes an MP4: frames decoded by `ffmpeg` into a pipe as raw RGB, drawn in Swift, piped into a
/// second `ffmpeg` that encodes H.264 (Debian's `ffmpeg`, libx264, yuv420p, the input's frame rate).
///
/// Frames: video frame k is camera frame k, so match frame `k − offset` with `cameraFrame = matchFrame
/// + offset` (match.toml `[frame_offsets]`); every video frame is written, or only those of `frames`
/// (match frames) when given. What is drawn is what `OverlaySVG` draws: detections in white (bones and
/// keypoints), each reconstructed person in its palette colour (solid bones, filled joints; the colour
/// of a track is fixed for the whole video), the ball as a ring. Pixel coordinates of the calibration are scaled to the video's size when they differ (a video
/// scaled down from the calibrated resolution).
public enum OverlayVideo {
  /// What ffprobe says of a video's first video stream.
  public struct Info: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// The frame rate as ffprobe gives it (`r_frame_rate`, e.g. `60/1`, `30000/1001`).
    public var frameRate: String
    /// Frames per second.
    public var fps: Double
  }

  /// What `render` did.
  public struct Summary: Sendable, Equatable {
    public var framesWritten: Int
    /// Video frames that had reconstructed points (in the match's frames).
    public var framesWithReconstruction: Int
    public var info: Info
  }

  /// Probes `video` with `ffprobe`.
  /// - Throws: `InputError` naming the file when ffprobe fails or finds no video stream.
  public static func probe(_ video: URL, ffprobe: String = "ffprobe") throws -> Info {
    let result: String
    do {
      result = try FFmpegProcess.output(
        ffprobe,
        ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,r_frame_rate", "-of", "csv=p=0", video.path])
    } catch let error as InputError {
      throw InputError(file: video.path, "not a video ffprobe can read: \(error.message)")
    }
    let fields = result.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    guard fields.count == 3, let width = Int(fields[0]), let height = Int(fields[1]), width > 0, height > 0 else {
      throw InputError(file: video.path, "no video stream (ffprobe said '\(result.trimmingCharacters(in: .whitespacesAndNewlines))')")
    }
    let parts = fields[2].split(separator: "/").compactMap { Double($0) }
    let fps = parts.count == 2 && parts[1] > 0 ? parts[0] / parts[1] : parts.first ?? 0
    guard fps > 0, fps.isFinite else { throw InputError(file: video.path, "frame rate '\(fields[2])' is not a positive number") }
    return Info(width: width, height: height, frameRate: fields[2], fps: fps)
  }

  /// Each track's colour: `OverlaySVG.palette` in the order of the sorted track ids, so that a track keeps
  /// its colour through the video whoever else is in view.
  public static func colors(tracks: some Sequence<String>) -> [String: SIMD3<UInt8>] {
    Dictionary(uniqueKeysWithValues: Set(tracks).sorted().enumerated().map {
      ($1, rgb(OverlaySVG.palette[$0 % OverlaySVG.palette.count]))
    })
  }

  /// Draws one frame's overlay on `image` (see the type's summary).
  /// - Parameters:
  ///   - frame: the match frame; only `reconstructed`'s samples of this frame are drawn.
  ///   - detections, balls: the camera's detections of that frame.
  ///   - colors: each track's colour (`colors(tracks:)`); tracks missing from it are drawn in the
  ///     palette's order within the frame.
  public static func draw(
    on image: inout RGBImage, camera: Camera, frame: Int, detections: [PersonDetection2D], balls: [BallDetection2D],
    reconstructed: MotionModel, skeleton: Skeleton, colors: [String: SIMD3<UInt8>] = [:]
  ) {
    let scale = SIMD2(
      Double(image.width) / Double(camera.imageSize.width), Double(image.height) / Double(camera.imageSize.height))
    let stroke = max(1.0, Double(max(image.width, image.height)) / 600)
    let white = SIMD3<UInt8>(255, 255, 255)
    for person in detections {
      let k = person.keypoints
      for (a, b) in skeleton.bones where a < k.count && b < k.count && k[a].isDetected && k[b].isDetected {
        image.drawLine(from: SIMD2(k[a].x, k[a].y) * scale, to: SIMD2(k[b].x, k[b].y) * scale, width: stroke, color: white)
      }
      for p in k where p.isDetected { image.fillDisc(center: SIMD2(p.x, p.y) * scale, radius: 1.5 * stroke, color: white) }
    }
    for ball in balls where ball.confidence > 0 {
      image.fillDisc(center: SIMD2(ball.x, ball.y) * scale, radius: 2 * stroke, color: white)
    }
    let projected = OverlaySVG.project(camera: camera, frame: frame, reconstructed: reconstructed, skeleton: skeleton)
    for (i, track) in projected.enumerated() {
      let color = colors[track.track] ?? rgb(OverlaySVG.palette[i % OverlaySVG.palette.count])
      if track.isBall {
        if let p = track.pixels.first ?? nil {
          image.drawRing(center: p * scale, radius: 5 * stroke, thickness: stroke, color: color)
        }
        continue
      }
      for (a, b) in skeleton.bones {
        guard let p = track.pixels[a], let q = track.pixels[b] else { continue }
        image.drawLine(from: p * scale, to: q * scale, width: stroke, color: color)
      }
      for case let p? in track.pixels { image.fillDisc(center: p * scale, radius: 2.5 * stroke, color: color) }
    }
  }

  /// Checks that `video` is the camera's recording at the match's rate: its frame rate within 0.5 % of
  /// `fps` (video frame k is camera frame k, so at another rate the drawing drifts off the people) and
  /// its size the calibrated image size or that size scaled (the same aspect ratio within 1 %: a
  /// stretched video puts every point in the wrong place).
  /// - Throws: `InputError` naming the video, what it holds and what was expected.
  public static func checkMatches(_ info: Info, video: URL, camera: Camera, fps: Double) throws {
    if abs(info.fps - fps) > 0.005 * fps {
      throw InputError(
        file: video.path,
        "the video runs at \(info.frameRate) fps (\(String(format: "%.3f", info.fps))), the match at \(fps) fps: video frame k "
          + "would not be the camera's frame k; give the camera's own recording, or pass --accept-video-mismatch")
    }
    let videoAspect = Double(info.width) / Double(info.height)
    let cameraAspect = Double(camera.imageSize.width) / Double(camera.imageSize.height)
    if abs(videoAspect / cameraAspect - 1) > 0.01 {
      throw InputError(
        file: video.path,
        "the video is \(info.width)×\(info.height), camera \(camera.name) is calibrated at "
          + "\(camera.imageSize.width)×\(camera.imageSize.height) (another aspect ratio, so the drawing would be stretched); "
          + "give the camera's own recording, or pass --accept-video-mismatch")
    }
  }

  /// Writes `output` (MP4) from `video` with the overlay of `camera` drawn on each frame.
  /// - Parameters:
  ///   - offset: the camera's frame offset (`cameraFrame = matchFrame + offset`).
  ///   - frames: match frames to write (nil: every video frame).
  ///   - reconstructed: the reconstruction (match frames).
  ///   - acceptMismatch: draw even when the video's rate or aspect ratio is not the camera's
  ///     (`checkMatches`).
  ///   - progress: called with the number of frames written so far.
  /// - Throws: `InputError` naming the video when it cannot be probed or decoded, or the encoder fails;
  ///   the output is written whole (encoded beside it, then moved into place).
  @discardableResult
  public static func render(
    video: URL, to output: URL, camera: Camera, offset: Int, frames: ClosedRange<Int>? = nil, match: Match,
    reconstructed: MotionModel, skeleton: Skeleton, ffmpeg: String = "ffmpeg", ffprobe: String = "ffprobe",
    acceptMismatch: Bool = false, progress: (Int) -> Void = { _ in }
  ) throws -> Summary {
    try OutputFolder.checkRegularFile(video, what: "video")
    let info = try probe(video, ffprobe: ffprobe)
    if !acceptMismatch { try checkMatches(info, video: video, camera: camera, fps: match.fps) }
    let partial = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).partial.mp4")
    try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: partial) }
    var decodeArguments = ["-v", "error", "-nostdin", "-i", video.path]
    if let frames {
      // Only the video frames of the wanted match frames, counted exactly (no seeking by time).
      let first = frames.lowerBound + offset, last = frames.upperBound + offset
      decodeArguments += ["-vf", "select=between(n\\,\(first)\\,\(last))", "-vsync", "passthrough"]
    }
    decodeArguments += ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    let decoder = try FFmpegProcess(ffmpeg, decodeArguments, reads: true)
    // yuv420p needs even sizes: pad by a pixel where odd.
    let encoder = try FFmpegProcess(
      ffmpeg,
      [
        "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(info.width)x\(info.height)",
        "-framerate", info.frameRate, "-i", "-", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264",
        "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-r", info.frameRate, "-movflags", "+faststart",
        "-f", "mp4", partial.path,
      ], reads: false)
    let frameBytes = 3 * info.width * info.height
    let colors = colors(tracks: reconstructed.tracks.filter { $0.presentFrameCount > 0 }.map(\.id))
    var written = 0, withData = 0
    var videoFrame = frames.map { $0.lowerBound + offset } ?? 0
    do {
      while let bytes = try decoder.read(count: frameBytes) {
        let matchFrame = videoFrame - offset
        var image = RGBImage(width: info.width, height: info.height, bytes: bytes)
        if reconstructed.tracks.contains(where: { $0.isPresent(frame: matchFrame) }) { withData += 1 }
        draw(
          on: &image, camera: camera, frame: matchFrame, detections: match.people(camera: camera.name, frame: matchFrame),
          balls: match.balls(camera: camera.name, frame: matchFrame), reconstructed: reconstructed, skeleton: skeleton,
          colors: colors)
        try encoder.write(image.bytes)
        written += 1
        videoFrame += 1
        progress(written)
      }
    } catch {
      decoder.terminate()
      encoder.terminate()
      throw error
    }
    try decoder.finish(what: "decoding \(video.path)")
    try encoder.finish(what: "encoding \(output.path)")
    guard written > 0 else { throw InputError(file: video.path, "no video frames to draw on\(frames.map { " for match frames \($0)" } ?? "")") }
    // One rename replaces the previous video atomically (POSIX rename(2)).
    guard rename(partial.path, output.path) == 0 else {
      throw InputError(file: output.path, "cannot move the video into place: \(String(cString: strerror(errno)))")
    }
    return Summary(framesWritten: written, framesWithReconstruction: withData, info: info)
  }

  /// `#rrggbb` as bytes.
  static func rgb(_ hex: String) -> SIMD3<UInt8> {
    let v = UInt32(hex.dropFirst(), radix: 16) ?? 0xffffff
    return SIMD3(UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff))
  }
}
