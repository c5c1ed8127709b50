import Foundation

/// Reports the progress of long work on standard error — items done, rate, time left — when standard
/// error is a terminal, and stays silent when it is piped or redirected.
public final class ProgressReporter: @unchecked Sendable {
  private let label: String
  private var total: Int
  private let enabled: Bool
  private let start = Date()
  private var lastDraw = Date.distantPast
  private let lock = NSLock()

  /// - Parameter enabled: nil decides from `isatty(stderr)`.
  public init(_ label: String, total: Int, enabled: Bool? = nil) {
    self.label = label
    self.total = max(total, 1)
    self.enabled = enabled ?? (isatty(STDERR_FILENO) != 0)
  }

  /// Records that `done` items of `total` are finished, the total being known only now.
  public func update(_ done: Int, of total: Int) {
    lock.lock()
    self.total = max(total, 1)
    lock.unlock()
    update(done)
  }

  /// Records that `done` items of `total` are finished; redraws at most ten times a second.
  public func update(_ done: Int) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    let now = Date()
    guard done >= total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
    lastDraw = now
    let elapsed = now.timeIntervalSince(start)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let left = rate > 0 ? Double(total - done) / rate : 0
    let percent = 100 * Double(done) / Double(total)
    let line = String(
      format: "\r%@: %d/%d frames (%.0f%%), %.0f frames/s, %@ left ", label, done, total, percent, rate,
      Self.clock(left))
    FileHandle.standardError.write(Data(line.utf8))
  }

  /// Ends the progress line.
  public func finish() {
    guard enabled else { return }
    update(total)
    FileHandle.standardError.write(Data("\n".utf8))
  }

  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
      : String(format: "%d:%02d", s / 60, s % 60)
  }
}
