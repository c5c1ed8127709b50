// SHA-256 block function: portable C (FIPS 180-4 §6.2.2) and the x86 SHA extensions (Intel, "Intel SHA
// Extensions", Gulley et al. 2013), chosen once at run time from CPUID. The accelerated path is compiled
// with a per-function target attribute, so the package needs no machine flags.
#include "CSHA256.h"

static const uint32_t K[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void ms_sha256_blocks_portable(uint32_t state[8], const uint8_t *p, size_t count) {
  uint32_t w[64];
  for (; count > 0; count--, p += 64) {
    for (int t = 0; t < 16; t++) {
      w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
    }
    for (int t = 16; t < 64; t++) {
      uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
      uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
      uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
    state[0] += a; state[1] += b; state[2] += c; state[3] += d;
    state[4] += e; state[5] += f; state[6] += g; state[7] += h;
  }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

#define MS_SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

// Four rounds: the message words `m` plus their constants into the two-round instructions.
#define MS_ROUNDS(m, k4)                                                          \
  do {                                                                            \
    msg = _mm_add_epi32((m), _mm_loadu_si128((const __m128i *)&K[(k4)]));         \
    state1 = _mm_sha256rnds2_epu32(state1, state0, msg);                          \
    msg = _mm_shuffle_epi32(msg, 0x0E);                                           \
    state0 = _mm_sha256rnds2_epu32(state0, state1, msg);                          \
  } while (0)

// Four rounds on `cur`, finishing the schedule of `next` from `prev` and `cur` (W[t-7] and σ1 terms).
#define MS_ROUNDS_SCHEDULE(cur, prev, next, k4)                                   \
  do {                                                                            \
    msg = _mm_add_epi32((cur), _mm_loadu_si128((const __m128i *)&K[(k4)]));       \
    state1 = _mm_sha256rnds2_epu32(state1, state0, msg);                          \
    (next) = _mm_add_epi32((next), _mm_alignr_epi8((cur), (prev), 4));            \
    (next) = _mm_sha256msg2_epu32((next), (cur));                                 \
    msg = _mm_shuffle_epi32(msg, 0x0E);                                           \
    state0 = _mm_sha256rnds2_epu32(state0, state1, msg);                          \
  } while (0)

MS_SHA_TARGET static void blocks_sha_ni(uint32_t state[8], const uint8_t *p, size_t count) {
  const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);  // CDAB
  __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B);  // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);  // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);       // CDGH
  __m128i msg;
  for (; count > 0; count--, p += 64) {
    const __m128i abefSaved = state0, cdghSaved = state1;
    __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), byteSwap);
    __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), byteSwap);
    __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), byteSwap);
    __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), byteSwap);
    MS_ROUNDS(m0, 0);
    MS_ROUNDS(m1, 4);
    m0 = _mm_sha256msg1_epu32(m0, m1);
    MS_ROUNDS(m2, 8);
    m1 = _mm_sha256msg1_epu32(m1, m2);
    // Rounds 12–51: each group finishes the next group's words and starts the ones three groups on.
    MS_ROUNDS_SCHEDULE(m3, m2, m0, 12); m2 = _mm_sha256msg1_epu32(m2, m3);
    MS_ROUNDS_SCHEDULE(m0, m3, m1, 16); m3 = _mm_sha256msg1_epu32(m3, m0);
    MS_ROUNDS_SCHEDULE(m1, m0, m2, 20); m0 = _mm_sha256msg1_epu32(m0, m1);
    MS_ROUNDS_SCHEDULE(m2, m1, m3, 24); m1 = _mm_sha256msg1_epu32(m1, m2);
    MS_ROUNDS_SCHEDULE(m3, m2, m0, 28); m2 = _mm_sha256msg1_epu32(m2, m3);
    MS_ROUNDS_SCHEDULE(m0, m3, m1, 32); m3 = _mm_sha256msg1_epu32(m3, m0);
    MS_ROUNDS_SCHEDULE(m1, m0, m2, 36); m0 = _mm_sha256msg1_epu32(m0, m1);
    MS_ROUNDS_SCHEDULE(m2, m1, m3, 40); m1 = _mm_sha256msg1_epu32(m1, m2);
    MS_ROUNDS_SCHEDULE(m3, m2, m0, 44); m2 = _mm_sha256msg1_epu32(m2, m3);
    MS_ROUNDS_SCHEDULE(m0, m3, m1, 48); m3 = _mm_sha256msg1_epu32(m3, m0);
    MS_ROUNDS_SCHEDULE(m1, m0, m2, 52);
    MS_ROUNDS_SCHEDULE(m2, m1, m3, 56);
    MS_ROUNDS(m3, 60);
    state0 = _mm_add_epi32(state0, abefSaved);
    state1 = _mm_add_epi32(state1, cdghSaved);
  }
  tmp = _mm_shuffle_epi32(state0, 0x1B);     // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);  // DCHG
  _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(tmp, state1, 0xF0));  // DCBA
  _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(state1, tmp, 8));     // HGFE
}

static int cpu_has_sha(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  return ssse3 && sse41 && ((b >> 29) & 1);
}

// -1 unknown, then 0 or 1. A benign race: every thread computes the same answer.
static volatile int accelerated = -1;

int ms_sha256_accelerated(void) {
  if (accelerated < 0) accelerated = cpu_has_sha();
  return accelerated;
}

void ms_sha256_blocks(uint32_t state[8], const uint8_t *blocks, size_t count) {
  if (ms_sha256_accelerated()) blocks_sha_ni(state, blocks, count);
  else ms_sha256_blocks_portable(state, blocks, count);
}

#else

int ms_sha256_accelerated(void) { return 0; }

void ms_sha256_blocks(uint32_t state[8], const uint8_t *blocks, size_t count) {
  ms_sha256_blocks_portable(state, blocks, count);
}

#endif
