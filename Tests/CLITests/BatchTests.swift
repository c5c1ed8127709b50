import Foundation
import MatchSceneBatch
import TestSupport
import XCTest

/// `matchscene batch`: manifests, shards, markers, merge; and a real Slurm array over 8 matches.
final class BatchTests: XCTestCase {
  func testManifestLinesAndErrors() throws {
    let base = URL(fileURLWithPath: "/data")
    let entries = try BatchManifest.parse(
      "# matches\n\nm1 out/m1 name=\"Ana vs Bo\" --frames 0-99\n/abs/m2\t/abs/out2 # the second\n", file: "batch.txt", base: base)
    XCTAssertEqual(entries.count, 2)
    XCTAssertEqual(entries[0].line, 3)
    XCTAssertEqual(entries[0].input.path, "/data/m1")
    XCTAssertEqual(entries[0].output.path, "/data/out/m1")
    XCTAssertEqual(entries[0].sessionName, "Ana vs Bo")
    XCTAssertEqual(entries[0].flags, ["--frames", "0-99"])
    XCTAssertEqual(entries[1].input.path, "/abs/m2")
    XCTAssertEqual(entries[1].flags, [])
    for (text, message) in [
      ("m1\n", "batch.txt:1: expected <input folder> <output folder>"),
      ("m1 o\nm2 o\n", "batch.txt:2: output folder o is already the output of line 1"),
      ("m1 \"o\n", "batch.txt:1: a quote is not closed"),
      ("m1 m1\n", "batch.txt:1: the output folder is the input folder"),
    ] {
      XCTAssertThrowsError(try BatchManifest.parse(text, file: "batch.txt", base: base)) { error in
        XCTAssert("\(error)".contains(message), "\(error)")
      }
    }
  }

