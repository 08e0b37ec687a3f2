//===- activetime/Profile/Filter.h - Profile filters ------------*- C++ -*-===//
//
// Part of ActiveTime. `report` and `export` filters (--tid, --focus,
// --ignore, --from/--to) as one Profile -> Profile transformation, so every
// view and export format reads the filtered profile and none filters on its
// own. The result keeps the reader's invariants (parents before children,
// node references in range, counts ascending, ticks non-decreasing).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_FILTER_H
#define ACTIVETIME_PROFILE_FILTER_H

#include "activetime/Profile/Profile.h"
#include "activetime/Profile/ThreadIds.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace activetime {
namespace profile {

/// What to keep. Function patterns are glob patterns (llvm::GlobPattern:
/// *, ?, [...], \ escapes) matched against the whole linkage name and the
/// whole demangled name; a name without metacharacters matches itself only.
struct FilterSpec {
  /// Keep these threads (empty: all). A bare tid that the kernel reused
  /// within a process is ambiguous: refused, naming the threads that had it.
  std::vector<ThreadSelector> Tids;
  std::vector<std::string> Focus;  // keep only subtrees rooted at these
  std::vector<std::string> Ignore; // drop these calls and their subtrees
  /// mode=trace: keep trace events in [From, To], ns since each process's
  /// start; calls crossing a bound are clipped to it.
  std::optional<uint64_t> FromNs, ToNs;

  bool empty() const {
    return Tids.empty() && Focus.empty() && Ignore.empty() && !FromNs && !ToNs;
  }
  bool timeRange() const { return FromNs || ToNs; }
};

/// What the filters did, for the report header (ns are summed over the
/// processes, each converted with its own tick rate).
struct FilterSummary {
  std::vector<std::string> Applied; // the options as given, one each
  uint64_t ThreadsKept = 0, ThreadsDropped = 0;
  /// Active time of the thread roots before and after --focus/--ignore
  /// (threads kept by --tid only).
  double RootActiveBeforeNs = 0, RootActiveAfterNs = 0;
  /// Active time of the outermost ignored calls (their subtrees included).
  double IgnoredActiveNs = 0;
  uint64_t IgnoredCalls = 0;
  /// Calls that were only counted have no calling context: --focus and
  /// --ignore keep them whole (with the time code samples gave them inside
  /// kept calls). How many such calls the filtered profile holds.
  uint64_t CountedCallsKeptWhole = 0;
  /// Of those, the calls of ignored functions: with no node to drop, they
  /// and the time code samples gave them stay.
  uint64_t CountedCallsIgnoredKept = 0;
  /// --from/--to: trace events dropped, calls clipped at a bound.
  uint64_t EventsDropped = 0, CallsClipped = 0, SwitchesDropped = 0;
  /// Threads whose latency histograms were dropped: --ignore took time out
  /// of calls whose histograms count each call whole.
  uint64_t LatencyThreadsDropped = 0;

  bool empty() const { return Applied.empty(); }
  /// One line for the report header, e.g. "--ignore=foo: dropped ...".
  std::string describe() const;
};

/// Parses a --from/--to value: a number with a unit (ns, us, ms, s; none =
/// seconds), >= 0. Returns ns.
llvm::Expected<uint64_t> parseTimeSinceStart(llvm::StringRef S);

/// Applies \p S to \p P in place. Checks first (a pattern or tid matching
/// nothing, a reused tid without its #K, --from/--to without traces or
/// reversed) and leaves \p P
/// untouched on error. Iterative: trees may be deep.
llvm::Expected<FilterSummary> applyFilters(Profile &P, const FilterSpec &S);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_FILTER_H
