//===- Filter.cpp - Profile filters
//-----------------------------------------===//
//
// Part of ActiveTime. See Filter.h. Each filter is one forward pass: a
// thread's nodes list parents before children, so whether a node is kept
// follows from its own function and its parent's state, and a trace's
// events replay with an explicit stack. Nothing recurses.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Filter.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

static uint64_t satAdd(uint64_t A, uint64_t B) {
  return A > UINT64_MAX - B ? UINT64_MAX : A + B;
}

static Error filterError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<uint64_t> profile::parseTimeSinceStart(StringRef S) {
  StringRef Num = S.trim();
  double Scale = 1e9;
  for (auto [Unit, Mult] : {std::pair<StringRef, double>{"ns", 1},
                            {"us", 1e3},
                            {"ms", 1e6},
                            {"s", 1e9}})
    if (Num.consume_back(Unit)) {
      Scale = Mult;
      break;
    }
  double V;
  if (Num.trim().getAsDouble(V) || !(V >= 0) || std::isinf(V) ||
      V * Scale >= 1.8e19)
    return filterError("'" + S +
                       "' is not a time since the process start (a number "
                       ">= 0 with a unit: ns, us, ms or s; default s)");
  return uint64_t(std::llround(V * Scale));
}

namespace {

/// Function patterns compiled once; per process, which function ids match.
class Patterns {
public:
  static Expected<Patterns> compile(ArrayRef<std::string> Texts,
                                    StringRef Option) {
    Patterns P;
    for (const std::string &T : Texts) {
      Expected<GlobPattern> G = GlobPattern::create(T);
      if (!G)
        return filterError("--" + Option + "=" + T + ": " +
                           toString(G.takeError()));
      P.Globs.push_back(std::move(*G));
      P.Texts.push_back(T);
    }
    P.Option = Option.str();
    return std::move(P);
  }
  bool empty() const { return Globs.empty(); }
  /// Per function id of \p Pr: matches some pattern; marks the patterns
  /// that matched in Used.
  std::vector<bool> match(const Process &Pr) {
    std::vector<bool> M(Pr.Functions.size());
    Used.resize(Globs.size());
    for (size_t F = 0; F < Pr.Functions.size(); ++F) {
      const std::string &Name = Pr.Functions[F].Name;
      std::string Dem = demangle(Name);
      for (size_t I = 0; I < Globs.size(); ++I)
        if (Globs[I].match(Name) || Globs[I].match(Dem)) {
          M[F] = true;
          Used[I] = true;
        }
    }
    return M;
  }
  Error unused() const {
    for (size_t I = 0; I < Globs.size(); ++I)
      if (I >= Used.size() || !Used[I])
        return filterError("--" + Option + "=" + Texts[I] +
                           ": matches no function of the profile");
    return Error::success();
  }

private:
  std::vector<GlobPattern> Globs;
  std::vector<std::string> Texts;
  std::vector<bool> Used;
  std::string Option;
};

struct ProcessMatches {
  std::vector<bool> Focus, Ignore;
};

class Filterer {
public:
  Filterer(Profile &P, const FilterSpec &S) : Prof(P), Spec(S) {}
  Expected<FilterSummary> run();

private:
  Error check();
  void describeOptions();
  void keepThreads(Process &Pr);
  std::vector<uint32_t> filterNodes(const Process &Pr, Thread &T,
                                    const ProcessMatches &M);
  void filterCounts(Thread &T, const ProcessMatches &M,
                    const DenseMap<uint32_t, uint64_t> &Before,
                    const DenseMap<uint32_t, uint64_t> &After);
  void remapSamples(Process &Pr, ArrayRef<std::vector<uint32_t>> NewIdx);
  void dropLatency(Thread &T);
  void filterTraceCalls(Trace &Tr, const ProcessMatches &M);
  void clipTrace(const Process &Pr, Trace &Tr);
  Error checkTid(const ThreadSelector &Sel) const;
  bool tidKept(uint64_t Tid, uint32_t Order) const {
    return Spec.Tids.empty() || any_of(Spec.Tids, [&](const ThreadSelector &S) {
             return S.matches(Tid, Order);
           });
  }
  /// An OpenMP entry knows its tid only: kept with any thread that had it.
  bool anyTidKept(uint64_t Tid) const {
    return Spec.Tids.empty() || any_of(Spec.Tids, [&](const ThreadSelector &S) {
             return S.Tid == Tid;
           });
  }
  bool calls() const { return !Spec.Focus.empty() || !Spec.Ignore.empty(); }

