//===- Aggregate.cpp - Profile aggregation ----------------------------------===//
//
// Part of ActiveTime. See Aggregate.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Aggregate.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <limits>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

double profile::ticksToNs(const Process &P, uint64_t Ticks) {
  // Split into whole seconds and remainder so large tick counts keep their
  // precision for tick rates that are not a divisor of 1e9.
  uint64_t Sec = Ticks / P.TickRate, Rem = Ticks % P.TickRate;
  return double(Sec) * 1e9 + double(Rem) * 1e9 / double(P.TickRate);
}

double profile::signedTicksToNs(const Process &P, int64_t Ticks) {
  return Ticks < 0 ? -ticksToNs(P, uint64_t(0) - uint64_t(Ticks))
                   : ticksToNs(P, uint64_t(Ticks));
}

double profile::ticks256ToNs(const Process &P, uint64_t Ticks256) {
  return ticksToNs(P, Ticks256 >> 8) +
         double(Ticks256 & 255) / 256.0 * 1e9 / double(P.TickRate);
}

static double keyOf(const Stats &S, SortKey K) {
  switch (K) {
  case SortKey::Calls:
    return double(S.Calls);
  case SortKey::Elapsed:
    return S.Elapsed;
  case SortKey::Active:
    return S.Active;
  case SortKey::SelfActive:
  case SortKey::Name:
    return S.SelfActive;
  case SortKey::SelfElapsed:
    return S.SelfElapsed;
  case SortKey::Overhead:
    return S.Overhead;
  case SortKey::OffCpu:
    return S.OffCpu;
  case SortKey::Min:
    return S.Min;
  case SortKey::Max:
    return S.Max;
  }
  return 0;
}

void profile::sortFunctions(std::vector<FunctionStats> &V,
                            const std::vector<FunctionInfo> &Fns,
                            SortKey Key) {
  llvm::sort(V, [&](const FunctionStats &A, const FunctionStats &B) {
    const FunctionInfo &FA = Fns[A.Func], &FB = Fns[B.Func];
    if (Key == SortKey::Name && FA.Name != FB.Name)
      return FA.Name < FB.Name;
    double KA = keyOf(A.S, Key), KB = keyOf(B.S, Key);
    if (KA != KB)
      return KA > KB;
    if (A.S.SelfActive != B.S.SelfActive)
      return A.S.SelfActive > B.S.SelfActive;
    if (FA.Name != FB.Name)
      return FA.Name < FB.Name;
    return A.Func < B.Func;
  });
}

void Stats::addMinMax(double NodeMin, double NodeMax) {
  if (Calls == 0) {
    Min = NodeMin;
    Max = NodeMax;
    return;
  }
  Min = std::min(Min, NodeMin);
  Max = std::max(Max, NodeMax);
}

namespace {

class Aggregator {
public:
  explicit Aggregator(const Profile &P) : Prof(P) {}
  Aggregate run();

private:
  std::vector<uint32_t> mapFunctions(const Process &P);
  void addThread(uint32_t ProcIdx, const Process &P, const Thread &T,
                 ArrayRef<uint32_t> Global);
  uint32_t treeChild(uint32_t Parent, uint32_t Func);
  void sortAll(std::vector<FunctionStats> &V) const;

