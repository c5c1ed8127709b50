import Foundation

extension FormResult {
  /// `write(to:)` on another core while `work` runs on this one (the strokes' scores, `form.html`):
  /// returns `work`'s value once both are done.
  /// - Throws: `work`'s error, else the writing's; either way only after the writing has finished.
  public func write<T>(to folder: URL, during work: () throws -> T) throws -> T {
    let written = WriteOutcome(), group = DispatchGroup()
    let result = self
    DispatchQueue.global().async(group: group) {
      do { try result.write(to: folder) } catch { written.error = error }
    }
    let value = Result { try work() }
    group.wait()
    let done = try value.get()
    if let error = written.error { throw error }
    return done
  }
}

/// The error of a write made on another thread, read after the thread is joined.
private final class WriteOutcome: @unchecked Sendable {
  var error: Error?
}
