//===- Writer.cpp - Raw profile writer --------------------------------------===//
//
// Part of ActiveTime. Serializes a Profile in the raw format so that merged
// profiles are read back by the same reader as runtime-written ones. One
// writer per section kind, like the reader's parsers; the record fields
// come from the mappings of RawMapping.h, shared with the reader.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Checksum.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Profile/RawMapping.h"
#include "activetime/latency.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// Builds the payload of one section in memory so its size is known before
/// the section header is emitted.
class SectionBuilder {
public:
  /// Appends \p Model as raw record Rec through RawMapping<Rec>.
  template <class Rec, class M> void add(const M &Model) {
    record(RecordOut<Rec>(Model));
  }
  /// Appends a record whose section-dependent fields the caller set.
  template <class Rec> void record(const RecordOut<Rec> &R) { OS << R.bytes(); }
  void bytes(StringRef S) { OS << S; }
  void pad() { OS.write_zeros(alignTo(Buf.size(), 8) - Buf.size()); }
  StringRef data() const { return Buf; }

private:
  SmallString<256> Buf;
  raw_svector_ostream OS{Buf};
};

bool fits32(size_t N) { return N <= UINT32_MAX; }

/// Function ids are implied by module order, so the table must be grouped.
Error checkFunctions(const Process &P, size_t Idx) {
  uint32_t Prev = 0;
  for (const Function &F : P.Functions) {
    if (F.Module >= P.Modules.size() || F.Module < Prev)
      return fail(formatv("process {0}: function table is not grouped by "
                          "module",
                          Idx));
    Prev = F.Module;
  }
  return Error::success();
}

size_t numLatencyRecords(const Thread &T) {
  size_t N = 0;
  for (const Node &Nd : T.Nodes)
    N += Nd.Latency.size();
  return N;
}

/// A histogram the reader would refuse (the model was built by code, not
/// read): buckets in range and ascending, counts summing to the calls (at
/// most, with sampled calls set apart), and present on every node with
/// calls exactly when the thread says so.
bool latencyConsistent(const Thread &T) {
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

Error checkThread(const Process &P, size_t Idx, const Thread &T) {
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

/// The site table is written one strides section per module.
Error checkSites(const Process &P, size_t Idx) {
  for (size_t I = 0; I < P.Sites.size(); ++I) {
    const MemSite &S = P.Sites[I];
    if (S.Module >= P.Modules.size() ||
        (I && S.Module < P.Sites[I - 1].Module))
      return fail(formatv("process {0}: site table is not grouped by module",
                          Idx));
    if (!fits32(S.Func.size()) || !fits32(S.File.size()))
      return fail(formatv("process {0}: site {1} too large", Idx, I));
  }
  return Error::success();
}

Error checkTrace(const Process &P, size_t Idx, const Trace &T) {
  if (T.BufferFlags & ~raw::TBF_Known)
    return fail(formatv("process {0}, trace {1}: unknown buffer flags {2:x}",
                        Idx, T.Tid, T.BufferFlags));
  for (size_t I = 0; I < T.Events.size(); ++I) {
    const TraceEvent &E = T.Events[I];
    if (E.Func >= P.Functions.size() || E.Kind > raw::TE_Exit ||
        (I && E.Tick < T.Events[I - 1].Tick))
      return fail(formatv("process {0}, trace {1}: inconsistent event {2}",
                          Idx, T.Tid, I));
  }
  for (size_t I = 0; I < T.Switches.size(); ++I) {
    const SwitchEvent &S = T.Switches[I];
    if ((S.OldTid == T.Tid) == (S.NewTid == T.Tid))
      return fail(formatv("process {0}, trace {1}: inconsistent switch "
                          "event {2}",
                          Idx, T.Tid, I));
  }
  return Error::success();
}

Error checkSamples(const Process &P, size_t Idx) {
  const SampleSet &S = P.Samples;
  if (S.IntervalTicks == 0)
    return fail(formatv("process {0}: sampling interval is 0", Idx));
  for (size_t I = 0; I < S.Samples.size(); ++I) {
    const Sample &X = S.Samples[I];
    if (X.Thread >= P.Threads.size() ||
        (X.Node != raw::kNoNode &&
         X.Node >= P.Threads[X.Thread].Nodes.size()) ||
        (X.Flags & ~uint32_t(raw::SF_KnownMask)) ||
        (I && X.Tick < S.Samples[I - 1].Tick))
      return fail(formatv("process {0}: inconsistent sample {1}", Idx, I));
  }
  return Error::success();
}

/// What the reader would reject, or what does not fit the raw format's
/// fields, is refused before anything is written.
Error checkProcess(const Process &P, size_t Idx) {
  if (P.TickRate == 0)
    return fail(formatv("process {0}: tick rate is 0", Idx));
  if (!fits32(P.Modules.size()) || !fits32(P.Threads.size()) ||
      !fits32(P.Traces.size()) || !fits32(P.Exe.size()) ||
      !fits32(P.BuildId.size()) || !fits32(P.Functions.size()))
    return fail(formatv("process {0}: too large for the raw format", Idx));
  if (Error E = checkFunctions(P, Idx))
    return E;
  for (const Thread &T : P.Threads)
    if (Error E = checkThread(P, Idx, T))
      return E;
  if (Error E = checkSites(P, Idx))
    return E;
  for (const Trace &T : P.Traces)
    if (Error E = checkTrace(P, Idx, T))
      return E;
  if (P.HasSamples)
    return checkSamples(P, Idx);
  return Error::success();
}

/// Serializes a checked profile, one function per section kind, mirroring
/// the reader's parsers; which model field goes to which record field is
/// RawMapping.h's.
class ProfileWriter {
public:
  void writeBlock(const Process &P);
  Error finish(bool Merged, raw_ostream &OS);

private:
  void writeProcess(const Process &P);
  void writeModule(const Process &P, uint32_t ModIdx, size_t FirstFunc,
                   size_t EndFunc);
  void writeThread(const Thread &T);
  void writeTrace(const Trace &T);
  void writeStrides(const Process &P, size_t FirstSite, size_t EndSite);
  void writeParallel(const Parallel &Par);
  void writeSamples(const SampleSet &S);
  void add(uint32_t Kind, SectionBuilder &B);

  /// Each a whole section: header and payload.
  std::vector<std::string> Sections;
};

/// The section behind its header, whose checksum covers Kind, Size and the
/// payload (raw_format.h).
void ProfileWriter::add(uint32_t Kind, SectionBuilder &B) {
  B.pad();
  RecordOut<raw::SectionHeader> SH;
  SH.set(&raw::SectionHeader::Kind, Kind);
  SH.set(&raw::SectionHeader::Size, B.data().size());
  std::string S = (SH.bytes() + B.data()).str();
  SH.set(&raw::SectionHeader::Checksum, sectionChecksum(S));
  std::memcpy(S.data(), SH.bytes().data(), sizeof(raw::SectionHeader));
  Sections.push_back(std::move(S));
}

/// One process block, in the section order raw_format.h prescribes.
void ProfileWriter::writeBlock(const Process &P) {
  writeProcess(P);
  size_t NextFunc = 0;
  for (uint32_t MI = 0; MI < P.Modules.size(); ++MI) {
    size_t First = NextFunc;
    while (NextFunc < P.Functions.size() && P.Functions[NextFunc].Module == MI)
      ++NextFunc;
    writeModule(P, MI, First, NextFunc);
  }
  for (const Thread &T : P.Threads)
    writeThread(T);
  for (const Trace &T : P.Traces)
    writeTrace(T);
  for (size_t I = 0; I < P.Sites.size();) {
    size_t End = I;
    while (End < P.Sites.size() && P.Sites[End].Module == P.Sites[I].Module)
      ++End;
    writeStrides(P, I, End);
    I = End;
  }
  if (P.Par.Present)
    writeParallel(P.Par);
  if (P.HasSamples)
    writeSamples(P.Samples);
}

void ProfileWriter::writeProcess(const Process &P) {
  RecordOut<raw::ProcessRecord> R(P);
  // One strides section per module with sites (checkSites: grouped).
  uint32_t NumStrides = 0;
  for (size_t I = 0; I < P.Sites.size(); ++I)
    NumStrides += !I || P.Sites[I].Module != P.Sites[I - 1].Module;
  R.set(&raw::ProcessRecord::NumStrides, NumStrides);
  SectionBuilder B;
  B.record(R);
  B.bytes(P.Exe);
  B.bytes(P.BuildId);
  add(raw::SK_Process, B);
}

void ProfileWriter::writeModule(const Process &P, uint32_t ModIdx,
                                size_t FirstFunc, size_t EndFunc) {
  const Module &M = P.Modules[ModIdx];
  RecordOut<raw::ModuleRecord> R(M);
  R.set(&raw::ModuleRecord::NumFuncs, EndFunc - FirstFunc);
  R.set(&raw::ModuleRecord::NumInlinedAway, M.InlinedAway.size());
  SectionBuilder B;
  B.record(R);
  B.bytes(M.Name);
  B.bytes(M.Path);
  for (size_t FI = FirstFunc; FI < EndFunc; ++FI) {
    const Function &F = P.Functions[FI];
    B.add<raw::FuncRecord>(F);
    B.bytes(F.Name);
    B.bytes(F.File);
  }
  for (const Function &F : M.InlinedAway) {
    B.add<raw::FuncRecord>(F);
    B.bytes(F.Name);
    B.bytes(F.File);
  }
  add(raw::SK_Module, B);
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

void ProfileWriter::writeTrace(const Trace &T) {
  SectionBuilder B;
  B.add<raw::TraceRecord>(T);
  for (const TraceEvent &E : T.Events)
    B.add<raw::TraceEvent>(E);
  for (const SwitchEvent &S : T.Switches)
    B.add<raw::SwitchEvent>(S);
  add(raw::SK_Trace, B);
}

/// The sites [FirstSite, EndSite) of one module.
void ProfileWriter::writeStrides(const Process &P, size_t FirstSite,
                                 size_t EndSite) {
  RecordOut<raw::StridesRecord> R;
  R.set(&raw::StridesRecord::Module, P.Sites[FirstSite].Module);
  R.set(&raw::StridesRecord::NumSites, EndSite - FirstSite);
  SectionBuilder B;
  B.record(R);
  for (size_t I = FirstSite; I < EndSite; ++I) {
    const MemSite &S = P.Sites[I];
    B.add<raw::SiteRecord>(S);
    B.bytes(S.Func);
    B.bytes(S.File);
  }
  add(raw::SK_Strides, B);
}

/// The regions' paths go after the entries, each region pointing at its own.
void ProfileWriter::writeParallel(const Parallel &Par) {
  std::string Strings;
  for (const Region &Reg : Par.Regions)
    Strings += Reg.Path;
  RecordOut<raw::ParallelRecord> R(Par);
  R.set(&raw::ParallelRecord::StringBytes, Strings.size());
  SectionBuilder B;
  B.record(R);
  uint32_t PathOffset = 0;
  for (const Region &Reg : Par.Regions) {
    RecordOut<raw::RegionRecord> RR(Reg);
    RR.set(&raw::RegionRecord::PathOffset, PathOffset);
    PathOffset += Reg.Path.size();
    B.record(RR);
  }
  for (const RegionThread &E : Par.Entries)
    B.add<raw::RegionThreadRecord>(E);
  B.bytes(Strings);
  add(raw::SK_Parallel, B);
}

void ProfileWriter::writeSamples(const SampleSet &S) {
  SectionBuilder B;
  B.add<raw::SamplesRecord>(S);
  for (const Sample &X : S.Samples)
    B.add<raw::SampleRecord>(X);
  add(raw::SK_Samples, B);
}

/// The file header, then every section behind its section header.
Error ProfileWriter::finish(bool Merged, raw_ostream &OS) {
  if (!fits32(Sections.size()))
    return fail("too many sections for the raw format");
  uint64_t FileSize = sizeof(raw::FileHeader);
  for (const std::string &S : Sections)
    FileSize += S.size();

  using H = raw::FileHeader;
  RecordOut<H> Header;
  Header.text(&H::Magic, StringRef(raw::kMagic, sizeof(raw::kMagic)));
  Header.set(&H::Version, raw::kVersion);
  Header.set(&H::HeaderSize, sizeof(raw::FileHeader));
  Header.set(&H::FileSize, FileSize);
  Header.set(&H::NumSections, Sections.size());
  Header.set(&H::Flags, Merged ? raw::FH_Merged : 0);
  Header.set(&H::Checksum, fileHeaderChecksum(Header.bytes()));
  OS << Header.bytes();
  for (const std::string &S : Sections)
    OS << S;
  return Error::success();
}

} // namespace

Error profile::writeProfile(const Profile &Prof, raw_ostream &OS) {
  for (size_t I = 0; I < Prof.Processes.size(); ++I)
    if (Error E = checkProcess(Prof.Processes[I], I))
      return E;
  ProfileWriter W;
  for (const Process &P : Prof.Processes)
    W.writeBlock(P);
  return W.finish(Prof.Merged, OS);
}

Error profile::writeProfile(const Profile &Prof, StringRef Path) {
  auto Prefixed = [&](Error E) {
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(std::move(E)));
  };
  // Serialize first: a model the format cannot express fails before any
  // file is created.
  std::string Data;
  raw_string_ostream DS(Data);
  if (Error E = writeProfile(Prof, DS))
    return Prefixed(std::move(E));
  DS.flush();

  Expected<sys::fs::TempFile> Temp =
      sys::fs::TempFile::create(Path + ".tmp-%%%%%%%%");
  if (!Temp)
    return Prefixed(Temp.takeError());
  {
    raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    OS << Data;
    OS.flush();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      consumeError(Temp->discard());
      return Prefixed(errorCodeToError(EC));
    }
  }
  if (Error E = Temp->keep(Path)) {
    consumeError(Temp->discard());
    return Prefixed(std::move(E));
  }
  return Error::success();
}
