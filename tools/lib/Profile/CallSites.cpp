//===- CallSites.cpp - Call-site edges --------------------------------------===//
//
// Part of ActiveTime. Builds the CallGraph of CallSites.h: exact edges from
// the timed nodes' call sites, counted calls placed by their code samples;
// then the rows both call views print, the edges of one caller and callee
// merged by the source position of their call instructions.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/CallSites.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

namespace {

/// Who called, in a process's function ids (CallSites.h's rule).
struct Site {
  CallerKind Kind = CallerKind::ThreadRoot;
  uint32_t Caller = kNoFunc;    // process function id (Kind Function)
  uint32_t Enclosing = kNoFunc; // process function id (Kind Outside)
  uint64_t LinkAddr = 0;        // 0: no location
  bool Unresolved = false;      // recorded, but not resolvable
  auto key() const {
    return std::make_tuple(Kind, Caller, Enclosing, LinkAddr, Unresolved);
  }
  bool operator<(const Site &O) const { return key() < O.key(); }
};

/// The caller of node \p I of \p T: the function holding its call
/// instruction; without one, the thread root, code outside the program
/// inside the parent's call, or (site unknown) the parent.
Site callerOf(const Thread &T, uint32_t I) {
  const Node &Nd = T.Nodes[I];
  Site S;
  if (Nd.Site.Func != kNoFunc) {
    S.Kind = CallerKind::Function;
    S.Caller = Nd.Site.Func;
    S.LinkAddr = Nd.Site.LinkAddr;
    return S;
  }
  if (Nd.Parent == raw::kNoParent)
    return S; // the thread's root
  uint32_t Parent = T.Nodes[Nd.Parent].Func;
  if (Nd.CallSite && Nd.Site.Known) {
    S.Kind = CallerKind::Outside;
    S.Enclosing = Parent;
    return S;
  }
  S.Kind = CallerKind::Function;
  S.Caller = Parent;
  S.Unresolved = Nd.CallSite != 0;
  return S;
}

/// Where a code sample's counted call came from, by the return address of
/// its frame: false when that is unknown.
bool sampledSite(const Thread &T, const CodeSample &S, Site &Out) {
  if (S.CallerAt.Func != kNoFunc) {
    Out.Kind = CallerKind::Function;
    Out.Caller = S.CallerAt.Func;
    Out.LinkAddr = S.CallerAt.LinkAddr;
    return true;
  }
  if (!S.CallerAt.Known)
    return false;
  if (S.Node == raw::kNoNode) {
    Out.Kind = CallerKind::ThreadRoot;
    return true;
  }
  Out.Kind = CallerKind::Outside;
  Out.Enclosing = T.Nodes[S.Node].Func;
  return true;
}

using EdgeKey = std::tuple<CallerKind, uint32_t, uint32_t, uint32_t,
                           std::string, uint64_t, bool>;
// A thread's samples of one function's counted calls by where the frame
// returns to.
using SitesSampled = std::map<Site, uint64_t>;

class Builder {
public:
  Builder(const Profile &P, const Aggregate &A)
      : Prof(P), Agg(A), Inclusive(nodeInclusive(P)), Open(A.Functions.size()) {
  }
  CallGraph run();

private:
  size_t edge(const Process &P, ArrayRef<uint32_t> G, const Site &S,
              uint32_t Callee);
  void addThread(const Process &P, ArrayRef<uint32_t> G, const Thread &T,
                 ArrayRef<NodeInclusive> Incl);
  void placeCounted(const Process &P, ArrayRef<uint32_t> G, uint32_t Func,
                    uint64_t Counted, const SitesSampled &BySite,
                    ArrayRef<std::pair<size_t, uint64_t>> TimedEdges);

