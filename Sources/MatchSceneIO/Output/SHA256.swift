import CSHA256

/// SHA-256 (FIPS 180-4, §6.2), used to fingerprint a folder's files: an output added twice to the session
/// store, a match folder's input recorded in `match.json`. Written here because Foundation on Linux has no digest and the package
/// mirror holds no crypto package; remove in favour of swift-crypto's `SHA256` once it is mirrored. The block
/// function is C (`CSHA256`): the CPU's SHA extensions where it has them (~1.5 GB/s here, a 10-minute match's
/// 705 MB input in half a second), portable code elsewhere.
public struct SHA256: Sendable {
  public init() {}
  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  /// Feeds `bytes`, whole blocks straight from the buffer.
  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    length &+= UInt64(bytes.count)
    var start = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, bytes.count)
      pending += bytes[0..<take]
      start = take
      if pending.count == 64 {
        pending.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }
        pending.removeAll(keepingCapacity: true)
      }
    }
    let blocks = (bytes.count - start) / 64
    if blocks > 0 {
      compress(bytes.baseAddress! + start, blocks: blocks)
      start += 64 * blocks
    }
    pending += bytes[start...]
  }

  public mutating func finish() -> String {
    let bits = length &* 8
    var tail: [UInt8] = [0x80]
    while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
    for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
    let saved = length
    update(tail)
    length = saved
    return state.map { word in
      let hex = String(word, radix: 16)
      return String(repeating: "0", count: 8 - hex.count) + hex
    }.joined()
  }

  /// Compresses `blocks` whole 64-byte blocks (the CPU's SHA extensions when it has them).
  private mutating func compress(_ block: UnsafeRawPointer, blocks: Int) {
    state.withUnsafeMutableBufferPointer { ms_sha256_blocks($0.baseAddress!, block.assumingMemoryBound(to: UInt8.self), blocks) }
  }
}
