extension StrokeReference {
  /// The reference as the other hand would play it: a mirror image in the player's sagittal plane.
  ///
  /// What mirrors: the ghost's keypoints (y, the player's left, negated; `left_*` and `right_*`
  /// keypoints swapped) and `hand`. What does not need to: the curves, which are already named by the
  /// racket and free side (`FormJoint`: a left-hander's racket elbow is `elbow_flexion_l`) with the
  /// trunk rotation's sign turned to the racket side (`FormJoint.sign`) and the shoulder plane of the
  /// left arm mirrored (`FormAngle`), and the spreads, which go with the curves. `mirroredFrom` records
  /// the hand it was saved for.
  public func mirrored() -> StrokeReference {
    var out = self
    out.hand = hand.other
    out.mirroredFrom = hand
    out.ghost = ghost.map { g in
      let partner = g.keypoints.map { name -> Int in
        let swapped =
          name.hasPrefix("left_") ? "right_" + name.dropFirst(5) : name.hasPrefix("right_") ? "left_" + name.dropFirst(6) : name
        return g.keypoints.firstIndex(of: swapped) ?? g.keypoints.firstIndex(of: name)!
      }
      var m = g
      m.frames = g.frames.map { row in partner.map { j in [row[j][0], -row[j][1], row[j][2]] } }
      return m
    }
    return out
  }

  /// The reference for a stroke of `hand`: itself, or mirrored when saved for the other hand.
  public func forHand(_ hand: BodySide) -> StrokeReference { hand == self.hand ? self : mirrored() }
}
