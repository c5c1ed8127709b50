extension Match {
  /// The match frames within `range` where any camera holds a detection (a person or a ball; a frame
  /// listed with nobody in it does not count), after the cameras' frame offsets; sorted.
  public func framesWithDetections(in range: ClosedRange<Int>) -> [Int] {
    var frames = Set<Int>()
    for camera in cameras {
      guard let d = detections[camera.name] else { continue }
      let offset = frameOffsets[camera.name] ?? 0
      for (f, people) in d.people where !people.isEmpty && range.contains(f - offset) { frames.insert(f - offset) }
      for (f, balls) in d.balls where !balls.isEmpty && range.contains(f - offset) { frames.insert(f - offset) }
    }
    return frames.sorted()
  }

  /// The axis on which `range` of this match runs: its empty stretches longer than `pad` frames collapsed
  /// (`FrameAxis.compacting`); the identity for a match without such gaps.
  public func frameAxis(in range: ClosedRange<Int>, pad: Int) -> FrameAxis {
    FrameAxis.compacting(framesWithDetections(in: range), pad: pad)
  }

  /// The match with its detections moved onto the compact frames of `axis`: a detection at real match
  /// frame `m` of a camera with offset `o` is then at camera frame `axis.compact(m) + o`. Detections in a
  /// collapsed gap (none, when `axis` was made from this match's detections) are dropped.
  public func compacted(to axis: FrameAxis) -> Match {
    guard !axis.isIdentity else { return self }
    var out = self
    for (name, d) in detections {
      let offset = frameOffsets[name] ?? 0
      out.detections[name] = CameraDetections(
        people: Self.rekeyed(d.people, offset: offset, axis: axis), balls: Self.rekeyed(d.balls, offset: offset, axis: axis))
    }
    return out
  }

  /// `byCameraFrame` with each key (a camera frame, `offset` ahead of the match frame) moved to the
  /// compact axis.
  public static func rekeyed<Value>(_ byCameraFrame: [Int: Value], offset: Int, axis: FrameAxis) -> [Int: Value] {
    var out: [Int: Value] = [:]
    out.reserveCapacity(byCameraFrame.count)
    for (f, v) in byCameraFrame {
      guard let c = axis.compact(f - offset) else { continue }
      out[c + offset] = v
    }
    return out
  }
}
