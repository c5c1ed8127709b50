import MatchSceneCore
import MatchSceneReconstruction

extension MatchResult {
  /// The axis the motion runs on (`MotionModel.axis`): the identity unless the match was sparse.
  public var frameAxis: FrameAxis { motion.axis }

  /// Moves everything but the motion's samples from the compact frames of `axis` to the match's real
  /// frames and times: the events, the score, the disagreements, the report's frame ranges, `views.csv`'s
  /// rows and `frames`; the motion keeps its compact frames and gets `axis`, so that its rows (and every
  /// writer) carry real frames. Nothing changes for the identity.
  mutating func placeOnRealFrames(_ axis: FrameAxis) {
    guard !axis.isIdentity else { return }
    let fps = motion.fps
    motion.axis = axis
    frames = axis.real(frames)
    func place(_ frame: inout Int, _ time: inout Double) {
      time = axis.realTime(time, frame: frame, fps: fps)
      frame = axis.real(frame)
    }
    events = events.map { e in
      var e = e
      place(&e.frame, &e.time)
      return e
    }
    scores = scores.map { s in
      var s = s
      place(&s.frame, &s.time)
      return s
    }
    disagreements = disagreements.map { d in
      var d = d
      place(&d.frame, &d.time)
      return d
    }
    if var r = report {
      r.firstFrame = axis.real(r.firstFrame)
      r.lastFrame = axis.real(r.lastFrame)
      for t in r.tracks.indices {
        r.tracks[t].firstFrame = axis.real(r.tracks[t].firstFrame)
        r.tracks[t].lastFrame = axis.real(r.tracks[t].lastFrame)
      }
      r.frameRuns = axis.runs(in: motion.frames ?? 0...0).map { [$0.real.lowerBound, $0.real.upperBound] }
      report = r
    }
    if var v = viewsUsed {
      for i in v.rows.indices { v.rows[i].frame = axis.real(v.rows[i].frame) }
      viewsUsed = v
    }
  }
}
