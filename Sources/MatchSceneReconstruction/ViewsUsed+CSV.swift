import Foundation
import MatchSceneCore
import MatchSceneIO

extension ViewsUsed {
  /// Writes the output folder's `views.csv` into `folder` whole (`MatchOutput`): one row per person joint triangulated —
  /// `frame,track,joint,mask,cameras` — where bit c of `mask` is camera c of the calibration (its
  /// order, cameras 0–63) and `cameras` names every camera used, joined by `+`. A rig of more than 64
  /// cameras gets further columns after these, `mask1`, `mask2`…: bit b of `maskK` is camera 64K + b.
  /// Track, joint and camera cells are `CSVField` cells (RFC 4180 quoting, formula prefixes neutralised). Rendered and written in pieces of about 4 MB: a 10-minute match's `views.csv` is ~60 MB, which the writing stage held at once (beside
  /// the scene export's buffers) when it was rendered into one string.
  public func writeCSV(in folder: URL, skeleton: Skeleton) throws {
    try MatchOutput.write(.views, in: folder) { emit in try render(skeleton: skeleton, pieceBytes: 4 << 20, emit: emit) }
  }

  /// The text of `views.csv`, handed to `emit` in pieces of at least `pieceBytes` (the last may
  /// be shorter), rows sorted by frame, track and joint.
  private func render(
    skeleton: Skeleton, pieceBytes: Int, emit: (UnsafeRawBufferPointer) throws -> Void
  ) rethrows {
    // The order sorted as indices (8 bytes a row) rather than as a sorted copy of the rows (40).
    let order = rows.indices.sorted {
      (rows[$0].frame, rows[$0].track, rows[$0].joint) < (rows[$1].frame, rows[$1].track, rows[$1].joint)
    }
    let words = highWordCount
    var piece = "frame,track,joint,mask,cameras" + (0..<words).map { ",mask\($0 + 1)" }.joined() + "\n"
    piece.reserveCapacity(pieceBytes + 256)
    for i in order {
      let row = rows[i]
      let joint = row.joint < skeleton.count ? skeleton.keypoints[row.joint] : String(row.joint)
      let names = cameras.indices.filter { uses(row: i, camera: $0) }.map { cameras[$0] }.joined(separator: "+")
      piece += "\(row.frame),\(CSVField.escape(row.track)),\(CSVField.escape(joint)),\(row.mask),\(CSVField.escape(names))"
      for w in 0..<words { piece += ",\(maskWord(row: i, word: w + 1))" }
      piece += "\n"
      if piece.utf8.count >= pieceBytes {
        try piece.withUTF8 { try emit(UnsafeRawBufferPointer($0)) }
        piece.removeAll(keepingCapacity: true)
      }
    }
    if !piece.isEmpty { try piece.withUTF8 { try emit(UnsafeRawBufferPointer($0)) } }
  }
}
