//===- ReaderThread.cpp - Thread sections ---------------------------------===//
//
// Part of ActiveTime. The raw reader's parser of thread sections: the
// thread record, its call tree's nodes, its call counts, its code samples
// and its latency histograms, each checked against the others.
//
//===----------------------------------------------------------------------===//

#include "RawReader.h"

#include "activetime/latency.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawreader;

Error Parser::checkThreadOrder() {
  if (ModulesSeen != ExpectedModules)
    return fail(formatv("process (pid {0}): thread section after {1} of its "
                        "{2} module sections",
                        Cur->Pid, ModulesSeen, ExpectedModules));
  if (TracesSeen || StridesSeen)
    return fail(formatv("process (pid {0}): thread section after a {1} "
                        "section",
                        Cur->Pid, StridesSeen ? "strides" : "trace"));
  if (Cur->HasSamples || ParallelSeen)
    return fail(formatv("process (pid {0}): thread section after the {1} "
                        "section",
                        Cur->Pid, ParallelSeen ? "parallel" : "samples"));
  if (ThreadsSeen == ExpectedThreads)
    return moreThanHeader("thread", ExpectedThreads);
  return Error::success();
}

Error Parser::parseThread(Cursor C) {
  uint32_t ThreadIdx = ThreadsSeen++;
  if (Error E = needBytes(C, sizeof(raw::ThreadRecord),
                          formatv("thread {0} of process (pid {1})", ThreadIdx,
                                  Cur->Pid)))
    return E;
  using R = raw::ThreadRecord;
  Thread T;
  RecordIn<R> In = C.record<R>();
  In.map(T);
  uint32_t NumNodes = In.get(&R::NumNodes);
  uint32_t NumCounts = In.get(&R::NumCounts);
  uint32_t NumCode = In.get(&R::NumCodeSamples);
  uint32_t NumLatency = In.get(&R::NumLatency);
  std::string What = formatv("thread {0} (tid {1})", ThreadIdx, T.Tid);
  if (Error E = checkThreadRecord(T, NumLatency, What))
    return E;
  if (Error E = checkThreadCounts(T, NumNodes, What))
    return E;
  uint64_t Need = uint64_t(NumNodes) * sizeof(raw::NodeRecord) +
                  uint64_t(NumCounts) * sizeof(raw::CountRecord) +
                  uint64_t(NumCode) * sizeof(raw::CodeSampleRecord) +
                  uint64_t(NumLatency) * sizeof(raw::LatencyRecord);
  if (Need != C.remaining())
    return fail(formatv("{0}: {1} nodes, {2} call counts, {3} code samples "
                        "and {4} latency buckets need {5} bytes, the section "
                        "has {6}",
                        What, NumNodes, NumCounts, NumCode, NumLatency, Need,
                        C.remaining()));
  if (Error E = parseNodes(C, T, NumNodes, What))
    return E;
  if (Error E = parseCounts(C, T, NumCounts, What))
    return E;
  if (Error E = parseCodeSamples(C, T, NumCode, What))
    return E;
  if (Error E = parseLatency(C, T, NumLatency, What))
    return E;
  Cur->Threads.push_back(std::move(T));
  return Error::success();
}

/// The span a record's sums are bounded by: its wall time, times the
/// threads a folded record sums (their figures add up over one span).
static uint64_t recordSpan(const Thread &T) {
  uint64_t Wall = T.EndTick - T.StartTick, N = threadsOf(T);
  return Wall > UINT64_MAX / N ? UINT64_MAX : Wall * N;
}

Error Parser::checkThreadRecord(const Thread &T, uint32_t NumLatency,
                                const std::string &What) {
  if (T.Flags & ~uint32_t(raw::TF_Known))
    return fail(formatv("{0}: unknown thread flags {1:x}", What, T.Flags));
  if (T.EndTick < T.StartTick)
    return fail(formatv("{0}: end tick {1} is before start tick {2}", What,
                        T.EndTick, T.StartTick));
  // Switched out far longer than it existed: a corrupt count (the slack,
  // the wall time again plus a second, leaves clock conversion and a
  // runtime's rounding well alone).
  if (bool(T.Flags & raw::TF_Folded) != (T.FoldedThreads != 0))
    return fail(formatv("{0}: {1} folded threads with folded flag {2}", What,
                        T.FoldedThreads, bool(T.Flags & raw::TF_Folded)));
  if (T.FoldedThreads > maxEvents(processSpan()))
    return fail(formatv("{0}: {1} folded threads is implausible: more than "
                        "one per nanosecond of the process's run",
                        What, T.FoldedThreads));
  uint64_t Wall = recordSpan(T);
  if (!plausibleDuration(T.OffCpuTicks, Wall))
    return fail(formatv("{0}: off-CPU ticks {1} exceed the thread's wall "
                        "time ({2} ticks)",
                        What, T.OffCpuTicks, Wall));
  if (T.SwitchSource != raw::SS_None && T.SwitchSource != raw::SS_Perf &&
      T.SwitchSource != raw::SS_CpuClock)
    return fail(formatv("{0}: unknown switch source {1}", What,
                        T.SwitchSource));
  if (NumLatency && !(T.Flags & raw::TF_Latency))
    return fail(formatv("{0}: {1} latency buckets without the latency flag",
                        What, NumLatency));
  return Error::success();
}