  func testShardsFromFlagsSlurmAndKubernetes() throws {
    XCTAssertEqual(try BatchShard.resolve(index: nil, count: nil, environment: [:]), try BatchShard(index: 0, count: 1))
    let slurm = ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "4"]
    XCTAssertEqual(try BatchShard.resolve(index: nil, count: nil, environment: slurm), try BatchShard(index: 2, count: 4))
    XCTAssertEqual(try BatchShard.resolve(index: 1, count: 3, environment: slurm), try BatchShard(index: 1, count: 3))
    // Task 1 submitted again alone (`--array=1`): with the count given it is still shard 1 of 4.
    let again = ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "1"]
    XCTAssertEqual(try BatchShard.resolve(index: nil, count: 4, environment: again), try BatchShard(index: 1, count: 4))
    XCTAssertEqual(
      try BatchShard.resolve(index: nil, count: nil, environment: ["JOB_COMPLETION_INDEX": "3", "MATCHSCENE_SHARD_COUNT": "8"]),
      try BatchShard(index: 3, count: 8))
    XCTAssertThrowsError(try BatchShard.resolve(index: nil, count: nil, environment: ["JOB_COMPLETION_INDEX": "3"])) {
      XCTAssert("\($0)".contains("--shard-count"), "\($0)")
    }
    XCTAssertThrowsError(try BatchShard.resolve(index: 4, count: 4, environment: [:])) {
      XCTAssert("\($0)".contains("not between 0 and 3"), "\($0)")
    }
    XCTAssertThrowsError(try BatchShard.resolve(index: nil, count: nil, environment: ["SLURM_ARRAY_TASK_ID": "x"])) {
      XCTAssert("\($0)".contains("SLURM_ARRAY_TASK_ID"), "\($0)")
    }
    let shard = try BatchShard(index: 1, count: 3)
    let all = (1...7).map { BatchEntry(line: $0, input: URL(fileURLWithPath: "/i\($0)"), output: URL(fileURLWithPath: "/o\($0)"), sessionName: nil, flags: []) }
    XCTAssertEqual(shard.entries(all).map(\.line), [2, 5])
  }

  /// 8 simulated matches in a 4-task Slurm array; one task is cancelled while it runs its first match and
  /// submitted again; `batch merge` then stores the same 8 sessions, in the same order with the same
  /// content hashes, as a one-process `batch` of the same manifest.
  func testRealSlurmArrayKilledTaskRerunAndMerge() throws {
    try requireTier(.integration)
    let slurm = try LocalSlurm()
    defer { slurm.stop() }
    let folder = try makeTemporaryFolder("batch")
    var lines = "# 8 matches\n", single = ""
    for seed in 1...8 {
      let match = folder.appendingPathComponent("m\(seed)")
      let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "2", "--seed", "\(seed)"])
      XCTAssertEqual(simulate.status, 0, simulate.stderr)
      lines += "m\(seed) out/m\(seed) name=match-\(seed) --no-scene\n"
      single += "m\(seed) single/m\(seed) name=match-\(seed) --no-scene\n"
    }
    let manifest = folder.appendingPathComponent("batch.txt"), singleManifest = folder.appendingPathComponent("single.txt")
    try lines.write(to: manifest, atomically: true, encoding: .utf8)
    try single.write(to: singleManifest, atomically: true, encoding: .utf8)
    let script = folder.appendingPathComponent("batch.sbatch")
    try """
      #!/bin/bash
      exec "$MATCHSCENE" batch "$MANIFEST" --shard-count 4 --log-dir "$LOGS"

      """.write(to: script, atomically: true, encoding: .utf8)
    let logs = folder.appendingPathComponent("logs")
    let exports = [
      "MATCHSCENE": matchSceneBinary.path, "MANIFEST": manifest.path, "LOGS": logs.path,
    ]
    let job = try slurm.submitArray(script, array: "0-3", output: folder.appendingPathComponent("slurm-%a.out"), exports: exports)

    // Cancel task 1 once it has started its first match (m2).
    let log1 = logs.appendingPathComponent("batch-shard-1-of-4.log")
    let deadline = Date().addingTimeInterval(300)
    while Date() < deadline, !((try? String(contentsOf: log1, encoding: .utf8)) ?? "").contains("shard 1 of 4: 2 match(es)") {
      Thread.sleep(forTimeInterval: 0.1)
    }
    try slurm.cancel("\(job)_1")
    try slurm.wait(job)
    let m2 = folder.appendingPathComponent("out/m2")
    XCTAssertNil(BatchMarker.read(in: m2), "the cancelled task did not finish m2")
    for seed in [1, 3, 4, 5, 7, 8] {
      XCTAssertNotNil(BatchMarker.read(in: folder.appendingPathComponent("out/m\(seed)")), "m\(seed) finished")
    }
    // A merge now stores the 6 finished matches and names the 2 missing.
    let store = folder.appendingPathComponent("sessions.sqlite")
    let early = try runMatchScene(["batch", "merge", manifest.path, "--store", store.path])
    XCTAssertEqual(early.status, 0, early.stderr)
    XCTAssertTrue(early.stdout.contains("6 added, 0 already stored, 2 not finished"), early.stdout)
    XCTAssertTrue(early.stdout.contains("manifest lines 3, 7"), early.stdout)

    // Submit task 1 again: it does m2 and m6; the other shards' work is untouched.
    let again = try slurm.submitArray(script, array: "1", output: folder.appendingPathComponent("slurm-again-%a.out"), exports: exports)
    try slurm.wait(again)
    let rerun = try String(contentsOf: log1, encoding: .utf8)
    XCTAssertTrue(rerun.contains("shard 1 of 4: 2 done, 0 up to date, 0 failed"), rerun)
    // A third run of the whole array does nothing.
    let idle = try runMatchScene(["batch", manifest.path, "--log-dir", logs.path])
    XCTAssertEqual(idle.status, 0, idle.stderr)
    XCTAssertTrue(idle.stdout.contains("0 done, 8 up to date, 0 failed"), idle.stdout)

    let merge = try runMatchScene(["batch", "merge", manifest.path, "--store", store.path])
    XCTAssertEqual(merge.status, 0, merge.stderr)
    XCTAssertTrue(merge.stdout.contains("2 added, 6 already stored, 0 not finished"), merge.stdout)

    // The same manifest in one process, into another store.
    let one = try runMatchScene(["batch", singleManifest.path, "--log-dir", logs.path])
    XCTAssertEqual(one.status, 0, one.stderr)
    let singleStore = folder.appendingPathComponent("single.sqlite")
    XCTAssertEqual(try runMatchScene(["batch", "merge", singleManifest.path, "--store", singleStore.path]).status, 0)
    // Sessions by name with their content hashes: the cluster's and the single process's agree.
    func sessions(_ url: URL) throws -> String {
      let result = try runProgram(
        URL(fileURLWithPath: "/usr/bin/sqlite3"), [url.path, "SELECT name, sport, fps, inputHash, frameCount FROM session ORDER BY name"])
      XCTAssertEqual(result.status, 0, result.stderr)
      return result.stdout
    }
    let cluster = try sessions(store), alone = try sessions(singleStore)
    XCTAssertEqual(cluster.split(separator: "\n").count, 8)
    XCTAssertEqual(cluster, alone)
  }
}
