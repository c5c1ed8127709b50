import Foundation
import MatchSceneCore

/// One camera's people as COCO keypoint results (a missing keypoint is `0, 0, 0`; confidences are
/// written as the third value, so they read back exactly when they lie in (0, 1]).
func renderCOCOResults(_ frames: [Int: [PersonDetection2D]]) -> String {
  var entries: [String] = []
  for (frame, people) in frames.sorted(by: { $0.key < $1.key }) {
    for person in people {
      let numbers = person.keypoints.map { k in k.isDetected ? "\(k.x),\(k.y),\(k.confidence)" : "0,0,0" }
      entries.append("{\"image_id\": \(frame), \"category_id\": 1, \"keypoints\": [\(numbers.joined(separator: ","))], \"score\": 0.9}")
    }
  }
  return "[" + entries.joined(separator: ",\n") + "]\n"
}

/// One camera's people as a multi-animal DeepLabCut CSV: individual `p<i>` is the i-th person of
/// each frame; a missing keypoint or person is empty cells.
func renderDeepLabCut(_ frames: [Int: [PersonDetection2D]], skeleton: Skeleton) -> String {
  let individuals = frames.values.map(\.count).max() ?? 0
  var rows = ["scorer", "individuals", "bodyparts", "coords"]
  for i in 0..<individuals {
    for name in skeleton.keypoints {
      for coord in ["x", "y", "likelihood"] {
        rows[0] += ",DLC_test"
        rows[1] += ",p\(i + 1)"
        rows[2] += ",\(name)"
        rows[3] += ",\(coord)"
      }
    }
  }
  for (frame, people) in frames.sorted(by: { $0.key < $1.key }) {
    var row = "\(frame)"
    for i in 0..<individuals {
      for j in 0..<skeleton.count {
        if i < people.count, people[i].keypoints[j].isDetected {
          let k = people[i].keypoints[j]
          row += ",\(k.x),\(k.y),\(k.confidence)"
        } else {
          row += ",,,"
        }
      }
    }
    rows.append(row)
  }
  return rows.joined(separator: "\n") + "\n"
}
