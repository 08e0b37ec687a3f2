//===- activetime/Profile/Flags.h - The model's flags by name ---*- C++ -*-===//
//
// Part of ActiveTime. The model (Profile.h) keeps the raw format's flag
// words and enumerations as the reader found them, so the writer writes
// them back bit for bit. What only reads them reads them here, by name:
// bools for flag words, enum classes for enumerations, so that no view
// decodes the bits of raw_format.h. Flags.cpp is the one place that does.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_FLAGS_H
#define ACTIVETIME_PROFILE_FLAGS_H

#include "activetime/Profile/Profile.h"

#include <type_traits>

namespace activetime {
namespace profile {

/// Where a thread's switched-out time came from.
enum class SwitchSource {
  None,     // not measured: "active" still includes switched-out time
  Perf,     // perf context-switch records (exact)
  CpuClock, // the thread CPU clock, read at an interval (located within it)
};
SwitchSource switchSource(const Thread &T);

/// A thread's flags.
struct ThreadFlags {
  bool Running = false;    // still running when the profile was written
  /// Code sampling was on, but the thread's sampling event or ring could
  /// not be opened: its counted callees' time stays in its timed frames.
  bool NotSampled = false;
  /// Not sampled, or its switched-out time not from perf, because the
  /// runtime's descriptor budget (an eighth of ulimit -n) was spent.
  bool NoDescriptors = false;
  bool Latency = false;    // its nodes carry latency histograms
  /// Calls whose code samples' interrupts were over a quarter of their time
  /// are set apart from the histograms.
  bool SampledCallsApart = false;
  /// The record of several finished threads folded together by the
  /// runtime (Thread::FoldedThreads of them).
  bool Folded = false;
  /// Not sampled because it ended before its perf rings were opened (not
  /// before it had lived the runtime's perf_after_us): its switched-out
  /// time is from its CPU clock.
  bool ShortLived = false;
};
ThreadFlags threadFlags(const Thread &T);

/// How a process's code samples were taken (Process::CodeSampleFlags).
struct CodeSamplingFlags {
  bool Disabled = false;    // code_samples=0 or mode=trace
  bool Unavailable = false; // perf_event_open refused
  bool UserOnly = false;    // kernel time not sampled
  /// Samples outside the program's code were charged to the program
  /// function that called out.
  bool Stacks = false;
  /// A sample's cost could not be measured: it stays in the times.
  bool CostUnmeasured = false;
  /// The run (or the write) came before the sample cost was measured: no
  /// samples were taken.
  bool NotStarted = false;
};
CodeSamplingFlags codeSampling(const Process &P);

/// Where the overhead table's probe cost came from.
enum class OverheadSource {
  Calibrated,   // measured beside the program (before main until v16)
  Option,       // fixed by ACTIVETIME_OPTIONS
  Uncalibrated, // the process ended before its calibration was done
};
OverheadSource overheadSource(const OverheadTable &O);

/// How a traced thread's buffer pages were made ready.
struct TraceBufferFlags {
  bool Populate = false;  // madvise(MADV_POPULATE_WRITE)
  bool Touch = false;     // a write per page
  bool HugePages = false; // transparent huge pages beyond the first 2 MiB
  bool NoMemory = false;  // the kernel refused more: later events dropped
  /// The process's trace buffers reached trace_memory_mb: later events
  /// dropped.
  bool Budget = false;
  /// Or-ed over several traces.
  TraceBufferFlags &operator|=(const TraceBufferFlags &O) {
    Populate |= O.Populate;
    Touch |= O.Touch;
    HugePages |= O.HugePages;
    NoMemory |= O.NoMemory;
    Budget |= O.Budget;
    return *this;
  }
};
TraceBufferFlags traceBufferFlags(const Trace &T);

/// A trace event: a timer measurement at a call's entry or exit.
enum class TraceEventKind { Enter, Exit };
TraceEventKind eventKind(const TraceEvent &E);

/// Whether the process's OpenMP worker states were recorded, and if not why.
enum class OmpStatus {
  NoOpenMP, // no OpenMP runtime was seen
  Ompt,     // recorded through OMPT
  NoOmpt,   // an OpenMP runtime without OMPT (libgomp)
  Disabled, // ACTIVETIME_OPTIONS=openmp=0
};
OmpStatus ompStatus(const Parallel &Par);

/// The function has local linkage: its name is unique in its module only.
bool isLocal(const Function &F);
/// The function is an MPI routine's wrapper (libactivetime_mpi): its calls
/// are time spent in MPI.
bool isMpi(const Function &F);
/// The module is the pass's table of parallel regions, not a source file.
bool isRegionModule(const Module &M);

/// A memory access site of stride profiling.
struct MemSiteFlags {
  bool Store = false;  // a store, else a load
  bool InLoop = false; // inside a loop
  /// Affine with a constant step the pass knew: no probe ran.
  bool Static = false;
};
MemSiteFlags siteFlags(const MemSite &S);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_FLAGS_H
