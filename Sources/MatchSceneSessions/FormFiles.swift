import Foundation
import MatchSceneIO

/// The form analysis's files as `compare` reads them, without depending on its module: `strokes.json`
/// (`{"strokes": [{track, kind, backswingStartFrame, contactFrame, followThroughEndFrame, …}]}`) and
/// `angles.csv` (`frame,time,track,racket_side`, then per angle a column in degrees and its `<angle>_sd`,
/// then measures). Only the fields named here are read; unknown ones are ignored.
public enum FormFiles {
  public struct Stroke: Sendable, Codable, Equatable {
    public var track: String
    public var kind: String
    public var backswingStartFrame: Int
    public var contactFrame: Int
    public var followThroughEndFrame: Int
    /// The four landmarks to a fraction of a frame, when the form analysis wrote them.
    public var landmarks: Landmarks?
    /// Height of the racket hand at contact above the floor, metres, and its speed then, m/s.
    public var contactHeight: Double?
    public var handSpeedAtContact: Double?

    public init(
      track: String, kind: String, backswingStartFrame: Int, contactFrame: Int, followThroughEndFrame: Int,
      landmarks: Landmarks? = nil
    ) {
      self.track = track
      self.kind = kind
      self.backswingStartFrame = backswingStartFrame
      self.contactFrame = contactFrame
      self.followThroughEndFrame = followThroughEndFrame
      self.landmarks = landmarks
    }
  }

  /// A stroke's landmarks as `strokes.json` holds them (the form analysis's `StrokeLandmarks`), fractional
  /// frames of `angles.csv`.
  public struct Landmarks: Sendable, Codable, Equatable {
    public var backswingStart: Double
    public var forwardSwingStart: Double
    public var contact: Double
    public var followThroughEnd: Double

    public init(backswingStart: Double, forwardSwingStart: Double, contact: Double, followThroughEnd: Double) {
      self.backswingStart = backswingStart
      self.forwardSwingStart = forwardSwingStart
      self.contact = contact
      self.followThroughEnd = followThroughEnd
    }

    /// In time order; nil unless strictly increasing.
    public var ordered: [Double]? {
      let l = [backswingStart, forwardSwingStart, contact, followThroughEnd]
      return l[0] < l[1] && l[1] < l[2] && l[2] < l[3] && l.allSatisfy(\.isFinite) ? l : nil
    }
  }

  struct StrokesFile: Decodable { var strokes: [Stroke] }

  /// - Throws: `SessionStoreError.corrupt` naming the session's strokes.json when it is not one.
  public static func strokes(_ data: Data, session: Int64) throws -> [Stroke] {
    do {
      return try JSONDecoder().decode(StrokesFile.self, from: data).strokes
    } catch {
      throw SessionStoreError.corrupt("session \(session): strokes.json is not {\"strokes\": [...]}: \(error)")
    }
  }

  /// One track's angles: angle name → (frame → degrees). Angles are the columns that have an `_sd` sibling.
  public static func angles(_ data: Data, track: String) -> [String: [Int: Double]] {
    // Track names are CSV cells (quoted when they hold a comma or a line end: `CSVField`).
    var lines = CSVField.records([UInt8](data)).makeIterator()
    guard let header = lines.next(), let frameColumn = header.firstIndex(of: "frame"),
      let trackColumn = header.firstIndex(of: "track")
    else { return [:] }
    let names = Set(header)
    let angleColumns = header.enumerated().filter { names.contains($0.element + "_sd") }
    var out: [String: [Int: Double]] = [:]
    while let line = lines.next() {
      let cells = line
      guard cells.count == header.count, cells[trackColumn] == track, let frame = Int(cells[frameColumn]) else { continue }
      for (column, name) in angleColumns {
        if let v = Double(cells[column]) { out[name, default: [:]][frame] = v }
      }
    }
    return out
  }

  struct FormFile: Decodable {
    struct Stroke: Decodable {
      var track: String
      var kind: String
      var score: Double?
    }
    var strokes: [Stroke]
  }

  /// One track's form scores (0–100) per stroke kind from `form.json`, in stroke order; empty when the
  /// file is not one (a session stored before `form.json` existed has none).
  public static func scores(_ data: Data, track: String) -> [String: [Double]] {
    guard let file = try? JSONDecoder().decode(FormFile.self, from: data) else { return [:] }
    var out: [String: [Double]] = [:]
    for s in file.strokes where s.track == track {
      if let score = s.score, score.isFinite { out[s.kind, default: []].append(score) }
    }
    return out
  }
}