  Profile &Prof;
  const FilterSpec &Spec;
  FilterSummary Sum;
  std::optional<Patterns> Focus, Ignore;
  std::vector<ProcessMatches> Matches;
};

} // namespace

/// Every check before anything changes: on error the profile is untouched.
/// A --tid value selects some thread; a bare tid the kernel reused selects
/// one only by its start order, which the user must then give.
Error Filterer::checkTid(const ThreadSelector &Sel) const {
  std::vector<std::string> Reused; // labels of the threads of a reused tid
  bool Found = false, TidFound = false;
  for (const Process &Pr : Prof.Processes)
    for (const Thread &T : Pr.Threads) {
      if (T.Tid != Sel.Tid)
        continue;
      TidFound = true;
      Found |= Sel.matches(T.Tid, T.TidOrder);
      if (T.TidOrder)
        Reused.push_back(threadLabel(T));
    }
  if (!Found && Sel.Order && !Reused.empty())
    return filterError("--tid=" + Sel.str() + ": no such thread (those that "
                       "had tid " + utostr(Sel.Tid) + ", in start order: " +
                       join(Reused, ", ") + ")");
  if (!Found && TidFound)
    return filterError("--tid=" + Sel.str() + ": no such thread (tid " +
                       utostr(Sel.Tid) + " was not reused: give --tid=" +
                       utostr(Sel.Tid) + ")");
  if (!Found)
    return filterError("--tid=" + Sel.str() +
                       ": no thread of the profile has this id");
  if (!Sel.Order && !Reused.empty())
    return filterError("--tid=" + Sel.str() + ": " + utostr(Reused.size()) +
                       " threads had this id (the kernel reused it), in "
                       "start order: " + join(Reused, ", ") +
                       "; give one of them, or several separated by commas");
  return Error::success();
}

Error Filterer::check() {
  for (const ThreadSelector &Sel : Spec.Tids)
    if (Error E = checkTid(Sel))
      return E;
  Expected<Patterns> F = Patterns::compile(Spec.Focus, "focus");
  if (!F)
    return F.takeError();
  Expected<Patterns> I = Patterns::compile(Spec.Ignore, "ignore");
  if (!I)
    return I.takeError();
  Focus.emplace(std::move(*F));
  Ignore.emplace(std::move(*I));
  for (const Process &Pr : Prof.Processes)
    Matches.push_back({Focus->match(Pr), Ignore->match(Pr)});
  if (Error E = Focus->unused())
    return E;
  if (Error E = Ignore->unused())
    return E;
  if (Spec.timeRange()) {
    if (none_of(Prof.Processes,
                [](const Process &Pr) { return !Pr.Traces.empty(); }))
      return filterError("--from/--to select part of the traces of a "
                         "mode=trace profile; this profile has none");
    if (Spec.FromNs && Spec.ToNs && *Spec.FromNs > *Spec.ToNs)
      return filterError("--from is after --to");
  }
  return Error::success();
}

void Filterer::describeOptions() {
  if (!Spec.Tids.empty()) {
    std::string L = "--tid=";
    for (size_t I = 0; I < Spec.Tids.size(); ++I)
      L += (I ? "," : "") + Spec.Tids[I].str();
    Sum.Applied.push_back(L);
  }
  for (const std::string &F : Spec.Focus)
    Sum.Applied.push_back("--focus=" + F);
  for (const std::string &F : Spec.Ignore)
    Sum.Applied.push_back("--ignore=" + F);
  if (Spec.FromNs)
    Sum.Applied.push_back("--from=" + utostr(*Spec.FromNs) + "ns");
  if (Spec.ToNs)
    Sum.Applied.push_back("--to=" + utostr(*Spec.ToNs) + "ns");
}

