import Foundation
import MatchSceneCore
import MatchSceneIO

/// What `sessions add` stores from one output folder of `matchscene reconstruct`: its tracks (read from
/// `tracks.csv`), events, report, the optional form-analysis files, and the SHA-256 of every file in the
/// folder (tracks, events, report, the scene with its calibrated cameras, TRC files), which tells the
/// same output added twice.
public struct SessionInput: Sendable {
  /// The folder read.
  public var source: URL
  public var motion: MotionModel
  public var events: [MatchEvent]
  public var sport: String
  public var venue: VenueFrame?
  /// Track → name, from report.json's `playerNames`.
  public var playerNames: [String: String]
  /// Files kept whole by name: `report.json`, `strokes.json`, `angles.csv` when present.
  public var documents: [String: Data]
  /// SHA-256 (hex) over the folder's files, in path order, each as its path, its length and its bytes.
  public var inputHash: String

  /// Files kept whole when the folder has them (the last two come from the form analysis).
  public static let documentNames = ["report.json", "strokes.json", "angles.csv"]

  public init(
    source: URL, motion: MotionModel, events: [MatchEvent], sport: String, venue: VenueFrame?,
    playerNames: [String: String], documents: [String: Data], inputHash: String
  ) {
    self.source = source
    self.motion = motion
    self.events = events
    self.sport = sport
    self.venue = venue
    self.playerNames = playerNames
    self.documents = documents
    self.inputHash = inputHash
  }

  /// The part of `report.json` read here.
  struct Report: Decodable {
    struct Venue: Decodable {
      var up: [Double]
      var origin: [Double]
      var longAxis: [Double]
      var source: String?
    }
    var fps: Double?
    var sport: String?
    var venue: Venue?
    var playerNames: [String: String]?
    struct Joint: Decodable { var joint: String }
    /// Per skeleton keypoint, in the skeleton's order.
    var joints: [Joint]?
  }

  /// Reads an output folder.
  /// - Throws: `InputError` naming the folder when it has no `tracks.csv`, or the file that cannot be
  ///   read (malformed `tracks.csv`, `events.json`, `report.json`).
  public static func read(outputFolder folder: URL) throws -> SessionInput {
    let fm = FileManager.default
    let tracksURL = folder.appendingPathComponent("tracks.csv")
    guard fm.fileExists(atPath: tracksURL.path) else {
      throw InputError(file: folder.path, "no tracks.csv: expected an output folder of `matchscene reconstruct`")
    }
    // The hash reads ~120 MB for a 10-minute match while tracks.csv is parsed beside it.
    final class Pending: @unchecked Sendable { var hash: Result<String, any Error>? }
    let pending = Pending()
    let hashing = DispatchGroup()
    DispatchQueue.global().async(group: hashing) { pending.hash = Result { try hash(folder: folder) } }
    defer { hashing.wait() }
    var documents: [String: Data] = [:]
    for name in documentNames {
      if let data = fm.contents(atPath: folder.appendingPathComponent(name).path) { documents[name] = data }
    }
    var report: Report?
    if let data = documents["report.json"] {
      do {
        report = try JSONDecoder().decode(Report.self, from: data)
      } catch {
        throw InputError(file: folder.appendingPathComponent("report.json").path, "expected the report of `matchscene reconstruct`: \(error)")
      }
    }
    func waitForHash() throws -> String {
      hashing.wait()
      return try pending.hash!.get()
    }
    let points = try TracksCSV.read(from: tracksURL)
    let fps = report?.fps ?? framesPerSecond(points)
    let motion = MotionModel(points: points, fps: fps, skeleton: skeleton(of: points, reportJoints: report?.joints?.map(\.joint)))
    let eventsURL = folder.appendingPathComponent("events.json")
    let events = fm.fileExists(atPath: eventsURL.path) ? try EventsJSON.read(from: eventsURL) : []
    let venue = report?.venue.flatMap { v -> VenueFrame? in
      guard v.up.count == 3, v.origin.count == 3, v.longAxis.count == 3 else { return nil }
      return VenueFrame(
        up: SIMD3(v.up[0], v.up[1], v.up[2]), origin: SIMD3(v.origin[0], v.origin[1], v.origin[2]),
        longAxis: SIMD3(v.longAxis[0], v.longAxis[1], v.longAxis[2]),
        source: v.source.flatMap(VenueFrame.Source.init(rawValue:)) ?? .given)
    }
    return SessionInput(
      source: folder, motion: motion, events: events, sport: report?.sport ?? "table-tennis", venue: venue,
      playerNames: report?.playerNames ?? [:], documents: documents, inputHash: try waitForHash())
  }

