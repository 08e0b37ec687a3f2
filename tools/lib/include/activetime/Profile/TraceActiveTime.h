//===- activetime/Profile/TraceActiveTime.h - Trace active time -*- C++ -*-===//
//
// Part of ActiveTime. The offline active-time computation (active time =
// elapsed time minus probe overhead minus switched-out time) over its three
// inputs: timer measurements, context-switch events and the overhead table.
// Each stage is a separate function:
//
//   findInvocations    elapsed interval of each invocation of a portion
//   overheadIntervals  [t, t + overhead[event]) of every measurement of
//                      the thread inside the invocation but the last
//   swapOutIntervals   switched-out intervals of the thread, clipped
//                      to the elapsed interval
//   activeTime         elapsed - (total overhead + total swapped-out)
//
// computeActiveTime runs them all in one sweep per thread, with prefix sums
// standing in for the interval sets (linear in the trace, whatever the
// nesting depth); the stage functions remain the definition, and what
// --intervals prints.
//
// Times are fixed point, ticks * 256 (the raw overhead table's unit), so the
// results are exact and equal the runtime's online accounting of the same
// run (test/e2e/trace-agree.c). Overhead intervals are not clipped and the
// table's part of each is subtracted in full even where it overlaps a
// switched-out interval: that cost is processor work the probe did inside
// the invocation (if the thread was switched out meanwhile, the work simply
// happened later). Profiles whose probes measured themselves (raw format v6)
// add each probe's measured interval, which is wall time: its overlap with
// switched-out intervals is counted once, as switched out. For a tiny
// invocation whose calibrated overhead exceeds its elapsed time, active time
// is negative, as in the report, rather than silently clamped.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_TRACEACTIVETIME_H
#define ACTIVETIME_PROFILE_TRACEACTIVETIME_H

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace activetime {
namespace active {

constexpr int64_t kFixed = 256; // one tick in fixed point

enum EventKind : uint32_t { Enter = 0, Exit = 1 };

/// A timer measurement (table 400) of one thread.
struct Measurement {
  uint64_t Tick = 0;
  uint32_t Portion = 0; // index into Input::Portions
  uint32_t Kind = Enter;
  // The probe's own measured cost in ticks, from Tick on (mode=trace
  // profiles); added to the table's figure. 0 in the text tables.
  uint32_t Measured = 0;
};

/// A context switch (table 500): Old is switched out, New in; 0 = unknown.
struct Switch {
  uint64_t Tick = 0;
  uint64_t Old = 0;
  uint64_t New = 0;
};

/// Half-open interval [Start, End) in ticks * 256.
struct Interval {
  int64_t Start = 0;
  int64_t End = 0;
  int64_t length() const { return End > Start ? End - Start : 0; }
  bool operator==(const Interval &O) const {
    return Start == O.Start && End == O.End;
  }
};

/// The overhead table: cost of each event, ticks * 256.
struct Overhead {
  int64_t Enter256 = 0;
  int64_t Exit256 = 0;
  int64_t of(uint32_t Kind) const { return Kind == Exit ? Exit256 : Enter256; }
};

struct ThreadInput {
  uint64_t Id = 0;                  // tid, or the text file's thread number
  std::string Label;                // as printed: tid or the text's name
  uint32_t TidOrder = 0;            // raw profiles: profile::Trace::TidOrder
  std::vector<Measurement> Events;  // any order; stages sort them
  std::vector<Switch> Switches;     // involving this thread
  bool SwitchesMeasured = true;     // false: swapped-out time unknown
  uint64_t DroppedEvents = 0, DroppedSwitches = 0;
  /// Raw profiles: ticks the runtime spent making the thread's trace
  /// buffers ready, and the bytes (profile::Trace::Buffer*). That time lies
  /// inside the probes' measured intervals (so in the overhead intervals)
  /// or before the thread's first call.
  uint64_t BufferTicks = 0, BufferBytes = 0;
};

/// The three inputs for one process.
struct Input {
  uint32_t Pid = 0;
  uint64_t TickRate = 1000000000;
  Overhead Table;
  std::vector<std::string> Portions;        // names as given (linkage)
  std::vector<std::string> DisplayNames;    // demangled (== Portions for text)
  std::vector<ThreadInput> Threads;
};

/// Parses the text tables format (see tools/activetime/README.md). Errors
/// are "FileName:Line: problem".
llvm::Expected<Input> parseTables(llvm::StringRef Text,
                                  llvm::StringRef FileName);

/// One Input per process of \p P that has trace sections.
std::vector<Input> inputsFromProfile(const profile::Profile &P);

/// For a thread name no thread of \p Inputs has: when it is a tid the kernel
/// reused, " (tid N was reused: its threads are N#1, N#2...)", else "".
std::string reusedTidHint(llvm::ArrayRef<Input> Inputs, llvm::StringRef Name);

/// Stable sort by tick (equal ticks keep their recorded order).
void sortMeasurements(std::vector<Measurement> &Events);

/// One invocation of a portion (findInvocations): an enter and its
/// matching exit.
struct Invocation {
  size_t EnterIdx = 0, ExitIdx = 0; // into the sorted measurements
  Interval Elapsed;                 // [enter tick, exit tick] * 256
  bool Outermost = true;            // no enclosing invocation of the same
                                    // portion (recursion counted once)
};

struct InvocationList {
  std::vector<Invocation> Invocations; // by enter time
  uint64_t UnmatchedEnters = 0, UnmatchedExits = 0;
};

/// The invocations of \p Portion in \p Sorted (sorted measurements of
/// one thread). An exit matches the latest unmatched enter of its portion.
InvocationList findInvocations(llvm::ArrayRef<Measurement> Sorted,
                               uint32_t Portion);

/// The overhead intervals of an invocation: every measurement from its
/// enter up to (not including) its exit, the latest one, as
/// [t, t + overhead[event] + measured) (not clipped: the cost is work done
/// inside).
std::vector<Interval> overheadIntervals(llvm::ArrayRef<Measurement> Sorted,
                                        const Invocation &Inv,
                                        const Overhead &Table);

/// swapOutIntervals, first half: the thread's switched-out intervals from its
/// sorted switch events: from a switch away from \p Thread to the next switch
/// back to it. A switch-out without a later switch-in runs to INT64_MAX; a
/// switch-in without an earlier switch-out is ignored.
std::vector<Interval> swapOutPairs(llvm::ArrayRef<Switch> Sorted,
                                   uint64_t Thread);

/// The swap-out intervals inside \p Elapsed (clipped to it).
std::vector<Interval> swapOutIntervals(llvm::ArrayRef<Switch> Sorted,
                                       uint64_t Thread, Interval Elapsed);

/// Total length of the union of \p Intervals.
int64_t unionMeasure(std::vector<Interval> Intervals);

struct ActiveFigures {
  int64_t Elapsed = 0;    // ticks * 256
  int64_t Overhead = 0;   // total length of the overhead intervals
  int64_t SwappedOut = 0; // measure of the swap-out intervals' union
  int64_t Active = 0;     // Elapsed - Overhead - SwappedOut
};

/// The wall-clock parts of the overhead intervals: [t, t + measured) of
/// every measurement whose probe measured itself, the same measurements as
/// overheadIntervals.
std::vector<Interval> measuredIntervals(llvm::ArrayRef<Measurement> Sorted,
                                        const Invocation &Inv);

/// Active time of one invocation. \p Measured: the wall-clock parts of the
/// overhead intervals (see measuredIntervals); where they overlap a swap-out
/// interval, that time counts once, as swapped out.
ActiveFigures activeTime(Interval Elapsed, llvm::ArrayRef<Interval> Overhead,
                         llvm::ArrayRef<Interval> SwapOut,
                         llvm::ArrayRef<Interval> Measured = {});

/// Everything computed for one invocation (the sets for --intervals only).
struct InvocationResult {
  Invocation Inv;
  std::vector<Interval> OverheadSet, SwapOutSet, MeasuredSet;
  ActiveFigures Figures;
};

/// Per thread and portion: totals over outermost invocations.
struct PortionResult {
  uint32_t Pid = 0;
  size_t Thread = 0;    // index into Input::Threads
  uint32_t Portion = 0;
  uint64_t Invocations = 0; // all, nested ones included
  uint64_t Outermost = 0;
  uint64_t UnmatchedEnters = 0, UnmatchedExits = 0;
  bool SwitchesMeasured = true;
  ActiveFigures Total;
  /// How many intervals the sets of every invocation hold, at most: what
  /// --intervals would print (a deep recursion's grows with the square of
  /// its depth).
  uint64_t IntervalCount = 0;
  std::vector<InvocationResult> Details; // every invocation, by enter time
};

/// What computeActiveTime keeps besides the totals.
enum class ResultDetail {
  Totals,      // no Details
  Invocations, // Details with figures, no interval sets
  Intervals,   // Details with their interval sets
};

/// The figures of findInvocations, overheadIntervals, swapOutIntervals and
/// activeTime for every portion with invocations on every thread of
/// \p In (or only \p PortionFilter / \p ThreadFilter when >= 0), in one
/// sweep per thread. A thread whose switches were not measured gets
/// SwitchesMeasured = false and no swap-out intervals.
std::vector<PortionResult>
computeActiveTime(const Input &In, int64_t PortionFilter = -1,
                  int64_t ThreadFilter = -1,
                  ResultDetail Detail = ResultDetail::Invocations);

/// Fixed-point ticks as "266.00".
std::string formatTicks(int64_t Ticks256);
/// Fixed-point ticks as nanoseconds at \p TickRate.
double ticks256ToNs(int64_t Ticks256, uint64_t TickRate);

} // namespace active
} // namespace activetime

#endif // ACTIVETIME_PROFILE_TRACEACTIVETIME_H
