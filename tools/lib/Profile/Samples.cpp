//===- Samples.cpp - Sample attribution -------------------------------------===//
//
// Part of ActiveTime. See Samples.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Samples.h"
#include "activetime/raw_format.h"

#include <algorithm>

using namespace activetime;
using namespace activetime::profile;

const char profile::kOutsideFrame[] = "[outside instrumented code]";

std::vector<std::string> profile::samplePath(const Process &P, const Thread &T,
                                             uint32_t Node) {
  std::vector<std::string> Path;
  if (Node == raw::kNoNode)
    return {kOutsideFrame};
  // Parents precede children (checked by the reader), so this terminates.
  for (uint32_t I = Node; I != raw::kNoParent && I < T.Nodes.size();
       I = T.Nodes[I].Parent)
    Path.push_back(
        sourceFunctionName(P.Functions[T.Nodes[I].Func].Name).str());
  std::reverse(Path.begin(), Path.end());
  return Path;
}

static void add(SampleFigures &F, double Ns, bool Off, bool Prior,
                bool Preempt) {
  if (Off) {
    F.OffNs += Ns;
    F.OffSamples++;
    F.PriorFrame += Prior;
    F.Preempted += Preempt;
  } else {
    F.OnNs += Ns;
    F.OnSamples++;
  }
}

SampleSummary profile::summarizeSamples(const Profile &Prof) {
  SampleSummary S;
  for (const Process &P : Prof.Processes) {
    if (!P.HasSamples)
      continue;
    const SampleSet &SS = P.Samples;
    double NsPerTick = 1e9 / double(P.TickRate);
    if (!S.Processes) {
      S.IntervalNs = double(SS.IntervalTicks) * NsPerTick;
      S.Randomized = SS.Flags & raw::SMF_Randomized;
    }
    S.Processes++;
    S.Sweeps += SS.Sweeps;
    S.Realtime += (SS.Flags & raw::SMF_Realtime) != 0;
    S.WakeLateNs += double(SS.WakeLateNs);
    S.Dropped += SS.Dropped;
    S.TornRetries += SS.TornRetries;
    S.TornDiscarded += SS.TornDiscarded;
    S.Unmapped += SS.Unmapped;
    S.ProcStateSamples += SS.ProcStateSamples;
    S.SamplerCpuNs += double(SS.SamplerCpuNs);
    if (SS.EndTick > SS.StartTick)
      S.SampledWallNs += double(SS.EndTick - SS.StartTick) * NsPerTick;
    // Paths are per (thread, node); cache them per thread.
    std::vector<std::map<uint32_t, std::vector<std::string>>> Cache(
        P.Threads.size());
    for (const Sample &X : SS.Samples) {
      auto &C = Cache[X.Thread];
      auto It = C.find(X.Node);
      if (It == C.end())
        It = C.emplace(X.Node, samplePath(P, P.Threads[X.Thread], X.Node))
                 .first;
      const std::vector<std::string> &Path = It->second;
      double Ns = double(X.Weight) * NsPerTick;
      bool Off = X.Flags & raw::SF_OffCpu;
      bool Prior = X.Flags & raw::SF_PriorFrame;
      bool Preempt = X.Flags & raw::SF_Preempted;
      add(S.All, Ns, Off, Prior, Preempt);
      add(S.Paths[Path], Ns, Off, Prior, Preempt);
      add(S.Self[Path.back()], Ns, Off, Prior, Preempt);
      std::vector<const std::string *> Seen;
      for (const std::string &F : Path) {
        if (std::find_if(Seen.begin(), Seen.end(), [&](const std::string *Q) {
              return *Q == F;
            }) != Seen.end())
          continue; // recursion: once per sample
        Seen.push_back(&F);
        add(S.Total[F], Ns, Off, Prior, Preempt);
      }
    }
  }
  return S;
}