  /// Frames per second from the rows' frame numbers and times (`tracks.csv` writes time = frame / fps).
  static func framesPerSecond(_ points: [TrackPoint]) -> Double {
    guard let p = points.max(by: { $0.frame < $1.frame }), p.frame != 0, p.time != 0 else { return 60 }
    return (Double(p.frame) / p.time * 1000).rounded() / 1000
  }

  /// SHA-256 over the files under `folder` that say what the session is, in path order, each as its path,
  /// its length and its bytes. Left out, because they repeat `tracks.csv`: `trc/`, `match.c3d` and the binary buffer of a
  /// `.glb` (its JSON chunk, with the cameras' calibrated poses and lenses, is hashed); also the
  /// `.matchscene-output` and `.matchscene-batch.json` markers; and report.json's run time (`seconds`). A 10-minute match's 225 MB folder hashes ~120 MB this way.
  /// Symbolic links are followed (a linked folder's files are hashed under the link's path; a link
  /// cycle is walked once); files are read in 1 MB pieces, so memory does not grow with their size;
  /// FIFOs, sockets and devices are left out (reading a FIFO would wait forever).
  /// - Parameters:
  ///   - excluding: further paths relative to `folder` to leave out (a file, or a folder and everything
  ///     in it).
  ///   - skip: further relative paths to leave out (e.g. a batch's log files).
  public static func hash(folder: URL, excluding: [String] = [], skip: (String) -> Bool = { _ in false }) throws -> String {
    let root = folder.standardizedFileURL.path
    let paths = FolderHash.files(under: root) { relative in
      relative.hasPrefix("trc/") || relative == "trc" || relative == "match.c3d"
        || excluding.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) || skip(relative)
    }.filter { !$0.hasSuffix(".matchscene-output") && !$0.hasSuffix(".matchscene-batch.json") }
    var digest = SHA256()
    for relative in paths.sorted() {
      try FolderHash.update(&digest, file: root + "/" + relative, relative: relative)
    }
    return digest.finish()
  }

  /// SHA-256 of a file or a folder (a folder as `hash(folder:)` hashes it, a file under its own name).
  /// - Throws: `InputError` naming `path` when it does not exist or cannot be read.
  public static func hash(path: String) throws -> String { try FolderHash.hash(path: path) }

  /// SHA-256 (hex) of `bytes`.
  public static func hash(bytes: [UInt8]) -> String {
    var digest = SHA256()
    digest.update(bytes)
    return digest.finish()
  }

  /// `report.json` without its top-level `seconds` (how long the run took, which differs between two runs
  /// of the same match), re-encoded with sorted keys; the bytes as they are when it is not a JSON object.
  static func withoutRunTime(_ data: Data) -> Data {
    guard var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return data }
    object["seconds"] = nil
    return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? data
  }

  /// The JSON chunk of a binary glTF (glTF 2.0 §4.4: a 12-byte header, then chunk length, type `JSON`,
  /// data); the whole file when it is not one.
  static func glbJSONChunk(_ data: Data) -> Data {
    guard data.count >= 20 else { return data }
    let bytes = [UInt8](data.prefix(20))
    func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
    guard bytes[0..<4].elementsEqual(Array("glTF".utf8)), word(16) == 0x4E4F_534A, 20 + word(12) <= data.count else { return data }
    return data.subdata(in: (data.startIndex + 20)..<(data.startIndex + 20 + word(12)))
  }
}
