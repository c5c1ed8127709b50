import ArgumentParser
import Foundation
import MatchSceneOpenSim

/// `matchscene opensim <out>`: per player a model sized to the markers and inverse kinematics in OpenSim.
struct OpenSimCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "opensim",
    abstract: "Per player, size an OpenSim model to the markers and run inverse kinematics (OpenSim's Python package).",
    discussion: """
      Reads tracks.csv and match.json of `matchscene reconstruct` and writes opensim/ into the same folder: per \
      player <player>.trc (markers in OpenSim's frame, the player facing +X), <player>.osim (the model sized to \
      the player), <player>.mot (joint angles, degrees), <player>_marker_errors.sto, and summary.json (marker RMS \
      per player). Needs Python with the `opensim` package: `./quickstart.sh opensim` installs it in \
      .build/opensim. With --truth (a simulated match's truth/ folder) the true markers go through the same \
      steps and summary.json gives the joint angles' differences.
      """)

  @Argument(help: "Output folder of `matchscene reconstruct`.")
  var output: String

  @Option(help: "Python interpreter that has the `opensim` package (default: $MATCHSCENE_OPENSIM_PYTHON, .build/opensim, python3).")
  var python: String?

  @Option(help: "A simulated match's truth/ folder (or its tracks.csv): run the same steps on the true markers and compare.")
  var truth: String?

  @Option(help: "Players to run, comma-separated track ids (default: every player).")
  var players: String?

  func run() throws {
    var options = OpenSimOptions()
    options.python = python
    options.truth = truth.map { URL(fileURLWithPath: $0) }
    options.players = players.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
    let folder = URL(fileURLWithPath: output)
    let summary = try OpenSimRun.run(output: folder, options: options)
    print("OpenSim \(summary.opensimVersion) (\(summary.python)), skeleton \(summary.skeleton)")
    for p in summary.players {
      if let error = p.error {
        print("  \(p.id): failed: \(error)")
      } else {
        print(String(format: "  %@: marker RMS %.2f cm over %d frames (turned %.0f° to face +X)",
                     p.id, 100 * (p.markerRMS_m ?? .nan), p.frames ?? 0, p.facingDegrees))
      }
      if let d = summary.truth?[p.id] {
        let angles = ["knee_angle_r", "knee_angle_l", "elbow_flex_r", "elbow_flex_l"].compactMap { name in
          d[name].map { String(format: "%@ %.2f°", name, $0.rmsDegrees) }
        }
        print("    vs truth (RMS): " + angles.joined(separator: ", "))
      }
    }
    print("wrote \(folder.appendingPathComponent(OpenSimRun.folderName).path)/ in \(String(format: "%.1f", summary.seconds)) s")
    if summary.players.allSatisfy({ $0.error != nil }) { throw ExitCode.failure }
  }
}