/// --tid: the process's other threads go, with their samples, traces and
/// OpenMP entries; samples' thread indices follow the kept threads.
void Filterer::keepThreads(Process &Pr) {
  std::vector<uint32_t> NewIdx(Pr.Threads.size(), UINT32_MAX);
  std::vector<Thread> Kept;
  for (size_t I = 0; I < Pr.Threads.size(); ++I) {
    if (!tidKept(Pr.Threads[I].Tid, Pr.Threads[I].TidOrder)) {
      ++Sum.ThreadsDropped;
      continue;
    }
    NewIdx[I] = Kept.size();
    Kept.push_back(std::move(Pr.Threads[I]));
  }
  Sum.ThreadsKept += Kept.size();
  Pr.Threads = std::move(Kept);
  std::vector<Sample> Samples;
  for (Sample S : Pr.Samples.Samples)
    if (S.Thread < NewIdx.size() && NewIdx[S.Thread] != UINT32_MAX) {
      S.Thread = NewIdx[S.Thread];
      Samples.push_back(S);
    }
  Pr.Samples.Samples = std::move(Samples);
  llvm::erase_if(Pr.Traces,
                 [&](const Trace &T) { return !tidKept(T.Tid, T.TidOrder); });
  llvm::erase_if(Pr.Par.Entries,
                 [&](const RegionThread &E) { return !anyTidKept(E.Tid); });
}

/// What ignored calls took from the inclusive figures of the calls above
/// them.
struct Removed {
  uint64_t Incl = 0, Overhead = 0, OffCpu = 0;
  uint64_t Voluntary = 0, Involuntary = 0;
  void add(const Removed &R) {
    Incl += R.Incl;
    Overhead += R.Overhead;
    OffCpu += R.OffCpu;
    Voluntary += R.Voluntary;
    Involuntary += R.Involuntary;
  }
};

/// Node \p K without the ignored calls below it: its inclusive figures
/// lose theirs. Per-call minimum and maximum cannot be split: exact for a
/// single call, else clamped to what the calls kept.
static void removeIgnored(Node &K, const Removed &R) {
  if (!R.Incl && !R.Overhead && !R.OffCpu && !R.Voluntary && !R.Involuntary)
    return;
  K.Incl -= std::min(K.Incl, R.Incl);
  K.Overhead -= std::min(K.Overhead, R.Overhead);
  K.OffCpu -= std::min(K.OffCpu, R.OffCpu);
  K.Voluntary -= std::min<uint64_t>(K.Voluntary, R.Voluntary);
  K.Involuntary -= std::min<uint64_t>(K.Involuntary, R.Involuntary);
  uint64_t Active = uint64_t(std::max<int64_t>(K.active(), 0));
  if (K.Calls == 1)
    K.Min = K.Max = Active;
  K.Max = std::min(K.Max, Active);
  K.Min = std::min(K.Min, K.Max);
}

/// A histogram counts each call whole: with ignored time taken out of some
/// calls it no longer describes them, and it cannot be split.
void Filterer::dropLatency(Thread &T) {
  for (Node &Nd : T.Nodes)
    Nd.Latency.clear();
  T.Flags &= ~uint32_t(raw::TF_Latency);
  T.LatencyDropped = true;
  ++Sum.LatencyThreadsDropped;
}

