extension MotionModel {
  /// The model restricted to `range` (within its frames).
  public func clipped(to range: ClosedRange<Int>) -> MotionModel {
    var out = MotionModel(fps: fps, skeleton: skeleton, frames: range)
    out.axis = axis
    out.tracks = tracks.map { t in
      var c = out.makeTrack(id: t.id, kind: t.kind)
      for j in 0..<t.jointCount {
        for f in range where t.frames.contains(f) { c[joint: j, frame: f] = t[joint: j, frame: f] }
      }
      return c
    }
    return out
  }
}

extension MotionModel {
  /// The model over `run` (compact frames that are contiguous in real frames, one of
  /// `axis.runs(in:)`) placed at its real frames, on the identity axis: one run of data of a sparse
  /// match, for the writers of continuous files (C3D).
  public func realRun(_ run: ClosedRange<Int>) -> MotionModel {
    let clip = clipped(to: run)
    let real = axis.real(run)
    var out = MotionModel(fps: fps, skeleton: skeleton, frames: real)
    out.tracks = clip.tracks.map { t in
      var placed = MotionTrack(id: t.id, kind: t.kind, jointCount: t.jointCount, frames: real)
      placed.samples = t.samples
      return placed
    }
    return out
  }
}
