import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneForm
import MatchSceneIO
import MatchScenePipeline
import MatchSceneSimulation
import TestSupport

let tableTennis: SportSpec = try! SportSpec.builtIn("table-tennis")

/// A simulated match reconstructed by the whole pipeline, with its truth.
struct ReconstructedFixture: @unchecked Sendable {
  let simulated: SimulatedMatch
  let result: MatchResult

  init(_ config: SimulationConfig, options: PipelineOptions = PipelineOptions()) throws {
    simulated = try MatchSimulator.simulate(config, sport: tableTennis)
    let folder = try makeTemporaryFolder("matchscene-form").appendingPathComponent("match")
    try MatchFolder.write(simulated.match, to: folder, frames: simulated.match.frameRange!)
    result = try MatchPipeline(options: options).run(folder)
  }

  /// Angles of the reconstruction (venue frame) and of the truth; σ from a nominal 4 mm/px.
  func angles() throws -> (estimate: [AngleSeries], truth: [AngleSeries]) {
    let estimate = try AngleAnalysis.run(
      result.motion.transformed(by: result.venue.venueFromWorld), events: result.events,
      uncertainty: AngleUncertainty(metresPerPixel: 0.004))
    let truth = try AngleAnalysis.run(
      MotionModel(simulated.truth), events: simulated.events, uncertainty: AngleUncertainty(metresPerPixel: 0.004))
    return (estimate, truth)
  }
}

/// Noise-free detections (no pixel noise, no detector faults, no bystander), 12 s, reconstructed without
/// smoothing (with nothing to remove, the default 10 Hz Butterworth only rounds off the fastest swings:
/// p99 up to 2.9° on the racket shoulder's plane of elevation, measured).
let cleanFixture: ReconstructedFixture = {
  var config = SimulationConfig(seed: 5, duration: 12)
  config.noise = .none
  var options = PipelineOptions()
  options.analysisOptions.smoothing.method = .none
  return try! ReconstructedFixture(config, options: options)
}()

/// Default detector noise and faults, 20 s.
let noisyFixture: ReconstructedFixture = try! ReconstructedFixture(SimulationConfig(seed: 5, duration: 20))

/// Angle errors (degrees, periodic ones wrapped) of `estimate` against `truth` over the frames both have,
/// per angle. Shoulder planes are left out where the true elevation is below 20° (the plane of a hanging
/// arm is undefined; ISB notes the Y-X-Y gimbal lock at 0° elevation).
func angleErrors(_ estimate: [AngleSeries], _ truth: [AngleSeries]) -> [FormAngle: [Double]] {
  var errors: [FormAngle: [Double]] = [:]
  for e in estimate {
    guard let t = truth.first(where: { $0.track == e.track }) else { continue }
    for frame in e.frames where t.frames.contains(frame) && e.body(frame: frame) != nil && t.body(frame: frame) != nil {
      for a in FormAngle.allCases {
        if a == .shoulderPlaneLeft, t.angle(.shoulderElevationLeft, frame: frame) < 20 { continue }
        if a == .shoulderPlaneRight, t.angle(.shoulderElevationRight, frame: frame) < 20 { continue }
        var d = e.angle(a, frame: frame) - t.angle(a, frame: frame)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        errors[a, default: []].append(abs(d))
      }
    }
  }
  return errors
}

func percentile(_ values: [Double], _ p: Double) -> Double {
  let s = values.sorted()
  return s.isEmpty ? .nan : s[min(s.count - 1, Int((p * Double(s.count - 1)).rounded()))]
}

func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }
