//===- WriterThread.cpp - Thread sections ---------------------------------===//
//
// Part of ActiveTime. The raw writer's thread sections: the thread record,
// its nodes, call counts, code samples and latency records.
//
//===----------------------------------------------------------------------===//

#include "RawWriter.h"

#include "activetime/latency.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::profile::rawwriter;

static size_t numLatencyRecords(const Thread &T) {
  size_t N = 0;
  for (const Node &Nd : T.Nodes)
    N += Nd.Latency.size();
  return N;
}

/// A histogram the reader would refuse (the model was built by code, not
/// read): buckets in range and ascending, counts summing to the calls (at
/// most, with sampled calls set apart), and present on every node with
/// calls exactly when the thread says so.
static bool latencyConsistent(const Thread &T) {
  bool Has = T.Flags & raw::TF_Latency;
  bool Apart = T.Flags & raw::TF_SampledCallsApart;
  for (const Node &N : T.Nodes) {
    uint64_t Sum = 0;
    for (size_t I = 0; I < N.Latency.size(); ++I) {
      const LatencyCount &L = N.Latency[I];
      if (!Has || L.Bucket >= activetime::latency::kLatencyBuckets || !L.Count ||
          (I && L.Bucket <= N.Latency[I - 1].Bucket))
        return false;
      Sum += L.Count;
    }
    if (Has && (Apart ? Sum > N.Calls : Sum != N.Calls))
      return false;
  }
  return true;
}

Error rawwriter::checkThread(const Process &P, size_t Idx, const Thread &T) {
  if (!fits32(numLatencyRecords(T)) || !latencyConsistent(T))
    return fail(formatv("process {0}, thread {1}: inconsistent latency "
                        "histograms",
                        Idx, T.Tid));
  if (!fits32(T.Nodes.size()) || !fits32(T.Counts.size()) ||
      !fits32(T.CodeSamples.size()))
    return fail(formatv("process {0}: too many nodes", Idx));
  for (size_t I = 0; I < T.Counts.size(); ++I)
    if (T.Counts[I].Func >= P.Functions.size() || !T.Counts[I].Calls ||
        (I && T.Counts[I].Func <= T.Counts[I - 1].Func))
      return fail(formatv("process {0}, thread {1}: inconsistent call "
                          "count {2}",
                          Idx, T.Tid, I));
  for (const CodeSample &S : T.CodeSamples)
    if ((S.Node != raw::kNoNode && S.Node >= T.Nodes.size()) || !S.Count)
      return fail(formatv("process {0}, thread {1}: inconsistent code "
                          "sample",
                          Idx, T.Tid));
  for (size_t I = 0; I < T.Nodes.size(); ++I) {
    const Node &N = T.Nodes[I];
    if ((N.Parent != raw::kNoParent && N.Parent >= I) ||
        N.Func >= P.Functions.size() || N.Excl > N.Incl || N.OffCpu > N.Incl)
      return fail(formatv("process {0}, thread {1}: inconsistent node {2}",
                          Idx, T.Tid, I));
  }
  return Error::success();
}

void ProfileWriter::writeThreadSections(const Process &P) {
  for (const Thread &T : P.Threads)
    writeThread(T);
}

void ProfileWriter::writeThread(const Thread &T) {
  SectionBuilder B;
  RecordOut<raw::ThreadRecord> R(T);
  R.set(&raw::ThreadRecord::NumLatency, numLatencyRecords(T));
  B.record(R);
  for (const Node &N : T.Nodes)
    B.add<raw::NodeRecord>(N);
  for (const CallCount &CC : T.Counts)
    B.add<raw::CountRecord>(CC);
  for (const CodeSample &S : T.CodeSamples)
    B.add<raw::CodeSampleRecord>(S);
  for (size_t I = 0; I < T.Nodes.size(); ++I)
    for (const LatencyCount &L : T.Nodes[I].Latency) {
      RecordOut<raw::LatencyRecord> R(L);
      R.set(&raw::LatencyRecord::Node, I);
      B.record(R);
    }
  add(raw::SK_Thread, B);
}
