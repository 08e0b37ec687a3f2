//===- activetime/latency.h - Latency histogram buckets ---------*- C++ -*-===//
//
// Part of ActiveTime. The bucket layout of the per-node latency histograms
// (raw format v9, raw::LatencyRecord), shared by the runtime (which counts
// each timed call's active inclusive ticks into a bucket) and the tool (which
// turns buckets back into tick ranges). Header-only, no library: the runtime
// may not use libstdc++.
//
// Log-linear, as HdrHistogram: values 0..15 ticks have a bucket each; above,
// every power-of-two range [2^e, 2^(e+1)) (e >= 4) is split into
// kLatencySubBuckets = 8 equal sub-buckets. A bucket [lo, hi] then has
// hi - lo < lo / 8: any value in it is within 12.5% of either bound. 496
// buckets cover every u64 (2^64 ticks), so nothing is clamped: an hour at
// 5 GHz is under 2^44 ticks, bucket 336.
//
// Changing kLatencySubBits changes the meaning of every bucket index in a
// raw file: it needs a new raw format version.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_LATENCY_H
#define ACTIVETIME_LATENCY_H

#include <stdint.h>

namespace activetime {
namespace latency {

constexpr uint32_t kLatencySubBits = 3;
constexpr uint32_t kLatencySubBuckets = 1u << kLatencySubBits; // 8
// Buckets 0..15 are exact; then (64 - 4) octaves of 8: 16 + 60 * 8.
constexpr uint32_t kLatencyBuckets = (64 - kLatencySubBits + 1) << kLatencySubBits;
static_assert(kLatencyBuckets == 496, "layout");

// The bucket of a value: branch-free (an or, a count of leading zeros, two
// shifts and an add), for the runtime's exit probe. Below 16, E is 3 and the
// bucket is the value itself.
inline uint32_t bucketOf(uint64_t V) {
  uint32_t E = 63 - uint32_t(__builtin_clzll(V | (uint64_t(1) << kLatencySubBits)));
  uint32_t Shift = E - kLatencySubBits;
  return (Shift << kLatencySubBits) + uint32_t(V >> Shift);
}

// The smallest value of bucket B (B < kLatencyBuckets).
inline uint64_t bucketLower(uint32_t B) {
  uint32_t Shift = B < 2 * kLatencySubBuckets ? 0 : (B >> kLatencySubBits) - 1;
  uint64_t Mantissa = B - (Shift << kLatencySubBits);
  return Mantissa << Shift;
}

// The largest value of bucket B (inclusive; ~0 for the last bucket).
inline uint64_t bucketUpper(uint32_t B) {
  uint32_t Shift = B < 2 * kLatencySubBuckets ? 0 : (B >> kLatencySubBits) - 1;
  uint64_t Mantissa = B - (Shift << kLatencySubBits);
  // The last bucket's bound, 2^64, wraps to 0: minus one is ~0.
  return ((Mantissa + 1) << Shift) - 1;
}

} // namespace latency
} // namespace activetime

#endif // ACTIVETIME_LATENCY_H
