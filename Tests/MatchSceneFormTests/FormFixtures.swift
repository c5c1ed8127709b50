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
      simulated.truth, events: simulated.events, uncertainty: AngleUncertainty(metresPerPixel: 0.004))
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

/// 45 s at default noise with a right-handed P1 and a left-handed P2, long rallies and short pauses
/// (more strokes per second of test time), reconstructed by the pipeline.
let mixedHandsFixture: ReconstructedFixture = try! ReconstructedFixture(
  SimulationConfig(
    seed: 11, duration: 45,
    players: [PlayerConfig(height: 1.70, handedness: .right), PlayerConfig(height: 1.82, handedness: .left)],
    shotsPerRally: 6...12, pause: 1...1.5))

extension ReconstructedFixture {
  func form() throws -> FormResult {
    try FormAnalysis.run(motion: result.motion, venue: result.venue, events: result.events)
  }
}

/// Detected strokes matched one to one with the true ones (same player, contact within `tolerance`
/// frames, nearest first).
struct StrokeMatching {
  var matched: [(found: FormStroke, truth: SimulatedStroke)] = []
  var falsePositives = 0
  var missed = 0
  var f1: Double {
    let tp = Double(matched.count)
    return tp == 0 ? 0 : 2 * tp / (2 * tp + Double(falsePositives + missed))
  }
  var kindAccuracy: Double {
    Double(matched.filter { $0.found.kind.rawValue == $0.truth.kind }.count) / Double(max(1, matched.count))
  }

  init(found: [FormStroke], truth: [SimulatedStroke], tolerance: Int = 2) {
    var used = Set<Int>()
    for f in found {
      let candidates = truth.indices.filter {
        !used.contains($0) && truth[$0].track == f.track && abs(truth[$0].contactFrame - f.contactFrame) <= tolerance
      }
      if let best = candidates.min(by: { abs(truth[$0].contactFrame - f.contactFrame) < abs(truth[$1].contactFrame - f.contactFrame) }) {
        used.insert(best)
        matched.append((f, truth[best]))
      } else {
        falsePositives += 1
      }
    }
    missed = truth.count - used.count
  }
}