/// --focus and --ignore on one thread's nodes. A node is in focus if its
/// function matches or its parent is in focus (a matching node whose parent
/// is not becomes a root), and ignored if its function matches or its
/// parent is ignored; kept if in focus and not ignored. The calls above an
/// ignored one lose its time (pprof's -ignore: the time is gone, not moved
/// into the caller's self time). Code samples on dropped nodes go; so do
/// those outside every node under --focus.
std::vector<uint32_t> Filterer::filterNodes(const Process &Pr, Thread &T,
                                            const ProcessMatches &M) {
  constexpr uint32_t kDropped = UINT32_MAX;
  size_t N = T.Nodes.size();
  bool HasFocus = !Spec.Focus.empty();
  std::vector<uint8_t> InFocus(N), Ignored(N);
  std::vector<Removed> Below(N);
  DenseMap<uint32_t, uint64_t> TimedBefore, TimedAfter;
  for (size_t I = 0; I < N; ++I) {
    const Node &Nd = T.Nodes[I];
    bool Root = Nd.Parent == raw::kNoParent;
    if (Root)
      Sum.RootActiveBeforeNs += signedTicksToNs(Pr, Nd.active());
    TimedBefore[Nd.Func] = satAdd(TimedBefore[Nd.Func], Nd.Calls);
    InFocus[I] = !HasFocus || M.Focus[Nd.Func] || (!Root && InFocus[Nd.Parent]);
    bool ParentIgnored = !Root && Ignored[Nd.Parent];
    Ignored[I] = M.Ignore[Nd.Func] || ParentIgnored;
    if (InFocus[I] && Ignored[I] && !ParentIgnored) {
      Sum.IgnoredActiveNs += signedTicksToNs(Pr, Nd.active());
      Sum.IgnoredCalls += Nd.Calls;
      Below[I] = {Nd.Incl, Nd.Overhead, Nd.OffCpu, Nd.Voluntary,
                  Nd.Involuntary};
    }
  }
  // Children follow their parents: a reverse pass sums each subtree's
  // ignored figures into every node above (those of a kept node's
  // descendants; an ignored node's own are its whole subtree's).
  for (size_t I = N; I-- > 0;)
    if (T.Nodes[I].Parent != raw::kNoParent)
      Below[T.Nodes[I].Parent].add(Below[I]);
  std::vector<uint32_t> NewIdx(N, kDropped);
  std::vector<Node> Kept;
  bool TimeRemoved = false;
  for (size_t I = 0; I < N; ++I) {
    if (!InFocus[I] || Ignored[I])
      continue;
    Node K = T.Nodes[I];
    TimeRemoved |= Below[I].Incl != 0;
    removeIgnored(K, Below[I]);
    bool Root = K.Parent == raw::kNoParent || NewIdx[K.Parent] == kDropped;
    K.Parent = Root ? raw::kNoParent : NewIdx[K.Parent];
    if (Root)
      Sum.RootActiveAfterNs += signedTicksToNs(Pr, K.active());
    TimedAfter[K.Func] = satAdd(TimedAfter[K.Func], K.Calls);
    NewIdx[I] = Kept.size();
    Kept.push_back(K);
  }
  T.Nodes = std::move(Kept);
  // The frames open at the write were distinct nodes on one path; which of
  // them survived is not recorded, so the count is bounded by what is left
  // (the reader holds every profile, a filtered one too, to that bound).
  T.OpenFrames = std::min<uint64_t>(T.OpenFrames, T.Nodes.size());
  if (TimeRemoved && (T.Flags & raw::TF_Latency))
    dropLatency(T);
  std::vector<CodeSample> Code;
  for (CodeSample S : T.CodeSamples) {
    if (S.Node == raw::kNoNode ? HasFocus : NewIdx[S.Node] == kDropped)
      continue;
    if (S.Node != raw::kNoNode)
      S.Node = NewIdx[S.Node];
    Code.push_back(S);
  }
  T.CodeSamples = std::move(Code);
  filterCounts(T, M, TimedBefore, TimedAfter);
  return NewIdx;
}

