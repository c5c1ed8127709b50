import Foundation
import MatchSceneCore

/// The compact encoding of one track's samples in the store (`track.samples`, encoding `mst1`).
///
/// Positions are kept exactly as `tracks.csv` writes them — integer micrometres — and the reprojection
/// error in integer millipixels (3 decimals), so `sessions export` writes the same file back. Per joint
/// series, per frame: a varint tag `views << 2 | state`; for a present sample then the zig-zag varints of
/// the position's second difference (the residual from the constant-velocity prediction of the two
/// previous present samples, first difference after one, the value itself first) and of the change of the
/// reprojection error. Joints move a few millimetres between frames, so most samples take 6–9 bytes
/// instead of 30. Zig-zag varints are Protocol Buffers' (developers.google.com/protocol-buffers/docs/encoding).
public enum TrackCodec {
  public static let encoding = "mst1"

  /// Encodes `track`'s samples, joint-major as `MotionTrack` keeps them.
  public static func encode(_ track: MotionTrack) -> Data {
    var out: [UInt8] = []
    out.reserveCapacity(track.samples.count * 8)
    for joint in 0..<track.jointCount {
      var previous: [SIMD3<Int64>] = []
      var previousReprojection: Int64 = 0
      for sample in track.series(joint: joint) {
        let views = UInt64(max(0, sample.views))
        putVarint(&out, views << 2 | UInt64(sample.state.rawValue))
        guard sample.isPresent else { continue }
        let q = quantise(sample.position)
        let residual = q &- prediction(previous)
        putVarint(&out, zigzag(residual.x))
        putVarint(&out, zigzag(residual.y))
        putVarint(&out, zigzag(residual.z))
        let r = Int64((sample.reprojectionPx * 1000).rounded())
        putVarint(&out, zigzag(r &- previousReprojection))
        previousReprojection = r
        if previous.count == 2 { previous.removeFirst() }
        previous.append(q)
      }
    }
    return Data(out)
  }

  /// Decodes samples encoded by `encode(_:)` into `track` (whose id, kind, joint count and frames are
  /// already set).
  /// - Throws: `SessionStoreError.corrupt` when the bytes end early or hold more than the track's samples.
  public static func decode(_ data: Data, into track: inout MotionTrack) throws {
    let bytes = [UInt8](data)
    var at = 0
    func next() throws -> UInt64 {
      var value: UInt64 = 0, shift: UInt64 = 0
      while true {
        guard at < bytes.count, shift < 64 else {
          throw SessionStoreError.corrupt("track \(track.id): sample data ends early")
        }
        let b = bytes[at]
        at += 1
        value |= UInt64(b & 0x7f) << shift
        if b & 0x80 == 0 { return value }
        shift += 7
      }
    }
    for joint in 0..<track.jointCount {
      var previous: [SIMD3<Int64>] = []
      var previousReprojection: Int64 = 0
      for offset in 0..<track.frameCount {
        let tag = try next()
        guard let state = SampleState(rawValue: UInt8(tag & 3)) else {
          throw SessionStoreError.corrupt("track \(track.id): unknown sample state \(tag & 3)")
        }
        guard state != .missing else { continue }
        let residual = SIMD3(unzigzag(try next()), unzigzag(try next()), unzigzag(try next()))
        let q = residual &+ prediction(previous)
        let r = unzigzag(try next()) &+ previousReprojection
        previousReprojection = r
        if previous.count == 2 { previous.removeFirst() }
        previous.append(q)
        track.samples[joint * track.frameCount + offset] = MotionSample(
          position: SIMD3(Double(q.x), Double(q.y), Double(q.z)) / 1e6, reprojectionPx: Double(r) / 1000,
          views: Int(tag >> 2), state: state)
      }
    }
    guard at == bytes.count else { throw SessionStoreError.corrupt("track \(track.id): \(bytes.count - at) bytes too many") }
  }

  /// Micrometres, rounded as `tracks.csv`'s 6 decimals round.
  @inline(__always) static func quantise(_ p: SIMD3<Double>) -> SIMD3<Int64> {
    SIMD3(Int64((p.x * 1e6).rounded()), Int64((p.y * 1e6).rounded()), Int64((p.z * 1e6).rounded()))
  }

  @inline(__always) static func prediction(_ previous: [SIMD3<Int64>]) -> SIMD3<Int64> {
    switch previous.count {
    case 0: .zero
    case 1: previous[0]
    default: 2 &* previous[1] &- previous[0]
    }
  }

  @inline(__always) static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
  @inline(__always) static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }

  @inline(__always) static func putVarint(_ out: inout [UInt8], _ value: UInt64) {
    var v = value
    while v >= 0x80 {
      out.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }
}
