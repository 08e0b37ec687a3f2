//===- Window.cpp - A profile between two writes -------------------------===//
//
// Part of ActiveTime. See activetime/Profile/Window.h.
//
// The runtime's snapshots are cumulative: each holds every call since the
// process started, the calls still open accounted up to the write. So the
// later one's counters are the earlier one's plus what happened between
// them, node by node, once each earlier node is found in the later tree by
// its calling context (parent, function, call site: a node's index can
// differ between two writes).
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Window.h"

#include "activetime/Profile/Aggregate.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <tuple>
#include <utility>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// What the subtraction cannot split in two: an error naming it.
Error refuseUnsupported(const Process &P, StringRef Which) {
  const char *What = !P.Traces.empty()      ? "mode=trace events"
                     : P.HasSamples         ? "sampler stacks (sample=1)"
                     : !P.Sites.empty()     ? "memory access strides"
                     : !P.BlockCounts.empty() ? "block counts"
                     : P.Par.Present        ? "OpenMP regions"
                                            : nullptr;
  if (!What)
    for (const Thread &T : P.Threads)
      if (T.FoldedThreads)
        What = "finished threads folded together (keep_threads)";
  if (!What)
    return Error::success();
  return fail(formatv("--since: the {0} profile (pid {1}) holds {2}, which "
                      "are not split between two writes; only call trees, "
                      "call counts, code samples and MPI bytes are",
                      Which, P.Pid, What));
}

/// The entry for function \p Func of \p V, sorted by Func (call counts,
/// MPI bytes), or null.
template <typename T> T *findFunc(std::vector<T> &V, uint32_t Func) {
  auto It = llvm::partition_point(V, [&](const T &X) { return X.Func < Func; });
  return It != V.end() && It->Func == Func ? &*It : nullptr;
}

/// A counter of the later snapshot less the earlier's; false when it would
/// fall (not an earlier snapshot of the same run).
template <typename T> bool less(T &Later, T Earlier) {
  if (Earlier > Later)
    return false;
  Later -= Earlier;
  return true;
}

class Subtractor {
public:
  Subtractor(const Process &E, Process &L) : E(E), L(L) {}
  Error run(uint64_t &NewThreads);

private:
  Error checkFunctions() const;
  Error thread(const Thread &ET, Thread &LT);
  Error nodes(const Thread &ET, Thread &LT, std::vector<uint32_t> &Map);
  Error notEarlier(const Twine &What) const {
    return fail(formatv("--since: not an earlier snapshot of the same run: "
                        "process {0}: ",
                        L.Pid) +
                What);
  }

  const Process &E;
  Process &L;
};

/// The earlier write's functions are the later one's first (a library
/// loaded since adds functions after them).
Error Subtractor::checkFunctions() const {
  if (E.Functions.size() > L.Functions.size())
    return notEarlier("it has fewer functions");
  for (size_t I = 0; I < E.Functions.size(); ++I)
    if (E.Functions[I].Name != L.Functions[I].Name)
      return notEarlier(formatv("function {0} is {1}, was {2}", I,
                                L.Functions[I].Name, E.Functions[I].Name));
  return Error::success();
}

/// Maps each earlier node to the later node of its calling context and
/// subtracts its figures there.
Error Subtractor::nodes(const Thread &ET, Thread &LT,
                        std::vector<uint32_t> &Map) {
  using Key = std::tuple<uint32_t, uint32_t, uint64_t>;
  std::map<Key, uint32_t> Index;
  for (uint32_t I = 0; I < LT.Nodes.size(); ++I) {
    const Node &N = LT.Nodes[I];
    Index.emplace(Key(N.Parent, N.Func, N.CallSite), I);
  }
  Map.assign(ET.Nodes.size(), kNoParent);
  for (uint32_t I = 0; I < ET.Nodes.size(); ++I) {
    const Node &EN = ET.Nodes[I];
    uint32_t Parent = EN.Parent == kNoParent ? kNoParent : Map[EN.Parent];
    auto It = Index.find(Key(Parent, EN.Func, EN.CallSite));
    if (It == Index.end())
      return notEarlier(formatv("thread {0}: a calling context of {1} is "
                                "missing",
                                LT.Tid, E.Functions[EN.Func].Name));
    Map[I] = It->second;
    Node &LN = LT.Nodes[It->second];
    if (!less(LN.Calls, EN.Calls) || !less(LN.Incl, EN.Incl) ||
        !less(LN.Excl, EN.Excl) || !less(LN.Overhead, EN.Overhead) ||
        !less(LN.OffCpu, EN.OffCpu) || !less(LN.Voluntary, EN.Voluntary) ||
        !less(LN.Involuntary, EN.Involuntary))
      return notEarlier(formatv("thread {0}: {1} has fewer calls or less "
                                "time than before",
                                LT.Tid, E.Functions[EN.Func].Name));
    // A call open at the earlier write was counted there with its time so
    // far; its rest is this window's: it counts as a call of both.
    if (!LN.Calls && LN.Incl)
      LN.Calls = 1;
  }
  return Error::success();
}

