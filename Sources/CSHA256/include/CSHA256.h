// SHA-256's block function (FIPS 180-4 §6.2.2) for MatchScene's input and output fingerprints.
// Internal to MatchScene: no stable API. Plain C, no allocation, no global state beyond a cached CPU check.
#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Compresses `count` whole 64-byte blocks at `blocks` into `state` (eight 32-bit words, H0…H7 in
/// FIPS 180-4's order). Uses the x86 SHA extensions when the CPU has them, the portable code otherwise;
/// both give the same state.
void ms_sha256_blocks(uint32_t state[8], const uint8_t *blocks, size_t count);

/// The portable block function alone (for tests that compare it with the accelerated one).
void ms_sha256_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t count);

/// 1 when `ms_sha256_blocks` uses the CPU's SHA extensions, 0 when it uses the portable code.
int ms_sha256_accelerated(void);

#ifdef __cplusplus
}
#endif

#endif
