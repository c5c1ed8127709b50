import Foundation
import MatchSceneCore

/// Settings of `FormAnalysis`.
public struct FormOptions: Sendable {
  /// Metres per pixel at the players, for the angles' σ (`AngleUncertainty`): camera distance over focal
  /// length in pixels; 0.004 is a camera 6 m away with a 1500 px focal length.
  public var metresPerPixel: Double = 0.004
  public var segmenter = StrokeSegmenter()
  public init() {}

  /// - Throws: `InputError` naming the option.
  public func check() throws {
    guard metresPerPixel.isFinite, metresPerPixel > 0, metresPerPixel < 1 else {
      throw InputError(file: "form options", location: .key("metres_per_pixel"), "must lie in (0, 1) m/px, got \(metresPerPixel)")
    }
  }
}

/// Form analysis of a reconstructed match: every player's angles per frame and their strokes.
public struct FormResult: Sendable {
  /// Per player, venue frame.
  public var series: [AngleSeries]
  /// Every player's strokes, in track then time order.
  public var strokes: [FormStroke]
  /// The motion in the venue frame (for clips).
  public var motion: MotionModel
  /// Events in the venue frame.
  public var events: [MatchEvent]

  public func series(_ track: String) -> AngleSeries? { series.first { $0.track == track } }

  /// Writes `angles.csv`, `strokes.json` and `mot/<track>.mot` into `folder` (created if needed); a track
  /// without one frame holding every keypoint the angles need gets no `.mot` (OpenSim refuses a motion of no
  /// rows).
  public func write(to folder: URL) throws {
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("mot"), withIntermediateDirectories: true)
    // A sparse match's analysis ran on its compact axis (`FrameAxis`): the files give real frames and times.
    let axis = motion.axis
    try AnglesCSV.write(series, axis: axis, to: folder.appendingPathComponent("angles.csv"))
    let placed = axis.isIdentity ? strokes : strokes.map { s in
      var s = s
      s.contactTime = axis.realTime(s.contactTime, frame: s.contactFrame, fps: motion.fps)
      let shift = Double(axis.real(s.contactFrame) - s.contactFrame)
      s.landmarks = s.landmarks.map {
        StrokeLandmarks(
          backswingStart: $0.backswingStart + shift, forwardSwingStart: $0.forwardSwingStart + shift,
          contact: $0.contact + shift, followThroughEnd: $0.followThroughEnd + shift)
      }
      s.backswingStartFrame = axis.real(s.backswingStartFrame)
      s.forwardSwingStartFrame = s.forwardSwingStartFrame.map(axis.real)
      s.contactFrame = axis.real(s.contactFrame)
      s.followThroughEndFrame = axis.real(s.followThroughEndFrame)
      return s
    }
    try StrokesJSON.write(placed, to: folder.appendingPathComponent("strokes.json"))
    let files = try FileName.files(series.map(\.track), suffix: ".mot", in: folder.appendingPathComponent("mot"))
    for s in series where s.frames.contains(where: s.hasBody) { try OpenSimMOT.write(s, axis: axis, to: files[s.track]!) }
  }
}

public enum FormAnalysis {
  /// - Parameters:
  ///   - motion: the match's tracks in the calibration's world frame (`MatchResult.motion`).
  ///   - venue: where the venue is (`MatchResult.venue`); the angles are taken in its frame (z up).
  ///   - events: the match's events, world frame.
  public static func run(
    motion: MotionModel, venue: VenueFrame, events: [MatchEvent], options: FormOptions = FormOptions()
  ) throws -> FormResult {
    try options.check()
    let venueMotion = venue.isIdentity ? motion : motion.transformed(by: venue.venueFromWorld)
    let venueEvents = events.map { event -> MatchEvent in
      var e = event
      if !venue.isIdentity { e.position = e.position.map(venue.venueFromWorld.apply) }
      return e
    }
    let series = try AngleAnalysis.run(
      venueMotion, events: venueEvents, uncertainty: AngleUncertainty(metresPerPixel: options.metresPerPixel))
    let strokes = series.flatMap { options.segmenter.strokes($0, events: venueEvents) }
    return FormResult(series: series, strokes: strokes, motion: venueMotion, events: venueEvents)
  }
}
