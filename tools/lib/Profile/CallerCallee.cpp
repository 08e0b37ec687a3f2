//===- CallerCallee.cpp - Callers, callees and the inverted tree ----------===//
//
// Part of ActiveTime. See CallerCallee.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/CallerCallee.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <tuple>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

CallEdge CallArc::edge() const {
  CallEdge E;
  E.Caller = Caller;
  E.Callee = Callee;
  E.Object = Object;
  E.ReturnAddr = ReturnAddr;
  E.Timed = Calls;
  return E;
}


namespace {
/// Arcs by (caller, callee, object, return address), the object interned:
/// a node is one hash lookup, with no string built per node.
struct ArcIndex {
  DenseMap<std::tuple<uint32_t, uint32_t, uint32_t, uint64_t>, uint32_t> Map;
  StringMap<uint32_t> Objects; // ELF path -> id (0: none)
  uint32_t objectId(StringRef Path) {
    if (Path.empty())
      return 0;
    return Objects.try_emplace(Path, Objects.size() + 1).first->second;
  }
};
} // namespace

/// One thread's nodes added to the arcs of \p Out.
static void addThreadArcs(const Process &Pr, ArrayRef<uint32_t> G,
                          const Thread &T, std::vector<uint32_t> &Open,
                          ArcIndex &Index, CallArcs &Out) {
  // Recursion counts once, by Aggregate's rule (one function in several
  // modules' tables is one function).
  std::vector<bool> Outermost(T.Nodes.size());
  walkOutermost(T, G, Open,
                [&](uint32_t I, bool Outer) { Outermost[I] = Outer; });
  for (size_t I = 0; I < T.Nodes.size(); ++I) {
    const Node &Nd = T.Nodes[I];
    if (!Nd.Calls)
      continue;
    uint32_t Caller =
        Nd.Parent == raw::kNoParent ? kNoFunc : G[T.Nodes[Nd.Parent].Func];
    StringRef Object;
    uint64_t Ret = 0;
    if (Nd.Site.Func != kNoFunc) {
      Object = Pr.Modules[Pr.Functions[Nd.Site.Func].Module].Path;
      Ret = Nd.Site.LinkAddr;
    }
    auto [It, New] = Index.Map.try_emplace(
        {Caller, G[Nd.Func], Index.objectId(Object), Ret}, Out.Arcs.size());
    if (New) {
      CallArc Arc;
      Arc.Caller = Caller;
      Arc.Callee = G[Nd.Func];
      Arc.Object = Object.str();
      Arc.ReturnAddr = Ret;
      Out.Arcs.push_back(std::move(Arc));
    }
    CallArc &X = Out.Arcs[It->second];
    X.Calls += Nd.Calls;
    if (Outermost[I])
      X.ActiveNs += signedTicksToNs(Pr, Nd.active());
    else
      X.RecursiveCalls += Nd.Calls;
  }
}

CallArcs profile::buildCallArcs(const Profile &P, const Aggregate &A) {
  CallArcs Out;
  ArcIndex Index;
  std::vector<uint32_t> Open(A.Functions.size());
  for (size_t PI = 0; PI < P.Processes.size(); ++PI)
    for (const Thread &T : P.Processes[PI].Threads)
      addThreadArcs(P.Processes[PI], A.FunctionIds[PI], T, Open, Index, Out);
  Out.Callers.resize(A.Functions.size());
  Out.Callees.resize(A.Functions.size());
  for (uint32_t I = 0; I < Out.Arcs.size(); ++I) {
    Out.Callers[Out.Arcs[I].Callee].push_back(I);
    if (Out.Arcs[I].Caller != kNoFunc)
      Out.Callees[Out.Arcs[I].Caller].push_back(I);
  }
  auto ByActive = [&](uint32_t X, uint32_t Y) {
    const CallArc &AX = Out.Arcs[X], &AY = Out.Arcs[Y];
    if (AX.ActiveNs != AY.ActiveNs)
      return AX.ActiveNs > AY.ActiveNs;
    if (AX.Calls != AY.Calls)
      return AX.Calls > AY.Calls;
    return X < Y;
  };
  for (auto &V : Out.Callers)
    llvm::sort(V, ByActive);
  for (auto &V : Out.Callees)
    llvm::sort(V, ByActive);
  return Out;
}

static double shownSelf(const TreeNode &N) {
  return activeFigures(N.S, N.Counted).Self.Shown;
}

/// Adds the self time of tree node \p I to every inverted node on its path
/// upwards (at most MaxDepth levels).
static void addPath(const Aggregate &A, uint32_t I, double Self,
                    unsigned MaxDepth, std::vector<InvertedNode> &Inv,
                    DenseMap<uint64_t, uint32_t> &Child) {
  uint32_t At = 0;
  unsigned Depth = 0;
  for (uint32_t Cur = I; Cur != 0; Cur = A.Tree[Cur].Parent) {
    if (MaxDepth && Depth == MaxDepth) {
      Inv[At].Truncated = true;
      return;
    }
    uint32_t F = A.Tree[Cur].Func;
    auto [It, New] = Child.try_emplace((uint64_t(At) << 32) | F, Inv.size());
    if (New) {
      InvertedNode N;
      N.Func = F;
      N.Parent = At;
      N.Depth = Inv[At].Depth + 1;
      Inv.push_back(N);
      Inv[At].Children.push_back(It->second);
    }
    At = It->second;
    Inv[At].SelfActiveNs += Self;
    ++Depth;
  }
  Inv[At].EndsNs += Self;
}

std::vector<InvertedNode> profile::invertTree(const Aggregate &A,
                                              unsigned MaxDepth) {
  std::vector<InvertedNode> Inv(1);
  DenseMap<uint64_t, uint32_t> Child; // (parent << 32 | func) -> node
  // Each node's self time as the reports print it (clamped at 0), so no
  // path carries a negative share.
  for (uint32_t I = 1; I < A.Tree.size(); ++I)
    if (double Self = shownSelf(A.Tree[I]))
      addPath(A, I, Self, MaxDepth, Inv, Child);
  for (const InvertedNode &N : Inv)
    Inv[0].SelfActiveNs += N.Depth == 1 ? N.SelfActiveNs : 0;
  for (InvertedNode &N : Inv)
    llvm::sort(N.Children, [&](uint32_t X, uint32_t Y) {
      if (Inv[X].SelfActiveNs != Inv[Y].SelfActiveNs)
        return Inv[X].SelfActiveNs > Inv[Y].SelfActiveNs;
      if (Inv[X].Func != Inv[Y].Func)
        return A.Functions[Inv[X].Func].Name < A.Functions[Inv[Y].Func].Name;
      return X < Y;
    });
  return Inv;
}

uint64_t profile::invertTreeSteps(const Aggregate &A, unsigned MaxDepth) {
  uint64_t Steps = 0;
  for (uint32_t I = 1; I < A.Tree.size(); ++I)
    if (shownSelf(A.Tree[I]) != 0)
      Steps += MaxDepth ? std::min(A.Tree[I].Depth, MaxDepth) : A.Tree[I].Depth;
  return Steps;
}
