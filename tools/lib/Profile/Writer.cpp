//===- Writer.cpp - Raw profile writer --------------------------------------===//
//
// Part of ActiveTime. Serializes a Profile in the raw format so that merged
// profiles are read back by the same reader as runtime-written ones.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Profile.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

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
  void u32(uint32_t V) { W.write<uint32_t>(V); }
  void u64(uint64_t V) { W.write<uint64_t>(V); }
  void bytes(StringRef S) { OS << S; }
  void pad() { OS.write_zeros(alignTo(Buf.size(), 8) - Buf.size()); }
  StringRef data() const { return Buf; }

private:
  SmallString<256> Buf;
  raw_svector_ostream OS{Buf};
  support::endian::Writer W{OS, llvm::endianness::little};
};

bool fits32(size_t N) { return N <= UINT32_MAX; }

Error checkProcess(const Process &P, size_t Idx) {
  if (P.TickRate == 0)
    return fail(formatv("process {0}: tick rate is 0", Idx));
  if (!fits32(P.Modules.size()) || !fits32(P.Threads.size()) ||
      !fits32(P.Traces.size()) ||
      !fits32(P.Exe.size()) || !fits32(P.BuildId.size()) ||
      !fits32(P.Functions.size()))
    return fail(formatv("process {0}: too large for the raw format", Idx));
  // Function ids are implied by module order, so the table must be grouped.
  uint32_t Prev = 0;
  for (const Function &F : P.Functions) {
    if (F.Module >= P.Modules.size() || F.Module < Prev)
      return fail(formatv("process {0}: function table is not grouped by "
                          "module",
                          Idx));
    Prev = F.Module;
  }
  for (const Thread &T : P.Threads) {
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
          N.Func >= P.Functions.size() || N.Excl > N.Incl ||
          N.OffCpu > N.Incl)
        return fail(formatv("process {0}, thread {1}: inconsistent node {2}",
                            Idx, T.Tid, I));
    }
  }
  for (size_t I = 0; I < P.Sites.size(); ++I) {
    const MemSite &S = P.Sites[I];
    if (S.Module >= P.Modules.size() ||
        (I && S.Module < P.Sites[I - 1].Module))
      return fail(formatv("process {0}: site table is not grouped by module",
                          Idx));
    if (!fits32(S.Func.size()) || !fits32(S.File.size()))
      return fail(formatv("process {0}: site {1} too large", Idx, I));
  }
  for (const Trace &T : P.Traces) {
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
  }
  if (P.HasSamples) {
    const SampleSet &S = P.Samples;
    if (S.IntervalTicks == 0)
      return fail(formatv("process {0}: sampling interval is 0", Idx));
    for (size_t I = 0; I < S.Samples.size(); ++I) {
      const Sample &X = S.Samples[I];
      if (X.Thread >= P.Threads.size() ||
          (X.Node != raw::kNoNode && X.Node >= P.Threads[X.Thread].Nodes.size()) ||
          (X.Flags & ~uint32_t(raw::SF_KnownMask)) ||
          (I && X.Tick < S.Samples[I - 1].Tick))
        return fail(formatv("process {0}: inconsistent sample {1}", Idx, I));
    }
  }
  return Error::success();
}

} // namespace

