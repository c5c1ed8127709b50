import Foundation
import MatchSceneCore

/// Which share of a manifest one process runs: entry `k` (0-based, manifest order) belongs to shard
/// `k mod count`.
public struct BatchShard: Sendable, Equatable, CustomStringConvertible {
  public var index: Int
  public var count: Int

  /// - Throws: `InputError` naming the flag or variable when `count < 1` or `index` is not in `0..<count`.
  public init(index: Int, count: Int, source: String = "--shard-index/--shard-count") throws {
    guard count >= 1, count <= 1_000_000 else {
      throw InputError(file: source, "shard count \(count) is not between 1 and 1000000")
    }
    guard (0..<count).contains(index) else {
      throw InputError(file: source, "shard index \(index) is not between 0 and \(count - 1)")
    }
    self.index = index
    self.count = count
  }

  /// The shard from explicit flags, else the scheduler's environment: a Slurm job array
  /// (`SLURM_ARRAY_TASK_ID` mod `count` when the count is given — the way to re-submit single tasks —,
  /// else `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` of `SLURM_ARRAY_TASK_COUNT`) or a Kubernetes Indexed
  /// Job (`JOB_COMPLETION_INDEX`, of `--shard-count` or `MATCHSCENE_SHARD_COUNT`, since Kubernetes does not
  /// export the completions count); else the whole manifest (0 of 1).
  public static func resolve(index: Int?, count: Int?, environment: [String: String]) throws -> BatchShard {
    func number(_ key: String) throws -> Int? {
      guard let text = environment[key] else { return nil }
      guard let n = Int(text.trimmingCharacters(in: .whitespaces)) else {
        throw InputError(file: "environment variable \(key)", "'\(text)' is not an integer")
      }
      return n
    }
    if let index, let count { return try BatchShard(index: index, count: count) }
    if let task = try number("SLURM_ARRAY_TASK_ID") {
      // With the count given, the task id itself (mod the count) is the shard, so re-submitting one task
      // (`sbatch --array=1`, whose task count is 1) still runs shard 1 of the whole array.
      if let count { return try BatchShard(index: index ?? (task % max(count, 1)), count: count, source: "SLURM_ARRAY_TASK_ID/--shard-count") }
      let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
      guard let tasks = try count ?? number("SLURM_ARRAY_TASK_COUNT") else {
        throw InputError(file: "environment variable SLURM_ARRAY_TASK_COUNT", "missing beside SLURM_ARRAY_TASK_ID; give --shard-count")
      }
      return try BatchShard(index: index ?? (task - minimum), count: tasks, source: "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT")
    }
    if let completion = try number("JOB_COMPLETION_INDEX") {
      guard let completions = try count ?? number("MATCHSCENE_SHARD_COUNT") else {
        throw InputError(
          file: "environment variable JOB_COMPLETION_INDEX",
          "a Kubernetes Indexed Job does not give the completions count: pass --shard-count or set MATCHSCENE_SHARD_COUNT")
      }
      return try BatchShard(index: index ?? completion, count: completions, source: "JOB_COMPLETION_INDEX/MATCHSCENE_SHARD_COUNT")
    }
    return try BatchShard(index: index ?? 0, count: count ?? 1)
  }

  /// This shard's entries, in manifest order.
  public func entries(_ all: [BatchEntry]) -> [BatchEntry] {
    all.enumerated().filter { $0.offset % count == index }.map(\.element)
  }

  public var description: String { "shard \(index) of \(count)" }
}
