//===- activetime/Report/ReportModel.h - Rules of the time report -*- C++ -*-===//
//
// Part of ActiveTime. What the text, JSON and HTML forms of the time report
// share: how a row's function is named (Names.h) and located, which of its
// figures exist (per-call figures only where every call was timed), how
// sure its self time is, and when "active" still includes switched-out
// time.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_REPORTMODEL_H
#define ACTIVETIME_REPORT_REPORTMODEL_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Flags.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Report/Names.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <string>
#include <vector>

namespace activetime {
namespace report {

/// How active, self-active and min/max are defined (printed as a note).
extern const char TimesNote[];
/// What the +-95% columns include (printed as a note).
extern const char ErrorNote[];
/// What a clamped figure's marker means (printed when one was clamped).
extern const char ClampNote[];
/// The marker after a clamped figure.
constexpr char kClampMark = '!';
/// What "timed", "counted" and the uncertainty column mean.
extern const char HowNote[];

class ReportModel {
public:
  /// \p Naming: how the rows name their functions.
  ReportModel(const profile::Profile &P, const profile::Aggregate &A,
              NameOptions Naming);

  /// file:line, or the module of a local function without debug info.
  std::string location(uint32_t Func) const;
  /// Some thread's switched-out time was not measured: its "active" still
  /// includes it, and the active columns are starred, never shown as if
  /// measured.
  bool activeIncludesOffCpu() const { return Starred; }
  /// A row's active and self-active times as printed: clamped into what
  /// they can be, each with the 95% half-width of its measured value
  /// (profile::activeFigures).
  static profile::ActiveFigures figures(const profile::Stats &S,
                                        bool CountedNode = false) {
    return profile::activeFigures(S, CountedNode);
  }
  /// What a row's "%" divides by: the sum of the printed self-active times
  /// of the scope's rows, so each share lies in 0..100% and they add up.
  static double shareTotal(llvm::ArrayRef<profile::FunctionStats> Rows);
  static double share(double Shown, double Total) {
    if (!(Total > 0))
      return 0;
    // A whole can exceed the sum of its parts by the sums' rounding only.
    double S = Shown / Total;
    return S > 1 && S < 1 + 1e-9 ? 1 : S;
  }
  /// Per-call figures (inclusive times, min, max) exist only where every
  /// call was timed; a counted node of the tree has its self time only.
  static bool hasPerCallFigures(const profile::Stats &S,
                                bool CountedNode = false) {
    return !CountedNode && S.allTimed();
  }
  static const char *how(const profile::Stats &S, bool CountedNode = false) {
    return hasPerCallFigures(S, CountedNode) ? "timed" : "counted";
  }
  /// The height of each call-tree node's subtree (for "N more levels").
  std::vector<uint32_t> subtreeHeights() const;
  /// Visits the call tree's nodes in pre-order (children by active time),
  /// without recursion, so any depth is fine. \p Cut: the node is at
  /// \p MaxDepth (0 = no limit) and has children, which are not visited.
  void walkTree(unsigned MaxDepth,
                llvm::function_ref<void(uint32_t Node, bool Cut)> Visit) const;

  const profile::Profile &P;
  const profile::Aggregate &A;
  /// The rows' function names.
  const FunctionNamer Names;

private:
  bool Starred = false;
};

/// Frame bookkeeping counters summed over threads.
struct Counters {
  uint64_t OpenFrames = 0, UnwoundFrames = 0, UnmatchedExits = 0,
           DroppedEvents = 0;
  /// Adds a profile::Thread's or a profile::ThreadSummary's counters.
  template <typename ThreadT> void add(const ThreadT &T) {
    OpenFrames += T.OpenFrames;
    UnwoundFrames += T.UnwoundFrames;
    UnmatchedExits += T.UnmatchedExits;
    DroppedEvents += T.DroppedEvents;
  }
  static Counters of(const profile::Process &P);
};

/// Threads of a scope grouped by where their switched-out time came from.
struct SwitchSummary {
  unsigned Perf = 0, CpuClock = 0, None = 0;
  unsigned CpuClockNoDescriptors = 0; // of CpuClock: perf over the budget
  unsigned CpuClockShortLived = 0; // of CpuClock: ended before its rings opened
  double MinResolutionNs = 0, MaxResolutionNs = 0;
  uint64_t Lost = 0, Voluntary = 0, Involuntary = 0;
  double OffCpuNs = 0;
  void add(const profile::Process &P, const profile::Thread &T);
  static SwitchSummary of(const profile::Profile &P);
  std::string resolution() const;
};

/// The switched-out time's source as the reports name it.
const char *switchSourceName(profile::SwitchSource Source);

/// What mode=trace recorded and what recording it cost, over a process's
/// trace sections (or one): events and switches kept and dropped, and the
/// trace buffers' pages made ready while the threads ran. That time lies
/// inside the probes' measured cost or before a thread's first call, so no
/// call's active time holds it; the threads ran that much longer.
struct TraceSummary {
  size_t Threads = 0;
  uint64_t Events = 0, Switches = 0, DroppedEvents = 0, DroppedSwitches = 0;
  double BufferNs = 0;
  uint64_t BufferBytes = 0;
  profile::TraceBufferFlags BufferFlags; // or-ed over the traces
  /// The threads' wall time (ns), for the buffers' share.
  double WallNs = 0;
  void add(const profile::Process &P, const profile::Trace &T);
  static TraceSummary of(const profile::Process &P);
  /// How the pages were made ready, in words ("madvise(MADV_POPULATE_WRITE)
  /// ...").
  std::string how() const;
};

/// mode=trace (or timing_ratio=0) times every call: calls shorter than
/// profile mode's default timing threshold (kProfileTimingRatio times the
/// calibrated probe pair cost) keep the probes' residual cost, which can
/// outweigh their own time, where profile mode would have counted them.
constexpr unsigned kProfileTimingRatio = 40;
struct ShortCalls {
  double ThresholdNs = 0;  // 0: some process did not time every call
  uint64_t Calls = 0;      // timed calls of functions averaging below it
  uint64_t TimedCalls = 0; // all timed calls
  unsigned Functions = 0;
  static ShortCalls of(const profile::Profile &P, const profile::Aggregate &A);
};

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_REPORTMODEL_H
