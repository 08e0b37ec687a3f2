//===- activetime/Profile/Latency.h - Latency distributions -----*- C++ -*-===//
//
// Part of ActiveTime. The per-node latency histograms of a profile (raw
// format v9, activetime/latency.h) summed per function and per node of the
// merged call tree, and the percentiles reports print from them.
//
// Every timed call is one observation of its own active inclusive time, in
// exactly one node: a function's distribution is the sum of its nodes', so
// under recursion a nested call is counted once, as itself (the flat
// table's inclusive time instead counts only the outermost call, or the
// same interval would be summed twice; a distribution of calls has no such
// double counting). Counted calls have no per-call time and are in none.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_LATENCY_H
#define ACTIVETIME_PROFILE_LATENCY_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Profile.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace activetime {
namespace profile {

/// One bucket in nanoseconds: Count calls lasted from LowerNs to UpperNs
/// (the bucket's smallest and largest tick value, converted).
struct LatencyBin {
  double LowerNs = 0;
  double UpperNs = 0;
  uint64_t Count = 0;
};

/// A distribution of timed calls. Buckets are kept as (tick rate, bucket
/// index): one tick rate in any profile of one machine, so the buckets are
/// disjoint; a merge of processes with different rates keeps each rate's
/// buckets apart (they may overlap in ns, and percentiles then order them
/// by their upper bounds).
class LatencyHistogram {
public:
  void add(uint64_t TickRate, llvm::ArrayRef<LatencyCount> Buckets);
  void add(const LatencyHistogram &Other);
  uint64_t total() const { return Total; }
  /// The non-empty buckets, ascending by upper bound (then lower bound).
  std::vector<LatencyBin> bins() const;
  /// The nearest-rank P-th percentile (0 < P <= 100): the upper bound of the
  /// bucket holding the ceil(P / 100 * total())-th shortest call, clamped
  /// to [MinNs, MaxNs] (the exact shortest and longest call). It is never
  /// below that call's time and, above 15 ticks, less than 12.5% above it
  /// (a bucket's width is under 1/8 of its lower bound; buckets of 0..15
  /// ticks are exact). 0 for an empty histogram.
  double percentile(double P, double MinNs, double MaxNs) const;

private:
  std::map<std::pair<uint64_t, uint32_t>, uint64_t> Counts;
  uint64_t Total = 0;
};

/// Timed calls that are in no histogram: their threads had none
/// (ACTIVETIME_OPTIONS=latency=0), or a filter dropped them (--ignore took
/// time out of the calls: Thread::LatencyDropped).
struct LatencyGap {
  uint64_t Uncovered = 0; // all of them
  uint64_t Dropped = 0;   // of them, dropped by a filter
  /// Not in Uncovered: calls of histogram-carrying threads set apart
  /// because code samples' interrupts, charged at their start-up estimate,
  /// were over a quarter of their time (raw::TF_SampledCallsApart). The
  /// histogram describes the other calls.
  uint64_t SampledApart = 0;
  void add(uint64_t Calls, bool ByFilter) {
    Uncovered += Calls;
    Dropped += ByFilter ? Calls : 0;
  }
};

/// The distributions of an aggregated profile.
struct LatencyTable {
  /// By Aggregate::Functions id, and by Aggregate::Tree index (counted
  /// tree nodes have none).
  std::vector<LatencyHistogram> ByFunction;
  std::vector<LatencyHistogram> ByTreeNode;
  /// The timed calls missing from those: where not zero, the distribution
  /// is incomplete.
  std::vector<LatencyGap> Function;
  std::vector<LatencyGap> TreeNode;
  /// Some thread has histograms.
  bool Any = false;
};

/// Sums the histograms of \p P's nodes per function and per merged tree
/// node of \p A (aggregate(P)).
LatencyTable latencies(const Profile &P, const Aggregate &A);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_LATENCY_H
