import MatchSceneCore

/// Frame numbers carried in image names, as pose files that index frames by image write them
/// (COCO results with a file name as `image_id`, DeepLabCut's `labeled-data/…/img0042.png`).
enum FrameNumber {
  /// The largest frame number magnitude any reader accepts: 10^8 frames, 19 days at 60 fps.
  /// (Negative frames down to −10^8 are accepted too: `MatchFolder.write` gives cameras whose
  /// offset puts them before match frame 0 negative file numbers.)
  static let limit = 100_000_000

  /// - Throws: `InputError` when `frame` is beyond ±`limit`; `what` names the value (`image_id`).
  static func check(_ frame: Int, file: String, location: InputError.Location = .none, what: String) throws {
    guard frame.magnitude <= limit.magnitude else {
      throw InputError(file: file, location: location, "\(what) is \(frame), outside the accepted −\(limit)…\(limit)")
    }
  }

  /// The frame of a time stamp: round((`seconds` − `first`) · `fps`), checked as `check` does before it
  /// is converted (a time of 1e300 s trapped converting to Int).
  /// - Throws: `InputError` when the time is not finite or its frame is beyond ±`limit`.
  static func of(seconds: Double, first: Double, fps: Double, file: String, location: InputError.Location) throws -> Int {
    let frame = ((seconds - first) * fps).rounded()
    guard frame.isFinite, frame.magnitude <= Double(limit) else {
      throw InputError(
        file: file, location: location,
        "time \(seconds) s is frame \(frame) (at \(fps) fps from the first time, \(first) s), outside the accepted −\(limit)…\(limit)")
    }
    return Int(frame)
  }

  /// The frame of an index value: the value itself when it is an integer (`42`, `-3`), else the
  /// last run of digits in its last path component without the extension (`img0042.png` → 42,
  /// `labeled-data/cam1/frame_000123.jpg` → 123, `video3_f17` → 17). Nil when there are no
  /// digits, or more than 18 of them.
  static func of(_ text: String) -> Int? {
    if let value = Int(text) { return value }
    var stem = Substring(text)
    if let slash = stem.lastIndex(where: { $0 == "/" || $0 == "\\" }) { stem = stem[stem.index(after: slash)...] }
    if let dot = stem.lastIndex(of: "."), stem[stem.index(after: dot)...].allSatisfy({ $0.isLetter }) {
      stem = stem[..<dot]
    }
    guard let last = stem.lastIndex(where: { $0.isASCII && $0.isNumber }) else { return nil }
    let head = stem[...last]
    let digits = head.reversed().prefix { $0.isASCII && $0.isNumber }
    guard digits.count <= 18 else { return nil }
    return Int(String(digits.reversed()))
  }
}
