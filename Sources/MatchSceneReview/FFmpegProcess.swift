import Foundation
import MatchSceneCore

/// An `ffmpeg`/`ffprobe` child process with a pipe for raw frames (its standard output to read, or its
/// standard input to write) and its messages collected from standard error for the error report.
final class FFmpegProcess {
  private let process = Process()
  private let pipe = Pipe()
  private let messages: URL
  private let program: String

  /// Starts `program` (a name looked up on PATH, or a path) with `arguments`.
  /// - Throws: `InputError` when it cannot be started (not installed: `apt-get install -y ffmpeg`).
  init(_ program: String, _ arguments: [String], reads: Bool) throws {
    self.program = program
    messages = FileManager.default.temporaryDirectory.appendingPathComponent("matchscene-\(program.split(separator: "/").last ?? "ffmpeg")-\(UUID().uuidString).log")
    FileManager.default.createFile(atPath: messages.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    process.standardError = try FileHandle(forWritingTo: messages)
    if reads {
      process.standardOutput = pipe
      process.standardInput = FileHandle.nullDevice
    } else {
      process.standardInput = pipe
      process.standardOutput = FileHandle.nullDevice
    }
    // A child that exits early must not kill us with SIGPIPE when we write to it: the write then throws.
    signal(SIGPIPE, SIG_IGN)
    do { try process.run() } catch {
      throw InputError(file: program, "cannot run \(program) (\(error)); install it: apt-get install -y ffmpeg")
    }
  }

  deinit { try? FileManager.default.removeItem(at: messages) }

  /// The next `count` bytes of the child's output, nil at its end. - Throws: on a partial last block.
  func read(count: Int) throws -> [UInt8]? {
    var data = Data()
    data.reserveCapacity(count)
    while data.count < count {
      guard let chunk = try pipe.fileHandleForReading.read(upToCount: count - data.count), !chunk.isEmpty else { break }
      data.append(chunk)
    }
    if data.isEmpty { return nil }
    guard data.count == count else {
      throw InputError(file: program, "output ended inside a frame (\(data.count) of \(count) bytes): \(log())")
    }
    return [UInt8](data)
  }

  /// Writes `bytes` to the child's input.
  func write(_ bytes: [UInt8]) throws {
    do { try pipe.fileHandleForWriting.write(contentsOf: bytes) } catch {
      throw InputError(file: program, "stopped taking frames: \(log())")
    }
  }

  /// Closes the child's input (when writing), waits for it and checks that it succeeded.
  func finish(what: String) throws {
    if process.standardInput as AnyObject === pipe { try? pipe.fileHandleForWriting.close() }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw InputError(file: program, "\(what) failed (exit \(process.terminationStatus)): \(log())")
    }
  }

  func terminate() {
    if process.isRunning { process.terminate() }
    try? pipe.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  private func log() -> String {
    let text = (try? String(contentsOf: messages, encoding: .utf8)) ?? ""
    return text.isEmpty ? "no message" : String(text.suffix(800)).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs `program` to its end and returns its standard output.
  static func output(_ program: String, _ arguments: [String]) throws -> String {
    let child = try FFmpegProcess(program, arguments, reads: true)
    var data = Data()
    while let chunk = try child.pipe.fileHandleForReading.read(upToCount: 65536), !chunk.isEmpty { data.append(chunk) }
    try child.finish(what: "\(program) \(arguments.last ?? "")")
    return String(decoding: data, as: UTF8.self)
  }
}
