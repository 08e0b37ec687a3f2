//===- Parallel.h - OpenMP worker-state analysis ----------------*- C++ -*-===//
//
// Part of ActiveTime. OpenMP worker-state diagnosis: sums the per-thread
// U/L/G/W counters of every parallel region and names why a region's
// workers spent time outside user code (granularity too fine, linear spawn,
// not enough tasks, imbalance).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_PARALLEL_H
#define ACTIVETIME_PROFILE_PARALLEL_H

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace activetime {
namespace profile {

/// Decision thresholds of the OpenMP worker-state diagnosis.
struct ParallelThresholds {
  /// Parallel overhead (L + G + W time) share of the workers' time above
  /// which a region is diagnosed.
  double MinOverheadShare = 0.10;
  /// Tasks taken per second per thread above which granularity is too fine
  /// (400,000/s: tasks under ~5,000 cycles at 2 GHz).
  double MaxTaskRate = 400000;
  /// Stolen / local takes above which one thread spawns all the work.
  double MaxStolenRatio = 1.0;
  /// Inactive overhead (W) share above which idleness is diagnosed.
  double MinInactiveShare = 0.10;
  /// Fruitless searches (G->G + G->W) per task taken at or above which the
  /// idleness is for want of tasks rather than imbalance.
  double MinFruitlessPerTake = 1.0;
};

enum class ParallelCause {
  None,           // overhead below the threshold
  TooFine,        // granularity too fine
  LinearSpawn,    // one thread creates the work, the others steal it
  NotEnoughTasks, // fewer tasks than free workers
  Imbalance,      // imbalance / granularity too coarse
  Undiagnosed,    // overhead above the threshold, no cause matched
};

/// One region, summed over processes, threads and instances.
struct RegionSummary {
  std::string Location; // the key the regions were grouped by
  std::string Path;     // object file of the region's fork call
  uint64_t Address = 0; // return address of the fork call in that object
  uint64_t Instances = 0;
  uint32_t MaxWorkers = 0;
  uint32_t Threads = 0; // distinct (process, thread) pairs seen in it
  double WallSeconds = 0;
  double ThreadSeconds = 0; // summed over the threads: U + L + G + W
  double StateSeconds[kNumWorkerStates] = {};
  /// Transition counts after the wait attribution rule (see design.md):
  /// in a region with a shared pool every wait follows a fruitless search.
  uint64_t Transitions[kNumWorkerStates][kNumWorkerStates] = {};
  uint64_t LocalTakes = 0, StolenTakes = 0, TasksCreated = 0, Chunks = 0;
  uint64_t WaitEntries = 0;
  bool SharedPool = false; // dynamic loop chunks or explicit tasks

  double overheadShare() const;   // (L + G + W) / all
  double inactiveShare() const;   // W / all
  double activeOverheadShare() const; // (L + G) / all
  double taskRate() const;        // takes per second per thread
  double stolenRatio() const;     // stolen / local (inf if local == 0 < stolen)
  uint64_t fruitlessSearches() const; // G->G + G->W
  double fruitlessPerTake() const;
};

/// Sums the SK_Parallel data of all processes. Regions with the same key are
/// one (the report keys by source location, so copies of a fork call made by
/// unrolling or inlining are summed); the default key is "path+0xaddress".
/// Sorted by thread time, largest first.
std::vector<RegionSummary>
summarizeRegions(const Profile &P,
                 llvm::function_ref<std::string(const Region &)> Key = nullptr);

ParallelCause diagnose(const RegionSummary &R, const ParallelThresholds &T);
const char *causeName(ParallelCause C);
const char *causeSuggestion(ParallelCause C);

/// Sums one process's raw counters into a region summary (exposed for the
/// unit tests of the attribution rule).
void addRegionThread(RegionSummary &R, const RegionThread &E,
                     double TickRate);
/// Applies the wait attribution rule once all threads were added.
void finishRegion(RegionSummary &R);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_PARALLEL_H
