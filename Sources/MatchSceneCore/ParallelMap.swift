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

/// Runs `first` and `second` at the same time and returns both results; for two pieces of work that
/// share no mutable state, so that the result is the one of running them one after the other.
/// `second` runs on a thread of its own and `first` on the caller's, so that a `parallelMap` inside
/// either still spreads over every core (one inside `DispatchQueue.concurrentPerform` would run its
/// iterations one after another on its thread).
public func concurrently<A: Sendable, B: Sendable>(
  _ first: () -> A, _ second: @escaping @Sendable () -> B
) -> (A, B) {
  let b = ParallelResults<B>(1)
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    // Written before `done` is signalled and read after it is waited for.
    b.results[0] = second()
    done.signal()
  }
  thread.stackSize = 8 << 20
  thread.start()
  let a = first()
  done.wait()
  return (a, b.results[0]!)
}
