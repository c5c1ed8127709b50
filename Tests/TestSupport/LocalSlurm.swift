import Foundation
import XCTest

/// A private single-node Slurm cluster for tests: Debian's `slurm-wlm` daemons (slurmctld, slurmd) and
/// `munge` for authentication, started as root with their configuration, key, sockets, spool and logs in
/// a temporary folder and ports of their own, so the machine's own Slurm (if any) is not touched.
/// `stop()` ends the daemons.
public final class LocalSlurm {
  public let folder: URL
  public let configuration: URL
  private let environment: [String: String]

  /// Starts munged, slurmctld and slurmd, and waits until the node is idle.
  /// - Throws: `XCTSkip` unless the tools tier is enabled; `XCTSkip` when Slurm or munge is not installed or the user is not root (a failure under CI).
  public init() throws {
    try requireTier(.tools)
    let tools = ["/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/sbatch", "/usr/bin/squeue", "/usr/bin/sinfo"]
    let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
    guard missing.isEmpty, getuid() == 0 else {
      let hint = missing.isEmpty ? "the Slurm test starts daemons and must run as root" : "missing \(missing.joined(separator: ", ")): apt-get install -y slurm-wlm munge"
      if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(hint) }
      throw XCTSkip(hint)
    }
    // Short paths: munge's socket path must fit in sockaddr_un.
    folder = URL(fileURLWithPath: "/tmp/ms-slurm-\(UUID().uuidString.prefix(8))")
    let fm = FileManager.default
    for sub in ["state", "spool"] { try fm.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true) }
    let key = folder.appendingPathComponent("munge.key")
    var bytes = [UInt8](repeating: 0, count: 1024)
    for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
    try Data(bytes).write(to: key)
    try fm.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
    let socket = folder.appendingPathComponent("munge.socket").path
    let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "localhost"
    let port = Int.random(in: 20_000...40_000)
    let f = folder.path
    let conf = """
      ClusterName=matchscene-test
      SlurmctldHost=\(Self.shortHostName() ?? host)
      AuthType=auth/munge
      AuthInfo=socket=\(socket)
      CredType=cred/munge
      ProctrackType=proctrack/linuxproc
      TaskPlugin=task/none
      SlurmUser=root
      SlurmdUser=root
      SlurmctldPort=\(port)
      SlurmdPort=\(port + 1)
      SlurmctldPidFile=\(f)/slurmctld.pid
      SlurmdPidFile=\(f)/slurmd.pid
      SlurmdSpoolDir=\(f)/spool
      StateSaveLocation=\(f)/state
      SlurmctldLogFile=\(f)/slurmctld.log
      SlurmdLogFile=\(f)/slurmd.log
      SchedulerType=sched/backfill
      SelectType=select/cons_tres
      SelectTypeParameters=CR_Core
      ReturnToService=2
      JobAcctGatherType=jobacct_gather/none
      AccountingStorageType=accounting_storage/none
      MpiDefault=none
      NodeName=\(Self.shortHostName() ?? host) CPUs=\(ProcessInfo.processInfo.activeProcessorCount) State=UNKNOWN
      PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP

      """
    configuration = folder.appendingPathComponent("slurm.conf")
    try conf.write(to: configuration, atomically: true, encoding: .utf8)
    var env = ProcessInfo.processInfo.environment
    env["SLURM_CONF"] = configuration.path
    environment = env

    try daemon("/usr/sbin/munged", [
      "--force", "--socket=\(socket)", "--key-file=\(key.path)", "--pid-file=\(f)/munged.pid",
      "--log-file=\(f)/munged.log", "--seed-file=\(f)/munge.seed",
    ])
    try daemon("/usr/sbin/slurmctld", ["-f", configuration.path])
    try daemon("/usr/sbin/slurmd", ["-f", configuration.path])
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      if let state = try? run("/usr/bin/sinfo", ["-h", "-o", "%T"]), state.contains("idle") { return }
      Thread.sleep(forTimeInterval: 0.5)
    }
    stop()
    throw NSError(domain: "LocalSlurm", code: 1, userInfo: [NSLocalizedDescriptionKey: "the Slurm node never became idle; logs in \(f)"])
  }

  private static func shortHostName() -> String? {
    var name = [CChar](repeating: 0, count: 256)
    guard gethostname(&name, name.count) == 0 else { return nil }
    return String(cString: name).split(separator: ".").first.map(String.init)
  }

  /// Starts a daemon (it forks and its parent exits) through `system(3)`, which waits for that parent
  /// with `waitpid`: Foundation's `Process` would wait on descriptors the daemon inherits.
  private func daemon(_ executable: String, _ arguments: [String]) throws {
    let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let command = "SLURM_CONF='\(configuration.path)' " + quoted.joined(separator: " ") + " </dev/null >/dev/null 2>&1"
    let status = system(command)
    guard status == 0 else {
      throw NSError(domain: "LocalSlurm", code: Int(status), userInfo: [
        NSLocalizedDescriptionKey: "\(executable) exited with status \(status); logs in \(folder.path)",
      ])
    }
  }

  /// Runs a Slurm or munge command with this cluster's configuration; returns standard output.
  @discardableResult
  public func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw NSError(domain: "LocalSlurm", code: Int(process.terminationStatus), userInfo: [
        NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: errors, as: UTF8.self))",
      ])
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Submits `script` as a job array; returns the job id.
  public func submitArray(_ script: URL, array: String, output: URL, exports: [String: String]) throws -> String {
    let export = "ALL," + exports.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    return try run("/usr/bin/sbatch", ["--parsable", "--array=\(array)", "--export=\(export)", "-o", output.path, script.path])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The states of a job's tasks still in the queue (`PENDING`, `RUNNING`, …), by task id.
  public func states(_ job: String) throws -> [String: String] {
    let text = try run("/usr/bin/squeue", ["-h", "-r", "-j", job, "-o", "%K %T"])
    var out: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2 { out[String(parts[0])] = String(parts[1]) }
    }
    return out
  }

  /// Waits until every task of the job has ended (`scontrol show job`: no task pending, configuring,
  /// running or completing); a job just submitted counts as not ended.
  public func wait(_ job: String, timeout: TimeInterval = 600) throws {
    let deadline = Date().addingTimeInterval(timeout)
    let active = ["PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING"]
    while Date() < deadline {
      let text = (try? run("/usr/bin/scontrol", ["show", "job", "-o", job])) ?? ""
      let states = text.split(separator: "\n").compactMap { line in
        line.split(separator: " ").first { $0.hasPrefix("JobState=") }.map { String($0.dropFirst(9)) }
      }
      if !states.isEmpty, !states.contains(where: active.contains) { return }
      Thread.sleep(forTimeInterval: 0.5)
    }
    throw NSError(domain: "LocalSlurm", code: 2, userInfo: [NSLocalizedDescriptionKey: "job \(job) still queued after \(timeout) s"])
  }

  public func cancel(_ job: String) throws { try run("/usr/bin/scancel", [job]) }

  /// Ends the daemons (SIGTERM to each pid file's process) and removes the cluster's folder.
  public func stop() {
    for name in ["slurmd", "slurmctld", "munged"] {
      if let text = try? String(contentsOf: folder.appendingPathComponent("\(name).pid"), encoding: .utf8),
        let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        kill(pid, SIGTERM)
      }
    }
    Thread.sleep(forTimeInterval: 1)
    try? FileManager.default.removeItem(at: folder)
  }

  deinit { stop() }
}
