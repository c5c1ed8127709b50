import Foundation
import MatchSceneCore

/// An output folder of `matchscene reconstruct`: the one type that knows its file names and reads its
/// files (`MatchOutput+Write` writes them). Later commands (`form`, `clip`, `drill`, `locate-venue`,
/// `sessions add`, `view`, `evaluate`) open the folder through it.
///
/// What the folder is read with comes from its manifest, `match.json` (`MatchManifest`): the skeleton,
/// frame rate, sport and venue frame.
///
/// **Folders written before the manifest** (no `match.json`) are read by this fallback:
/// - fps: `report.json`'s `fps`; else from `tracks.csv`'s rows (frame ÷ time of the last frame, to 1/1000);
///   else 60.
/// - sport: `report.json`'s `sport`; else `table-tennis`.
/// - venue: `report.json`'s `venue` when its `up`, `origin` and `longAxis` are three numbers each and make a
///   frame; else none (readers then assume z up, origin at 0).
/// - skeleton: `report.json`'s `joints` (the reconstruction's keypoints in order) when they name every person
///   joint of `tracks.csv` — the built-in skeleton with exactly those keypoints, else a custom one of them;
///   else the smallest built-in skeleton holding every joint in an order the rows agree with; else a skeleton
///   named `custom` of the joints in the rows' order, without bones; COCO-17 when there are no person rows
///   (`fallbackSkeleton`).
public struct MatchOutput: Sendable {
  /// The files of an output folder, by their names (`MatchOutputFile`).
  public typealias File = MatchOutputFile

  /// The folder.
  public var folder: URL
  /// The folder's manifest, or the one the fallback makes from `report.json` and `tracks.csv`.
  public var manifest: MatchManifest
  /// Whether `match.json` was there (false: `manifest` comes from the fallback).
  public var hasManifestFile: Bool
  /// Track → name, from `report.json`'s `playerNames`.
  public var playerNames: [String: String]
  /// The rows of `tracks.csv`, kept when the fallback had to read them to find the skeleton.
  private var fallbackRows: [TrackPoint]?

  /// `file`'s URL inside `folder`.
  public static func url(_ file: File, in folder: URL) -> URL { folder.appendingPathComponent(file.rawValue) }

  /// `file`'s URL inside this output folder.
  public func url(_ file: File) -> URL { Self.url(file, in: folder) }

  /// Whether the folder has `file`.
  public func has(_ file: File) -> Bool { FileManager.default.fileExists(atPath: url(file).path) }

  /// The skeleton of `tracks.csv`'s joint names.
  public var skeleton: Skeleton { get throws { try manifest.skeleton.skeleton(file: url(.manifest).path) } }

  /// The venue frame (assumed z up when the folder records none).
  public var venue: VenueFrame { manifest.venue?.frame ?? .assumed(worldUp: SIMD3(0, 0, 1)) }

  /// The venue frame, when the folder records one.
  public var recordedVenue: VenueFrame? { manifest.venue?.frame }

  /// Opens an output folder: reads `match.json`, else makes the manifest by the fallback above (which reads
  /// `tracks.csv` once to find the skeleton).
  /// - Throws: `InputError` naming the folder when it has no `tracks.csv`, or the file that cannot be read
  ///   (malformed `match.json`, `report.json`, `tracks.csv`).
  public static func open(_ folder: URL) throws -> MatchOutput {
    let fm = FileManager.default
    guard fm.fileExists(atPath: url(.tracks, in: folder).path) else {
      throw InputError(file: folder.path, "no \(File.tracks.rawValue): expected an output folder of `matchscene reconstruct`")
    }
    let report = try OutputReport.read(folder: folder)
    let manifestURL = url(.manifest, in: folder)
    if let data = fm.contents(atPath: manifestURL.path) {
      let manifest: MatchManifest
      do { manifest = try JSONDecoder().decode(MatchManifest.self, from: data) } catch {
        guard let error = error as? DecodingError else { throw error }
        throw JSONErrors.inputError(error, data: data, file: manifestURL.path) { _ in "the manifest of `matchscene reconstruct`" }
      }
      guard manifest.format <= MatchManifest.currentFormat else {
        throw InputError(
          file: manifestURL.path, location: .key("format"),
          "format \(manifest.format) is newer than this program reads (\(MatchManifest.currentFormat)); written by \(manifest.tool)")
      }
      return MatchOutput(folder: folder, manifest: manifest, hasManifestFile: true, playerNames: report?.playerNames ?? [:])
    }
    let rows = try TracksCSV.read(from: url(.tracks, in: folder))
    let manifest = MatchManifest(
      fps: report?.fps ?? fallbackFramesPerSecond(rows),
      sport: report?.sport ?? "table-tennis", skeleton: fallbackSkeleton(rows, reportJoints: report?.joints), venue: report?.venue?.frame,
      tool: "unknown (written before match.json)")
    return MatchOutput(
      folder: folder, manifest: manifest, hasManifestFile: false, playerNames: report?.playerNames ?? [:], fallbackRows: rows)
  }

  /// Frames per second from the rows' frame numbers and times (`tracks.csv` writes time = frame / fps): the
  /// last frame's, to 1/1000; 60 when that frame or its time is 0.
  static func fallbackFramesPerSecond(_ rows: [TrackPoint]) -> Double {
    guard let p = rows.max(by: { $0.frame < $1.frame }), p.frame != 0, p.time != 0 else { return 60 }
    return (Double(p.frame) / p.time * 1000).rounded() / 1000
  }

  /// `tracks.csv` as a dense motion model in the manifest's skeleton and frame rate, keeping tracks of
  /// `kinds` only.
  /// - Throws: `InputError` naming the file and line.
  public func motion(kinds: Set<TrackKind> = Set(TrackKind.allCases)) throws -> MotionModel {
    let skeleton = try self.skeleton
    if let fallbackRows {
      return MotionModel(points: fallbackRows.filter { kinds.contains($0.kind) }, fps: manifest.fps, skeleton: skeleton)
    }
    return try TracksCSV.readMotion(from: url(.tracks), fps: manifest.fps, skeleton: skeleton, kinds: kinds)
  }

  /// `events.json`'s events; none when the folder has no `events.json` (a run without the analysis).
  /// - Throws: `InputError` naming the file when it is malformed.
  public func events() throws -> [MatchEvent] {
    has(.events) ? try EventsJSON.read(from: url(.events)) : []
  }

  /// The events file beside a scene or `tracks.csv` at `url` (`view`, `evaluate`); nil when there is none.
  public static func eventsBeside(_ url: URL) -> URL? {
    let events = Self.url(.events, in: url.deletingLastPathComponent())
    return FileManager.default.fileExists(atPath: events.path) ? events : nil
  }

  /// `tracks.csv` when `url` is a folder, else `url` itself (`evaluate`, `overlay`).
  public static func tracksFile(_ url: URL) -> URL {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
      return Self.url(.tracks, in: url)
    }
    return url
  }
}
