// Reconstruct a match folder from Swift, as `matchscene reconstruct` does, then read the result.
// Usage: matchscene-library-example <match folder> <output folder>
import Foundation
import MatchSceneCore
import MatchScenePipeline

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: matchscene-library-example <match folder> <output folder>\n".utf8))
  exit(2)
}
do {
  var options = PipelineOptions()
  options.analysisOptions.smoothing.cutoff = 8  // Hz: any flag of `reconstruct` has its option here
  let result = try MatchPipeline(options: options).run(URL(fileURLWithPath: arguments[1]))
  try result.write(to: URL(fileURLWithPath: arguments[2]))  // tracks.csv, events.json, scene.glb…, swapped in whole

  print("players \(result.playerIDs.joined(separator: ", ")); others \(result.personIDs.joined(separator: ", "))")
  // The dense motion model: track × joint × frame, positions in the calibration's world frame.
  let motion = result.motion
  if let p1 = motion.track("P1"), let wrist = motion.skeleton.index(of: .rightWrist), let frames = motion.frames,
    let position = p1.position(joint: wrist, frame: frames.lowerBound)
  {
    print("P1 right wrist at frame \(frames.lowerBound): \(position)")
  }
  print("\(result.events.count) events, \(result.scores.count) points")
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
