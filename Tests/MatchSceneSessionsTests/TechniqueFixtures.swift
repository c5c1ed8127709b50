import Foundation
import MatchSceneCore

/// Synthetic form-analysis files for one player: `count` forehands of 41 frames (contact at frame 25 of
/// the stroke), `elbow_flexion` = 90 + 40·sin(π·s) and `shoulder_elevation` = 60 + 20·cos(π·s) degrees over the
/// stroke's share s, with Gaussian noise of `noise` degrees per frame; `elbowChange` degrees are added to
/// the elbow over s ≥ `changeFrom` (the follow-through). With `scores`, also a `form.json` giving stroke k
/// the score `scores[k % scores.count]`.
func techniqueFiles(
  track: String = "P1", count: Int = 12, noise: Double = 2, elbowChange: Double = 0, changeFrom: Double = 0.7, seed: UInt64,
  scores: [Double] = []
) -> [String: String] {
  var generator = SeededGenerator(seed: seed)
  var strokes: [String] = []
  var rows: [String] = []
  for k in 0..<count {
    let start = 20 + 60 * k
    strokes.append(
      "{\"track\": \"\(track)\", \"kind\": \"forehand\", \"number\": \(k + 1), \"backswingStartFrame\": \(start), "
        + "\"contactFrame\": \(start + 25), \"followThroughEndFrame\": \(start + 40), \"hand\": \"right\"}")
    for i in 0...40 {
      let s = Double(i) / 40
      let elbow = 90 + 40 * sin(.pi * s) + (s >= changeFrom ? elbowChange : 0) + noise * gaussian(&generator)
      let shoulder = 60 + 20 * cos(.pi * s) + noise * gaussian(&generator)
      rows.append(
        "\(start + i),\(String(format: "%.6f", Double(start + i) / 60)),\(track),right,"
          + String(format: "%.3f,1.000,%.3f,1.200,3.5000", elbow, shoulder))
    }
  }
  var files = [
    "strokes.json": "{\"strokes\": [\(strokes.joined(separator: ",\n"))]}\n",
    "angles.csv": "frame,time,track,racket_side,elbow_flexion,elbow_flexion_sd,shoulder_elevation,shoulder_elevation_sd,racket_hand_speed\n"
      + rows.joined(separator: "\n") + "\n",
  ]
  if !scores.isEmpty {
    let scored = (0..<count).map { k in
      "{\"track\": \"\(track)\", \"kind\": \"forehand\", \"number\": \(k + 1), \"score\": \(scores[k % scores.count])}"
    }
    files["form.json"] = "{\"format\": \"matchscene-form\", \"version\": 1, \"strokes\": [\(scored.joined(separator: ","))]}\n"
  }
  return files
}
