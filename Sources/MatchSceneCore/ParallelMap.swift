import Foundation

/// Results gathered from concurrent workers.
/// Guarded by `lock`: written by workers, read after they finish.
final class ParallelResults<R>: @unchecked Sendable {
  var results: [R?]
  var error: Error?
  let lock = NSLock()
  init(_ n: Int) { results = Array(repeating: nil, count: n) }
}

/// Maps `body` over `items` on all cores, keeping the order; the first error thrown wins.
public func parallelMap<T: Sendable, R: Sendable>(_ items: [T], _ body: @Sendable (T) throws -> R) throws -> [R] {
  let box = ParallelResults<R>(items.count)
  DispatchQueue.concurrentPerform(iterations: items.count) { i in
    do {
      let r = try body(items[i])
      box.lock.lock()
      box.results[i] = r
      box.lock.unlock()
    } catch {
      box.lock.lock()
      if box.error == nil { box.error = error }
      box.lock.unlock()
    }
  }
  if let error = box.error { throw error }
  return box.results.map { $0! }
}

/// Runs `first` and `second` at the same time (on two threads of the shared pool) and returns both
/// results; for two pieces of work that share no mutable state, so that the result is the one of
/// running them one after the other.
public func concurrently<A: Sendable, B: Sendable>(
  _ first: @Sendable () -> A, _ second: @Sendable () -> B
) -> (A, B) {
  let a = ParallelResults<A>(1), b = ParallelResults<B>(1)
  DispatchQueue.concurrentPerform(iterations: 2) { i in
    // Each slot is written by one iteration only and read after both have finished.
    if i == 0 { a.results[0] = first() } else { b.results[0] = second() }
  }
  return (a.results[0]!, b.results[0]!)
}
