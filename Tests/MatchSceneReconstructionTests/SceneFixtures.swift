import Foundation
import MatchSceneCore

/// Four HD cameras on a 4.5 m ring, 2.5 m up, looking at the centre (shared by the association and
/// view-selection tests).
let fourRingCameras: [Camera] = (0..<4).map { i in
  let a = 2 * Double.pi * (Double(i) + 0.5) / 4
  return Camera.lookingAt(
    SIMD3(0, 0, 0.9), from: SIMD3(4.5 * cos(a), 4.5 * sin(a), 2.5), name: "cam\(i + 1)",
    imageSize: ImageSize(width: 1920, height: 1080), focalPx: 1400, distortion: [-0.1, 0.04, 0, 0, 0])
}

/// A crude standing figure: 17 COCO points around `root`.
func standingFigure(at root: SIMD3<Double>) -> [SIMD3<Double>] {
  let offsets: [SIMD3<Double>] = [
    [0, 0, 1.65], [0.03, 0.03, 1.68], [0.03, -0.03, 1.68], [0, 0.07, 1.66], [0, -0.07, 1.66],
    [0, 0.2, 1.45], [0, -0.2, 1.45], [0.05, 0.25, 1.15], [0.05, -0.25, 1.15], [0.2, 0.25, 0.95],
    [0.2, -0.25, 0.95], [0, 0.1, 0.95], [0, -0.1, 0.95], [0.02, 0.1, 0.5], [0.02, -0.1, 0.5],
    [0, 0.1, 0.08], [0, -0.1, 0.08],
  ]
  return offsets.map { root + $0 }
}
