//===- activetime/Profile/Window.h - A profile between two writes -*- C++ -*-===//
//
// Part of ActiveTime. A long-running program writes complete snapshots of
// its profile (flush_interval_s, activetime_flush(); `%n` in output= keeps
// each). What happened between two of them is the later snapshot less the
// earlier: the windowed profiles a continuous-profiling backend ingests
// one after another (`report` and `export` --since=EARLIER).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_WINDOW_H
#define ACTIVETIME_PROFILE_WINDOW_H

#include "activetime/Profile/Profile.h"

#include "llvm/Support/Error.h"

#include <string>

namespace activetime {
namespace profile {

struct WindowSummary {
  uint64_t Processes = 0;    // processes of the later profile in both
  uint64_t NewProcesses = 0; // started after the earlier write: kept whole
  uint64_t NewThreads = 0;   // threads started after it: kept whole
  double WindowNs = 0;       // the longest process's window
};

/// Subtracts \p Earlier, an earlier snapshot of the same run, from \p Later
/// in place: every process of \p Later that \p Earlier also holds (same
/// host, pid and start) keeps what happened after the earlier write (call
/// tree, call counts, code samples, switches, CPU time, MPI bytes) and
/// starts there; per-call minimum and maximum stay the run's. An error, and
/// \p Later untouched, when \p Earlier is not an earlier snapshot of it (a
/// counter that would fall, a calling context or function it lacks) or holds
/// what cannot be subtracted here (traces, sampler stacks, strides, block
/// counts, OpenMP regions, finished threads folded together).
llvm::Expected<WindowSummary> subtractEarlier(Profile &Later,
                                              const Profile &Earlier);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_WINDOW_H
