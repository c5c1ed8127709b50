import Foundation
import MatchSceneCore
@testable import MatchSceneIO

/// One libFuzzer harness per reader: the bytes of one input file go to the reader exactly as
/// `read(from:)` would pass them on after reading the file. A thrown error (an `InputError` naming
/// the place) is the expected answer to bad input; only a crash, a sanitizer report, a timeout or a
/// memory blow-up is a finding.
enum Harness: String, CaseIterable {
  case matchTOML = "match-toml"
  case calibrationTOML = "calibration-toml"
  /// An EasyMocap pair: `intri.yml`, a NUL byte, `extri.yml` (without a NUL: the text is both).
  case calibrationYAML = "calibration-yaml"
  case openPose = "openpose"
  case coco
  case mediaPipe = "mediapipe"
  case mediaPipeWorld = "mediapipe-world"
  case deepLabCut = "deeplabcut"
  case trackNet = "tracknet"
  case qualisys
  case arkit
  case drillTOML = "drill-toml"
  case zonesTOML = "zones-toml"
  case eventsJSON = "events-json"
  case tracksCSV = "tracks-csv"

  /// Runs the reader on `bytes`, discarding its result and any error it throws.
  func run(_ bytes: [UInt8]) {
    do {
      switch self {
      case .matchTOML:
        guard let text = Self.text(bytes) else { return }
        let config = try MatchConfig.parse(text, file: "match.toml")
        _ = config.skeleton
      case .calibrationTOML:
        guard let text = Self.text(bytes) else { return }
        _ = try CalibrationTOML.parse(text, file: "calibration.toml")
      case .calibrationYAML:
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        guard let intri = Self.text(Array(parts[0])), let extri = parts.count > 1 ? Self.text(Array(parts[1])) : intri else {
          return
        }
        _ = try? OpenCVYAML(text: intri, file: "intri.yml")
        _ = try EasyMocapCalibration.parse(intri: intri, extri: extri)
      case .openPose:
        _ = try OpenPoseFolder.parse(Data(bytes), file: "cam01_000000000000_keypoints.json", keypointCount: 17)
      case .coco:
        _ = try COCOKeypointsJSON.parse(Data(bytes), file: "cam01.json", keypointCount: 17)
      case .mediaPipe:
        _ = try MediaPipePoseJSON.parse(Data(bytes), file: "cam01.mediapipe.json", imageSize: ImageSize(width: 1920, height: 1080))
      case .mediaPipeWorld:
        _ = try MediaPipeWorldJSON.parse(Data(bytes), file: "world.json", fps: 30)
      case .deepLabCut:
        _ = try DeepLabCutCSV.parse(bytes, file: "cam01.csv", skeleton: .coco17)
      case .trackNet:
        _ = try TrackNetCSV.parseFile(bytes, file: "cam01.csv")
      case .qualisys:
        guard let text = Self.text(bytes) else { return }
        _ = try QualisysCalibration.parse(text, file: "Calib.qca.txt")
      case .arkit:
        _ = try ARKitBodyJSON.parse(Data(bytes), file: "arkit.json", fps: 60)
      case .drillTOML:
        guard let text = Self.text(bytes) else { return }
        _ = try DrillTOML.parse(text, file: "drill.toml")
      case .zonesTOML:
        guard let text = Self.text(bytes) else { return }
        _ = try ZonesTOML.parse(text, file: "zones.toml")
      case .eventsJSON:
        _ = try EventsJSON.parse(Data(bytes), file: "events.json")
      case .tracksCSV:
        _ = try TracksCSV.parse(bytes, file: "tracks.csv")
      }
    } catch {
      // Bad input rejected with an error: the expected outcome.
      if Self.verbose { print("\(rawValue): \(error)") }
    }
  }

  /// `MATCHSCENE_FUZZ_VERBOSE=1`: print each error (to check that the seeds read without one).
  static let verbose = ProcessInfo.processInfo.environment["MATCHSCENE_FUZZ_VERBOSE"] == "1"

  /// The bytes as text the way the text readers decode a file: UTF-8 or nothing (they report
  /// "not UTF-8 text" for the rest).
  static func text(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
  }
}
