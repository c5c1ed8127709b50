import Foundation
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO
import TestSupport
import XCTest

/// `overlay --video`: a 100-frame test video (ffmpeg's testsrc, half the calibrated size) of a simulated
/// match's cam1, with a frame offset of 30 in match.toml; the MP4 written has 100 frames at 60 fps, and
/// in the video frame k where P1 moves most, P1's joints reprojected at match frame k − 30 are drawn in P1's colour (fixed for the video) where
/// the calibration projects them (scaled by one half).
final class OverlayVideoTests: XCTestCase {
  func testOverlayOnTheCamerasVideoIsFrameAccurate() throws {
    try requireTier(.integration)
    _ = try FFmpeg.executable("ffmpeg")
    _ = try FFmpeg.executable("ffprobe")
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let match = folder.appendingPathComponent("match"), out = folder.appendingPathComponent("out")
    XCTAssertEqual(try runMatchScene(["simulate", "-o", match.path, "--duration", "3", "--seed", "5"]).status, 0)
    let reconstruct = try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene"])
    XCTAssertEqual(reconstruct.status, 0, reconstruct.stderr)
    // cam1's video starts `offset` frames before the match's frame 0: cameraFrame = matchFrame + offset.
    let offset = 30
    let config = match.appendingPathComponent("match.toml")
    let text = try String(contentsOf: config, encoding: .utf8)
    XCTAssertTrue(text.contains("cam1 = 0"), text)
    try text.replacingOccurrences(of: "cam1 = 0", with: "cam1 = \(offset)").write(to: config, atomically: true, encoding: .utf8)

    let video = folder.appendingPathComponent("cam1.mp4")
    try FFmpeg.run("ffmpeg", [
      "-v", "error", "-f", "lavfi", "-i", "testsrc=size=960x540:rate=60", "-frames:v", "100", "-pix_fmt", "yuv420p",
      "-c:v", "libx264", "-preset", "ultrafast", video.path,
    ])
    let started = Date()
    let overlay = try runMatchScene([
      "overlay", match.path, "--tracks", out.path, "--video", video.path, "-o", folder.appendingPathComponent("overlay").path,
    ])
    let seconds = Date().timeIntervalSince(started)
    XCTAssertEqual(overlay.status, 0, overlay.stderr)
    print("OverlayVideoTests: \(overlay.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) (\(String(format: "%.1f", seconds)) s wall)")
    let result = folder.appendingPathComponent("overlay/cam1.mp4")

    let probe = String(decoding: try FFmpeg.run("ffprobe", [
      "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
      "stream=codec_name,width,height,r_frame_rate,nb_read_frames", "-of", "csv=p=0", result.path,
    ]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(probe, "h264,960,540,60/1,100", "codec, size, rate, frames")

    // Where P1's joints project at a match frame, at half the calibrated size (nil: out of view).
    let camera = try XCTUnwrap(try CalibrationTOML.read(from: match.appendingPathComponent("calibration/calibration.toml")).first { $0.name == "cam1" })
    let rows = try TracksCSV.read(from: out.appendingPathComponent("tracks.csv"))
    let p1 = Dictionary(grouping: rows.filter { $0.track == "P1" }, by: \.frame)
    func pixels(_ frame: Int) -> [String: SIMD2<Double>] {
      var out: [String: SIMD2<Double>] = [:]
      for row in p1[frame] ?? [] {
        guard let p = camera.project(row.position).map({ $0 * 0.5 }), p.x >= 0, p.y >= 0, p.x < 960, p.y < 540 else { continue }
        out[row.joint] = p
      }
      return out
    }
    // The video frame where P1's joints move most between match frames k − offset (drawn) and k (not).
    let k = (offset + 10..<100).max { a, b in
      func motion(_ k: Int) -> Double {
        let now = pixels(k - offset), wrong = pixels(k)
        return now.keys.compactMap { j in wrong[j].map { (($0 - now[j]!) * ($0 - now[j]!)).sum().squareRoot() } }.max() ?? 0
      }
      return motion(a) < motion(b)
    }!
    let drawnFrame = try FFmpeg.rgb(of: result, frame: k), input = try FFmpeg.rgb(of: video, frame: k)
    // P1's colour: the palette in the order of the sorted track ids (B1, P1, P2, ball: the second, #4fa3ff).
    let tracks = Set(rows.map(\.track)).sorted()
    XCTAssertEqual(tracks.firstIndex(of: "P1"), 1, "\(tracks)")
    let colour = SIMD3(0x4f, 0xa3, 0xff)
    /// Painted in P1's colour by the overlay: that colour in the output, not in the input video.
    func drawn(_ p: SIMD2<Double>) -> Bool {
      func near(_ q: SIMD3<Int>) -> Bool { abs(q.x - colour.x) + abs(q.y - colour.y) + abs(q.z - colour.z) < 90 }
      return near(drawnFrame[Int(p.x), Int(p.y)]) && !near(input[Int(p.x), Int(p.y)])
    }
    let expected = pixels(k - offset), wrong = pixels(k)
    XCTAssertGreaterThan(expected.count, 10, "P1 is in cam1's view")
    let moved = expected.keys.filter { j in wrong[j].map { (($0 - expected[j]!) * ($0 - expected[j]!)).sum() > 10 * 10 } ?? false }
    let hits = expected.values.filter(drawn).count
    let movedHits = moved.filter { drawn(expected[$0]!) }.count, wrongHits = moved.filter { drawn(wrong[$0]!) }.count
    print("OverlayVideoTests: video frame \(k): P1's joints drawn at \(hits) of \(expected.count) reprojections of match frame \(k - offset); of the \(moved.count) joints that moved > 10 px, \(movedHits) drawn at frame \(k - offset)'s place, \(wrongHits) at frame \(k)'s")
    XCTAssertGreaterThanOrEqual(Double(hits), 0.8 * Double(expected.count), "P1's reprojected joints are drawn where they project")
    XCTAssertGreaterThan(moved.count, 0, "some joint moves more than 10 px in `offset` frames")
    XCTAssertGreaterThan(movedHits, wrongHits, "drawn at match frame k − offset, not at k")

    // --frames: only the video frames of those match frames (video frames 40…49 with the offset).
    let part = try runMatchScene([
      "overlay", match.path, "--tracks", out.path, "--video", video.path, "--frames", "10-19", "-o",
      folder.appendingPathComponent("part").path,
    ])
    XCTAssertEqual(part.status, 0, part.stderr)
    let partProbe = String(decoding: try FFmpeg.run("ffprobe", [
      "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate,nb_read_frames",
      "-of", "csv=p=0", folder.appendingPathComponent("part/cam1.mp4").path,
    ]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(partProbe, "60/1,10")
    let partFrame = try FFmpeg.rgb(of: folder.appendingPathComponent("part/cam1.mp4"), frame: 5)
    let expected15 = pixels(15)
    XCTAssertGreaterThanOrEqual(
      Double(expected15.values.filter { p in
        let q = partFrame[Int(p.x), Int(p.y)]
        return abs(q.x - colour.x) + abs(q.y - colour.y) + abs(q.z - colour.z) < 90
      }.count), 0.8 * Double(expected15.count), "the 6th frame written is match frame 15")

    // Bad input: a missing video, a file that is no video, a camera that does not exist.
    let notVideo = out.appendingPathComponent("tracks.csv")
    for (arguments, message) in [
      (["--video", folder.appendingPathComponent("none.mp4").path], "none.mp4: no such file"),
      (["--video", notVideo.path, "--camera", "cam1"], "tracks.csv: not a video ffprobe can read"),
      (["--video", video.path, "--camera", "cam9"], "--camera cam9: no such camera"),
    ] {
      let bad = try runMatchScene(["overlay", match.path, "--tracks", out.path, "-o", folder.appendingPathComponent("bad").path] + arguments)
      XCTAssertNotEqual(bad.status, 0, "\(arguments)")
      XCTAssertTrue(bad.stderr.contains(message), "\(arguments): \(bad.stderr)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad/cam1.mp4").path), "no partial output")
  }
}