Error Subtractor::thread(const Thread &ET, Thread &LT) {
  std::vector<uint32_t> Map;
  if (Error Err = nodes(ET, LT, Map))
    return Err;
  // A histogram counts each call whole, and a call open at the earlier
  // write sits in another bucket in each snapshot: not subtractable.
  bool HadLatency = false;
  for (Node &N : LT.Nodes) {
    HadLatency |= !N.Latency.empty();
    N.Latency.clear();
  }
  LT.LatencyDropped |= HadLatency;
  for (const CallCount &EC : ET.Counts) {
    CallCount *C = findFunc(LT.Counts, EC.Func);
    if (!C || !less(C->Calls, EC.Calls))
      return notEarlier(formatv("thread {0}: fewer calls of {1}", LT.Tid,
                                E.Functions[EC.Func].Name));
  }
  llvm::erase_if(LT.Counts, [](const CallCount &C) { return !C.Calls; });
  // Code samples by where they were taken: node, address, caller, flags.
  using SampleKey = std::tuple<uint32_t, uint64_t, uint64_t, uint32_t>;
  std::map<SampleKey, CodeSample *> Samples;
  for (CodeSample &S : LT.CodeSamples)
    Samples.emplace(SampleKey(S.Node, S.Addr, S.Caller, S.Flags), &S);
  for (const CodeSample &ES : ET.CodeSamples) {
    uint32_t Node = ES.Node == kNoNode ? kNoNode : Map[ES.Node];
    auto S = Samples.find(SampleKey(Node, ES.Addr, ES.Caller, ES.Flags));
    if (S == Samples.end() || !less(S->second->Count, ES.Count))
      return notEarlier(formatv("thread {0}: fewer code samples", LT.Tid));
  }
  llvm::erase_if(LT.CodeSamples,
                 [](const CodeSample &S) { return !S.Count; });
  if (!less(LT.OffCpuTicks, ET.OffCpuTicks) ||
      !less(LT.VoluntarySwitches, ET.VoluntarySwitches) ||
      !less(LT.InvoluntarySwitches, ET.InvoluntarySwitches) ||
      !less(LT.LostSwitchRecords, ET.LostSwitchRecords) ||
      !less(LT.LostCodeSamples, ET.LostCodeSamples) ||
      !less(LT.DroppedEvents, ET.DroppedEvents) ||
      !less(LT.UnmatchedExits, ET.UnmatchedExits) ||
      !less(LT.UnwoundFrames, ET.UnwoundFrames))
    return notEarlier(formatv("thread {0}: a switch or loss count fell",
                              LT.Tid));
  if (LT.CpuNs != kCpuUnknown) {
    if (ET.CpuNs == kCpuUnknown)
      LT.CpuNs = kCpuUnknown;
    else if (!less(LT.CpuNs, ET.CpuNs))
      return notEarlier(formatv("thread {0}: less CPU time", LT.Tid));
  }
  LT.StartTick = std::max(LT.StartTick, E.EndTick);
  return Error::success();
}

Error Subtractor::run(uint64_t &NewThreads) {
  // Ticks are the counter's own (the same in both files); the rate is
  // calibrated anew at each write, so it may differ in its last digits.
  if (E.EndTick > L.EndTick)
    return notEarlier("it was written later");
  if (Error Err = checkFunctions())
    return Err;
  // Threads by tid and start: a reused tid is another thread.
  std::map<std::pair<uint64_t, uint64_t>, Thread *> Later;
  for (Thread &LT : L.Threads)
    Later.emplace(std::make_pair(LT.Tid, LT.StartTick), &LT);
  for (const Thread &ET : E.Threads) {
    auto LT = Later.find(std::make_pair(ET.Tid, ET.StartTick));
    if (LT == Later.end())
      return notEarlier(formatv("thread {0} is missing", ET.Tid));
    if (Error Err = thread(ET, *LT->second))
      return Err;
  }
  NewThreads += L.Threads.size() - E.Threads.size();
  for (const MpiRoutineBytes &EB : E.Mpi.Routines) {
    MpiRoutineBytes *B = findFunc(L.Mpi.Routines, EB.Func);
    if (!B || !less(B->Bytes, EB.Bytes))
      return notEarlier("fewer MPI message bytes");
  }
  llvm::erase_if(L.Mpi.Routines,
                 [](const MpiRoutineBytes &B) { return !B.Bytes; });
  // The window starts at the earlier write.
  L.StartUnixNs += uint64_t(ticksToNs(L, E.EndTick - L.StartTick));
  L.StartTick = E.EndTick;
  return Error::success();
}

bool sameRun(const Process &A, const Process &B) {
  return A.Host == B.Host && A.Pid == B.Pid && A.StartTick == B.StartTick &&
         A.StartUnixNs == B.StartUnixNs && A.Exe == B.Exe;
}

} // namespace

Expected<WindowSummary> profile::subtractEarlier(Profile &Later,
                                                 const Profile &Earlier) {
  for (const Process &P : Earlier.Processes)
    if (Error E = refuseUnsupported(P, "earlier"))
      return std::move(E);
  for (const Process &P : Later.Processes)
    if (Error E = refuseUnsupported(P, "later"))
      return std::move(E);
  // Work on a copy: an error leaves Later as it was.
  Profile Out = Later;
  WindowSummary S;
  for (Process &LP : Out.Processes) {
    auto EP = llvm::find_if(Earlier.Processes, [&](const Process &P) {
      return sameRun(P, LP);
    });
    if (EP == Earlier.Processes.end()) {
      ++S.NewProcesses;
      continue;
    }
    ++S.Processes;
    if (Error E = Subtractor(*EP, LP).run(S.NewThreads))
      return std::move(E);
    S.WindowNs = std::max(S.WindowNs, ticksToNs(LP, LP.EndTick - LP.StartTick));
  }
  if (!S.Processes)
    return fail("--since: no process of the earlier profile is in the later "
                "one (not a snapshot of the same run)");
  Later = std::move(Out);
  return S;
}
