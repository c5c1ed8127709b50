import Foundation

#if canImport(Glibc)
  import Glibc

  /// glibc's `mallopt(3)`: not in Swift's Glibc module (it lives in `malloc.h`), so declared by its C symbol.
  @_silgen_name("mallopt")
  private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

  /// `M_ARENA_MAX` of glibc's `malloc.h`.
  private let glibcArenaMax: Int32 = -8
#endif

/// Caps the number of glibc malloc arenas at two per core (glibc's default is eight per core on 64-bit
/// systems; `mallopt(3)`, `M_ARENA_MAX`). Each thread that allocates takes an arena of its own while
/// the cap allows, and memory freed in one arena is not reused by threads bound to another: with the
/// 32 threads that read a match's files (`ReadThreads` in MatchSceneIO) the detections spread over
/// 16 arenas on this 2-core machine and the peak resident size grew. Fewer arenas keep the heap
/// compact; threads beyond the cap share arenas, which costs little with few cores. Process-wide, so
/// set here by the command before any thread starts rather than by the library. Nothing where the C
/// library is not glibc (an environment `MALLOC_ARENA_MAX` is overridden).
func limitMallocArenas() {
  #if canImport(Glibc)
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    _ = glibcMallopt(glibcArenaMax, Int32(clamping: 2 * cores))
  #endif
}
