import Foundation
import TestSupport
import XCTest

/// `overlay --video` refuses a video that is not the camera's recording (another frame rate, a stretched
/// size) unless told to accept it, and names its MP4 by the one file-name rule: a camera named
/// `../../../../cam1` writes inside the output.
final class OverlayVideoChecksTests: XCTestCase {
  func testTheVideoMustBeTheCamerasAndItsNameStaysInside() throws {
    _ = try FFmpeg.executable("ffmpeg")
    _ = try FFmpeg.executable("ffprobe")
    let root = try makeTemporaryFolder()
    let work = root.appendingPathComponent("a/b/c/d/e/f/work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let match = work.appendingPathComponent("match"), out = work.appendingPathComponent("out")
    XCTAssertEqual(try runMatchScene(["simulate", "-o", match.path, "--duration", "2", "--seed", "5"]).status, 0)
    XCTAssertEqual(try runMatchScene(["reconstruct", match.path, "-o", out.path, "--no-scene"]).status, 0)
    func video(_ name: String, size: String, rate: Int) throws -> URL {
      let url = work.appendingPathComponent(name)
      try FFmpeg.run("ffmpeg", [
        "-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=\(rate)", "-frames:v", "10", "-pix_fmt", "yuv420p",
        "-c:v", "libx264", "-preset", "ultrafast", url.path,
      ])
      return url
    }
    let overlay = work.appendingPathComponent("overlay")
    let slow = try video("slow.mp4", size: "960x540", rate: 30)
    let square = try video("square.mp4", size: "1000x1000", rate: 60)
    for bad in [slow, square] {
      let run = try runMatchScene(["overlay", match.path, "--tracks", out.path, "--video", bad.path, "--camera", "cam1", "-o", overlay.path])
      XCTAssertEqual(run.status, 1, run.stderr)
      XCTAssertTrue(run.stderr.contains("--accept-video-mismatch"), run.stderr)
    }
    let accepted = try runMatchScene([
      "overlay", match.path, "--tracks", out.path, "--video", slow.path, "--camera", "cam1", "-o", overlay.path, "--accept-video-mismatch",
    ])
    XCTAssertEqual(accepted.status, 0, accepted.stderr)

    let calibration = match.appendingPathComponent("calibration/calibration.toml")
    try String(contentsOf: calibration, encoding: .utf8).replacingOccurrences(of: "name = \"cam1\"", with: "name = \"../../../../cam1\"")
      .write(to: calibration, atomically: true, encoding: .utf8)
    let good = try video("good.mp4", size: "960x540", rate: 60)
    let before = Set((FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? [])
    let run = try runMatchScene(["overlay", match.path, "--tracks", out.path, "--video", good.path, "--camera", "../../../../cam1", "-o", overlay.path])
    XCTAssertEqual(run.status, 0, run.stderr)
    let after = Set((FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? [])
    let added = after.subtracting(before)
    XCTAssertEqual(added.count, 1, "\(added)")
    XCTAssertTrue(added.allSatisfy { $0.hasPrefix("a/b/c/d/e/f/work/overlay/_._.._.._.._cam1~") && $0.hasSuffix(".mp4") }, "\(added)")
  }
}
