//===- activetime/Profile/Diff.h - Comparing two profiles -------*- C++ -*-===//
//
// Part of ActiveTime. `activetime diff BASE NEW`: the figures of two
// profiles, possibly of different builds of a program, matched by name
// (functions by linkage name, local ones also by module; call paths by the
// names of their frames from the root). The figures are the reports'
// (clamped into what they can be, Aggregate.h's activeFigures). A delta is
// a change only beyond its noise bound: each side's own +-95% (the
// measurement's uncertainty, which repeating the run does not reveal),
// plus, with repeated runs, the 95% confidence half-width of the
// difference of the per-run means (Welch's t), the "spread"; never less
// than one tick step.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_DIFF_H
#define ACTIVETIME_PROFILE_DIFF_H

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Profile.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace activetime {
namespace profile {

/// The runs of a profile: each root process (one whose parent pid is not
/// the pid of another of the profile's processes started no later) with
/// all its descendants. Process indices in profile order; runs in the order
/// of their roots.
std::vector<std::vector<uint32_t>> splitRuns(const Profile &P);

/// Aggregates each run of \p P on its own. The processes are moved out of
/// \p P for it and moved back: \p P is unchanged afterwards.
std::vector<Aggregate>
aggregateRuns(Profile &P, llvm::ArrayRef<std::vector<uint32_t>> Runs);

/// What a function is matched by across builds: its linkage name, and for a
/// local-linkage function also its module's name (as FunctionInfo
/// identifies functions inside one profile).
std::string matchKey(const FunctionInfo &F);

/// One side of a diff: the side's profile aggregated as a whole and, when
/// it has two runs or more, each run aggregated alone (aggregateRuns).
struct DiffSide {
  const Aggregate *Whole = nullptr;
  llvm::ArrayRef<Aggregate> Runs; // empty when NumRuns < 2
  unsigned NumRuns = 1;
  /// The largest step of the side's tick counters (tickStepNs).
  double TickStepNs = 0;
};

/// The largest tick step of \p P's processes, ns (a counter whose step
/// was not measured counts as moving every tick).
double tickStepNs(const Profile &P);

struct DiffOptions {
  /// A delta is noise when |delta| <= NoiseFactor * its noise bound
  /// (noiseBound).
  double NoiseFactor = 1;
  /// Deltas smaller than this (ns) are below the floor whatever the spread.
  double MinDeltaNs = 0;
};

/// How a time delta stands against the noise.
enum class Mark : uint8_t {
  Significant, // beyond NoiseFactor x the noise bound, not below the floor
  Noise,       // within NoiseFactor x the noise bound
  BelowFloor,  // |delta| < MinDeltaNs
  Unknown,     // beyond the sides' own +-95%, but a side has one run: no
               // spread to judge the run-to-run variation by
  NotComparable, // a side has no such figure (counted calls: no inclusive)
};
const char *markName(Mark M);

/// A side's state of one figure of an entry.
enum class Has : uint8_t {
  Absent,   // the function or path did not run on this side: 0
  Value,    // measured
  Unknown,  // it ran, but the figure does not exist (see DiffTime)
};

/// One time of an entry on both sides, per run: the side's total divided by
/// its number of runs (the report's figure when the side has one run).
struct DiffTime {
  Has BaseHas = Has::Absent, NewHas = Has::Absent;
  double Base = 0, New = 0;              // ns per run, as the reports print
                                         // them (>= 0); 0 when not Value
  std::vector<double> BaseRuns, NewRuns; // ns, each run (>= 2 runs only)
  double Spread = -1; // ns, welchSpread of the runs; < 0: unknown (a side
                      // has one run)
  double BaseErr = 0, NewErr = 0; // ns, each side's +-95% of its figure per
                                  // run (its whole side's / its runs)
  double StepNs = 0;  // the larger of the sides' tick steps
  double Bound = 0;   // noiseBound of the above
  Mark M = Mark::Unknown;
  bool comparable() const {
    return BaseHas != Has::Unknown && NewHas != Has::Unknown;
  }
  double delta() const { return New - Base; }
  /// New / Base, never negative (both are printed figures, >= 0); none
  /// when Base is 0 or the figure is not comparable.
  std::optional<double> ratio() const;
};

/// Calls of an entry on both sides, per run (exact counts; fractional only
/// when a side's runs made different numbers of calls).
struct DiffCalls {
  Has BaseHas = Has::Absent, NewHas = Has::Absent;
  double Base = 0, New = 0;
  bool comparable() const {
    return BaseHas != Has::Unknown && NewHas != Has::Unknown;
  }
  double delta() const { return New - Base; }
};

/// A function or call path on both sides.
struct DiffEntry {
  bool InBase = false, InNew = false;
  DiffCalls Calls;
  DiffTime Self;   // self-active time
  DiffTime Active; // inclusive active time (flat: recursion counted once)
};

constexpr uint32_t kNoPath = UINT32_MAX;

/// A function of either side, with its ids in the two sides' aggregates.
struct DiffFunction {
  std::string Key; // matchKey
  uint32_t Base = kNoFunc, New = kNoFunc;
};

/// A call path: the path of its parent (kNoPath at the root) and one more
/// frame. Parents come before their children.
struct DiffPath {
  uint32_t Parent = kNoPath;
  uint32_t Func = 0; // index into DiffResult::Functions
  uint32_t Depth = 1;
};

struct DiffResult {
  std::vector<DiffFunction> Functions;
  std::vector<DiffEntry> FunctionDiffs; // parallel to Functions
  std::vector<DiffPath> Paths;
  std::vector<DiffEntry> PathDiffs;     // parallel to Paths
  /// Both sides have two runs or more: deltas are judged by their spread.
  bool SpreadKnown = false;
};

/// Matches \p Base and \p New and computes every entry's figures and marks.
/// A function is listed if it is in either side's flat profile; a path if
/// it is in either side's merged call tree. A counted function's node under
/// a timed caller counts toward the path of that function there.
DiffResult diffProfiles(const DiffSide &Base, const DiffSide &New,
                        const DiffOptions &O);

/// The 95% confidence half-width of the difference of the two sides'
/// means of per-run values (Welch's t: t(0.975, Welch-Satterthwaite
/// degrees of freedom) x the standard error of the difference); 0 when
/// every run on both sides gave the same value; -1 when a side has fewer
/// than two runs.
double welchSpread(llvm::ArrayRef<double> BaseRuns,
                   llvm::ArrayRef<double> NewRuns);
/// The 0.975 quantile of Student's t distribution with \p Df > 0 degrees
/// of freedom (not necessarily an integer).
double tQuantile975(double Df);
/// The noise bound of a delta: the sides' own +-95% (\p BaseErr,
/// \p NewErr) plus the run-to-run \p Spread when known (>= 0), and at
/// least one tick step (\p StepNs): the quantum below which two figures
/// cannot be told apart.
double noiseBound(double Spread, double BaseErr, double NewErr,
                  double StepNs);
/// How \p Delta stands against its noise bound \p Bound, \p Spread (< 0:
/// unknown) and the options: under the floor; noise within NoiseFactor x
/// Bound; beyond it a change when the spread is known, unknown otherwise.
Mark markDelta(double Delta, double Spread, double Bound,
               const DiffOptions &O);

/// The figure a diff is ordered and judged by.
enum class DiffMetric { SelfActive, Active, Calls };
/// The entries' indices that are in either side, by |delta| of \p Metric
/// descending (not comparable last), ties by \p Names (index -> text).
std::vector<uint32_t> sortByDelta(llvm::ArrayRef<DiffEntry> Entries,
                                  DiffMetric Metric,
                                  llvm::ArrayRef<std::string> Names);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_DIFF_H