/// The counts the report prints that no record delimits: each against
/// what the thread's structure or its life can hold (docs/raw-format.md,
/// "Plausibility").
Error Parser::checkThreadCounts(const Thread &T, uint32_t NumNodes,
                                const std::string &What) {
  // Each open frame is one call of its own node: the frames open at the
  // write are one path of the call tree, every node on it distinct.
  if (T.OpenFrames > NumNodes)
    return fail(formatv("{0}: open frames {1} exceed the thread's {2} nodes "
                        "(each open frame is a call of a node of its own)",
                        What, T.OpenFrames, NumNodes));
  const EventCount Counts[] = {
      {"unmatched exits", T.UnmatchedExits},
      {"unwound frames", T.UnwoundFrames},
      {"dropped events", T.DroppedEvents},
      {"voluntary switches", T.VoluntarySwitches},
      {"involuntary switches", T.InvoluntarySwitches},
      {"lost switch records", T.LostSwitchRecords},
      {"lost code samples", T.LostCodeSamples}};
  uint64_t Wall = recordSpan(T);
  if (Error E = checkEvents(Counts, Wall, "the thread's wall time", What))
    return E;
  // A thread's CPU clock cannot run faster than the wall clock; the bound
  // is the off-CPU one, in ns.
  uint64_t WallNs = spanNs(Wall);
  if (T.CpuNs != raw::kCpuUnknown && T.CpuNs / 2 > WallNs &&
      T.CpuNs / 2 - WallNs > kSlackNs)
    return fail(formatv("{0}: CPU time {1} ns exceeds the thread's wall time "
                        "({2} ns)",
                        What, T.CpuNs, WallNs));
  return Error::success();
}

/// The caller checked that the section holds exactly its records.
Error Parser::parseNodes(Cursor &C, Thread &T, uint32_t Num,
                         const std::string &What) {
  // Each timed call runs two probes: at most one call per nanosecond.
  uint64_t MaxCalls = maxEvents(recordSpan(T));
  T.Nodes.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    C.record<raw::NodeRecord>().map(T.Nodes[I]);
    if (Error E = checkNode(T.Nodes[I], I, What))
      return E;
    if (T.Nodes[I].Calls > MaxCalls)
      return fail(formatv("{0}: node {1}: {2} calls is implausible: more "
                          "than one per nanosecond of the thread's wall time "
                          "(at most {3})",
                          What, I, T.Nodes[I].Calls, MaxCalls));
  }
  return Error::success();
}

Error Parser::checkNode(const Node &N, uint32_t I, const std::string &What) {
  uint64_t NumFuncs = Cur->Functions.size();
  // No real run comes near 2^60 ticks (15 years at 2.4 GHz); the bound
  // keeps every signed difference of these fields representable.
  if (N.Incl > kMaxTicks || N.Min > kMaxTicks || N.Max > kMaxTicks ||
      N.Overhead > kMaxTicks)
    return fail(formatv("{0}: node {1}: implausible tick count (over 2^60)",
                        What, I));
  // Parents precede children; the tree algorithms rely on it.
  if (N.Parent != raw::kNoParent && N.Parent >= I)
    return fail(formatv("{0}: node {1}: parent {2} does not precede it",
                        What, I, N.Parent));
  if (N.Func >= NumFuncs)
    return fail(formatv("{0}: node {1}: function id {2} out of range (the "
                        "process has {3} functions)",
                        What, I, N.Func, NumFuncs));
  if (N.Excl > N.Incl)
    return fail(formatv("{0}: node {1}: exclusive ticks {2} exceed "
                        "inclusive ticks {3}",
                        What, I, N.Excl, N.Incl));
  // Time is only ever added when a call closes (or is closed at the write).
  if (N.Calls == 0 && N.Incl != 0)
    return fail(formatv("{0}: node {1}: {2} inclusive ticks but no calls",
                        What, I, N.Incl));
  if (N.Calls && N.Min > N.Max)
    return fail(formatv("{0}: node {1}: minimum ticks {2} exceed maximum "
                        "ticks {3}",
                        What, I, N.Min, N.Max));
  // Overhead may exceed a tiny frame's elapsed time (calibration error),
  // switched-out time inside the calls cannot.
  if (N.OffCpu > N.Incl)
    return fail(formatv("{0}: node {1}: off-CPU ticks {2} exceed inclusive "
                        "ticks {3}",
                        What, I, N.OffCpu, N.Incl));
  return Error::success();
}

