//===- Parallel.cpp - OpenMP worker-state analysis --------------------------===//
//
// Part of ActiveTime. The OpenMP worker-state diagnosis: a decision
// procedure over the runtime's per-thread, per-region state machine
// counters.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Parallel.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

using namespace activetime;
using namespace activetime::profile;

namespace {
constexpr unsigned U = raw::WS_User, L = raw::WS_Local, G = raw::WS_Global,
                   W = raw::WS_Wait;
} // namespace

double RegionSummary::overheadShare() const {
  return ThreadSeconds > 0
             ? (StateSeconds[L] + StateSeconds[G] + StateSeconds[W]) /
                   ThreadSeconds
             : 0;
}
double RegionSummary::inactiveShare() const {
  return ThreadSeconds > 0 ? StateSeconds[W] / ThreadSeconds : 0;
}
double RegionSummary::activeOverheadShare() const {
  return ThreadSeconds > 0 ? (StateSeconds[L] + StateSeconds[G]) / ThreadSeconds
                           : 0;
}
double RegionSummary::taskRate() const {
  return ThreadSeconds > 0 ? double(LocalTakes + StolenTakes) / ThreadSeconds
                           : 0;
}
double RegionSummary::stolenRatio() const {
  if (LocalTakes == 0)
    return StolenTakes ? std::numeric_limits<double>::infinity() : 0;
  return double(StolenTakes) / double(LocalTakes);
}
uint64_t RegionSummary::fruitlessSearches() const {
  return Transitions[G][G] + Transitions[G][W];
}
double RegionSummary::fruitlessPerTake() const {
  uint64_t Takes = LocalTakes + StolenTakes;
  if (!Takes)
    return fruitlessSearches() ? std::numeric_limits<double>::infinity() : 0;
  return double(fruitlessSearches()) / double(Takes);
}

void profile::addRegionThread(RegionSummary &R, const RegionThread &E,
                              double TickRate) {
  for (unsigned S = 0; S < raw::kNumWorkerStates; ++S) {
    double Sec = TickRate > 0 ? double(E.StateTicks[S]) / TickRate : 0;
    R.StateSeconds[S] += Sec;
    R.ThreadSeconds += Sec;
    for (unsigned T = 0; T < raw::kNumWorkerStates; ++T)
      R.Transitions[S][T] += E.Transitions[S][T];
  }
  R.LocalTakes += E.LocalTakes;
  R.StolenTakes += E.StolenTakes;
  R.TasksCreated += E.TasksCreated;
  R.Chunks += E.Chunks;
  R.WaitEntries += E.WaitEntries;
}

// The runtime records every wait as L->W: OMPT does not report the search a
// thread makes before it sleeps. Where the region had a shared pool (dynamic
// loop chunks, explicit tasks), the thread searched it and found nothing
// before waiting (libomp's barriers and taskwaits execute and steal tasks
// first): such a wait is L->G->W, a fruitless search.
void profile::finishRegion(RegionSummary &R) {
  R.SharedPool = R.Chunks > 0 || R.TasksCreated > 0;
  if (!R.SharedPool)
    return;
  uint64_t N = std::min(R.WaitEntries, R.Transitions[L][W]);
  R.Transitions[L][W] -= N;
  R.Transitions[L][G] += N;
  R.Transitions[G][W] += N;
}

