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