  const Profile &Prof;
  const Aggregate &Agg;
  std::vector<std::vector<std::vector<NodeInclusive>>> Inclusive;
  std::vector<uint32_t> Open; // walkOutermost's scratch
  CallGraph Out;
  std::map<EdgeKey, size_t> Index;
};

size_t Builder::edge(const Process &P, ArrayRef<uint32_t> G, const Site &S,
                     uint32_t Callee) {
  CallEdge E;
  E.Kind = S.Kind;
  E.Callee = G[Callee];
  if (S.Caller != kNoFunc) {
    E.Caller = G[S.Caller];
    if (S.LinkAddr) {
      E.Object = P.Modules[P.Functions[S.Caller].Module].Path;
      E.ReturnAddr = S.LinkAddr;
    }
  }
  if (S.Enclosing != kNoFunc)
    E.Enclosing = G[S.Enclosing];
  E.Unresolved = S.Unresolved;
  auto [It, New] =
      Index.try_emplace(EdgeKey(E.Kind, E.Caller, E.Enclosing, E.Callee,
                                E.Object, E.ReturnAddr, E.Unresolved),
                        Out.Edges.size());
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
    Site At;
    if (sampledSite(T, S, At))
      Out[S.Func][At] += S.Count;
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
    for (const auto &[At, N] : BySite) {
      CallEdge &E = Out.Edges[edge(P, G, At, Func)];
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

void Builder::addThread(const Process &P, ArrayRef<uint32_t> G, const Thread &T,
                        ArrayRef<NodeInclusive> Incl) {
  // Recursion counts once, by Aggregate's rule (one function in several
  // modules' tables is one function).
  std::vector<bool> Outermost(T.Nodes.size());
  walkOutermost(T, G, Open,
                [&](uint32_t I, bool Outer) { Outermost[I] = Outer; });
  // Per process function: its timed edges in this thread (edge, calls).
  DenseMap<uint32_t, SmallVector<std::pair<size_t, uint64_t>, 2>> TimedEdges;
  DenseMap<uint32_t, uint64_t> TimedCalls;
  for (uint32_t I = 0; I < T.Nodes.size(); ++I) {
    const Node &N = T.Nodes[I];
    if (!N.Calls)
      continue;
    size_t Idx = edge(P, G, callerOf(T, I), N.Func);
    CallEdge &E = Out.Edges[Idx];
    E.Timed += N.Calls;
    if (Outermost[I]) {
      E.ActiveNs += Incl[I].ActiveNs;
      E.ElapsedNs += Incl[I].ElapsedNs;
      E.ActiveErr.add(Incl[I].Err);
    } else {
      E.RecursiveTimed += N.Calls;
    }
    TimedEdges[N.Func].emplace_back(Idx, N.Calls);
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
  for (size_t PI = 0; PI < Prof.Processes.size(); ++PI) {
    const Process &P = Prof.Processes[PI];
    for (size_t TI = 0; TI < P.Threads.size(); ++TI)
      addThread(P, Agg.FunctionIds[PI], P.Threads[TI], Inclusive[PI][TI]);
  }
  llvm::stable_sort(Out.Edges, [](const CallEdge &A, const CallEdge &B) {
    if (A.Callee != B.Callee)
      return A.Callee < B.Callee;
    return A.calls() > B.calls();
  });
  return std::move(Out);
}

/// The source position of edge \p E's call instruction.
SourceSite sourceSite(symbolize::LLVMSymbolizer &Sym, const CallEdge &E) {
  SourceSite S;
  DIInliningInfo Frames = symbolizeCall(Sym, E);
  uint32_t N = Frames.getNumberOfFrames();
  if (!N || Frames.getFrame(0).Line == 0)
    return S;
  const DILineInfo &Call = Frames.getFrame(0);
  S.File = sys::path::filename(Call.FileName).str();
  S.Line = Call.Line;
  S.Column = Call.Column;
  // The base discriminator: copies of one call that the optimizer made
  // (unrolling) differ only in the duplication factor above it.
  S.Discriminator = DILocation::getBaseDiscriminatorFromDiscriminator(
      Call.Discriminator, /*IsFSDiscriminator=*/false);
  if (N > 1) {
    S.InlinedFrom = Call.FunctionName;
    S.InlinedAt = Frames.getFrame(N - 1).Line;
    S.InlinedAtFile =
        sys::path::filename(Frames.getFrame(N - 1).FileName).str();
    for (uint32_t I = 0; I + 1 < N; ++I)
      S.Frames.emplace_back(Frames.getFrame(I).FunctionName,
                            Frames.getFrame(I).Line);
  }
  return S;
}

/// What identifies a row: caller and callee, and the source position, down
/// to \p Level (0 file:line, 1 column, 2 discriminator, 3 inline frames);
/// an edge without a position by its own instruction.
std::string rowKey(const CallEdge &E, const SourceSite &W, unsigned Level,
                   bool WithCallee = true) {
  std::string K = utostr(unsigned(E.Kind)) + "/" + utostr(E.Caller) + "/" +
                  utostr(E.Enclosing) + "/";
  if (WithCallee)
    K += utostr(E.Callee) + "/";
  if (!W.known())
    return K + "@" + E.Object + ":" + utohexstr(E.ReturnAddr) +
           (E.Unresolved ? "?" : "");
  K += W.File + ":" + utostr(W.Line) + ":" + W.InlinedFrom + ":" +
       W.InlinedAtFile + ":" + utostr(W.InlinedAt);
  if (Level >= 1)
    K += ":" + utostr(W.Column);
  if (Level >= 2)
    K += ":" + utostr(W.Discriminator);
  if (Level >= 3)
    for (const auto &[F, L] : W.Frames)
      K += "<" + F + ":" + utostr(L);
  return K;
}

/// Each row's Detail: the least part of its position that tells it from
/// the other rows of its callee and caller at the same file:line.
void chooseDetail(std::vector<SiteRow> &Rows, ArrayRef<CallEdge> Edges) {
  std::map<std::string, std::vector<uint32_t>> Groups;
  for (uint32_t I = 0; I < Rows.size(); ++I)
    if (Rows[I].Where.known())
      Groups[rowKey(Edges[Rows[I].Edges[0]], Rows[I].Where, 0)].push_back(I);
  for (auto &[Key, Members] : Groups) {
    if (Members.size() < 2)
      continue;
    for (unsigned Level = 1; Level <= 3; ++Level) {
      std::set<std::string> Seen;
      bool Distinct = true;
      for (uint32_t I : Members)
        Distinct &=
            Seen.insert(rowKey(Edges[Rows[I].Edges[0]], Rows[I].Where, Level))
                .second;
      for (uint32_t I : Members)
        Rows[I].Detail = Level;
      if (Distinct)
        break;
    }
  }
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

CallSiteTable profile::placeCalls(const Profile &P, const Aggregate &A,
                                  symbolize::LLVMSymbolizer *Sym) {
  CallSiteTable T;
  T.Graph = buildCallGraph(P, A);
  const std::vector<CallEdge> &Edges = T.Graph.Edges;
  // Each call instruction symbolized once.
  std::map<std::pair<std::string, uint64_t>, SourceSite> Sites;
  std::vector<const SourceSite *> Where(Edges.size());
  static const SourceSite Unknown;
  for (size_t I = 0; I < Edges.size(); ++I) {
    const CallEdge &E = Edges[I];
    if (!Sym || !E.ReturnAddr) {
      Where[I] = &Unknown;
      continue;
    }
    auto [It, New] = Sites.try_emplace({E.Object, E.ReturnAddr});
    if (New)
      It->second = sourceSite(*Sym, E);
    Where[I] = &It->second;
  }
  // The callees each instruction reached, and its calls of all of them.
  std::map<std::pair<std::string, uint64_t>,
           std::pair<std::set<uint32_t>, double>>
      PerInstr;
  for (const CallEdge &E : Edges)
    if (E.ReturnAddr) {
      auto &X = PerInstr[{E.Object, E.ReturnAddr}];
      X.first.insert(E.Callee);
      X.second += E.calls();
    }
  std::map<std::string, uint32_t> RowOf;
  for (uint32_t I = 0; I < Edges.size(); ++I) {
    const CallEdge &E = Edges[I];
    auto [It, New] = RowOf.try_emplace(rowKey(E, *Where[I], 3), T.Rows.size());
    if (New) {
      SiteRow R;
      R.Kind = E.Kind;
      R.Caller = E.Caller;
      R.Enclosing = E.Enclosing;
      R.Callee = E.Callee;
      R.Where = *Where[I];
      T.Rows.push_back(std::move(R));
    }
    SiteRow &R = T.Rows[It->second];
    R.Edges.push_back(I);
    R.Timed += E.Timed;
    R.RecursiveTimed += E.RecursiveTimed;
    R.Counted += E.Counted;
    R.Samples += E.Samples;
    R.ActiveNs += E.ActiveNs;
    R.ElapsedNs += E.ElapsedNs;
    R.ActiveErr.add(E.ActiveErr);
  }
  for (SiteRow &R : T.Rows) {
    std::set<uint32_t> Callees;
    std::set<std::pair<std::string, uint64_t>> Instrs;
    for (uint32_t I : R.Edges)
      if (Edges[I].ReturnAddr)
        Instrs.insert({Edges[I].Object, Edges[I].ReturnAddr});
    R.SiteCalls = 0;
    for (const auto &In : Instrs) {
      const auto &X = PerInstr[In];
      Callees.insert(X.first.begin(), X.first.end());
      R.SiteCalls += X.second;
    }
    R.Targets = std::max<size_t>(Callees.size(), 1);
  }
  chooseDetail(T.Rows, Edges);
  T.ByCallee.resize(A.Functions.size());
  T.ByCaller.resize(A.Functions.size());
  for (uint32_t I = 0; I < T.Rows.size(); ++I) {
    T.ByCallee[T.Rows[I].Callee].push_back(I);
    if (T.Rows[I].Kind == CallerKind::Function)
      T.ByCaller[T.Rows[I].Caller].push_back(I);
  }
  auto Order = [&](uint32_t X, uint32_t Y) {
    const SiteRow &RX = T.Rows[X], &RY = T.Rows[Y];
    double AX = RX.active().Shown, AY = RY.active().Shown;
    if (AX != AY)
      return AX > AY;
    if (RX.calls() != RY.calls())
      return RX.calls() > RY.calls();
    return X < Y;
  };
  for (auto &V : T.ByCallee)
    llvm::sort(V, Order);
  for (auto &V : T.ByCaller)
    llvm::sort(V, Order);
  return T;
}
