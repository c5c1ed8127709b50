import CLibCrypto

/// SHA-256 (FIPS 180-4), used to fingerprint a folder's files: an output added twice to the session
/// store, a match folder's input recorded in `match.json`, a batch's input. Computed by OpenSSL's
/// libcrypto (`EVP_sha256`), which uses the CPU's SHA instructions where there are any: on this project's
/// 2-core x86-64 machine 1.1 GB/s, against 170 MB/s for portable code, which made hashing a 10-minute
/// match's 705 MB input cost 4 s of CPU (Foundation on Linux has no digest, and the package mirror holds
/// no crypto package).
public struct SHA256: Sendable {
  /// The digest state, owned by one `SHA256` (a value copied mid-way shares it: hash one stream per value).
  private final class Context: @unchecked Sendable {
    let pointer: OpaquePointer?
    init() {
      _ = SHA256.libraryReady
      pointer = EVP_MD_CTX_new()
      // Fails only when libcrypto cannot allocate; `finish` then reports it.
      if let pointer, EVP_DigestInit_ex(pointer, EVP_sha256(), nil) != 1 { EVP_MD_CTX_reset(pointer) }
    }
    deinit { EVP_MD_CTX_free(pointer) }
  }

  private let context = Context()

  /// libcrypto initialised without its exit handler: by default OpenSSL frees its state at `exit`, and
  /// a hash still running on another thread (the input hash beside a run that stops on a bad input)
  /// then crashes the process (SIGSEGV instead of the run's error). `OPENSSL_init_crypto(3)`,
  /// `OPENSSL_INIT_NO_ATEXIT`; the first initialisation decides, so this comes before any other call.
  private static let libraryReady: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1

  public init() {}

  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    _ = EVP_DigestUpdate(context.pointer, base, bytes.count)
  }

  /// The digest as 64 lowercase hex digits; the value is spent afterwards.
  public mutating func finish() -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    guard EVP_DigestFinal_ex(context.pointer, &digest, &length) == 1, length == 32 else {
      preconditionFailure("libcrypto's SHA-256 failed (out of memory)")
    }
    let hex = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(64)
    for byte in digest {
      out.append(hex[Int(byte >> 4)])
      out.append(hex[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