/// A count record holds a thread's timed and counted calls of a function.
/// The counted ones have no calling context: they are kept whole, beside
/// the timed calls the filter kept.
void Filterer::filterCounts(Thread &T, const ProcessMatches &M,
                            const DenseMap<uint32_t, uint64_t> &Before,
                            const DenseMap<uint32_t, uint64_t> &After) {
  std::vector<CallCount> Counts;
  for (CallCount C : T.Counts) {
    uint64_t Timed = Before.lookup(C.Func);
    uint64_t Counted = C.Calls > Timed ? C.Calls - Timed : 0;
    // Never more than before (the sums saturate on crafted inputs).
    C.Calls = std::min(C.Calls, satAdd(After.lookup(C.Func), Counted));
    Sum.CountedCallsKeptWhole += Counted;
    if (M.Ignore[C.Func])
      Sum.CountedCallsIgnoredKept += Counted;
    if (C.Calls)
      Counts.push_back(C);
  }
  T.Counts = std::move(Counts);
}

/// Samples of the call stack (sample=1) follow their nodes; those on a
/// dropped node go, and under --focus those outside every node.
void Filterer::remapSamples(Process &Pr,
                            ArrayRef<std::vector<uint32_t>> NewIdx) {
  std::vector<Sample> Kept;
  for (Sample S : Pr.Samples.Samples) {
    if (S.Node == raw::kNoNode) {
      if (Spec.Focus.empty())
        Kept.push_back(S);
      continue;
    }
    uint32_t N = NewIdx[S.Thread][S.Node];
    if (N == UINT32_MAX)
      continue;
    S.Node = N;
    Kept.push_back(S);
  }
  Pr.Samples.Samples = std::move(Kept);
}

/// --focus and --ignore on a trace: its events replay with a stack of
/// (in focus, ignored) frames, the rule of filterNodes. An exit without an
/// entry (dropped events) is kept unless --focus is given.
void Filterer::filterTraceCalls(Trace &Tr, const ProcessMatches &M) {
  struct Frame {
    bool InFocus, Ignored;
  };
  bool HasFocus = !Spec.Focus.empty();
  std::vector<Frame> Stack;
  std::vector<TraceEvent> Kept;
  for (const TraceEvent &E : Tr.Events) {
    bool Keep;
    if (E.Kind == raw::TE_Enter) {
      bool Top = Stack.empty();
      Frame F;
      F.InFocus = !HasFocus || (E.Func < M.Focus.size() && M.Focus[E.Func]) ||
                  (!Top && Stack.back().InFocus);
      F.Ignored = (E.Func < M.Ignore.size() && M.Ignore[E.Func]) ||
                  (!Top && Stack.back().Ignored);
      Stack.push_back(F);
      Keep = F.InFocus && !F.Ignored;
    } else if (Stack.empty()) {
      Keep = !HasFocus;
    } else {
      Keep = Stack.back().InFocus && !Stack.back().Ignored;
      Stack.pop_back();
    }
    if (Keep)
      Kept.push_back(E);
  }
  Tr.Events = std::move(Kept);
}

/// --from/--to on a trace: events outside [From, To] go; the calls open at
/// From get an entry at From and those open at To an exit at To (clipped
/// to the range, in stack order), so every kept call is whole. Switch
/// events outside the range go.
void Filterer::clipTrace(const Process &Pr, Trace &Tr) {
  // Saturating: a bound past the tick counter's range keeps everything.
  auto ToTick = [&](uint64_t Ns) {
    double Ticks = double(Ns) * double(Pr.TickRate) / 1e9;
    if (Ticks >= 1.8e19 || Pr.StartTick > UINT64_MAX - uint64_t(Ticks))
      return UINT64_MAX;
    return Pr.StartTick + uint64_t(std::llround(Ticks));
  };
  uint64_t From = Spec.FromNs ? ToTick(*Spec.FromNs) : 0;
  uint64_t To = Spec.ToNs ? ToTick(*Spec.ToNs) : UINT64_MAX;
  std::vector<uint32_t> Open; // functions of the open calls, outermost first
  std::vector<TraceEvent> Kept;
  bool Started = false;
  uint64_t Clipped = 0;
  auto Start = [&] {
    for (uint32_t F : Open)
      Kept.push_back({From, F, raw::TE_Enter, 0});
    Clipped += Open.size();
    Started = true;
  };
  for (const TraceEvent &E : Tr.Events) {
    if (E.Tick > To)
      break;
    if (E.Tick >= From && !Started)
      Start();
    if (Started)
      Kept.push_back(E);
    if (E.Kind == raw::TE_Enter)
      Open.push_back(E.Func);
    else if (!Open.empty())
      Open.pop_back();
  }
  if (!Started)
    Start();
  if (To != UINT64_MAX) {
    Clipped += Open.size();
    for (size_t I = Open.size(); I-- > 0;)
      Kept.push_back({To, Open[I], raw::TE_Exit, 0});
  }
  Sum.CallsClipped += Clipped;
  Sum.EventsDropped += Tr.Events.size() - (Kept.size() - Clipped);
  Tr.Events = std::move(Kept);
  size_t Before = Tr.Switches.size();
  llvm::erase_if(Tr.Switches, [&](const SwitchEvent &S) {
    return S.Tick < From || S.Tick > To;
  });
  Sum.SwitchesDropped += Before - Tr.Switches.size();
}

