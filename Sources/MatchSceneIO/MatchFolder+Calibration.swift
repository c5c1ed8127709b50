import Foundation
import MatchSceneCore

/// Finding and reading a match's calibration in any layout MatchScene reads: a Pose2Sim / anipose
/// TOML file (`CalibrationTOML`), an EasyMocap `intri.yml` + `extri.yml` pair
/// (`EasyMocapCalibration`) or a Qualisys `.qca.txt` file (`QualisysCalibration`).
extension MatchFolder {
  /// A calibration read for a match: its cameras, the file errors and warnings about cameras
  /// name, and the notes found while reading.
  struct LoadedCalibration {
    var cameras: [Camera]
    /// The TOML file, or the `intri.yml` of a YAML pair.
    var file: URL
    var isEasyMocap: Bool
    var diagnostics: [Diagnostic]

    /// The key that stands for a camera in `file`: its TOML table, or its `K_<name>` matrix.
    func key(_ camera: String) -> String { isEasyMocap ? "K_\(camera)" : camera }
  }

  /// The cameras of the calibration at `url` (a file, or a folder holding one), in any layout
  /// `readCalibration` reads.
  public static func cameras(calibration url: URL) throws -> [Camera] { try readCalibration(url).cameras }

  /// Reads the calibration at `url`: a folder (its file as `findCalibration(in:)` picks it), a
  /// `.yml` / `.yaml` file (an EasyMocap pair, see `easyMocapPair(for:)`), a `.qca.txt` file
  /// (Qualisys), or anything else as TOML.
  static func readCalibration(_ url: URL) throws -> LoadedCalibration {
    var isFolder: ObjCBool = false
    let fileURL = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
      ? try findCalibration(in: url) : url
    if QualisysCalibration.isQualisysFile(fileURL.lastPathComponent) {
      let (cameras, diagnostics) = try QualisysCalibration.read(from: fileURL)
      return LoadedCalibration(cameras: cameras, file: fileURL, isEasyMocap: false, diagnostics: diagnostics)
    }
    guard ["yml", "yaml"].contains(fileURL.pathExtension.lowercased()) else {
      return LoadedCalibration(cameras: try CalibrationTOML.read(from: fileURL), file: fileURL, isEasyMocap: false, diagnostics: [])
    }
    let pair = try easyMocapPair(for: fileURL)
    let (cameras, diagnostics) = try EasyMocapCalibration.readWithDiagnostics(intri: pair.intri, extri: pair.extri)
    return LoadedCalibration(cameras: cameras, file: pair.intri, isEasyMocap: true, diagnostics: diagnostics)
  }

  /// The `intri.yml` / `extri.yml` pair of either file: the other one is beside it, named with
  /// `intri` and `extri` swapped (`intri.yml` ↔ `extri.yml`, `intri_lab.yml` ↔ `extri_lab.yml`).
  /// - Throws: `InputError` when the name holds neither `intri` nor `extri`.
  public static func easyMocapPair(for url: URL) throws -> (intri: URL, extri: URL) {
    let name = url.lastPathComponent, folder = url.deletingLastPathComponent()
    if let range = name.range(of: "extri") {
      return (folder.appendingPathComponent(name.replacingCharacters(in: range, with: "intri")), url)
    }
    if let range = name.range(of: "intri") {
      return (url, folder.appendingPathComponent(name.replacingCharacters(in: range, with: "extri")))
    }
    throw InputError(
      file: url.path, "a YAML calibration must be EasyMocap's intri.yml (with extri.yml beside it); this name holds neither intri nor extri")
  }

  /// The calibration file of a `calibration/` folder: its only `.toml` file, else
  /// `calibration.toml`; without any `.toml`, EasyMocap's `intri.yml` when `extri.yml` is beside it;
  /// without either, its only `.qca.txt` file (Qualisys).
  /// - Throws: `InputError` when the folder is missing, holds none of these, holds several `.toml`
  ///   without a `calibration.toml` among them, `intri.yml` without `extri.yml` (or the reverse), or
  ///   several `.qca.txt` files.
  public static func findCalibration(in folder: URL) throws -> URL {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      throw InputError(
        file: folder.path,
        "no calibration folder; expected calibration/calibration.toml, calibration/intri.yml + extri.yml or a Qualisys calibration/*.qca.txt (or give the calibration with --calibration)")
    }
    let tomls = entries.filter { $0.lowercased().hasSuffix(".toml") && !$0.hasPrefix(".") }.sorted()
    if tomls.count == 1 { return folder.appendingPathComponent(tomls[0]) }
    if tomls.contains("calibration.toml") { return folder.appendingPathComponent("calibration.toml") }
    if !tomls.isEmpty {
      throw InputError(
        file: folder.path,
        "several calibration files (\(tomls.joined(separator: ", "))) and none named calibration.toml; keep one or give the calibration file")
    }
    let intri = entries.contains(EasyMocapCalibration.intriFileName), extri = entries.contains(EasyMocapCalibration.extriFileName)
    if intri && extri { return folder.appendingPathComponent(EasyMocapCalibration.intriFileName) }
    if intri || extri {
      let (present, absent) = intri ? ("intri.yml", "extri.yml") : ("extri.yml", "intri.yml")
      throw InputError(file: folder.appendingPathComponent(present).path, "EasyMocap calibration without its \(absent) beside it")
    }
    let qualisys = entries.filter { QualisysCalibration.isQualisysFile($0) && !$0.hasPrefix(".") }.sorted()
    if qualisys.count == 1 { return folder.appendingPathComponent(qualisys[0]) }
    if !qualisys.isEmpty {
      throw InputError(
        file: folder.path, "several Qualisys calibrations (\(qualisys.joined(separator: ", "))); keep one or give the calibration file")
    }
    throw InputError(
      file: folder.path,
      "no calibration here: expected a .toml (Pose2Sim / anipose, e.g. calibration.toml), intri.yml + extri.yml (EasyMocap) or a .qca.txt (Qualisys)")
  }
}
