import Foundation

/// Another program run to its end (Blender, OpenSim's Python, aniposelib's Python): standard input closed,
/// standard output and error collected through files in a private folder — so a chatty child never blocks
/// on a full pipe — which is also its working folder unless one is given (a tool that writes a log into its
/// working folder, as OpenSim writes `opensim.log`, then writes it there, never into the user's folder).
/// The folder is removed afterwards.
public enum ChildProcess {
  public struct Result: Sendable {
    /// The exit status; −1 when the program could not be started (`stderr` says why).
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// Runs `program` with `arguments` and waits for it.
  public static func run(_ program: URL, _ arguments: [String], workingDirectory: URL? = nil) -> Result {
    let fm = FileManager.default
    let dir = fm.temporaryDirectory.appendingPathComponent("matchscene-child-\(UUID().uuidString)")
    do { try fm.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
      return Result(status: -1, stdout: "", stderr: "cannot create \(dir.path): \(error.localizedDescription)")
    }
    defer { try? fm.removeItem(at: dir) }
    let out = dir.appendingPathComponent("stdout"), err = dir.appendingPathComponent("stderr")
    guard fm.createFile(atPath: out.path, contents: nil), fm.createFile(atPath: err.path, contents: nil),
      let outHandle = try? FileHandle(forWritingTo: out), let errHandle = try? FileHandle(forWritingTo: err)
    else { return Result(status: -1, stdout: "", stderr: "cannot create the output files in \(dir.path)") }
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    process.currentDirectoryURL = workingDirectory ?? dir
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outHandle
    process.standardError = errHandle
    do { try process.run() } catch {
      try? outHandle.close()
      try? errHandle.close()
      return Result(status: -1, stdout: "", stderr: "\(program.path): \(error.localizedDescription)")
    }
    process.waitUntilExit()
    try? outHandle.close()
    try? errHandle.close()
    return Result(
      status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
  }
}
