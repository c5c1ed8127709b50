import Foundation
import XCTest

@testable import MatchSceneIO

/// A result that counts how many of its kind are alive.
private final class Tracked: @unchecked Sendable {
  static let lock = NSLock()
  nonisolated(unsafe) static var alive = 0
  init() { Self.lock.lock(); Self.alive += 1; Self.lock.unlock() }
  deinit { Self.lock.lock(); Self.alive -= 1; Self.lock.unlock() }
}

/// `ReadThreads.map`: the many-threaded map the OpenPose reader uses for a cold disk.
final class ReadThreadsTests: XCTestCase {
  struct Failure: Error, Equatable { let item: Int }

  /// Results come back in the items' order, for counts around the batch size and far above it, on
  /// one thread and on many.
  func testKeepsOrderOnAnyNumberOfThreads() throws {
    for count in [0, 1, ReadThreads.batch - 1, ReadThreads.batch, ReadThreads.batch + 1, 5_000] {
      let items = Array(0..<count)
      for threads in [1, 3, ReadThreads.count] {
        let out = try ReadThreads.map(items, threads: threads) { i -> String in
          if i % 97 == 0 { usleep(50) }  // uneven work: later items finish before earlier ones
          return "item \(i)"
        }
        XCTAssertEqual(out, items.map { "item \($0)" }, "\(count) items on \(threads) threads")
      }
    }
  }

  /// The error of a failing item is thrown (the first one recorded when several fail), and items
  /// built before it are released, not leaked or read uninitialised.
  func testThrowsAnItemsError() {
    XCTAssertThrowsError(
      try ReadThreads.map(Array(0..<2_000)) { i -> Tracked in
        if i == 1_234 || i == 1_900 { throw Failure(item: i) }
        return Tracked()
      }
    ) { error in
      XCTAssertTrue([Failure(item: 1_234), Failure(item: 1_900)].contains(error as? Failure), "\(error)")
    }
    XCTAssertEqual(Tracked.alive, 0, "results built before the failure are released")
  }

  /// Really runs items at once: with 16 threads, 16 items that each wait 50 ms take far less than
  /// 16 × 50 ms (the point of the reader: many disk requests outstanding, not one per core).
  func testRunsMoreItemsAtOnceThanCores() throws {
    let start = Date()
    _ = try ReadThreads.map(Array(0..<(16 * ReadThreads.batch)), threads: 16) { i -> Int in
      if i % ReadThreads.batch == 0 { usleep(50_000) }
      return i
    }
    XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "16 waits of 50 ms overlapped")
  }
}