Error profile::writeProfile(const Profile &Prof, raw_ostream &OS) {
  for (size_t I = 0; I < Prof.Processes.size(); ++I)
    if (Error E = checkProcess(Prof.Processes[I], I))
      return E;

  std::vector<std::pair<uint32_t, std::string>> Sections;
  auto Add = [&](uint32_t Kind, SectionBuilder &B) {
    B.pad();
    Sections.emplace_back(Kind, B.data().str());
  };
  for (const Process &P : Prof.Processes) {
    SectionBuilder PB;
    PB.u64(P.TickRate);
    PB.u64(P.StartTick);
    PB.u64(P.EndTick);
    PB.u64(P.StartUnixNs);
    PB.u32(P.Pid);
    PB.u32(P.ParentPid);
    PB.u32(P.Modules.size());
    PB.u32(P.Threads.size());
    PB.u32(P.Traces.size());
    PB.u32(P.Exe.size());
    PB.u32(P.BuildId.size());
    uint32_t NumStrides = 0;
    for (size_t I = 0; I < P.Sites.size(); ++I)
      NumStrides += !I || P.Sites[I].Module != P.Sites[I - 1].Module;
    PB.u32(NumStrides);
    PB.u64(P.Overhead.Enter256);
    PB.u64(P.Overhead.Exit256);
    PB.u32(P.Overhead.Source);
    PB.u32(P.Overhead.Batches);
    PB.u32(P.Overhead.SpreadPermille);
    PB.u32((P.Overhead.Stable ? raw::OF_Stable : 0) |
           (P.Overhead.Fenced ? raw::OF_Fenced : 0) |
           (P.Overhead.Measured ? raw::OF_Measured : 0));
    PB.u64(P.Overhead.Pair256);
    PB.u64(P.Overhead.MeasuredEnter256);
    PB.u64(P.Overhead.MeasuredExit256);
    PB.u64(P.TickStep256);
    PB.u64(P.TimingThreshold);
    PB.u64(P.CodeSamplePeriodNs);
    PB.u64(P.CodeSampleCost256);
    PB.u32(P.CodeSampleFlags);
    PB.u32(0); // Reserved
    PB.bytes(P.Exe);
    PB.bytes(P.BuildId);
    Add(raw::SK_Process, PB);

    size_t NextFunc = 0;
    for (uint32_t MI = 0; MI < P.Modules.size(); ++MI) {
      const Module &M = P.Modules[MI];
      size_t First = NextFunc;
      while (NextFunc < P.Functions.size() && P.Functions[NextFunc].Module == MI)
        ++NextFunc;
      SectionBuilder MB;
      MB.u64(M.Hash);
      MB.u64(M.LoadBase);
      MB.u32(NextFunc - First);
      MB.u32(M.Name.size());
      MB.u32(M.Path.size());
      MB.u32(M.Flags);
      MB.bytes(M.Name);
      MB.bytes(M.Path);
      for (size_t FI = First; FI < NextFunc; ++FI) {
        const Function &F = P.Functions[FI];
        MB.u64(F.Addr);
        MB.u32(F.Line);
        MB.u32(F.Flags);
        MB.u32(F.Name.size());
        MB.u32(F.File.size());
        MB.bytes(F.Name);
        MB.bytes(F.File);
      }
      Add(raw::SK_Module, MB);
    }

    for (const Thread &T : P.Threads) {
      SectionBuilder TB;
      TB.u64(T.Tid);
      TB.u64(T.StartTick);
      TB.u64(T.EndTick);
      TB.u32(T.Nodes.size());
      TB.u32(T.Flags);
      TB.u64(T.OpenFrames);
      TB.u64(T.UnmatchedExits);
      TB.u64(T.UnwoundFrames);
      TB.u64(T.DroppedEvents);
      char Name[16] = {};
      memcpy(Name, T.Name.data(), std::min<size_t>(T.Name.size(), 16));
      TB.bytes(StringRef(Name, 16));
      TB.u32(T.SwitchSource);
      TB.u32(T.Counts.size());
      TB.u64(T.SwitchResolution);
      TB.u64(T.OffCpuTicks);
      TB.u64(T.VoluntarySwitches);
      TB.u64(T.InvoluntarySwitches);
      TB.u64(T.LostSwitchRecords);
      TB.u32(T.CodeSamples.size());
      TB.u32(0); // Reserved
      TB.u64(T.LostCodeSamples);
      for (const Node &N : T.Nodes) {
        TB.u32(N.Parent);
        TB.u32(N.Func);
        TB.u64(N.Calls);
        TB.u64(N.Incl);
        TB.u64(N.Excl);
        TB.u64(N.Min);
        TB.u64(N.Max);
        TB.u64(N.Overhead);
        TB.u64(N.OffCpu);
        TB.u32(N.Voluntary);
        TB.u32(N.Involuntary);
        TB.u64(N.CallSite);
      }
      for (const CallCount &CC : T.Counts) {
        TB.u32(CC.Func);
        TB.u32(CC.Counted ? raw::CR_Counted : 0);
        TB.u64(CC.Calls);
      }
      for (const CodeSample &S : T.CodeSamples) {
        TB.u32(S.Node);
        TB.u32(S.Flags);
        TB.u64(S.Addr);
        TB.u64(S.Count);
        TB.u64(S.Caller);
      }
      Add(raw::SK_Thread, TB);
    }

    for (const Trace &T : P.Traces) {
      SectionBuilder XB;
      XB.u64(T.Tid);
      XB.u64(T.Events.size());
      XB.u64(T.Switches.size());
      XB.u64(T.DroppedEvents);
      XB.u64(T.DroppedSwitches);
      for (const TraceEvent &E : T.Events) {
        XB.u64(E.Tick);
        XB.u32(E.Func);
        XB.u32(E.Kind);
        XB.u32(E.Measured);
        XB.u32(0);
      }
      for (const SwitchEvent &S : T.Switches) {
        XB.u64(S.Tick);
        XB.u64(S.OldTid);
        XB.u64(S.NewTid);
      }
      Add(raw::SK_Trace, XB);
    }

    for (size_t I = 0; I < P.Sites.size();) {
      size_t End = I;
      while (End < P.Sites.size() && P.Sites[End].Module == P.Sites[I].Module)
        ++End;
      SectionBuilder SB;
      SB.u32(P.Sites[I].Module);
      SB.u32(End - I);
      SB.u32(0); // Reserved0
      SB.u32(0); // Reserved1
      for (; I < End; ++I) {
        const MemSite &S = P.Sites[I];
        SB.u64(S.Hash);
        SB.u64(uint64_t(S.StaticStride));
        SB.u32(S.Line);
        SB.u32(S.Column);
        SB.u32(S.AccessSize);
        SB.u32(S.Flags);
        SB.u32(S.LoopLine);
        SB.u32(S.LoopDepth);
        SB.u64(S.Executions);
        SB.u64(S.Observations);
        SB.u64(S.Differences);
        SB.u64(S.Adjacent);
        SB.u64(S.ZeroDiffs);
        SB.u64(S.Gcd);
        SB.u64(uint64_t(S.Dominant));
        SB.u64(S.DominantCount);
        SB.u64(S.IterTicks);
        SB.u64(S.ProbeTicks);
        SB.u64(S.MinStepTicks);
        SB.u32(S.Func.size());
        SB.u32(S.File.size());
        SB.bytes(S.Func);
        SB.bytes(S.File);
      }
      Add(raw::SK_Strides, SB);
    }

    if (P.Par.Present) {
      const Parallel &Par = P.Par;
      std::string Strings;
      SectionBuilder RB;
      RB.u32(Par.Status);
      RB.u32(Par.Regions.size());
      RB.u32(Par.Entries.size());
      size_t StringBytes = 0;
      for (const Region &R : Par.Regions)
        StringBytes += R.Path.size();
      RB.u32(StringBytes);
      RB.u64(Par.LostEvents);
      for (const Region &R : Par.Regions) {
        RB.u64(R.Address);
        RB.u32(Strings.size());
        RB.u32(R.Path.size());
        Strings += R.Path;
        RB.u64(R.Instances);
        RB.u64(R.WallTicks);
        RB.u32(R.MaxWorkers);
        RB.u32(0);
      }
      for (const RegionThread &E : Par.Entries) {
        RB.u32(E.Region);
        RB.u32(0);
        RB.u64(E.Tid);
        for (uint64_t V : E.StateTicks)
          RB.u64(V);
        for (const auto &Row : E.Transitions)
          for (uint64_t V : Row)
            RB.u64(V);
        RB.u64(E.LocalTakes);
        RB.u64(E.StolenTakes);
        RB.u64(E.TasksCreated);
        RB.u64(E.Chunks);
        RB.u64(E.WaitEntries);
      }
      RB.bytes(Strings);
      Add(raw::SK_Parallel, RB);
    }
    if (P.HasSamples) {
      const SampleSet &S = P.Samples;
      SectionBuilder SB;
      SB.u64(S.IntervalTicks);
      SB.u64(S.StartTick);
      SB.u64(S.EndTick);
      SB.u64(S.Samples.size());
      SB.u64(S.Sweeps);
      SB.u64(S.Dropped);
      SB.u64(S.TornRetries);
      SB.u64(S.TornDiscarded);
      SB.u64(S.Unmapped);
      SB.u64(S.ProcStateSamples);
      SB.u64(S.SamplerCpuNs);
      SB.u32(S.Flags);
      SB.u32(0);
      SB.u64(S.WakeLateNs);
      for (const Sample &X : S.Samples) {
        SB.u64(X.Tick);
        SB.u64(X.Weight);
        SB.u32(X.Thread);
        SB.u32(X.Node);
        SB.u32(X.Flags);
        SB.u32(X.Depth);
      }
      Add(raw::SK_Samples, SB);
    }
  }
  if (!fits32(Sections.size()))
    return fail("too many sections for the raw format");

  uint64_t FileSize = sizeof(raw::FileHeader);
  for (const auto &S : Sections)
    FileSize += sizeof(raw::SectionHeader) + S.second.size();

  support::endian::Writer W(OS, llvm::endianness::little);
  OS.write(raw::kMagic, sizeof(raw::kMagic));
  W.write<uint32_t>(raw::kVersion);
  W.write<uint32_t>(sizeof(raw::FileHeader));
  W.write<uint64_t>(FileSize);
  W.write<uint32_t>(Sections.size());
  W.write<uint32_t>(Prof.Merged ? raw::FH_Merged : 0);
  for (const auto &S : Sections) {
    W.write<uint32_t>(S.first);
    W.write<uint32_t>(0);
    W.write<uint64_t>(S.second.size());
    OS << S.second;
  }
  return Error::success();
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
