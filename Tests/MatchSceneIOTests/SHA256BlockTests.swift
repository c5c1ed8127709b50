import CSHA256
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

/// The SHA extensions' block function against the portable one, and the digest's padding edges on both.
final class SHA256BlockTests: XCTestCase {
  private let initial: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]

  /// Same state after 1…40 random blocks whichever path compresses them (on a CPU without the
  /// extensions both calls take the portable path, and the test still checks the dispatch).
  func testAcceleratedBlocksEqualPortableBlocks() {
    var generator = SeededGenerator(seed: 11)
    for count in 1...40 {
      let bytes = (0..<(64 * count)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var fast = initial, portable = initial
      bytes.withUnsafeBufferPointer { p in
        ms_sha256_blocks(&fast, p.baseAddress!, count)
        ms_sha256_blocks_portable(&portable, p.baseAddress!, count)
      }
      XCTAssertEqual(fast, portable, "\(count) blocks (accelerated: \(ms_sha256_accelerated()))")
    }
  }

  /// FIPS 180-4's two-block example ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), fed a
  /// byte at a time and at once.
  func testTwoBlockExample() {
    let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    var whole = SHA256(), bytewise = SHA256()
    whole.update(message)
    for byte in message { bytewise.update([byte]) }
    let expected = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    XCTAssertEqual(whole.finish(), expected)
    XCTAssertEqual(bytewise.finish(), expected)
  }
}
