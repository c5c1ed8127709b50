#if canImport(Glibc)
  import Glibc

  /// glibc's `malloc_trim(3)`: gives the free pages of every malloc arena back to the system. Not in
  /// Swift's Glibc module (it lives in `malloc.h`), so declared by its C symbol.
  @_silgen_name("malloc_trim")
  private func glibcMallocTrim(_ pad: Int) -> Int32
#endif

/// Gives memory that the program has freed back to the operating system, where the C library allows it
/// (glibc: `malloc_trim(0)`; elsewhere nothing). glibc keeps freed blocks in its arenas for reuse, so
/// after a long match's detections are let go the resident size would not drop without this; the
/// later stages then run in a smaller footprint (peak RSS). Costs a walk over the heap (milliseconds).
public func returnFreedMemory() {
  #if canImport(Glibc)
    _ = glibcMallocTrim(0)
  #endif
}
