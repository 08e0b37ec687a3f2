//===- activetime_helper.h - Measurements in a helper process ---*- C++ -*-===//
//
// A program with one thread stays single-threaded under the runtime: glibc
// takes its single-thread fast paths (malloc's arenas and stdio's locks
// without atomics) until the first pthread_create and never returns to
// them, so a runtime thread of its own slowed lua's malloc-heavy run by
// 6-8% (docs/performance.md, "Start-up"). What has to be measured beside
// such a program (the tick step, the probe table's calibration, a code
// sample's cost) is measured in a helper process instead: a raw clone() of
// the program without CLONE_VM, so glibc never learns of it (no fork
// handlers, no thread), on the same machine and code. It writes its figures
// into a shared page, which the program's threads read at their polls, and
// exits. Its exit signal is 0: the program's wait() does not see it.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_HELPER_H
#define ACTIVETIME_HELPER_H

#include "activetime/raw_format.h"

#include "sanitizer_common/sanitizer_internal_defs.h"

namespace __activetime {
using namespace __sanitizer;

// The shared page. The table comes first (it is what lets short functions
// be counted); each part's flag is written after it, with release.
struct HelperFigures {
  u32 TableDone; // Table, TickStep256 and HasTable are written
  u32 Done;      // everything is
  u32 HasTable, HasCost;
  u64 TickStep256;
  u64 Cost256;
  activetime::raw::OverheadRecord Table;
  // Set (1) last, after Done: a thread that waits for the sample cost
  // watches it as its sample ring's head (HelperReadyWord), so its counted
  // calls' polls notice the figures as its probes would.
  u64 Ready;
};

enum HelperStatus { HS_None, HS_Running, HS_Done, HS_Failed };

// Whether a helper process may be used now: glibc still thinks the process
// single-threaded (so no other thread holds a lock the child would inherit),
// and not under ThreadSanitizer.
bool HelperProcessUsable();
// Starts the helper measuring the table (Table) and/or the sample cost
// (Cost); false if it could not be started, or if a seccomp filter is on
// (one may allow threads but kill a process that forks).
bool StartHelperProcess(bool Table, bool Cost);
// HS_Running while it measures, HS_Done once it has written everything (it
// is reaped then), HS_Failed if it ended without, HS_None if there is none;
// *Out is what it has written so far (its TableDone and Done say which
// parts). Only one thread may call it at a time.
HelperStatus PollHelperProcess(HelperFigures *Out);
// At exit: kills and reaps a helper still measuring.
void StopHelperProcess();
// A fork child: the parent's helper is not ours (the page is replaced by
// a fresh one at the same address: threads may be watching its Ready).
void ForgetHelperProcess();
// Maps the shared page ahead of the helper's start; false if it cannot.
bool MapHelperPage();
// The page's Ready word, or a zero word that stays zero without a page.
const volatile u64 *HelperReadyWord();

} // namespace __activetime

#endif // ACTIVETIME_HELPER_H