std::vector<RegionSummary>
profile::summarizeRegions(const Profile &P,
                          llvm::function_ref<std::string(const Region &)> Key) {
  std::map<std::string, size_t> Index;
  std::vector<RegionSummary> Out;
  std::vector<std::set<std::pair<size_t, uint64_t>>> ThreadsSeen;
  for (size_t PI = 0; PI < P.Processes.size(); ++PI) {
    const Process &Pr = P.Processes[PI];
    const Parallel &Par = Pr.Par;
    std::vector<size_t> Map(Par.Regions.size());
    for (size_t I = 0; I < Par.Regions.size(); ++I) {
      const Region &Rg = Par.Regions[I];
      std::string K = Key ? Key(Rg)
                          : (llvm::Twine(Rg.Path) + "+0x" +
                             llvm::Twine::utohexstr(Rg.Address))
                                .str();
      auto [It, New] = Index.try_emplace(K, Out.size());
      if (New) {
        Out.emplace_back();
        ThreadsSeen.emplace_back();
        Out.back().Location = K;
        Out.back().Path = Rg.Path;
        Out.back().Address = Rg.Address;
      }
      RegionSummary &R = Out[It->second];
      R.Instances += Rg.Instances;
      R.MaxWorkers = std::max(R.MaxWorkers, Rg.MaxWorkers);
      R.WallSeconds += Pr.TickRate ? double(Rg.WallTicks) / Pr.TickRate : 0;
      Map[I] = It->second;
    }
    for (const RegionThread &E : Par.Entries) {
      size_t Idx = Map[E.Region];
      addRegionThread(Out[Idx], E, double(Pr.TickRate));
      ThreadsSeen[Idx].insert({PI, E.Tid});
    }
  }
  for (size_t I = 0; I < Out.size(); ++I) {
    Out[I].Threads = ThreadsSeen[I].size();
    finishRegion(Out[I]);
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const RegionSummary &A, const RegionSummary &B) {
                     return A.ThreadSeconds > B.ThreadSeconds;
                   });
  return Out;
}

// The causes are tried in the order of the diagnosis's flowcharts. The gate
// also opens on the task rate alone: OMPT reports a take as an instant, so
// the lookup time of a very fine-grained region is spent inside what the
// state machine sees as U; at MaxTaskRate the scheduling cost per task is a
// large share of the task (see ParallelThresholds).
ParallelCause profile::diagnose(const RegionSummary &R,
                                const ParallelThresholds &T) {
  bool Fine = R.taskRate() > T.MaxTaskRate;
  if (R.overheadShare() <= T.MinOverheadShare && !Fine)
    return ParallelCause::None;
  if (Fine)
    return ParallelCause::TooFine;
  if (R.stolenRatio() > T.MaxStolenRatio)
    return ParallelCause::LinearSpawn;
  if (R.inactiveShare() > T.MinInactiveShare)
    return R.fruitlessPerTake() >= T.MinFruitlessPerTake
               ? ParallelCause::NotEnoughTasks
               : ParallelCause::Imbalance;
  return ParallelCause::Undiagnosed;
}

const char *profile::causeName(ParallelCause C) {
  switch (C) {
  case ParallelCause::None:
    return "none";
  case ParallelCause::TooFine:
    return "granularity too fine";
  case ParallelCause::LinearSpawn:
    return "linear spawn";
  case ParallelCause::NotEnoughTasks:
    return "not enough tasks";
  case ParallelCause::Imbalance:
    return "imbalance / granularity too coarse";
  case ParallelCause::Undiagnosed:
    return "overhead without a diagnosed cause";
  }
  return "?";
}

const char *profile::causeSuggestion(ParallelCause C) {
  switch (C) {
  case ParallelCause::None:
    return "";
  case ParallelCause::TooFine:
    return "make each task or chunk do more work: a larger chunk size "
           "(schedule(dynamic, N)), grainsize/num_tasks on taskloop, or a "
           "cut-off below which work runs serially";
  case ParallelCause::LinearSpawn:
    return "create the tasks in parallel (recursive splitting, taskloop, or "
           "one producer per thread) instead of from a single thread's loop";
  case ParallelCause::NotEnoughTasks:
    return "expose more parallelism than there are threads: split the work "
           "into more tasks or iterations, or use fewer threads";
  case ParallelCause::Imbalance:
    return "balance the work: dynamic or guided scheduling, smaller chunks, "
           "or splitting the expensive iterations";
  case ParallelCause::Undiagnosed:
    return "the time goes to local lookups or searches without a pattern "
           "the known causes explain; inspect the transition counts";
  }
  return "";
}
