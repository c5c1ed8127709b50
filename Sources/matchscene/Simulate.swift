import ArgumentParser
import Foundation
import MatchSceneAssets
import MatchSceneCore
import MatchSceneIO
import MatchSceneSimulation

/// `matchscene simulate -o <folder>`: a synthetic match with ground truth.
struct Simulate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Generate a synthetic table-tennis match (detections + calibration) with its ground truth.",
    discussion: """
      Writes a match folder that `matchscene reconstruct` reads, plus truth/tracks.csv and \
      truth/events.json and truth/strokes.json. Use --rig to try your own camera placement before a session.
      """)

  @Option(name: .shortAndLong, help: "Output match folder.")
  var output: String

  @Flag(help: "Replace the output folder if it exists.")
  var force = false

  @Option(help: "Random seed: the same seed gives the same match.")
  var seed: UInt64 = 1

  @Option(help: "Match length in seconds.")
  var duration: Double = 30

  @Option(help: "Frame rate (default: the sport's, 60 fps for table tennis).")
  var fps: Double?

  @Option(help: "Number of cameras evenly placed around the table (ignored with --rig).")
  var cameras: Int = 4

  @Option(help: "Camera rig TOML ([[camera]] name, position, target, focal_px, size, distortions).")
  var rig: String?

  @Option(help: "2D keypoint noise, pixels (standard deviation).")
  var noise: Double?

  @Option(help: "Share of keypoints the detector misses.")
  var missRate: Double?

  @Option(help: "Share of (camera, person, frame) detections with left and right swapped.")
  var swapRate: Double?

  @Option(help: "Share of keypoints displaced by 30–150 px.")
  var outlierRate: Double?

  @Option(help: "Share of frames a camera misses the ball in.")
  var ballMissRate: Double?

  @Option(help: "Share of frames with a false ball detection.")
  var falseBallRate: Double?

  @Flag(inversion: .prefixedNo, help: "A bystander walks around the hall.")
  var bystander = true

  @Option(help: "A left-handed player (P1 or P2); repeat for both. Default: both right-handed.")
  var leftHanded: [String] = []

  @Option(
    help: ArgumentHelp(
      "Players' standing heights, metres, e.g. P1=1.62,P2=1.85 (every bone scales with it; written to truth/players.json). Default: P1=1.70,P2=1.82.",
      valueName: "P1=h,P2=h"))
  var playerHeight: String?

  @Option(
    help: ArgumentHelp(
      "A player's technique, e.g. P1:trunk-rotation=1.5,backswing-size=1.2,backswing-time=0.2; repeat per player.",
      discussion: "Keys: \(TechniqueArgument.accepted). Keys left out keep their defaults (1, 1, 0.16 s).",
      valueName: "player:key=value,…"))
  var technique: [String] = []

  @Option(
    help: ArgumentHelp(
      "A known technique error at contact, e.g. P1:3:elbow=20 (P1's 3rd stroke, 20° more elbow flexion) or P1:all:elbow=5 (every stroke of P1's); repeatable; written to truth/strokes.json.",
      valueName: "player:stroke:joint=degrees"))
  var deviation: [String] = []

  @Flag(help: "No detector faults at all: only pixel noise.")
  var clean = false

  @Option(
    help: ArgumentHelp(
      "Detector and rig faults: default, or hard (calibration errors — cam3 5× worse —, a bias per joint, AR(1) Student-t noise, occlusion drops).",
      valueName: "preset"))
  var faults: FaultPreset = .default

  @Option(help: "Multiply every pixel noise (keypoints, ball, joint bias) by this factor, after --noise.")
  var noiseScale: Double = 1

  @Option(
    help: ArgumentHelp(
      "Start cameras other than the first up to this many frames early or late, plus a random sub-frame phase; the true offsets go to truth/camera_sync.json, not match.toml.",
      valueName: "frames"))
  var unsync: Int = 0

  @Option(help: "Also write what one device gives for P1 — mediapipe (pose_world_landmarks) or arkit (joint transforms) — with its noise, and a [device] table in match.toml, so that reconstruct reads the device instead of the cameras.")
  var oneDevice: DeviceConfig.Format?

  @Flag(help: "Simulate a touch drill (a turning player touching two body pads and a fixed one, in order, for --duration seconds) instead of a match, as a one-device folder with drill.toml, zones.toml and truth/drill.json; needs --one-device.")
  var touchDrill = false

  @Flag(
    help: "Players raise the free hand after points they win (80 %; 10 % wrongly, by the loser), hold the racket arm up or stretch both arms in other pauses, and follow high tosses with the free hand; the truth's claim events say who claimed.")
  var claims = false

  @Option(help: "Share of returns (0–1) struck early, 1–3 frames after the ball's bounce (fast exchanges). Default 0.")
  var earlyHitRate: Double?

  @Option(help: "The ball's drag varies by up to this fraction (±) around the sport's, one draw per match; 0 (default): the sport's. The spin checks use 0.2.")
  var dragVariation: Double?

  @Option(help: "Largest spin a stroke gives the ball, rev/s (serves back/sidespin, forehands topspin, backhands either); 0 (default): no spin. The spin checks use 150.")
  var maxSpin: Double?

  @Flag(help: "People cross each other's path: the bystander walks across the hall right behind one player.")
  var crossing = false

  @Option(
    help: ArgumentHelp(
      "Describe the match in another world: the venue turned yaw degrees about up, then moved x, y, z metres (e.g. yaw=30,x=1.8,y=-2.4). The calibration and every truth file are re-expressed alike; match.toml has no [venue], so reconstruct needs the one locate-venue finds.",
      valueName: "yaw=deg,x=m,y=m,z=m"))
  var worldTransform: WorldTransformArgument?

  @Option(
    help: ArgumentHelp(
      "Also write table_corners.toml: the table's four top corners as clicked in each camera that sees them, with this much noise (pixels, σ per axis), for locate-venue --corners.",
      valueName: "px"))
  var tableCorners: Double?

  func validate() throws {
    _ = try Self.heights(playerHeight)
    if let earlyHitRate, !(0...1).contains(earlyHitRate) { throw ValidationError("--early-hit-rate must be in [0, 1]") }
    guard duration > 0, duration <= 4 * 3600 else { throw ValidationError("--duration must be in (0, 14400] seconds") }
    if let fps, !(fps > 0) { throw ValidationError("--fps must be positive") }
    for id in leftHanded where id != "P1" && id != "P2" {
      throw ValidationError("--left-handed takes P1 or P2, got '\(id)'")
    }
    var seen: Set<Int> = []
    for text in technique {
      let parsed = try TechniqueArgument(parsing: text)
      guard seen.insert(parsed.player).inserted else {
        throw ValidationError("--technique is given twice for P\(parsed.player + 1); put all its keys in one value")
      }
    }
    for text in deviation { _ = try DeviationArgument(parsing: text) }
    guard (0...10_000).contains(unsync) else { throw ValidationError("--unsync must be in 0…10000 frames") }
    guard noiseScale.isFinite, noiseScale >= 0 else { throw ValidationError("--noise-scale must be ≥ 0") }
    guard cameras >= 2 else { throw ValidationError("--cameras must be at least 2") }
    if touchDrill, oneDevice == nil { throw ValidationError("--touch-drill needs --one-device mediapipe or arkit") }
    if worldTransform != nil, oneDevice != nil {
      throw ValidationError("--world-transform re-expresses the cameras and the truth; it does not apply to --one-device folders")
    }
    if let tableCorners, !(tableCorners.isFinite && tableCorners >= 0) { throw ValidationError("--table-corners must be ≥ 0 pixels") }
    if let dragVariation, !(0...0.9).contains(dragVariation) { throw ValidationError("--drag-variation must be in [0, 0.9] (a fraction of the sport's drag)") }
    if let maxSpin, !(0...500).contains(maxSpin) { throw ValidationError("--max-spin must be in [0, 500] rev/s") }
    for (name, rate) in [("miss", missRate), ("swap", swapRate), ("outlier", outlierRate), ("ball-miss", ballMissRate), ("false-ball", falseBallRate)] {
      if let rate, !(0...1).contains(rate) { throw ValidationError("--\(name)-rate must be in [0, 1]") }
    }
  }

  func run() throws {
    if touchDrill, let oneDevice { return try runTouchDrill(oneDevice) }
    let sport = try SportSpec.builtIn("table-tennis")
    var config = SimulationConfig()
    config.seed = seed
    config.duration = duration
    if claims { config.gestures = .claimsAndDecoys }
    config.fps = fps
    config.rig = try rig.map { try RigConfig.read(from: URL(fileURLWithPath: $0)) } ?? .ring(count: cameras)
    if faults == .hard {
      config.noise = .hard
      config.rig.calibrationError = .hard
    }
    config.unsync.maxFrames = unsync
    if clean {
      config.noise.missRate = 0
      config.noise.swapRate = 0
      config.noise.outlierRate = 0
      config.noise.ballMissRate = 0
      config.noise.falseBallRate = 0
    }
    if let noise { config.noise.pixelSigma = noise }
    if let missRate { config.noise.missRate = missRate }
    if let swapRate { config.noise.swapRate = swapRate }
    if let outlierRate { config.noise.outlierRate = outlierRate }
    if let ballMissRate { config.noise.ballMissRate = ballMissRate }
    if let falseBallRate { config.noise.falseBallRate = falseBallRate }
    config.noise.bystander = bystander && !clean
    if noiseScale != 1 { config.noise = config.noise.scaled(by: noiseScale) }
    if let earlyHitRate { config.earlyHitRate = earlyHitRate }
    config.crossing = crossing
    if let dragVariation { config.ballDragVariation = dragVariation }
    if let maxSpin { config.ballSpin = maxSpin }
    for (i, id) in ["P1", "P2"].enumerated() where leftHanded.contains(id) { config.players[i].handedness = .left }
    for (i, height) in try Self.heights(playerHeight) { config.players[i].height = height }
    for text in technique {
      let parsed = try TechniqueArgument(parsing: text)
      config.players[parsed.player].technique = parsed.technique
    }
    for text in deviation {
      let parsed = try DeviationArgument(parsing: text)
      config.players[parsed.player].technique.deviations.append(parsed.deviation)
    }
    let venueWorld = try MatchSimulator.simulate(config, sport: sport)
    let simulated = worldTransform.map { venueWorld.reexpressed(worldFromVenue: $0.worldFromVenue) } ?? venueWorld
    let corners = try tableCorners.flatMap { sigma in
      try sport.tableGeometry().flatMap { venueWorld.tableCornersTOML(table: $0, clickSigmaPx: sigma, seed: seed) }
    }
    let destination = URL(fileURLWithPath: output)
    // A simulated match is an input folder: never replaced without --force.
    try OutputFolder.replace(destination, force: force, replaceable: { _ in false }) { staging in
      guard simulated.match.frameRange != nil else { return }
      try simulated.writeMatchFolder(to: staging)
      try simulated.writeTruth(to: staging)
      if let corners { try Data(corners.utf8).write(to: staging.appendingPathComponent("table_corners.toml")) }
      if let oneDevice { try OneDeviceFolder.addDevice(of: simulated, track: "P1", format: oneDevice, seed: seed, to: staging) }
    }
    print("Simulated \(String(format: "%.1f", duration)) s at \(simulated.match.fps) fps with \(simulated.match.cameras.count) cameras → \(destination.path)")
    print(simulated.coverage.summary)
  }

  /// `--player-height P1=1.62,P2=1.85` as (player index, height in metres).
  static func heights(_ text: String?) throws -> [(Int, Double)] {
    guard let text else { return [] }
    return try text.split(separator: ",").map { item in
      let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2, let index = ["P1", "P2"].firstIndex(of: parts[0]), let height = Double(parts[1]),
        (1.2...2.3).contains(height)
      else {
        throw ValidationError("--player-height: expected P1=h,P2=h with heights in 1.2…2.3 m, got '\(item)'")
      }
      return (index, height)
    }
  }

  /// `--touch-drill`: a one-device folder of a simulated touch drill with its truth.
  func runTouchDrill(_ format: DeviceConfig.Format) throws {
    let simulated = TouchDrillSimulator.simulate(seed: seed, seconds: duration, fps: fps ?? 60)
    let destination = URL(fileURLWithPath: output)
    try OutputFolder.replace(destination, force: force, replaceable: { _ in false }) { staging in
      try OneDeviceFolder.writeTouchDrill(simulated, format: format, seed: seed, to: staging)
    }
    let truth = simulated.truthResult
    print("Simulated a \(String(format: "%.1f", duration)) s touch drill (\(format.rawValue)) → \(destination.path): truth score \(truth.score), \(truth.hits.count) hits")
  }
}

extension DeviceConfig.Format: ExpressibleByArgument {}

/// `--faults`: which detector and rig faults the simulator makes.
enum FaultPreset: String, ExpressibleByArgument, CaseIterable {
  /// `DetectionNoise()` and a perfect calibration.
  case `default`
  /// `DetectionNoise.hard` and `CalibrationError.hard`.
  case hard
}
