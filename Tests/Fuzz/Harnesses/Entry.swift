import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The harness this process runs, from `MATCHSCENE_FUZZ_TARGET` (one of `Harness.allCases`' names).
/// One binary holds every harness so that it is built and linked once.
nonisolated(unsafe) private var selected: Harness?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
  let name = ProcessInfo.processInfo.environment["MATCHSCENE_FUZZ_TARGET"] ?? ""
  guard let harness = Harness(rawValue: name) else {
    let names = Harness.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("matchscene-fuzz: set MATCHSCENE_FUZZ_TARGET to one of: \(names) (got '\(name)')\n".utf8))
    exit(2)
  }
  selected = harness
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  selected?.run(bytes)
  return 0
}

/// libFuzzer's driver (LLVM ≥ 11), for the entry point below.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable target with `main` renamed to `<module>_main` (`--defsym`, so that
/// tests can link the module), which hides libFuzzer's own `main`: this entry point hands over to
/// libFuzzer's driver instead. Remove if SwiftPM stops renaming `main` of executables.
@_cdecl("matchscene_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runFuzzerDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}
