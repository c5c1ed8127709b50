import MatchSceneCore
import MatchSceneGeometry
import MatchSceneSimulation
import XCTest

final class DiagnosticsTests: XCTestCase {
  func testSweep() throws {
    for theta in [0.5, 0.6, 0.7] { for tz in [0.8] {
      for (r, focal, h) in [(5.0, 1300.0, 2.0), (5.0, 1300.0, 2.3), (5.5, 1400.0, 2.5), (5.5, 1300.0, 2.5), (6.0, 1450.0, 2.7)] {
        var worstAll = 1.0
        var failing: [String: Int] = [:]
        for seed in [3, 11, 12] {
        var cfg = SimulationConfig(seed: UInt64(seed), duration: 30)
        cfg.noise = .none
        cfg.rig = .ring(count: 4, radius: r, height: h, target: SIMD3(0, 0, tz), startAngle: theta, focalPx: focal)
        let m = try MatchSimulator.simulate(cfg, sport: tableTennis)
        let c = m.coverage
        worstAll = min(worstAll, c.cameras.map { min($0.personInside["P1"]!, $0.personInside["P2"]!) }.min()!)
        for cam in m.match.cameras {
          for p in m.truth.points where p.kind == .player && p.track != "B1" {
            let px = cam.project(p.position)
            if px == nil || !cam.contains(px!) { failing[p.track + p.joint + (px.map { $0.y > 1000 ? " bottom" : $0.y < 80 ? " top" : " side" } ?? ""), default: 0] += 1 }
          }
        }
        }
        print(String(format: "tz %.2f theta %.2f r %.1f f %.0f h %.1f worst player %.3f", tz, theta, r, focal, h, worstAll), failing.sorted { $0.value > $1.value }.prefix(4))
      }
    }}
  }
}
