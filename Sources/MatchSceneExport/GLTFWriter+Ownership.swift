import Foundation

extension GLTFWriter {
  /// Whether `url` holds a binary glTF that MatchScene wrote (glTF 2.0 §4.4: the 12-byte header, then the
  /// JSON chunk; `asset.generator` is `MatchScene`) whose first scene's `extras` hold `sceneExtra`: a
  /// file of the kind one command writes (`clipFromWorld` for `clip`, `overlay` for `compare --glb`), so
  /// that the command may replace it. Reads the header and the JSON chunk only.
  public static func isMatchSceneGLB(_ url: URL, sceneExtra: String) -> Bool {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: 20), head.count == 20 else { return false }
    func word(_ at: Int) -> UInt32 { head[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    guard word(0) == 0x4654_6C67, word(4) == 2, word(16) == 0x4E4F_534A else { return false }  // "glTF", version 2, "JSON"
    let length = Int(word(12))
    guard length <= 256 << 20, let chunk = try? handle.read(upToCount: length), chunk.count == length,
      let json = try? JSONSerialization.jsonObject(with: chunk) as? [String: Any],
      let asset = json["asset"] as? [String: Any], asset["generator"] as? String == "MatchScene",
      let scenes = json["scenes"] as? [[String: Any]], let extras = scenes.first?["extras"] as? [String: Any]
    else { return false }
    return extras[sceneExtra] != nil
  }
}
