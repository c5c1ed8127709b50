import ArgumentParser
import Foundation
import MatchSceneBatch
import MatchSceneSessions

/// `matchscene batch <manifest>`: one match per manifest line, this process's shard of them.
struct Batch: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Reconstruct many matches: one per manifest line, sharded over a Slurm array or a Kubernetes Indexed Job.",
    discussion: """
      Manifest lines: <input folder> <output folder> [name=<session name>] [reconstruct flags…] (# comments, \
      "quoted fields", paths relative to the manifest, also those of --calibration, --pose, --ball and --zones; \
      -o/--output refused: the output is the second field; LF, CRLF or CR line ends). Each output is written whole and marked with the input's \
      SHA-256, the flags and the tool version, so a re-run does only what is missing or changed. A failing match \
      is logged and the others go on; the exit status is non-zero when any failed. Then `matchscene batch merge \
      <manifest> --store FILE` adds the finished matches to the session store.
      """,
    subcommands: [BatchRun.self, BatchMergeCommand.self], defaultSubcommand: BatchRun.self)
}

struct BatchRun: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "run", abstract: "Run this process's shard of a manifest.")

  @Argument(help: "The manifest file.") var manifest: String

  @Option(help: "This shard (0-based). Default: SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN, or JOB_COMPLETION_INDEX, or 0.")
  var shardIndex: Int?

  @Option(help: "Number of shards. Default: SLURM_ARRAY_TASK_COUNT, or MATCHSCENE_SHARD_COUNT (Kubernetes), or 1.")
  var shardCount: Int?

  @Option(help: "Folder of the per-shard logs (batch-shard-<i>-of-<n>.log). Default: batch-logs beside the manifest.")
  var logDir: String?

  func run() throws {
    let manifestURL = URL(fileURLWithPath: manifest)
    let entries = try BatchManifest.read(manifestURL)
    let shard = try BatchShard.resolve(index: shardIndex, count: shardCount, environment: ProcessInfo.processInfo.environment)
    let logs = logDir.map { URL(fileURLWithPath: $0) } ?? manifestURL.deletingLastPathComponent().appendingPathComponent("batch-logs")
    let log = logs.appendingPathComponent("batch-shard-\(shard.index)-of-\(shard.count).log")
    let mine = shard.entries(entries)
    print("\(shard): \(mine.count) of \(entries.count) match(es); log \(log.path)")
    let report = BatchRunner(log: log, manifest: manifestURL).run(mine, shard: shard, runMatch: { entry in
      // The flags are reconstruct's own, parsed and checked by it.
      var command: Reconstruct
      do {
        command = try Reconstruct.parse([entry.input.path, "-o", entry.output.path] + entry.flags)
      } catch {
        throw CommandFailure("manifest line \(entry.line): \(Reconstruct.message(for: error))")
      }
      try command.run()
    }, note: { print($0) })
    print(report.summary)
    if !report.failed.isEmpty {
      throw CommandFailure("\(report.failed.count) match(es) failed; see \(log.path)")
    }
  }
}

struct BatchMergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge", abstract: "Add every finished match of a manifest to the session store, in manifest order.")

  @Argument(help: "The manifest file.") var manifest: String
  @OptionGroup var storeOptions: StoreOptions

  func run() throws {
    let entries = try BatchManifest.read(URL(fileURLWithPath: manifest))
    let report = try storeOptions.withStore(.readWrite) { BatchMerge.run(entries, store: $0) }
    for (line, id) in report.added { print("line \(line): added session \(id)") }
    for (line, id) in report.alreadyStored { print("line \(line): already stored as session \(id)") }
    for (line, message) in report.failed { print("line \(line): FAILED: \(message)") }
    print(report.summary + " → \(storeOptions.path)")
    if !report.failed.isEmpty { throw CommandFailure("\(report.failed.count) output(s) could not be added") }
  }
}
