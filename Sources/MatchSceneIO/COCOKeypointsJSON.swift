import Foundation
import MatchSceneCore

/// 2D keypoints in the COCO keypoint-detection results format (cocodataset.org, "Results Format",
/// keypoint detection; what pycocotools' `COCO.loadRes` reads and what MMPose, AlphaPose,
/// Detectron2 and YOLO write for COCO evaluation), one file per camera, `pose/<camera>.json`:
///
/// ```json
/// [{"image_id": 0, "category_id": 1, "keypoints": [x1, y1, v1, …, xk, yk, vk], "score": 0.93},
///  {"image_id": 0, "category_id": 1, "keypoints": […], "score": 0.71}, …]
/// ```
///
/// One entry per detected person; `keypoints` holds an `x, y, v` triple per skeleton keypoint in
/// skeleton order (pixels). The contract:
///
/// - `image_id` is the camera's frame number. An integer is the frame; a string (AlphaPose writes
///   the image file name) gives the last run of digits of its name without extension
///   (`"000123.jpg"` → 123). Entries with the same `image_id` are the people of that frame, in
///   file order. A frame with nobody has no entry, so such a frame is absent from the result.
/// - The third value of a triple: in annotations COCO defines it as a visibility flag (0 not
///   labelled, 1 labelled but hidden, 2 visible); detectors write a score there (AlphaPose: 0 to 6).
///   Rule: v ≤ 0 → the keypoint is missing; 0 < v ≤ 1 → confidence v; v > 1 → confidence is the
///   entry's `score` clamped to [0, 1] (1 when there is no `score`).
/// - `category_id` is optional; entries with a `category_id` other than 1 (COCO's `person`) are
///   not people and are skipped. It must be a whole number within 0…2³¹−1. Other keys (`bbox`, `id`, `area`) are ignored.
public enum COCOKeypointsJSON {
  /// Reads one camera's file: frame → people (see the type's contract).
  /// - Parameter skeleton: every entry must have `skeleton.count` keypoints.
  public static func read(file url: URL, skeleton: Skeleton) throws -> [Int: [PersonDetection2D]] {
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    return try parse(data, file: url.path, keypointCount: skeleton.count)
  }

  /// The largest `category_id` accepted (COCO's ids are below 100; 32-bit ids in other datasets).
  static let maxCategory = Double(Int32.max)

  /// One entry of the results list; only what MatchScene uses.
  struct Entry: Decodable {
    var image_id: ImageID
    /// A number rather than an `Int`, so that a huge value is a located error, not a decoding failure.
    var category_id: Double?
    var keypoints: [Double]
    var score: Double?
  }

  /// A frame number given as an integer or as an image name with digits.
  struct ImageID: Decodable {
    var frame: Int
    init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let value = try? container.decode(Int.self) {
        frame = value
      } else if let text = try? container.decode(String.self), let value = FrameNumber.of(text) {
        frame = value
      } else {
        throw DecodingError.dataCorrupted(.init(
          codingPath: decoder.codingPath, debugDescription: "not a frame number nor an image name with digits"))
      }
    }
  }

  /// Parses a results file's bytes; `file` names them in errors.
  /// - Throws: `InputError` for an empty file, malformed or truncated JSON (line and column), a
  ///   COCO annotation file given instead of results, and an entry whose `keypoints` is missing or
  ///   not `3 × keypointCount` numbers or whose `image_id` carries no frame (the key, e.g.
  ///   `[4].keypoints`).
  public static func parse(_ data: Data, file: String, keypointCount: Int) throws -> [Int: [PersonDetection2D]] {
    if JSONErrors.isBlank(data) {
      throw InputError(file: file, "empty file; expected COCO keypoint results [{\"image_id\": …, \"keypoints\": […], \"score\": …}]")
    }
    let entries: [Entry]
    do {
      entries = try JSONDecoder().decode([Entry].self, from: data)
    } catch let error as DecodingError {
      if (try? JSONSerialization.jsonObject(with: data)) is [String: Any] {
        throw InputError(
          file: file, location: .lineColumn(1, 1),
          "a JSON object; expected the COCO results list [{\"image_id\", \"keypoints\", \"score\"}, …] (an annotation file with \"annotations\" is not read)")
      }
      throw JSONErrors.inputError(error, data: data, file: file) { keyPath in
        if keyPath.isEmpty { return "a list of detections [{\"image_id\", \"category_id\", \"keypoints\", \"score\"}]" }
        if keyPath.hasSuffix("image_id") { return "the frame number (an integer, or an image name with digits)" }
        if keyPath.hasSuffix("score") { return "a number" }
        if keyPath.hasSuffix("category_id") { return "an integer (1 for person)" }
        return "an array of \(3 * keypointCount) numbers (x, y, v per keypoint)"
      }
    }
    var out: [Int: [PersonDetection2D]] = [:]
    for (i, entry) in entries.enumerated() {
      if let category = entry.category_id {
        guard category == category.rounded(), (0...maxCategory).contains(category) else {
          throw InputError(
            file: file, location: .key("[\(i)].category_id"),
            "expected a whole number within 0…\(Int(maxCategory)) (1 for person), got \(category)")
        }
        if category != 1 { continue }
      }
      try FrameNumber.check(entry.image_id.frame, file: file, location: .key("[\(i)].image_id"), what: "the frame (image_id)")
      let raw = entry.keypoints
      guard raw.count == 3 * keypointCount else {
        throw InputError(
          file: file, location: .key("[\(i)].keypoints"),
          "has \(raw.count) numbers; expected \(3 * keypointCount) (\(keypointCount) keypoints × x, y, v)"
            + Skeleton.keypointCountHint(numbers: raw.count, perKeypoint: 3))
      }
      let score = min(1, max(0, entry.score ?? 1))
      var keypoints: [Keypoint2D] = []
      keypoints.reserveCapacity(keypointCount)
      for j in 0..<keypointCount {
        let x = raw[3 * j], y = raw[3 * j + 1], v = raw[3 * j + 2]
        if v <= 0 {
          keypoints.append(.missing)
        } else {
          guard CameraRanges.isPixel(x), CameraRanges.isPixel(y) else {
            throw InputError(
              file: file, location: .key("[\(i)].keypoints[\(3 * j)]"),
              "keypoint \(j) lies at (\(x), \(y)), outside the accepted \(CameraRanges.pixelRange)")
          }
          keypoints.append(Keypoint2D(x: x, y: y, confidence: v <= 1 ? v : score))
        }
      }
      out[entry.image_id.frame, default: []].append(PersonDetection2D(keypoints: keypoints))
    }
    return out
  }
}