Expected<FilterSummary> Filterer::run() {
  if (Error E = check())
    return std::move(E);
  describeOptions();
  for (size_t PI = 0; PI < Prof.Processes.size(); ++PI) {
    Process &Pr = Prof.Processes[PI];
    keepThreads(Pr);
    if (calls()) {
      std::vector<std::vector<uint32_t>> NewIdx;
      for (Thread &T : Pr.Threads)
        NewIdx.push_back(filterNodes(Pr, T, Matches[PI]));
      remapSamples(Pr, NewIdx);
      for (Trace &Tr : Pr.Traces)
        filterTraceCalls(Tr, Matches[PI]);
    }
    if (Spec.timeRange())
      for (Trace &Tr : Pr.Traces)
        clipTrace(Pr, Tr);
  }
  // A merged profile keeps its processes even when --tid left one empty:
  // its header figures (wall time, probe cost) still describe the run.
  return std::move(Sum);
}

Expected<FilterSummary> profile::applyFilters(Profile &P, const FilterSpec &S) {
  return Filterer(P, S).run();
}

static std::string nsText(double Ns) {
  if (std::fabs(Ns) >= 1e9)
    return formatv("{0:F3} s", Ns / 1e9).str();
  if (std::fabs(Ns) >= 1e6)
    return formatv("{0:F3} ms", Ns / 1e6).str();
  if (std::fabs(Ns) >= 1e3)
    return formatv("{0:F3} us", Ns / 1e3).str();
  return formatv("{0:F0} ns", Ns).str();
}

std::string FilterSummary::describe() const {
  std::string L = join(Applied, " ");
  if (ThreadsDropped)
    L += formatv("; {0} of {1} threads kept", ThreadsKept,
                 ThreadsKept + ThreadsDropped)
             .str();
  if (RootActiveBeforeNs != RootActiveAfterNs || IgnoredCalls)
    L += "; active time of the thread roots " + nsText(RootActiveAfterNs) +
         " of " + nsText(RootActiveBeforeNs);
  if (IgnoredCalls)
    L += formatv("; ignored {0} calls with {1} active (their subtrees "
                 "included)",
                 IgnoredCalls, nsText(IgnoredActiveNs))
             .str();
  if (CountedCallsKeptWhole)
    L += formatv("; {0} counted calls kept whole (no calling context)",
                 CountedCallsKeptWhole)
             .str();
  if (CountedCallsIgnoredKept)
    L += formatv(", of them {0} of ignored functions: they and their "
                 "sampled time stay",
                 CountedCallsIgnoredKept)
             .str();
  if (LatencyThreadsDropped)
    L += formatv("; latency histograms of {0} threads dropped (their calls "
                 "lost ignored time)",
                 LatencyThreadsDropped)
             .str();
  if (EventsDropped || CallsClipped || SwitchesDropped)
    L += formatv("; trace: {0} events and {1} switches outside the range "
                 "dropped, {2} calls clipped at its bounds",
                 EventsDropped, SwitchesDropped, CallsClipped)
             .str();
  return L;
}
