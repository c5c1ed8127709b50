import Foundation

/// Reading many small files with more requests in flight than there are cores.
///
/// A cold 10-minute match is 144,000 OpenPose files; each `open` and `read` of a file not in the page
/// cache waits for the disk (its inode, then its one data block), and with one request per core a
/// virtual disk sits mostly idle between them. Threads that mostly wait cost little, so the files
/// are read (and parsed) on `ReadThreads.count` threads, which keeps that many requests queued: on
/// this project's 2-core machine a cold read of the 60 s match's 14,400 files took 2.3 s with 2
/// threads and 1.0 s with 32. With the files in the page cache the extra threads only take turns on
/// the cores. (Linux block-layer queueing: `Documentation/block/blk-mq.rst`; the device keeps
/// `queue/nr_requests` requests, 256 here.)
enum ReadThreads {
  /// Threads reading at once: enough outstanding requests to keep a (virtual) disk busy, few enough
  /// that their stacks and file buffers stay small.
  static let count = 32

  /// Items handed to a thread at a time: neighbouring files (in name order, usually written one
  /// after the other and so near on disk) stay together, and the shared counter is touched rarely.
  static let batch = 16

  /// `items.map(body)` on `threads` threads, keeping the order; the first error thrown wins, and no
  /// item is started after it.
  static func map<T: Sendable, R: Sendable>(
    _ items: [T], threads: Int = count, _ body: @escaping @Sendable (T) throws -> R
  ) throws -> [R] {
    let work = Work<T, R>(items, body: body)
    let n = min(threads, (items.count + batch - 1) / batch)
    guard n > 1 else {
      work.run()
      return try work.finish()
    }
    let group = DispatchGroup()
    for _ in 0..<n {
      group.enter()
      let thread = Thread {
        work.run()
        group.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    group.wait()
    return try work.finish()
  }

  /// The shared state of one `map`: the next batch to take, each item's result (written by the one
  /// thread that took it), the first error. Guarded by `lock` where noted.
  final class Work<T: Sendable, R: Sendable>: @unchecked Sendable {
    let items: [T]
    let body: @Sendable (T) throws -> R
    let results: UnsafeMutablePointer<R>
    let lock = NSLock()
    /// Guarded by `lock`.
    var next = 0
    /// Guarded by `lock`.
    var error: Error?
    /// Which of `results` are initialised; each flag written by the thread that took the item, read
    /// after every thread has finished.
    let filled: UnsafeMutablePointer<Bool>

    init(_ items: [T], body: @escaping @Sendable (T) throws -> R) {
      self.items = items
      self.body = body
      results = .allocate(capacity: items.count)
      filled = .allocate(capacity: items.count)
      filled.initialize(repeating: false, count: items.count)
    }

    deinit {
      for i in 0..<items.count where filled[i] { (results + i).deinitialize(count: 1) }
      results.deallocate()
      filled.deallocate()
    }

    /// Takes batches until none is left or an item failed.
    func run() {
      while true {
        lock.lock()
        let start = error == nil ? next : items.count
        next = min(items.count, start + ReadThreads.batch)
        let end = next
        lock.unlock()
        guard start < end else { return }
        for i in start..<end {
          do {
            (results + i).initialize(to: try body(items[i]))
            filled[i] = true
          } catch {
            lock.lock()
            if self.error == nil { self.error = error }
            lock.unlock()
            return
          }
        }
      }
    }

    /// The results in order (moved out), or the first error.
    func finish() throws -> [R] {
      if let error {
        // The results built before the failure are released now, not whenever the last thread lets
        // go of this object.
        for i in 0..<items.count where filled[i] {
          (results + i).deinitialize(count: 1)
          filled[i] = false
        }
        throw error
      }
      let n = items.count
      guard n > 0 else { return [] }
      let out = [R](unsafeUninitializedCapacity: n) { buffer, count in
        buffer.baseAddress!.moveInitialize(from: results, count: n)
        count = n
      }
      filled.update(repeating: false, count: n)
      return out
    }
  }
}
