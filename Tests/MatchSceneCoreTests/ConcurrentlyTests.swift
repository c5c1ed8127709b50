import Foundation
import XCTest

@testable import MatchSceneCore

/// `concurrently` runs its two pieces of work at the same time and returns both results.
final class ConcurrentlyTests: XCTestCase {
  /// Each piece waits (up to 10 s) for the other to have started: done one after the other, the first
  /// would wait in vain.
  func testBothRunAtOnceAndBothResultsComeBack() throws {
    try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount < 2, "needs two cores")
    let firstStarted = DispatchSemaphore(value: 0), secondStarted = DispatchSemaphore(value: 0)
    let (a, b) = concurrently {
      firstStarted.signal()
      return (secondStarted.wait(timeout: .now() + 10) == .success, "first")
    } _: {
      secondStarted.signal()
      return (firstStarted.wait(timeout: .now() + 10) == .success, 2)
    }
    XCTAssertTrue(a.0 && b.0, "the two ran one after the other")
    XCTAssertEqual(a.1, "first")
    XCTAssertEqual(b.1, 2)
  }

  /// Nested inside, `parallelMap` keeps its order.
  func testParallelMapInsideKeepsOrder() {
    let (squares, sum) = concurrently {
      (try? parallelMap(Array(0..<1000)) { $0 * $0 }) ?? []
    } _: {
      (0..<1000).reduce(0, +)
    }
    XCTAssertEqual(squares, (0..<1000).map { $0 * $0 })
    XCTAssertEqual(sum, 499_500)
  }

  /// A `parallelMap` inside either piece still spreads over more than one thread (inside
  /// `DispatchQueue.concurrentPerform` it would run on its own thread only): iterations that sleep
  /// 20 ms each are taken by at least two threads.
  func testParallelMapInsideEitherPieceUsesSeveralThreads() throws {
    try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount < 2, "needs two cores")
    @Sendable func threadsUsed() -> Int {
      let threads = (try? parallelMap(Array(0..<16)) { _ -> ObjectIdentifier in
        usleep(20_000)
        return ObjectIdentifier(Thread.current)
      }) ?? []
      return Set(threads).count
    }
    let (a, b) = concurrently { threadsUsed() } _: { threadsUsed() }
    XCTAssertGreaterThanOrEqual(a, 2)
    XCTAssertGreaterThanOrEqual(b, 2)
  }
}
