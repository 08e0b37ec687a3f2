//===- CallSites.cpp - Call-site edges --------------------------------------===//
//
// Part of ActiveTime. Builds the CallGraph of CallSites.h: exact edges from
// the timed nodes' call sites, counted calls placed by their code samples.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/CallSites.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"

#include <map>
#include <tuple>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

namespace {

using EdgeKey = std::tuple<uint32_t, uint32_t, std::string, uint64_t>;
// A thread's samples of one function's counted calls by where the frame
// returns to: (process function id, link-time return address) -> samples.
using SitesSampled = std::map<std::pair<uint32_t, uint64_t>, uint64_t>;

class Builder {
public:
  Builder(const Profile &P, const Aggregate &A) : Prof(P), Agg(A) {}
  CallGraph run();

private:
  size_t edge(const Process &P, ArrayRef<uint32_t> G, const CallerCode &Site,
              uint32_t Callee);
  void addThread(const Process &P, ArrayRef<uint32_t> G, const Thread &T);
  void placeCounted(const Process &P, ArrayRef<uint32_t> G, uint32_t Func,
                    uint64_t Counted, const SitesSampled &BySite,
                    ArrayRef<std::pair<size_t, uint64_t>> TimedEdges);

  const Profile &Prof;
  const Aggregate &Agg;
  CallGraph Out;
  std::map<EdgeKey, size_t> Index;
};

size_t Builder::edge(const Process &P, ArrayRef<uint32_t> G,
                     const CallerCode &Site, uint32_t Callee) {
  CallEdge E;
  E.Callee = G[Callee];
  if (Site.Func != kNoFunc) {
    E.Caller = G[Site.Func];
    E.Object = P.Modules[P.Functions[Site.Func].Module].Path;
    E.ReturnAddr = Site.LinkAddr;
  }
  auto [It, New] = Index.try_emplace(
      EdgeKey(E.Caller, E.Callee, E.Object, E.ReturnAddr), Out.Edges.size());
  if (New)
    Out.Edges.push_back(std::move(E));
  return It->second;
}

/// The samples of counted calls of each function by call site: those in
/// program code whose frame's return address is known, and not in a timed
/// call of the function (that frame would be their node).
static DenseMap<uint32_t, SitesSampled> sampledSites(const Thread &T) {
  DenseMap<uint32_t, SitesSampled> Out;
  for (const CodeSample &S : T.CodeSamples) {
    if (S.Kind != CodeKind::Function || !S.Caller ||
        (S.Flags & raw::CSR_Caller))
      continue;
    if (S.Node != raw::kNoNode && T.Nodes[S.Node].Func == S.Func)
      continue;
    Out[S.Func][{S.CallerAt.Func, S.CallerAt.LinkAddr}] += S.Count;
  }
  return Out;
}

/// Places a function's Counted calls of one thread at the call sites its
/// samples in counted calls came from (BySite), else as its timed calls
/// were (TimedEdges).
void Builder::placeCounted(const Process &P, ArrayRef<uint32_t> G,
                           uint32_t Func, uint64_t Counted,
                           const SitesSampled &BySite,
                           ArrayRef<std::pair<size_t, uint64_t>> TimedEdges) {
  uint64_t Total = 0;
  for (const auto &Site : BySite)
    Total += Site.second;
  CountedPlacement &Pl = Out.Placement[G[Func]];
  if (Total) {
    for (const auto &[Site, N] : BySite) {
      CallEdge &E = Out.Edges[edge(P, G, {Site.first, Site.second}, Func)];
      E.Counted += double(Counted) * double(N) / double(Total);
      E.Samples += N;
    }
    Pl.BySamples += Counted;
    return;
  }
  uint64_t Timed = 0;
  for (const auto &TE : TimedEdges)
    Timed += TE.second;
  if (!Timed) {
    Pl.Unplaced += Counted;
    return;
  }
  for (const auto &[Idx, N] : TimedEdges)
    Out.Edges[Idx].Counted += double(Counted) * double(N) / double(Timed);
  Pl.ByTimedShare += Counted;
}

void Builder::addThread(const Process &P, ArrayRef<uint32_t> G,
                        const Thread &T) {
  // Per process function: its timed edges in this thread (edge, calls).
  DenseMap<uint32_t, SmallVector<std::pair<size_t, uint64_t>, 2>> TimedEdges;
  DenseMap<uint32_t, uint64_t> TimedCalls;
  for (const Node &N : T.Nodes) {
    if (!N.Calls)
      continue;
    size_t I = edge(P, G, N.Site, N.Func);
    Out.Edges[I].Timed += N.Calls;
    TimedEdges[N.Func].emplace_back(I, N.Calls);
    TimedCalls[N.Func] += N.Calls;
  }
  DenseMap<uint32_t, SitesSampled> Sampled = sampledSites(T);
  for (const CallCount &C : T.Counts) {
    uint64_t Timed = TimedCalls.lookup(C.Func);
    if (C.Calls > Timed)
      placeCounted(P, G, C.Func, C.Calls - Timed, Sampled[C.Func],
                   TimedEdges[C.Func]);
  }
}

CallGraph Builder::run() {
  Out.Placement.resize(Agg.Functions.size());
  for (size_t PI = 0; PI < Prof.Processes.size(); ++PI)
    for (const Thread &T : Prof.Processes[PI].Threads)
      addThread(Prof.Processes[PI], Agg.FunctionIds[PI], T);
  llvm::stable_sort(Out.Edges, [](const CallEdge &A, const CallEdge &B) {
    if (A.Callee != B.Callee)
      return A.Callee < B.Callee;
    return A.calls() > B.calls();
  });
  return std::move(Out);
}

} // namespace

CallGraph profile::buildCallGraph(const Profile &P, const Aggregate &A) {
  return Builder(P, A).run();
}

DIInliningInfo profile::symbolizeCall(symbolize::LLVMSymbolizer &Sym,
                                      const CallEdge &E) {
  if (E.Caller == kNoFunc || !E.ReturnAddr || E.Object.empty())
    return {};
  Expected<DIInliningInfo> R = Sym.symbolizeInlinedCode(
      E.Object, {E.ReturnAddr - 1, object::SectionedAddress::UndefSection});
  if (!R) {
    consumeError(R.takeError());
    return {};
  }
  // The symbolizer names the outermost frame from the symbol table, which
  // calls a timed copy by its own name: every frame gets its function's.
  for (uint32_t I = 0; I < R->getNumberOfFrames(); ++I) {
    DILineInfo *F = R->getMutableFrame(I);
    F->FunctionName = sourceFunctionName(F->FunctionName).str();
  }
  return std::move(*R);
}
