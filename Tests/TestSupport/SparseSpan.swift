import Foundation

/// Makes a sparse match folder from a dense one (as `Examples/benchmarks/sparse_span.py` does): the
/// detections of frames `from` and later (pose files `<anything>_<frame>_keypoints.json`, rows of
/// `ball/*.csv`) moved `shift` frames later, so that the same data spans a long, mostly empty stretch.
/// `calibration/` and `match.toml` are copied; `truth/` is left out.
public func spreadMatchFolder(_ dense: URL, to sparse: URL, from: Int, shift: Int) throws {
  let fm = FileManager.default
  try fm.createDirectory(at: sparse, withIntermediateDirectories: true)
  try fm.copyItem(at: dense.appendingPathComponent("calibration"), to: sparse.appendingPathComponent("calibration"))
  try fm.copyItem(at: dense.appendingPathComponent("match.toml"), to: sparse.appendingPathComponent("match.toml"))
  let moved = { (frame: Int) in frame >= from ? frame + shift : frame }
  let pose = dense.appendingPathComponent("pose")
  for camera in try fm.contentsOfDirectory(atPath: pose.path) {
    let target = sparse.appendingPathComponent("pose").appendingPathComponent(camera)
    try fm.createDirectory(at: target, withIntermediateDirectories: true)
    for name in try fm.contentsOfDirectory(atPath: pose.appendingPathComponent(camera).path) {
      guard name.hasSuffix("_keypoints.json") else { continue }
      let stem = name.dropLast("_keypoints.json".count)
      guard let cut = stem.lastIndex(of: "_"), let frame = Int(stem[stem.index(after: cut)...]) else { continue }
      let digits = stem.count - stem.distance(from: stem.startIndex, to: cut) - 1
      let number = String(moved(frame))
      let padded = String(repeating: "0", count: max(0, digits - number.count)) + number
      try fm.copyItem(
        at: pose.appendingPathComponent(camera).appendingPathComponent(name),
        to: target.appendingPathComponent("\(stem[...cut])\(padded)_keypoints.json"))
    }
  }
  let balls = dense.appendingPathComponent("ball")
  guard fm.fileExists(atPath: balls.path) else { return }
  try fm.createDirectory(at: sparse.appendingPathComponent("ball"), withIntermediateDirectories: true)
  for name in try fm.contentsOfDirectory(atPath: balls.path) {
    let lines = try String(contentsOf: balls.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
    let out = lines.enumerated().map { i, line -> String in
      guard i > 0, let comma = line.firstIndex(of: ","), let frame = Int(line[..<comma]) else { return String(line) }
      return "\(moved(frame))\(line[comma...])"
    }
    try (out.joined(separator: "\n") + "\n").write(to: sparse.appendingPathComponent("ball").appendingPathComponent(name), atomically: true, encoding: .utf8)
  }
}
