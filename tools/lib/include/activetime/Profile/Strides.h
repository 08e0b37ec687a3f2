//===- activetime/Profile/Strides.h - Stride classification -----*- C++ -*-===//
//
// Part of ActiveTime. Turns the memory access sites of a profile (stride
// profiling by the GCD of address differences) into what `report --strides`
// and `export --format=prefetch` show: one row per site (merged over
// processes), its class, stride and confidence, and the prefetch distance
// derived from its stride and iteration time.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_STRIDES_H
#define ACTIVETIME_PROFILE_STRIDES_H

#include "activetime/Profile/Profile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace activetime {
namespace profile {

enum class StrideClass {
  Uniform,   // stride 0: the same address every time
  Unit,      // |stride| = access size
  Constant,  // any other constant stride
  Irregular, // no stride reaches the confidence threshold
  Unknown,   // too few observations (no adjacent difference)
};

const char *strideClassName(StrideClass C);

/// The share of adjacent differences the dominant stride must have for the
/// site to be classed as uniform, unit or constant.
constexpr double kStrideConfidence = 0.8;

struct StrideRow {
  std::string Module;   // module (source file) name
  MemSite Site;         // figures summed over processes
  bool Static = false;
  StrideClass Class = StrideClass::Unknown;
  int64_t Stride = 0;   // bytes; meaningful unless Irregular/Unknown
  double Confidence = 0; // dominant share of adjacent differences (1: static)
  /// Mean ns of one step of the dominant stride as measured (between two
  /// adjacent observations; includes the probes that ran in between).
  std::optional<double> MeasuredIterNs;
  /// Mean ns the probes of the loop's dynamic sites (same function and loop
  /// header line) spent per step: the sum of each one's own probe time.
  double LoopProbeNs = 0;
  /// The loop's iteration time without the probes: MeasuredIterNs -
  /// LoopProbeNs, at least 0.
  std::optional<double> IterNs;
  /// The shortest step without the probes (the least stalled iteration):
  /// the runtime's shortest step less the site's own probe, less the mean
  /// probe time of the loop's other sites; at least 0.
  std::optional<double> MinIterNs;
  /// The same two over every adjacent step, whatever its difference (each
  /// less the mean probe time of the loop's sites per step): the iteration
  /// time of a site without a dominant stride, such as an indirect a[b[i]].
  std::optional<double> AnyIterNs;
  std::optional<double> MinAnyIterNs;
  /// The span of the observed addresses (the largest of any process).
  uint64_t AddrSpan = 0;
  /// foldCopies: the number of unrolled copies this row stands for (1: a
  /// site of its own) and the stride of each copy (Stride * Unroll).
  unsigned Unroll = 1;
  int64_t CopyStride = 0;
  /// A folded row whose copies the pass could not prove (abi::
  /// MS_CopyUnproven): folded because the offsets the runtime observed
  /// between them fit, not because the compiler proved them.
  bool RunTimeFold = false;
  /// An unproven copy: its offset from the group's first copy as observed
  /// (the sum of the dominant offsets from each previous copy); none when a
  /// copy before it (or it) has no offset observed.
  std::optional<int64_t> ObservedOffset;
  /// A site of a copy group that foldCopies left unfolded: why (the same
  /// for every copy of the group).
  std::string FoldNote;
};

/// Unproven copies (observed offsets): an offset between two copies counts
/// when at least this many executions were paired with the previous
/// copy's in one iteration, and at least this share of them had the
/// dominant offset.
constexpr uint64_t kMinCopyPairs = 8;
constexpr double kCopyOffsetConfidence = 0.9;

/// Classifies one site (static sites by their compile-time stride).
void classifySite(StrideRow &R);

/// Every site of the profile, merged over processes by (module, hash), in
/// module then table order; unproven copies with their ObservedOffset.
std::vector<StrideRow> strideRows(const Profile &P);

/// Sets the ObservedOffset of the unproven copies among \p Rows (in table
/// order, as strideRows returns them): the chain of each copy's dominant
/// offset from its previous copy.
void chainObservedOffsets(std::vector<StrideRow> &Rows);

/// Folds the unrolled copies of one source access into one row. The pass
/// proved which sites are copies (MemSite::CopyGroup: same location, size
/// and kind in one loop, addresses differing by the constant CopyOffsets); a
/// group of n copies is folded when every copy has the same stride S and
/// their offsets are the n steps 0, d, ..., (n-1)d (in any order, modulo S)
/// of d = S / n: the row then has stride d and Unroll n, its counts summed
/// over the copies and its iteration times those of one step of d (the
/// copies' mean divided by n). Any other group stays unfolded, each row
/// with a FoldNote saying why. Rows keep their order (a folded row sits
/// where its first copy was).
///
/// A group the pass could not prove (abi::MS_CopyUnproven) has no offsets
/// from the compiler: its copies' offsets are those the runtime observed,
/// each copy against the one before it in one iteration. It is folded
/// (RunTimeFold) under the same conditions, when moreover every copy's
/// offset from its previous copy was observed in at least kMinCopyPairs
/// iterations, at least kCopyOffsetConfidence of them at its dominant
/// offset, and that offset lies within one copy stride (|offset| < |S|:
/// copies of one iteration, not another access that happens to keep a
/// constant distance).
std::vector<StrideRow> foldCopies(const std::vector<StrideRow> &Rows);

/// The machine's memory latency: the mean thread CPU time of dependent
/// loads, each to a cache line of a \p BufferBytes buffer that the caches
/// and the hardware prefetchers cannot predict, in the fastest of 8
/// segments of \p Loads in all (MissLatency.cpp). Ns is 0 when the buffer
/// could not be allocated.
struct MissLatency {
  double Ns = 0;
  uint64_t BufferBytes = 0;
  uint64_t Loads = 0;
};
MissLatency measureMissLatency(uint64_t BufferBytes = 128ull << 20,
                               uint64_t Loads = 1u << 20);

/// Prefetch distance model (docs/user-guide.md, "Prefetch feedback").
struct PrefetchModel {
  double LatencyNs = 100; // memory latency a prefetch has to cover
  unsigned LineBytes = 64;
  unsigned MaxIterations = 64;
  /// An irregular load whose addresses span less stays in the cache: the
  /// largest cache of one core (cacheBytes()).
  uint64_t CacheBytes = 1 << 20;
};

/// The largest data cache private to a core of this machine (sysfs: the
/// largest of cpu0's level 1 and 2 caches), or 1 MiB when it says nothing.
uint64_t cacheBytes();

struct PrefetchDistance {
  double WorkNs = 0;      // iteration time without the miss
  unsigned Iterations = 0;
  int64_t Bytes = 0;      // Iterations * stride
};

/// ceil(Latency / WorkNs) iterations ahead, in [1, MaxIterations], where
/// WorkNs = StepNs - Latency if the stride leaves the cache line and even
/// the least stalled step StepNs took longer than Latency (every iteration
/// waited for a miss), else StepNs; at least 1 ns.
PrefetchDistance prefetchDistance(int64_t Stride, double StepNs,
                                  const PrefetchModel &Model);

/// An irregular load worth prefetching through its index (a[b[i]] ->
/// a[b[i + k]]): its addresses span at least the model's CacheBytes, hot,
/// LoopNs = Executions x AnyIterNs at least
/// kIndirectHotShare of the run's wall time, and stalled, its mean step at
/// least kIndirectStallShare of the latency longer than its shortest (the
/// core overlaps the misses of several iterations, so a load that misses in
/// most iterations shows a fraction of the latency per step). The distance
/// covers the latency with steps of the shortest (stride 0), or is
/// kIndirectLookAhead when the shortest step could not be measured.
struct IndirectChoice {
  bool Pays = false;
  std::string Why;       // when it does not
  double LoopNs = 0;     // time of the site's steps in the run
  double StallNs = 0;    // mean step less the shortest
  /// The shortest step was < 1 ns once the loop's probes were out: the
  /// distance is kIndirectLookAhead instead.
  bool WorkUnmeasured = false;
  PrefetchDistance Distance;
};
constexpr double kIndirectHotShare = 0.01;
constexpr double kIndirectStallShare = 0.05;
/// Ainsworth and Jones's look-ahead for the last load of an indirect chain
/// of two (c / 2 with c = 64 iterations).
constexpr unsigned kIndirectLookAhead = 32;
IndirectChoice indirectChoice(const StrideRow &R, double WallNs,
                              const PrefetchModel &Model);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_STRIDES_H
