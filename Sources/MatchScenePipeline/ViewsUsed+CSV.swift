import Foundation
import MatchSceneCore
import MatchSceneIO
import MatchSceneReconstruction

extension ViewsUsed {
  /// Writes the output folder's `views.csv` into `folder` whole (`MatchOutput`): one row per person joint triangulated —
  /// `frame,track,joint,mask,cameras` — where bit c of `mask` is camera c of the calibration (its
  /// order) and `cameras` names them, joined by `+`. Rendered and written in pieces of about 4 MB: a 10-minute match's `views.csv` is ~60 MB, which the writing stage held at once (beside
  /// the scene export's buffers) when it was rendered into one string.
  func writeCSV(in folder: URL, skeleton: Skeleton) throws {
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
    var piece = "frame,track,joint,mask,cameras\n"
    piece.reserveCapacity(pieceBytes + 256)
    for i in order {
      let row = rows[i]
      let joint = row.joint < skeleton.count ? skeleton.keypoints[row.joint] : String(row.joint)
      let names = cameras.indices.filter { row.mask & (1 << UInt64($0)) != 0 }.map { cameras[$0] }.joined(separator: "+")
      piece += "\(row.frame),\(row.track),\(joint),\(row.mask),\(names)\n"
      if piece.utf8.count >= pieceBytes {
        try piece.withUTF8 { try emit(UnsafeRawBufferPointer($0)) }
        piece.removeAll(keepingCapacity: true)
      }
    }
    if !piece.isEmpty { try piece.withUTF8 { try emit(UnsafeRawBufferPointer($0)) } }
  }
}
