/// The files of an output folder of `matchscene reconstruct` (and those later commands add to it), by
/// their names: the one list of those names. `MatchOutput` (MatchSceneIO) reads and writes them; the
/// output-ownership check (`OutputMarker.knownEntries`) takes them as MatchScene's in folders written
/// before markers listed their files.
public enum MatchOutputFile: String, Sendable, CaseIterable {
  /// Every track, one row per frame, track and joint (`TracksCSV`).
  case tracks = "tracks.csv"
  /// One row per frame (`TracksWideCSV`), with `--tracks-layout wide`.
  case tracksWide = "tracks_wide.csv"
  /// The match's events (`EventsJSON`).
  case events = "events.json"
  /// Quality figures of the run.
  case report = "report.json"
  /// The manifest (`MatchManifest`).
  case manifest = "match.json"
  /// Which cameras each person joint was triangulated from.
  case views = "views.csv"
  /// The score's timeline.
  case score = "score.json"
  /// The cameras the outputs were reconstructed with, after a refinement.
  case refinedCalibration = "calibration-refined.toml"
  /// The markers as C3D.
  case c3d = "match.c3d"
  /// One TRC file per person (a folder).
  case trc = "trc"
  /// `matchscene drill`'s result.
  case drill = "drill.json"
  /// `matchscene form`'s strokes and joint angles.
  case strokes = "strokes.json"
  case angles = "angles.csv"
  /// `matchscene form`'s scores, sub-scores and comments per stroke.
  case form = "form.json"
}