Error Parser::parseCounts(Cursor &C, Thread &T, uint32_t Num,
                          const std::string &What) {
  uint64_t NumFuncs = Cur->Functions.size();
  T.Counts.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    CallCount &CC = T.Counts[I];
    RecordIn<raw::CountRecord> In = C.record<raw::CountRecord>();
    In.map(CC);
    uint32_t Flags = In.get(&raw::CountRecord::Flags);
    if (CC.Func >= NumFuncs)
      return fail(formatv("{0}: call count {1}: function id {2} out of range",
                          What, I, CC.Func));
    if (Flags & ~uint32_t(raw::CR_Known))
      return fail(formatv("{0}: call count {1}: unknown flags {2:x}", What, I,
                          Flags));
    if (CC.Calls == 0 || CC.Calls > kMaxTicks)
      return fail(formatv("{0}: call count {1}: implausible count {2}", What,
                          I, CC.Calls));
    if (I && CC.Func <= T.Counts[I - 1].Func)
      return fail(formatv("{0}: call count {1}: function ids not ascending",
                          What, I));
  }
  return Error::success();
}

/// Latency records (v9): ascending by (node, bucket), each bucket in the
/// layout, each count positive; with TF_Latency every node's counts sum to
/// (with TF_SampledCallsApart: at most)
/// its calls (checked once all records are in).
Error Parser::parseLatency(Cursor &C, Thread &T, uint32_t Num,
                           const std::string &What) {
  uint32_t PrevNode = 0, PrevBucket = 0;
  for (uint32_t I = 0; I < Num; ++I) {
    LatencyCount L;
    RecordIn<raw::LatencyRecord> In = C.record<raw::LatencyRecord>();
    In.map(L);
    uint32_t NodeIdx = In.get(&raw::LatencyRecord::Node);
    if (NodeIdx >= T.Nodes.size())
      return fail(formatv("{0}: latency bucket {1}: node {2} out of range",
                          What, I, NodeIdx));
    if (L.Bucket >= activetime::latency::kLatencyBuckets)
      return fail(formatv("{0}: latency bucket {1}: bucket index {2} out of "
                          "range (there are {3})",
                          What, I, L.Bucket,
                          activetime::latency::kLatencyBuckets));
    if (L.Count == 0 || L.Count > kMaxTicks)
      return fail(formatv("{0}: latency bucket {1}: implausible count {2}",
                          What, I, L.Count));
    if (I && (NodeIdx < PrevNode ||
              (NodeIdx == PrevNode && L.Bucket <= PrevBucket)))
      return fail(formatv("{0}: latency bucket {1}: not ascending by node "
                          "and bucket",
                          What, I));
    PrevNode = NodeIdx;
    PrevBucket = L.Bucket;
    T.Nodes[NodeIdx].Latency.push_back(L);
  }
  if (!(T.Flags & raw::TF_Latency))
    return Error::success();
  for (size_t I = 0; I < T.Nodes.size(); ++I) {
    uint64_t Sum = 0;
    for (const LatencyCount &L : T.Nodes[I].Latency)
      Sum += L.Count; // each <= 2^60, at most 496 of them: no overflow
    // Sampled calls set apart may be missing; no call is counted twice.
    bool Apart = T.Flags & raw::TF_SampledCallsApart;
    if (Apart ? Sum > T.Nodes[I].Calls : Sum != T.Nodes[I].Calls)
      return fail(formatv("{0}: node {1}: latency counts sum to {2}, the "
                          "node has {3} calls",
                          What, I, Sum, T.Nodes[I].Calls));
  }
  return Error::success();
}

Error Parser::parseCodeSamples(Cursor &C, Thread &T, uint32_t Num,
                               const std::string &What) {
  T.CodeSamples.resize(Num);
  for (uint32_t I = 0; I < Num; ++I) {
    CodeSample &S = T.CodeSamples[I];
    C.record<raw::CodeSampleRecord>().map(S);
    if (S.Node != raw::kNoNode && S.Node >= T.Nodes.size())
      return fail(formatv("{0}: code sample {1}: node {2} out of range", What,
                          I, S.Node));
    if (S.Flags & ~uint32_t(raw::CSR_Known))
      return fail(formatv("{0}: code sample {1}: unknown flags {2:x}", What, I,
                          S.Flags));
    if (S.Count == 0 || S.Count > kMaxTicks)
      return fail(formatv("{0}: code sample {1}: implausible count {2}", What,
                          I, S.Count));
  }
  return Error::success();
}
