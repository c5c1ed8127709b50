extension MotionModel {
  /// The model restricted to `range` (within its frames).
  public func clipped(to range: ClosedRange<Int>) -> MotionModel {
    var out = MotionModel(fps: fps, skeleton: skeleton, frames: range)
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