  const Profile &Prof;
  Aggregate Out;
  StringMap<uint32_t> FuncIds;
  DenseMap<uint64_t, uint32_t> TreeChildren; // (parent << 32 | func) -> node
  std::vector<Stats> FlatAcc;
  // Per-thread scratch, reused to keep allocation proportional to the
  // largest thread rather than to all threads.
  std::vector<Stats> ThreadAcc;
  std::vector<uint32_t> Touched;
  std::vector<uint32_t> Active;
  std::vector<bool> Used;
};

std::vector<uint32_t> Aggregator::mapFunctions(const Process &P) {
  std::vector<uint32_t> Global(P.Functions.size());
  for (size_t I = 0; I < P.Functions.size(); ++I) {
    const Function &F = P.Functions[I];
    bool Local = F.Flags & abi::FF_LocalLinkage;
    const std::string &ModName = P.Modules[F.Module].Name;
    // '\0' cannot occur in either name, so the key is unambiguous.
    std::string Key = F.Name;
    if (Local) {
      Key.push_back('\0');
      Key += ModName;
    }
    auto [It, New] = FuncIds.try_emplace(Key, Out.Functions.size());
    if (New) {
      FunctionInfo Info;
      Info.Name = F.Name;
      Info.Local = Local;
      if (Local)
        Info.Module = ModName;
      Out.Functions.push_back(std::move(Info));
    }
    FunctionInfo &Info = Out.Functions[It->second];
    if (Info.File.empty() && !F.File.empty()) {
      Info.File = F.File;
      Info.Line = F.Line;
    }
    Global[I] = It->second;
  }
  return Global;
}

uint32_t Aggregator::treeChild(uint32_t Parent, uint32_t Func) {
  auto [It, New] =
      TreeChildren.try_emplace((uint64_t(Parent) << 32) | Func, 0);
  if (New) {
    It->second = Out.Tree.size();
    TreeNode N;
    N.Func = Func;
    N.Parent = Parent;
    N.Depth = Out.Tree[Parent].Depth + 1;
    Out.Tree.push_back(std::move(N));
    Out.Tree[Parent].Children.push_back(It->second);
  }
  return It->second;
}

void Aggregator::addThread(uint32_t ProcIdx, const Process &P, const Thread &T,
                           ArrayRef<uint32_t> Global) {
  const std::vector<Node> &Nodes = T.Nodes;
  size_t N = Nodes.size();

  // Merged tree: parents precede children, so one forward pass suffices.
  // A context with no calls (e.g. one entered before a fork, in the child's
  // profile) and everything under it is left out: it describes no time.
  constexpr uint32_t kSkipped = UINT32_MAX;
  // Self-active ticks of every node: its active minus its children's
  // (parents precede children, so a reverse pass sees children first); and
  // likewise the overhead removed from it, how far that figure leans on the
  // overhead table (the report's "~" mark; clamped at 0 for inputs whose
  // children carry more overhead than their parent).
  // 128-bit: a node's children may be many, each bounded by the reader only.
  std::vector<__int128> SelfActiveWide(N), SelfOverheadWide(N);
  for (size_t I = 0; I < N; ++I) {
    SelfActiveWide[I] = Nodes[I].active();
    SelfOverheadWide[I] = Nodes[I].Overhead;
  }
  for (size_t I = N; I-- > 0;)
    if (Nodes[I].Parent != raw::kNoParent) {
      SelfActiveWide[Nodes[I].Parent] -= Nodes[I].active();
      SelfOverheadWide[Nodes[I].Parent] -= Nodes[I].Overhead;
    }
  constexpr __int128 kMax = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> SelfActive(N), SelfOverhead(N);
  for (size_t I = 0; I < N; ++I) {
    SelfActive[I] = int64_t(std::clamp<__int128>(
        SelfActiveWide[I], std::numeric_limits<int64_t>::min(), kMax));
    SelfOverhead[I] = int64_t(std::clamp<__int128>(SelfOverheadWide[I], 0, kMax));
  }
  auto AddIncl = [&](Stats &S, const Node &Nd) {
    S.Elapsed += ticksToNs(P, Nd.Incl);
    S.Active += signedTicksToNs(P, Nd.active());
    S.Overhead += ticksToNs(P, Nd.Overhead);
    S.OffCpu += ticksToNs(P, Nd.OffCpu);
    S.Voluntary += Nd.Voluntary;
    S.Involuntary += Nd.Involuntary;
  };
  auto AddSelf = [&](Stats &S, const Node &Nd, size_t I) {
    S.SelfElapsed += ticksToNs(P, Nd.Excl);
    S.SelfActive += signedTicksToNs(P, SelfActive[I]);
    S.SelfOverhead += ticksToNs(P, uint64_t(SelfOverhead[I]));
    if (Nd.Calls)
      S.addMinMax(ticksToNs(P, Nd.Min), ticksToNs(P, Nd.Max));
    S.Calls += Nd.Calls;
  };
  std::vector<uint32_t> TreeIdx(N);
  for (size_t I = 0; I < N; ++I) {
    const Node &Nd = Nodes[I];
    if (Nd.Calls == 0 ||
        (Nd.Parent != raw::kNoParent && TreeIdx[Nd.Parent] == kSkipped)) {
      TreeIdx[I] = kSkipped;
      continue;
    }
    uint32_t Parent = Nd.Parent == raw::kNoParent ? 0 : TreeIdx[Nd.Parent];
    uint32_t Idx = treeChild(Parent, Global[Nd.Func]);
    TreeIdx[I] = Idx;
    Stats &S = Out.Tree[Idx].S;
    AddIncl(S, Nd);
    AddSelf(S, Nd, I);
  }

  // Children lists in CSR form for the walk below.
  std::vector<uint32_t> First(N + 1, 0), Kids(N);
  std::vector<uint32_t> Roots;
  for (const Node &Nd : Nodes)
    if (Nd.Parent != raw::kNoParent)
      ++First[Nd.Parent + 1];
  for (size_t I = 0; I < N; ++I)
    First[I + 1] += First[I];
  {
    std::vector<uint32_t> Fill(First.begin(), First.end() - 1);
    for (size_t I = 0; I < N; ++I) {
      if (Nodes[I].Parent == raw::kNoParent)
        Roots.push_back(I);
      else
        Kids[Fill[Nodes[I].Parent]++] = I;
    }
  }

  // Flat stats. Inclusive time only counts a node with no ancestor of the
  // same function, or recursion would count the same interval repeatedly;
  // Active[f] is the number of open ancestors of function f on the walk.
  if (ThreadAcc.size() < Out.Functions.size()) {
    ThreadAcc.resize(Out.Functions.size());
    Active.resize(Out.Functions.size());
    Used.resize(Out.Functions.size());
  }
  Touched.clear();
  auto Enter = [&](uint32_t I) {
    const Node &Nd = Nodes[I];
    uint32_t G = Global[Nd.Func];
    Stats &S = ThreadAcc[G];
    if (!Used[G]) {
      Used[G] = true;
      Touched.push_back(G);
    }
    if (Active[G]++ == 0)
      AddIncl(S, Nd);
    AddSelf(S, Nd, I);
  };
  std::vector<std::pair<uint32_t, uint32_t>> Stack; // node, next child slot
  for (uint32_t R : Roots) {
    Enter(R);
    Stack.emplace_back(R, First[R]);
    while (!Stack.empty()) {
      auto &[Cur, Next] = Stack.back();
      if (Next < First[Cur + 1]) {
        uint32_t C = Kids[Next++];
        Enter(C);
        Stack.emplace_back(C, First[C]);
        continue;
      }
      --Active[Global[Nodes[Cur].Func]];
      Stack.pop_back();
    }
  }
  llvm::sort(Touched);

  ThreadSummary TS;
  TS.Process = ProcIdx;
  TS.Tid = T.Tid;
  TS.Name = T.Name;
  TS.Flags = T.Flags;
  TS.WallNs = ticksToNs(P, T.EndTick - T.StartTick);
  TS.OpenFrames = T.OpenFrames;
  TS.UnmatchedExits = T.UnmatchedExits;
  TS.UnwoundFrames = T.UnwoundFrames;
  TS.DroppedEvents = T.DroppedEvents;
  TS.SwitchSource = T.SwitchSource;
  TS.SwitchResolutionNs = ticksToNs(P, T.SwitchResolution);
  TS.OffCpuNs = ticksToNs(P, T.OffCpuTicks);
  TS.VoluntarySwitches = T.VoluntarySwitches;
  TS.InvoluntarySwitches = T.InvoluntarySwitches;
  TS.LostSwitchRecords = T.LostSwitchRecords;
  for (uint32_t G : Touched) {
    Stats &S = ThreadAcc[G];
    Used[G] = false;
    if (S.Calls == 0) {
      S = Stats();
      continue;
    }
    TS.Functions.push_back({G, S, 0});
    TS.TotalSelfActive += S.SelfActive;
    TS.TotalSelfElapsed += S.SelfElapsed;
    Stats &F = FlatAcc[G];
    if (S.Calls)
      F.addMinMax(S.Min, S.Max);
    F.Calls += S.Calls;
    F.Elapsed += S.Elapsed;
    F.SelfElapsed += S.SelfElapsed;
    F.Active += S.Active;
    F.SelfActive += S.SelfActive;
    F.Overhead += S.Overhead;
    F.SelfOverhead += S.SelfOverhead;
    F.OffCpu += S.OffCpu;
    F.Voluntary += S.Voluntary;
    F.Involuntary += S.Involuntary;
    S = Stats();
  }
  for (FunctionStats &FS : TS.Functions)
    FS.Share = TS.TotalSelfActive > 0 ? FS.S.SelfActive / TS.TotalSelfActive
                                      : 0;
  sortAll(TS.Functions);
  Out.Threads.push_back(std::move(TS));
}

void Aggregator::sortAll(std::vector<FunctionStats> &V) const {
  sortFunctions(V, Out.Functions, SortKey::SelfActive);
}

Aggregate Aggregator::run() {
  Out.Tree.emplace_back(); // synthetic root
  std::vector<bool> Seen;
  for (uint32_t PI = 0; PI < Prof.Processes.size(); ++PI) {
    const Process &P = Prof.Processes[PI];
    std::vector<uint32_t> Global = mapFunctions(P);
    FlatAcc.resize(Out.Functions.size());
    Seen.resize(Out.Functions.size());
    for (const Thread &T : P.Threads) {
      addThread(PI, P, T, Global);
      for (const Node &Nd : T.Nodes)
        if (Nd.Calls)
          Seen[Global[Nd.Func]] = true;
    }
  }
  for (uint32_t G = 0; G < Out.Functions.size(); ++G) {
    if (!Seen[G])
      continue;
    Out.Flat.push_back({G, FlatAcc[G], 0});
    Out.TotalSelfActive += FlatAcc[G].SelfActive;
    Out.TotalSelfElapsed += FlatAcc[G].SelfElapsed;
  }
  for (FunctionStats &FS : Out.Flat)
    FS.Share =
        Out.TotalSelfActive > 0 ? FS.S.SelfActive / Out.TotalSelfActive : 0;
  sortAll(Out.Flat);

  // Root totals make the tree self-describing (e.g. percentages).
  TreeNode &Root = Out.Tree[0];
  for (uint32_t C : Root.Children) {
    Root.S.Elapsed += Out.Tree[C].S.Elapsed;
    Root.S.Active += Out.Tree[C].S.Active;
  }

  const auto &Fns = Out.Functions;
  for (TreeNode &TN : Out.Tree) {
    llvm::sort(TN.Children, [&](uint32_t A, uint32_t B) {
      const TreeNode &NA = Out.Tree[A], &NB = Out.Tree[B];
      if (NA.S.Active != NB.S.Active)
        return NA.S.Active > NB.S.Active;
      const FunctionInfo &FA = Fns[NA.Func], &FB = Fns[NB.Func];
      if (FA.Name != FB.Name)
        return FA.Name < FB.Name;
      return NA.Func < NB.Func;
    });
  }
  return std::move(Out);
}

} // namespace

Aggregate profile::aggregate(const Profile &P) { return Aggregator(P).run(); }
