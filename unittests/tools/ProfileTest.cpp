//===- ProfileTest.cpp - Raw profile reader/writer/merge tests --------------===//
//
// Part of ActiveTime. Round trips through the writer and reader, one test
// per kind of corruption the reader must reject (a valid file is written,
// then bytes are changed), merge semantics, and the mapping of code sample
// addresses to functions (resolveCodeSamples) on this test binary itself.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Profile.h"
#include "ProfileTestUtil.h"
#include "activetime/Profile/RawMapping.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstddef>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <type_traits>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::testutil;

namespace {

Profile makeProfile() {
  Profile P;
  Process Pr;
  Pr.TickRate = 1000000000;
  Pr.StartTick = 10;
  Pr.EndTick = 5000;
  Pr.StartUnixNs = 1700000000000000000ull;
  Pr.Pid = 42;
  Pr.ParentPid = 1;
  Pr.Exe = "/usr/bin/app";
  Pr.BuildId = std::string("\x01\x02\xab\xcd", 4);
  Pr.Overhead = {3 * 256 + 128, 2 * 256, raw::OS_Calibrated, 7, 15, 1, 1};
  Pr.Overhead.Measured = 1;
  Pr.Overhead.Pair256 = 30 * 256 + 64;
  Pr.Overhead.MeasuredEnter256 = 14 * 256;
  Pr.Overhead.MeasuredExit256 = 13 * 256 + 1;
  Pr.TickStep256 = 6259; // 24.45 ticks
  Pr.TimingThreshold = 1234;
  Pr.CodeSamplePeriodNs = 100000;
  Pr.CodeSampleCost256 = 2000 * 256 + 3;
  Pr.CodeSampleFlags = raw::CSF_UserOnly | raw::CSF_Stacks;
  Pr.Modules.push_back({0x1234, 0x400000, 0, "main.c", "/usr/bin/app"});
  Pr.Modules.push_back({0x5678, 0x7f0000, raw::MF_Unloaded, "lib.c",
                        "/usr/lib/libx.so"});
  Pr.Functions.push_back({0, 0x401000, 3, 0, "main", "src/main.c"});
  Pr.Functions.push_back({0, 0x401100, 9, activetime::abi::FF_LocalLinkage, "helper", ""});
  Pr.Functions.push_back({1, 0x7f1000, 7, 0, "_Z3libv", "src/lib.c"});
  Thread T;
  T.Tid = 42;
  T.Name = "app";
  T.Flags = raw::TF_Running;
  T.StartTick = 20;
  T.EndTick = 4000;
  T.OpenFrames = 1;
  T.UnmatchedExits = 2;
  T.UnwoundFrames = 3;
  T.DroppedEvents = 4;
  T.SwitchSource = raw::SS_CpuClock;
  T.SwitchResolution = 1000;
  T.OffCpuTicks = 60;
  T.VoluntarySwitches = 5;
  T.InvoluntarySwitches = 6;
  T.LostSwitchRecords = 7;
  T.Nodes.push_back({raw::kNoParent, 0, 1, 1000, 300, 900, 900, 40, 60, 2, 3});
  T.Nodes.push_back({0, 1, 4, 500, 200, 100, 150, 20, 0, 0, 1});
  T.Nodes.push_back({1, 2, 4, 300, 300, 50, 100});
  T.Nodes.push_back({0, 2, 2, 200, 200, 90, 110});
  // v6: every call of each function, _Z3libv switched to counting after
  // its 6 timed calls; code samples against nodes and outside any node.
  T.Counts = {{0, false, 1}, {1, false, 4}, {2, true, 106}};
  T.CodeSamples = {{1, 0, 0x401108, 10},
                   {1, raw::CSR_Counting, 0x7f1004, 3},
                   {raw::kNoNode, raw::CSR_Caller | raw::CSR_Kernel, 0x401010, 2}};
  T.LostCodeSamples = 5;
  Pr.Threads.push_back(T);
  Thread T2;
  T2.Tid = 43;
  T2.Name = "exactly16chars!!";
  T2.StartTick = 30;
  T2.EndTick = 40;
  Pr.Threads.push_back(T2); // a thread without nodes is valid
  Trace X;
  X.Tid = 42;
  X.DroppedEvents = 1;
  X.DroppedSwitches = 2;
  X.Events = {{100, 0, raw::TE_Enter}, {150, 2, raw::TE_Enter},
              {150, 2, raw::TE_Exit}, {300, 0, raw::TE_Exit}};
  X.Switches = {{120, 42, 0}, {140, 0, 42}};
  Pr.Traces.push_back(X);
  Trace X2;
  X2.Tid = 43; // a trace without events is valid
  Pr.Traces.push_back(X2);
  Pr.HasSamples = true;
  SampleSet &SS = Pr.Samples;
  SS.IntervalTicks = 100;
  SS.StartTick = 20;
  SS.EndTick = 4000;
  SS.Sweeps = 3;
  SS.Dropped = 1;
  SS.TornRetries = 2;
  SS.TornDiscarded = 1;
  SS.Unmapped = 4;
  SS.ProcStateSamples = 1;
  SS.SamplerCpuNs = 5000;
  SS.Flags = raw::SMF_Randomized | raw::SMF_Realtime;
  SS.WakeLateNs = 777;
  SS.Samples = {{100, 80, 0, 1, 0, 2},
                {200, 100, 0, 3, raw::SF_OffCpu | raw::SF_PriorFrame, 2},
                {200, 50, 1, raw::kNoNode, raw::SF_OffCpu | raw::SF_ProcState,
                 0}};
  P.Processes.push_back(std::move(Pr));
  return P;
}

void expectEqual(const Profile &A, const Profile &B) {
  ASSERT_EQ(A.Merged, B.Merged);
  ASSERT_EQ(A.Processes.size(), B.Processes.size());
  for (size_t I = 0; I < A.Processes.size(); ++I) {
    const Process &X = A.Processes[I], &Y = B.Processes[I];
    EXPECT_EQ(X.TickRate, Y.TickRate);
    EXPECT_EQ(X.StartTick, Y.StartTick);
    EXPECT_EQ(X.EndTick, Y.EndTick);
    EXPECT_EQ(X.StartUnixNs, Y.StartUnixNs);
    EXPECT_EQ(X.Pid, Y.Pid);
    EXPECT_EQ(X.ParentPid, Y.ParentPid);
    EXPECT_EQ(X.Exe, Y.Exe);
    EXPECT_EQ(X.BuildId, Y.BuildId);
    EXPECT_EQ(X.Overhead.Enter256, Y.Overhead.Enter256);
    EXPECT_EQ(X.Overhead.Exit256, Y.Overhead.Exit256);
    EXPECT_EQ(X.Overhead.Source, Y.Overhead.Source);
    EXPECT_EQ(X.Overhead.Batches, Y.Overhead.Batches);
    EXPECT_EQ(X.Overhead.SpreadPermille, Y.Overhead.SpreadPermille);
    EXPECT_EQ(X.Overhead.Stable, Y.Overhead.Stable);
    EXPECT_EQ(X.Overhead.Fenced, Y.Overhead.Fenced);
    EXPECT_EQ(X.Overhead.Measured, Y.Overhead.Measured);
    EXPECT_EQ(X.Overhead.Pair256, Y.Overhead.Pair256);
    EXPECT_EQ(X.Overhead.MeasuredEnter256, Y.Overhead.MeasuredEnter256);
    EXPECT_EQ(X.Overhead.MeasuredExit256, Y.Overhead.MeasuredExit256);
    EXPECT_EQ(X.TickStep256, Y.TickStep256);
    EXPECT_EQ(X.TimingThreshold, Y.TimingThreshold);
    EXPECT_EQ(X.CodeSamplePeriodNs, Y.CodeSamplePeriodNs);
    EXPECT_EQ(X.CodeSampleCost256, Y.CodeSampleCost256);
    EXPECT_EQ(X.CodeSampleFlags, Y.CodeSampleFlags);
    ASSERT_EQ(X.Traces.size(), Y.Traces.size());
    for (size_t T = 0; T < X.Traces.size(); ++T) {
      const Trace &A = X.Traces[T], &B = Y.Traces[T];
      EXPECT_EQ(A.Tid, B.Tid);
      EXPECT_EQ(A.DroppedEvents, B.DroppedEvents);
      EXPECT_EQ(A.DroppedSwitches, B.DroppedSwitches);
      ASSERT_EQ(A.Events.size(), B.Events.size());
      for (size_t E = 0; E < A.Events.size(); ++E) {
        EXPECT_EQ(A.Events[E].Tick, B.Events[E].Tick);
        EXPECT_EQ(A.Events[E].Func, B.Events[E].Func);
        EXPECT_EQ(A.Events[E].Kind, B.Events[E].Kind);
      }
      ASSERT_EQ(A.Switches.size(), B.Switches.size());
      for (size_t E = 0; E < A.Switches.size(); ++E) {
        EXPECT_EQ(A.Switches[E].Tick, B.Switches[E].Tick);
        EXPECT_EQ(A.Switches[E].OldTid, B.Switches[E].OldTid);
        EXPECT_EQ(A.Switches[E].NewTid, B.Switches[E].NewTid);
      }
    }
    ASSERT_EQ(X.HasSamples, Y.HasSamples);
    {
      const SampleSet &A = X.Samples, &B = Y.Samples;
      EXPECT_EQ(A.IntervalTicks, B.IntervalTicks);
      EXPECT_EQ(A.StartTick, B.StartTick);
      EXPECT_EQ(A.EndTick, B.EndTick);
      EXPECT_EQ(A.Sweeps, B.Sweeps);
      EXPECT_EQ(A.Dropped, B.Dropped);
      EXPECT_EQ(A.TornRetries, B.TornRetries);
      EXPECT_EQ(A.TornDiscarded, B.TornDiscarded);
      EXPECT_EQ(A.Unmapped, B.Unmapped);
      EXPECT_EQ(A.ProcStateSamples, B.ProcStateSamples);
      EXPECT_EQ(A.SamplerCpuNs, B.SamplerCpuNs);
      EXPECT_EQ(A.Flags, B.Flags);
      EXPECT_EQ(A.WakeLateNs, B.WakeLateNs);
      ASSERT_EQ(A.Samples.size(), B.Samples.size());
      for (size_t I = 0; I < A.Samples.size(); ++I) {
        EXPECT_EQ(A.Samples[I].Tick, B.Samples[I].Tick);
        EXPECT_EQ(A.Samples[I].Weight, B.Samples[I].Weight);
        EXPECT_EQ(A.Samples[I].Thread, B.Samples[I].Thread);
        EXPECT_EQ(A.Samples[I].Node, B.Samples[I].Node);
        EXPECT_EQ(A.Samples[I].Flags, B.Samples[I].Flags);
        EXPECT_EQ(A.Samples[I].Depth, B.Samples[I].Depth);
      }
    }
    ASSERT_EQ(X.Modules.size(), Y.Modules.size());
    for (size_t M = 0; M < X.Modules.size(); ++M) {
      EXPECT_EQ(X.Modules[M].Hash, Y.Modules[M].Hash);
      EXPECT_EQ(X.Modules[M].LoadBase, Y.Modules[M].LoadBase);
      EXPECT_EQ(X.Modules[M].Flags, Y.Modules[M].Flags);
      EXPECT_EQ(X.Modules[M].Name, Y.Modules[M].Name);
      EXPECT_EQ(X.Modules[M].Path, Y.Modules[M].Path);
    }
    ASSERT_EQ(X.Functions.size(), Y.Functions.size());
    for (size_t F = 0; F < X.Functions.size(); ++F) {
      const Function &FX = X.Functions[F], &FY = Y.Functions[F];
      EXPECT_EQ(FX.Module, FY.Module);
      EXPECT_EQ(FX.Addr, FY.Addr);
      EXPECT_EQ(FX.Line, FY.Line);
      EXPECT_EQ(FX.Flags, FY.Flags);
      EXPECT_EQ(FX.Name, FY.Name);
      EXPECT_EQ(FX.File, FY.File);
    }
    ASSERT_EQ(X.Threads.size(), Y.Threads.size());
    for (size_t T = 0; T < X.Threads.size(); ++T) {
      const Thread &TX = X.Threads[T], &TY = Y.Threads[T];
      EXPECT_EQ(TX.Tid, TY.Tid);
      EXPECT_EQ(TX.Name, TY.Name);
      EXPECT_EQ(TX.Flags, TY.Flags);
      EXPECT_EQ(TX.StartTick, TY.StartTick);
      EXPECT_EQ(TX.EndTick, TY.EndTick);
      EXPECT_EQ(TX.OpenFrames, TY.OpenFrames);
      EXPECT_EQ(TX.UnmatchedExits, TY.UnmatchedExits);
      EXPECT_EQ(TX.UnwoundFrames, TY.UnwoundFrames);
      EXPECT_EQ(TX.DroppedEvents, TY.DroppedEvents);
      EXPECT_EQ(TX.SwitchSource, TY.SwitchSource);
      EXPECT_EQ(TX.SwitchResolution, TY.SwitchResolution);
      EXPECT_EQ(TX.OffCpuTicks, TY.OffCpuTicks);
      EXPECT_EQ(TX.VoluntarySwitches, TY.VoluntarySwitches);
      EXPECT_EQ(TX.InvoluntarySwitches, TY.InvoluntarySwitches);
      EXPECT_EQ(TX.LostSwitchRecords, TY.LostSwitchRecords);
      EXPECT_EQ(TX.LostCodeSamples, TY.LostCodeSamples);
      ASSERT_EQ(TX.Counts.size(), TY.Counts.size());
      for (size_t C = 0; C < TX.Counts.size(); ++C) {
        EXPECT_EQ(TX.Counts[C].Func, TY.Counts[C].Func);
        EXPECT_EQ(TX.Counts[C].Counted, TY.Counts[C].Counted);
        EXPECT_EQ(TX.Counts[C].Calls, TY.Counts[C].Calls);
      }
      ASSERT_EQ(TX.CodeSamples.size(), TY.CodeSamples.size());
      for (size_t C = 0; C < TX.CodeSamples.size(); ++C) {
        EXPECT_EQ(TX.CodeSamples[C].Node, TY.CodeSamples[C].Node);
        EXPECT_EQ(TX.CodeSamples[C].Flags, TY.CodeSamples[C].Flags);
        EXPECT_EQ(TX.CodeSamples[C].Addr, TY.CodeSamples[C].Addr);
        EXPECT_EQ(TX.CodeSamples[C].Count, TY.CodeSamples[C].Count);
      }
      ASSERT_EQ(TX.Nodes.size(), TY.Nodes.size());
      for (size_t N = 0; N < TX.Nodes.size(); ++N) {
        const Node &NX = TX.Nodes[N], &NY = TY.Nodes[N];
        EXPECT_EQ(NX.Parent, NY.Parent);
        EXPECT_EQ(NX.Func, NY.Func);
        EXPECT_EQ(NX.Calls, NY.Calls);
        EXPECT_EQ(NX.Incl, NY.Incl);
        EXPECT_EQ(NX.Excl, NY.Excl);
        EXPECT_EQ(NX.Min, NY.Min);
        EXPECT_EQ(NX.Max, NY.Max);
        EXPECT_EQ(NX.Overhead, NY.Overhead);
        EXPECT_EQ(NX.OffCpu, NY.OffCpu);
        EXPECT_EQ(NX.Voluntary, NY.Voluntary);
        EXPECT_EQ(NX.Involuntary, NY.Involuntary);
      }
    }
  }
}

// Where things lie, from the structs (raw_format.h): HDR(F) is field F of
// the file header; SEC(F) field F of a section header; PAY(Rec, F) field F of
// the record Rec that opens a section's payload.
#define HDR(F) offsetof(raw::FileHeader, F)
#define SEC(F) offsetof(raw::SectionHeader, F)
#define PAY(Rec, F) (kPayload + offsetof(raw::Rec, F))

/// File offsets of each section header of a well-formed file.
std::vector<size_t> sectionOffsets(StringRef Bytes) {
  std::vector<size_t> Offs;
  uint32_t N = support::endian::read32le(Bytes.data() + HDR(NumSections));
  size_t Off = sizeof(raw::FileHeader);
  for (uint32_t I = 0; I < N; ++I) {
    Offs.push_back(Off);
    Off += sizeof(raw::SectionHeader) +
           support::endian::read64le(Bytes.data() + Off + SEC(Size));
  }
  return Offs;
}

void put32(std::string &S, size_t Off, uint32_t V) {
  support::endian::write32le(&S[Off], V);
}
void put64(std::string &S, size_t Off, uint64_t V) {
  support::endian::write64le(&S[Off], V);
}

// Payload offsets inside sections.
constexpr size_t kPayload = sizeof(raw::SectionHeader);
constexpr size_t kNode0 = kPayload + sizeof(raw::ThreadRecord);
constexpr size_t kNodeSize = sizeof(raw::NodeRecord);
constexpr size_t kEvent0 = kPayload + sizeof(raw::TraceRecord);
constexpr size_t kEventSize = sizeof(raw::TraceEvent);
constexpr size_t kThreadSwitchSource = PAY(ThreadRecord, SwitchSource);
constexpr size_t kThreadNumCounts = PAY(ThreadRecord, NumCounts);
constexpr size_t kThreadNumCode = PAY(ThreadRecord, NumCodeSamples);
constexpr size_t kThreadNumLatency = PAY(ThreadRecord, NumLatency);
constexpr size_t kProcOverhead = PAY(ProcessRecord, Overhead);
constexpr size_t kProcTickStep = PAY(ProcessRecord, TickStep256);
constexpr size_t kProcCodeFlags = PAY(ProcessRecord, CodeSampleFlags);
constexpr size_t kProcBlockCounts = PAY(ProcessRecord, NumBlockCounts);
// Thread 0 of makeProfile: 4 nodes, then 3 CountRecords, 3 CodeSampleRecords.
constexpr size_t kCount0 = kNode0 + 4 * kNodeSize;
constexpr size_t kCountSize = sizeof(raw::CountRecord);
constexpr size_t kCode0 = kCount0 + 3 * kCountSize;
constexpr size_t kCodeSize = sizeof(raw::CodeSampleRecord);
constexpr size_t kSample0 = kPayload + sizeof(raw::SamplesRecord);
constexpr size_t kSampleSize = sizeof(raw::SampleRecord);
// Fields inside those records.
constexpr size_t kNodeParent = offsetof(raw::NodeRecord, Parent);
constexpr size_t kNodeFunc = offsetof(raw::NodeRecord, Func);
constexpr size_t kNodeExcl = offsetof(raw::NodeRecord, ExclTicks);
constexpr size_t kNodeMin = offsetof(raw::NodeRecord, MinTicks);
constexpr size_t kNodeOffCpu = offsetof(raw::NodeRecord, OffCpuTicks);
constexpr size_t kCountFunc = offsetof(raw::CountRecord, Func);
constexpr size_t kCountFlags = offsetof(raw::CountRecord, Flags);
constexpr size_t kCountCalls = offsetof(raw::CountRecord, Calls);
constexpr size_t kCodeNode = offsetof(raw::CodeSampleRecord, Node);
constexpr size_t kCodeFlags = offsetof(raw::CodeSampleRecord, Flags);
constexpr size_t kCodeCount = offsetof(raw::CodeSampleRecord, Count);
constexpr size_t kEventTick = offsetof(raw::TraceEvent, Tick);
constexpr size_t kEventFunc = offsetof(raw::TraceEvent, Func);
constexpr size_t kEventKind = offsetof(raw::TraceEvent, Kind);
constexpr size_t kEventReserved = offsetof(raw::TraceEvent, Reserved);
constexpr size_t kSampleTick = offsetof(raw::SampleRecord, Tick);
constexpr size_t kSampleThread = offsetof(raw::SampleRecord, Thread);
constexpr size_t kSampleNode = offsetof(raw::SampleRecord, Node);
constexpr size_t kSampleFlags = offsetof(raw::SampleRecord, Flags);

TEST(ProfileIO, RoundTrip) {
  Profile P = makeProfile();
  std::string Bytes = serialize(P);
  EXPECT_EQ(Bytes.size() % 8, 0u);
  Expected<Profile> Q = parse(Bytes);
  ASSERT_TRUE(bool(Q)) << toString(Q.takeError());
  expectEqual(P, *Q);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(serialize(*Q), Bytes);

  P.Merged = true;
  Q = parse(serialize(P));
  ASSERT_TRUE(bool(Q)) << toString(Q.takeError());
  EXPECT_TRUE(Q->Merged);
}

TEST(ProfileIO, RoundTripThroughFile) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("activetime-test", Dir));
  SmallString<128> Path(Dir);
  sys::path::append(Path, "out.raw");
  Profile P = makeProfile();
  ASSERT_FALSE(bool(writeProfile(P, StringRef(Path))));
  Expected<Profile> Q = readProfile(StringRef(Path));
  ASSERT_TRUE(bool(Q)) << toString(Q.takeError());
  expectEqual(P, *Q);
  // Nothing but the output is left in the directory.
  std::error_code EC;
  unsigned Count = 0;
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    ++Count;
  EXPECT_EQ(Count, 1u);

  // A model the format cannot express fails before any file is created.
  SmallString<128> Bad(Dir);
  sys::path::append(Bad, "bad.raw");
  P.Processes[0].TickRate = 0;
  Error E = writeProfile(P, StringRef(Bad));
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("tick rate is 0"), std::string::npos);
  EXPECT_FALSE(sys::fs::exists(Bad));

  ASSERT_FALSE(sys::fs::remove_directories(Dir));
}

TEST(ProfileIO, MissingFile) {
  Expected<Profile> P = readProfile(StringRef("/nonexistent/x.raw"));
  ASSERT_FALSE(bool(P));
  std::string Msg = toString(P.takeError());
  EXPECT_EQ(Msg.find("/nonexistent/x.raw: "), 0u) << Msg;
}

struct Corruption {
  const char *Name;
  std::function<void(std::string &, const std::vector<size_t> &)> Apply;
  const char *Expected;
  /// Recompute the checksums after Apply, so that the check the case is
  /// about is reached; false for the checksums' own cases.
  bool Reseal = true;
};

class ProfileCorruption : public ::testing::TestWithParam<Corruption> {};

TEST_P(ProfileCorruption, Rejected) {
  std::string Bytes = serialize(makeProfile());
  std::vector<size_t> Secs = sectionOffsets(Bytes);
  // process, 2 modules, 2 threads, 2 traces, samples
  ASSERT_EQ(Secs.size(), 8u);
  GetParam().Apply(Bytes, Secs);
  if (GetParam().Reseal)
    reseal(Bytes);
  std::string Msg = parseError(Bytes);
  EXPECT_NE(Msg.find(GetParam().Expected), std::string::npos)
      << "got: " << Msg;
  EXPECT_EQ(Msg.find('\n'), std::string::npos) << "not one line: " << Msg;
}

/// Rebuilds the file from the given sections of \p S (a valid file).
std::string reassemble(const std::string &S, const std::vector<size_t> &Secs,
                       ArrayRef<size_t> Keep) {
  std::string Body;
  for (size_t I : Keep) {
    size_t Size = support::endian::read64le(S.data() + Secs[I] + SEC(Size));
    Body += S.substr(Secs[I], kPayload + Size);
  }
  std::string Out = S.substr(0, sizeof(raw::FileHeader)) + Body;
  put64(Out, HDR(FileSize), Out.size());
  put32(Out, HDR(NumSections), Keep.size());
  return Out;
}

using Secs = const std::vector<size_t> &;
const Corruption Corruptions[] = {
    {"Empty", [](std::string &S, Secs) { S.clear(); },
     "not an ActiveTime raw profile"},
    {"BadMagic", [](std::string &S, Secs) { S[1] = 'X'; },
     "not an ActiveTime raw profile"},
    {"ShortHeader", [](std::string &S, Secs) { S.resize(20); },
     "truncated: file has 20 bytes"},
    {"NewerVersion", [](std::string &S, Secs) { put32(S, HDR(Version), 20); },
     "format version 20 is newer than supported (this activetime reads "
     "version 19)"},
    // Version 18's site records had no probe leads (16 bytes shorter).
    {"Version18", [](std::string &S, Secs) { put32(S, HDR(Version), 18); },
     "format version 18 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 17's process record had a reserved word where v18 says
    // whether the runtime's thread made the program multi-threaded.
    {"Version17", [](std::string &S, Secs) { put32(S, HDR(Version), 17); },
     "format version 17 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 16 calibrated the probe table before main (overhead records
    // 8 bytes shorter: no ReadyTick).
    {"Version16", [](std::string &S, Secs) { put32(S, HDR(Version), 16); },
     "format version 16 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 15 had neither offsets between unproven copies nor all-step
    // times (site records 64 bytes shorter).
    {"Version15", [](std::string &S, Secs) { put32(S, HDR(Version), 15); },
     "format version 15 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 14 had no host name (process records 8 bytes shorter).
    {"Version14", [](std::string &S, Secs) { put32(S, HDR(Version), 14); },
     "format version 14 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 13 had no MPI rank and size (process records 8 bytes
    // shorter).
    {"Version13", [](std::string &S, Secs) { put32(S, HDR(Version), 13); },
     "format version 13 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 9 had no thread CPU time (thread records 8 bytes shorter).
    {"Version9", [](std::string &S, Secs) { put32(S, HDR(Version), 9); },
     "format version 9 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 8 had no latency histograms (ThreadRecord::NumLatency was a
    // reserved 0), shorter module records (no inlined-away functions) and
    // shorter site records (no copy groups): still refused as older.
    {"Version8", [](std::string &S, Secs) { put32(S, HDR(Version), 8); },
     "format version 8 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 7 had no checksums and shorter trace records: refused as
    // older, not called corrupt (the version is checked before the
    // checksum; no reseal).
    {"Version7", [](std::string &S, Secs) { put32(S, HDR(Version), 7); },
     "format version 7 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)",
     false},
    // Version 6 had no call sites: its nodes are 8 bytes shorter.
    {"Version6", [](std::string &S, Secs) { put32(S, HDR(Version), 6); },
     "format version 6 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)"},
    // Version 5 had no call counts or code samples: refused, not misread.
    {"Version5", [](std::string &S, Secs) { put32(S, HDR(Version), 5); },
     "format version 5 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)"},
    {"Version4", [](std::string &S, Secs) { put32(S, HDR(Version), 4); },
     "format version 4 is older than supported"},
    {"Version3", [](std::string &S, Secs) { put32(S, HDR(Version), 3); },
     "format version 3 is older than supported"},
    {"Version2", [](std::string &S, Secs) { put32(S, HDR(Version), 2); },
     "format version 2 is older than supported"},
    {"Version1", [](std::string &S, Secs) { put32(S, HDR(Version), 1); },
     "format version 1 is older than supported (this activetime reads "
     "version 19; re-profile with the current runtime)"},
    {"OlderVersion", [](std::string &S, Secs) { put32(S, HDR(Version), 0); },
     "format version 0 is older than supported"},
    {"HeaderSize", [](std::string &S, Secs) { put32(S, HDR(HeaderSize), 32); },
     "bad header size 32 (version 19 has 40)"},
    {"Truncated", [](std::string &S, Secs) { S.resize(S.size() - 8); },
     "truncated: header says"},
    {"TrailingGarbage", [](std::string &S, Secs) { S += "garbage!"; },
     "trailing garbage: header says"},
    {"UnknownFlags", [](std::string &S, Secs) { put32(S, HDR(Flags), 6); },
     "unknown file flags"},
    {"FewerSections",
     [](std::string &S, Secs) { put32(S, HDR(NumSections), 6); },
     "bytes after the last of 6 sections"},
    {"MoreSections",
     [](std::string &S, Secs) { put32(S, HDR(NumSections), 9); },
     "section 8 of 9: header at offset"},
    {"UnknownKind",
     [](std::string &S, Secs X) { put32(S, X[1] + SEC(Kind), 10); },
     "unknown section kind 10"},
    // Checksums: not resealed. Each names what it covers.
    {"HeaderChecksum", [](std::string &S, Secs) { S[HDR(NumSections)] ^= 1; },
     "file header: checksum does not match its contents (the file is "
     "corrupt or was modified)",
     false},
    {"HeaderChecksumField",
     [](std::string &S, Secs) { S[HDR(Checksum) + 7] ^= 0x80; },
     "file header: checksum does not match", false},
    {"SectionPayload",
     [](std::string &S, Secs X) {
       S[X[3] + kNode0 + offsetof(raw::NodeRecord, Calls)] ^= 4;
     },
     "section 3 (thread): checksum does not match its contents (the file "
     "is corrupt or was modified)",
     false},
    {"SectionChecksumField",
     [](std::string &S, Secs X) { S[X[1] + SEC(Checksum)] ^= 1; },
     "section 1 (module): checksum does not match", false},
    {"SectionKind",
     [](std::string &S, Secs X) { put32(S, X[1] + SEC(Kind), 10); },
     "section 1 (kind 10): checksum does not match", false},
    // A smaller size still inside the file: the checksum covers other bytes.
    {"SectionSize", [](std::string &S, Secs X) { S[X[2] + SEC(Size)] ^= 8; },
     "section 2 (module): checksum does not match", false},
    {"LastByte", [](std::string &S, Secs) { S.back() ^= 0x10; },
     "section 7 (samples): checksum does not match", false},
    {"SizeNotMultipleOf8",
     [](std::string &S, Secs X) { put64(S, X[0] + SEC(Size), 57); },
     "size 57 is not a multiple of 8"},
    {"SectionOverrun",
     [](std::string &S, Secs X) { put64(S, X[4] + SEC(Size), 1 << 20); },
     "overrun the file"},
    {"ModuleBeforeProcess",
     [](std::string &S, Secs X) {
       S = reassemble(S, X, {1, 0, 2, 3, 4, 5, 6});
     },
     "module section before any process section"},
    {"ThreadBeforeProcess",
     [](std::string &S, Secs X) { S = reassemble(S, X, {3}); },
     "thread section before any process section"},
    {"ThreadBeforeModules",
     [](std::string &S, Secs X) {
       S = reassemble(S, X, {0, 1, 3, 2, 4, 5, 6});
     },
     "thread section after 1 of its 2 module sections"},
    {"NoProcess", [](std::string &S, Secs X) { S = reassemble(S, X, {}); },
     "contains no process"},
    {"TooFewModules",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, NumModules), 3);
     },
     "thread section after 2 of its 3 module sections"},
    {"TooManyModules",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, NumModules), 1);
     },
     "more module sections than its header says (1)"},
    {"TooFewThreads",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, NumThreads), 3);
     },
     "trace section after 2 of its 2 module sections and 2 of its 3 thread "
     "sections"},
    {"TooManyThreads",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, NumThreads), 1);
     },
     "more thread sections than its header says (1)"},
    {"TooFewTraces",
     [](std::string &S, Secs X) {
       S = reassemble(S, X, {0, 1, 2, 3, 4, 5, 6});
       put32(S, X[0] + PAY(ProcessRecord, NumTraces), 3);
     },
     "has 2 trace sections, its header says 3"},
    {"TooFewTracesBeforeSamples",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, NumTraces), 3);
     },
     "samples section before all of its module, thread, trace and strides "
     "sections"},
    {"TooManyTraces",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, NumTraces), 1);
     },
     "more trace sections than its header says (1)"},
    {"ThreadAfterTrace",
     [](std::string &S, Secs X) {
       S = reassemble(S, X, {0, 1, 2, 3, 5, 4, 6});
     },
     "trace section after 2 of its 2 module sections and 1 of its 2 thread "
     "sections"},
    {"TraceBeforeThreads",
     [](std::string &S, Secs X) {
       S = reassemble(S, X, {0, 1, 2, 5, 3, 4, 6});
     },
     "trace section after 2 of its 2 module sections and 0 of its 2 thread "
     "sections"},
    {"ProcessStridesCount",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, NumStrides), 1);
     },
     // The samples section that follows the traces comes too early.
     "samples section before all of its module, thread, trace and strides "
     "sections"},
    {"ProcessStridesOverModules",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, NumStrides), 3);
     },
     "process (pid 42): 3 strides sections for 2 modules"},
    {"OverheadSource",
     [](std::string &S, Secs X) {
       put32(S, X[0] + kProcOverhead + offsetof(raw::OverheadRecord, Source),
             3);
     },
     "unknown overhead source 3"},
    {"OverheadFlags",
     [](std::string &S, Secs X) {
       put32(S, X[0] + kProcOverhead + offsetof(raw::OverheadRecord, Flags), 9);
     },
     "unknown overhead flags 0x9"},
    {"TickStepBelowOneTick",
     [](std::string &S, Secs X) { put64(S, X[0] + kProcTickStep, 100); },
     "process (pid 42): tick step 100/256 ticks is below one tick"},
    {"CodeSamplingFlags",
     [](std::string &S, Secs X) { put32(S, X[0] + kProcCodeFlags, 0x50); },
     "process (pid 42): unknown code sampling flags 0x50"},
    {"ProcessBlockCounts",
     [](std::string &S, Secs X) { put32(S, X[0] + kProcBlockCounts, 2); },
     "process 0 (pid 42) has 0 block counts sections, its header says 2"},
    {"SwitchSource",
     [](std::string &S, Secs X) { put32(S, X[3] + kThreadSwitchSource, 3); },
     "thread 0 (tid 42): unknown switch source 3"},
    // Where v8 had a reserved 0, v9 counts the LatencyRecords.
    {"LatencyWithoutFlag",
     [](std::string &S, Secs X) { put32(S, X[3] + kThreadNumLatency, 9); },
     "thread 0 (tid 42): 9 latency buckets without the latency flag"},
    // Where v5 had a reserved 0, v6 counts the CountRecords.
    {"NumCountsMismatch",
     [](std::string &S, Secs X) { put32(S, X[3] + kThreadNumCounts, 9); },
     "thread 0 (tid 42): 4 nodes, 9 call counts, 3 code samples and 0 latency "
     "buckets need 560 bytes, the section has 464"},
    {"NumCodeSamplesMismatch",
     [](std::string &S, Secs X) { put32(S, X[3] + kThreadNumCode, 1); },
     "thread 0 (tid 42): 4 nodes, 3 call counts, 1 code samples and 0 latency "
     "buckets need 400 bytes, the section has 464"},
    {"CountFuncOutOfRange",
     [](std::string &S, Secs X) {
       put32(S, X[3] + kCount0 + 2 * kCountSize + kCountFunc, 3);
     },
     "thread 0 (tid 42): call count 2: function id 3 out of range"},
    {"CountsNotAscending",
     [](std::string &S, Secs X) {
       put32(S, X[3] + kCount0 + kCountSize + kCountFunc, 0);
     },
     "thread 0 (tid 42): call count 1: function ids not ascending"},
    {"CountsDuplicate",
     [](std::string &S, Secs X) {
       put32(S, X[3] + kCount0 + 2 * kCountSize + kCountFunc, 1);
     },
     "thread 0 (tid 42): call count 2: function ids not ascending"},
    {"CountZeroCalls",
     [](std::string &S, Secs X) {
       put64(S, X[3] + kCount0 + kCountSize + kCountCalls, 0);
     },
     "thread 0 (tid 42): call count 1: implausible count 0"},
    {"CountFlags",
     [](std::string &S, Secs X) { put32(S, X[3] + kCount0 + kCountFlags, 3); },
     "thread 0 (tid 42): call count 0: unknown flags 0x3"},
    {"CodeSampleNodeOutOfRange",
     [](std::string &S, Secs X) {
       put32(S, X[3] + kCode0 + kCodeSize + kCodeNode, 4);
     },
     "thread 0 (tid 42): code sample 1: node 4 out of range"},
    {"CodeSampleFlags",
     [](std::string &S, Secs X) { put32(S, X[3] + kCode0 + kCodeFlags, 8); },
     "thread 0 (tid 42): code sample 0: unknown flags 0x8"},
    {"CodeSampleZeroCount",
     [](std::string &S, Secs X) {
       put64(S, X[3] + kCode0 + 2 * kCodeSize + kCodeCount, 0);
     },
     "thread 0 (tid 42): code sample 2: implausible count 0"},
    {"OffCpuAboveIncl",
     [](std::string &S, Secs X) {
       put64(S, X[3] + kNode0 + kNodeOffCpu, 1001);
     },
     "node 0: off-CPU ticks 1001 exceed inclusive ticks 1000"},
    {"TraceCounts",
     [](std::string &S, Secs X) {
       put64(S, X[5] + PAY(TraceRecord, NumEvents), 5);
     },
     "trace 0 (tid 42): 5 events and 2 switch events do not match the "
     "section's 144 bytes"},
    {"TraceCountsHuge",
     [](std::string &S, Secs X) {
       put64(S, X[5] + PAY(TraceRecord, NumSwitches), ~uint64_t(0) / 8);
     },
     "do not match the section's"},
    {"TraceFuncOutOfRange",
     [](std::string &S, Secs X) {
       put32(S, X[5] + kEvent0 + kEventSize + kEventFunc, 3);
     },
     "trace 0 (tid 42): event 1: function id 3 out of range"},
    {"TraceEventKind",
     [](std::string &S, Secs X) { put32(S, X[5] + kEvent0 + kEventKind, 2); },
     "event 0: unknown event kind 2"},
    {"TraceEventReserved",
     [](std::string &S, Secs X) {
       put32(S, X[5] + kEvent0 + kEventReserved, 1);
     },
     "event 0: reserved field is 1, not 0"},
    {"TraceEventOrder",
     [](std::string &S, Secs X) {
       put64(S, X[5] + kEvent0 + 2 * kEventSize + kEventTick, 140);
     },
     "event 2: tick 140 is before the previous event's tick 150"},
    {"TraceSwitchNotThisThread",
     [](std::string &S, Secs X) {
       // After the 4 events, the first switch event.
       put64(S, X[5] + kEvent0 + 4 * kEventSize +
                    offsetof(raw::SwitchEvent, OldTid),
             7);
     },
     "switch event 0 does not switch the traced thread either out or in "
     "(old tid 7, new tid 0)"},
    {"TraceBeforeProcess",
     [](std::string &S, Secs X) { S = reassemble(S, X, {5}); },
     "trace section before any process section"},
    {"TickRateZero",
     [](std::string &S, Secs X) {
       put64(S, X[0] + PAY(ProcessRecord, TickRate), 0);
     },
     "tick rate is 0"},
    {"ProcessEndBeforeStart",
     [](std::string &S, Secs X) {
       put64(S, X[0] + PAY(ProcessRecord, EndTick), 1);
     },
     "end tick 1 is before start tick 10"},
    {"ExeLenOverrun",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, ExeLen), 1000);
     },
     "overrun the section"},
    {"ExeLenShort",
     [](std::string &S, Secs X) {
       put32(S, X[0] + PAY(ProcessRecord, ExeLen), 3);
     },
     "does not match its contents"},
    {"ModuleNameOverrun",
     [](std::string &S, Secs X) {
       put32(S, X[1] + PAY(ModuleRecord, NameLen), 4000);
     },
     "overrun the section"},
    {"FuncCountOverrun",
     [](std::string &S, Secs X) {
       put32(S, X[1] + PAY(ModuleRecord, NumFuncs), 1000000);
     },
     "function records overrun the section"},
    {"FuncNameOverrun",
     [](std::string &S, Secs X) {
       // First function record follows the module's name and path.
       size_t Off = X[1] + kPayload + sizeof(raw::ModuleRecord) +
                    strlen("main.c") + strlen("/usr/bin/app");
       put32(S, Off + offsetof(raw::FuncRecord, NameLen), 5000);
     },
     "function 0: name"},
    {"NodeCountMismatch",
     [](std::string &S, Secs X) {
       put32(S, X[3] + PAY(ThreadRecord, NumNodes), 5);
     },
     "5 nodes, 3 call counts, 3 code samples and 0 latency buckets need 544 "
     "bytes, the section has 464"},
    {"ParentNotBefore",
     [](std::string &S, Secs X) {
       put32(S, X[3] + kNode0 + kNodeSize * 2 + kNodeParent, 2);
     },
     "node 2: parent 2 does not precede it"},
    {"RootlessParentFirst",
     [](std::string &S, Secs X) { put32(S, X[3] + kNode0 + kNodeParent, 0); },
     "node 0: parent 0 does not precede it"},
    {"FuncOutOfRange",
     [](std::string &S, Secs X) {
       put32(S, X[3] + kNode0 + kNodeSize + kNodeFunc, 3);
     },
     "function id 3 out of range (the process has 3 functions)"},
    {"ExclAboveIncl",
     [](std::string &S, Secs X) { put64(S, X[3] + kNode0 + kNodeExcl, 1001); },
     "exclusive ticks 1001 exceed inclusive ticks 1000"},
    {"MinAboveMax",
     [](std::string &S, Secs X) { put64(S, X[3] + kNode0 + kNodeMin, 2000); },
     "minimum ticks 2000 exceed maximum ticks 900"},
    {"SampleThreadOutOfRange",
     [](std::string &S, Secs X) {
       put32(S, X[7] + kSample0 + kSampleThread, 5);
     },
     "sample 0: thread 5 out of range (the process has 2 threads)"},
    {"SampleNodeOutOfRange",
     [](std::string &S, Secs X) { put32(S, X[7] + kSample0 + kSampleNode, 9); },
     "sample 0: node 9 out of range (thread 0 has 4 nodes)"},
    {"SampleFlags",
     [](std::string &S, Secs X) {
       put32(S, X[7] + kSample0 + kSampleFlags, 0x100);
     },
     "sample 0: unknown flags 0x100"},
    {"SampleTickBackwards",
     [](std::string &S, Secs X) {
       put64(S, X[7] + kSample0 + kSampleSize + kSampleTick, 50);
     },
     "sample 1: tick 50 is before the previous sample's tick 100"},
    {"SampleCount",
     [](std::string &S, Secs X) {
       put64(S, X[7] + PAY(SamplesRecord, NumSamples), 99);
     },
     "99 samples do not match the section's 96 bytes"},
    {"SampleIntervalZero",
     [](std::string &S, Secs X) {
       put64(S, X[7] + PAY(SamplesRecord, IntervalTicks), 0);
     },
     "sampling interval is 0"},
    {"SamplesReserved",
     [](std::string &S, Secs X) {
       put32(S, X[7] + PAY(SamplesRecord, Reserved), 1);
     },
     "reserved field is not 0"},
    {"SamplesFlags",
     [](std::string &S, Secs X) {
       put32(S, X[7] + PAY(SamplesRecord, Flags), 4);
     },
     "unknown flags 0x4"},
    {"SamplesTooSmall",
     [](std::string &S, Secs X) {
       std::string Out = reassemble(S, X, {0, 1, 2, 3, 4, 5, 6});
       std::string Sec(kPayload + 16, '\0');
       put32(Sec, SEC(Kind), raw::SK_Samples);
       put64(Sec, SEC(Size), 16);
       Out += Sec;
       put64(Out, HDR(FileSize), Out.size());
       put32(Out, HDR(NumSections), 8);
       S = Out;
     },
     "section too small: 16 bytes, need 104"},
    {"SamplesBeforeThreads",
     [](std::string &S, Secs X) {
       S = reassemble(S, X, {0, 1, 2, 7, 3, 4, 5, 6});
     },
     "samples section before all of its module, thread, trace and strides "
     "sections"},
    {"TwoSampleSections",
     [](std::string &S, Secs X) {
       S = reassemble(S, X, {0, 1, 2, 3, 4, 5, 6, 7, 7});
     },
     "more than one samples section"},
    {"ThreadEndBeforeStart",
     [](std::string &S, Secs X) {
       put64(S, X[3] + PAY(ThreadRecord, EndTick), 5);
     },
     "end tick 5 is before start tick 20"},
};

INSTANTIATE_TEST_SUITE_P(
    All, ProfileCorruption, ::testing::ValuesIn(Corruptions),
    [](const ::testing::TestParamInfo<Corruption> &I) {
      return std::string(I.param.Name);
    });

TEST(ProfileIO, EveryTruncationRejected) {
  // Whatever the cut, the reader reports an error and never crashes.
  std::string Bytes = serialize(makeProfile());
  for (size_t N = 0; N < Bytes.size(); ++N)
    EXPECT_FALSE(bool(parse(StringRef(Bytes).take_front(N)))) << N;
}

TEST(ProfileIO, ByteFlipsNeverCrash) {
  // Flip each byte of the header, section headers and records; whatever is
  // accepted must still be internally consistent enough to re-serialize.
  std::string Bytes = serialize(makeProfile());
  for (size_t I = 0; I < Bytes.size(); ++I) {
    std::string Copy = Bytes;
    Copy[I] ^= 0xff;
    Expected<Profile> P = parse(Copy);
    if (!P) {
      consumeError(P.takeError());
      continue;
    }
    std::string Out;
    raw_string_ostream OS(Out);
    EXPECT_FALSE(bool(writeProfile(*P, OS))) << I;
  }
}

Profile withBinary(StringRef Exe, StringRef BuildId,
                   std::vector<uint64_t> MainHashes, uint64_t LibHash = 7) {
  Profile P;
  Process Pr;
  Pr.TickRate = 1000;
  Pr.Exe = Exe.str();
  Pr.BuildId = BuildId.str();
  for (uint64_t H : MainHashes)
    Pr.Modules.push_back({H, 0, 0, "m.c", Exe.str()});
  Pr.Modules.push_back({LibHash, 0, 0, "lib.c", "/lib/libz.so"});
  P.Processes.push_back(std::move(Pr));
  return P;
}

std::string mergeError(std::vector<NamedProfile> In) {
  Expected<Profile> P = mergeProfiles(std::move(In));
  if (P)
    return "<no error>";
  return toString(P.takeError());
}

TEST(ProfileMerge, ConcatenatesProcesses) {
  Profile A = makeProfile(), B = makeProfile();
  B.Processes[0].Pid = 43;
  Profile AB = makeProfile();
  AB.Processes.push_back(B.Processes[0]);
  AB.Merged = true;
  Expected<Profile> M = mergeProfiles({{"a", A}, {"b", B}});
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_TRUE(M->Merged);
  ASSERT_EQ(M->Processes.size(), 2u);
  EXPECT_EQ(M->Processes[0].Pid, 42u);
  EXPECT_EQ(M->Processes[1].Pid, 43u);
  expectEqual(*M, AB);
  // The merged file, written and read back: every v6 record (call counts,
  // code samples, the process's timing and sampling fields) survives.
  Expected<Profile> R = parse(serialize(*M));
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  expectEqual(*R, AB);
  ASSERT_EQ(R->Processes[1].Threads[0].Counts.size(), 3u);
  EXPECT_TRUE(R->Processes[1].Threads[0].Counts[2].Counted);
  EXPECT_EQ(R->Processes[1].Threads[0].Counts[2].Calls, 106u);
  ASSERT_EQ(R->Processes[1].Threads[0].CodeSamples.size(), 3u);
  EXPECT_EQ(R->Processes[1].Threads[0].CodeSamples[2].Node, raw::kNoNode);
  EXPECT_EQ(R->Processes[1].Threads[0].CodeSamples[1].Flags,
            uint32_t(raw::CSR_Counting));
  EXPECT_EQ(R->Processes[1].TimingThreshold, 1234u);
  EXPECT_TRUE(R->Processes[1].Overhead.Measured);
  EXPECT_EQ(serialize(*R), serialize(*M));
  // Merging a merged profile again keeps all blocks.
  Profile C = makeProfile();
  C.Processes[0].Pid = 44;
  Expected<Profile> M2 = mergeProfiles({{"m", *M}, {"c", C}});
  ASSERT_TRUE(bool(M2));
  EXPECT_EQ(M2->Processes.size(), 3u);
  // The same run twice (a merged file and one of its inputs) would count
  // its calls twice: refused, naming both.
  Expected<Profile> Twice = mergeProfiles({{"m.raw", *M}, {"a.raw", A}});
  ASSERT_FALSE(bool(Twice));
  EXPECT_EQ(toString(Twice.takeError()),
            "a.raw: process 42 is already in m.raw (the same run given twice "
            "would count its calls twice)");
  EXPECT_FALSE(bool(mergeProfiles({})));
}

TEST(ProfileMerge, BuildIdDecides) {
  // Same build id: same binary, even if renamed.
  EXPECT_EQ(mergeError({{"a", withBinary("/x/app", "\x01", {1})},
                        {"b", withBinary("/y/renamed", "\x01", {2})}}),
            "<no error>");
  std::string Msg = mergeError({{"a.raw", withBinary("/x/app", "\x01", {1})},
                                {"b.raw", withBinary("/x/app", "\x02", {1})}});
  EXPECT_EQ(Msg, "b.raw: profile is from a different binary than a.raw "
                 "(/x/app build-id 02 vs /x/app build-id 01)");
}

TEST(ProfileMerge, WithoutBuildIdNameAndMainModules) {
  // Directory may differ, shared library modules may differ.
  EXPECT_EQ(mergeError({{"a", withBinary("/x/app", "", {1, 2}, 7)},
                        {"b", withBinary("/y/app", "", {2, 1}, 8)}}),
            "<no error>");
  // One side with a build id, the other without: fall back to names.
  EXPECT_EQ(mergeError({{"a", withBinary("/x/app", "\x01", {1})},
                        {"b", withBinary("/x/app", "", {1})}}),
            "<no error>");
  EXPECT_EQ(mergeError({{"a", withBinary("/x/app", "", {1})},
                        {"b", withBinary("/x/other", "", {1})}}),
            "b: profile is from a different binary than a (/x/other vs "
            "/x/app)");
  EXPECT_NE(mergeError({{"a", withBinary("/x/app", "", {1})},
                        {"b", withBinary("/x/app", "", {1, 3})}})
                .find("different binary"),
            std::string::npos);
  // The third input is checked against the first, too.
  EXPECT_NE(mergeError({{"a", withBinary("/x/app", "", {1})},
                        {"b", withBinary("/x/app", "", {1})},
                        {"c", withBinary("/x/app", "", {2})}})
                .find("c: profile is from a different binary than a"),
            std::string::npos);
}

/// Whether RawMapping<Rec> is defined (the primary template is not).
template <class Rec, class = void> struct HasMapping : std::false_type {};
template <class Rec>
struct HasMapping<Rec, std::void_t<decltype(sizeof(RawMapping<Rec>))>>
    : std::true_type {};

/// The records without a model object, whose sections' code reads and
/// writes all of them.
const std::set<std::string> kUnmappedRecords = {
    "FileHeader", "SectionHeader", "StridesRecord", "BlockCountsRecord"};

// Every byte of every raw record RawData.inc lists is either mapped by its
// RawMapping or owned by the section code (sectionOwned), exactly once: a
// field added to RawData.inc fails this test until its mapping says which.
// A mapping is in RawMapping.h or, registered, in its section's file.
template <class Rec> std::string coverage(const std::string &Name) {
  const MappedRecord *Registered = MappedRecord::find(Name);
  if constexpr (HasMapping<Rec>::value) {
    if (kUnmappedRecords.count(Name))
      return "has a mapping but is listed as unmapped";
    if (Registered)
      return "is mapped twice (RawMapping.h and a registration)";
    return mappingCoverage<Rec>();
  } else {
    if (Registered)
      return Registered->Coverage();
    if (!kUnmappedRecords.count(Name))
      return "has no RawMapping";
    return "";
  }
}

TEST(RawMapping, EveryRecordFieldMappedOrOwned) {
  unsigned Records = 0;
#define AT_RAW_RECORD(Name, Size, Doc)                                         \
  ++Records;                                                                   \
  EXPECT_EQ(coverage<raw::Name>(#Name), "") << #Name;
#include "activetime/RawData.inc"
  EXPECT_GT(Records, 0u);
}

// The sections makeProfile leaves out: strides (two modules) and parallel.
TEST(ProfileIO, RoundTripStridesAndParallel) {
  Profile P = makeProfile();
  Process &Pr = P.Processes[0];
  MemSite S;
  S.Hash = 0xabc;
  S.StaticStride = -8;
  S.Line = 12;
  S.Column = 5;
  S.AccessSize = 8;
  S.Flags = activetime::abi::MS_InLoop;
  S.LoopLine = 10;
  S.LoopDepth = 1;
  S.Executions = 100;
  S.Observations = 50;
  S.Differences = 40;
  S.Adjacent = 30;
  S.ZeroDiffs = 1;
  S.Gcd = 8;
  S.Dominant = -8;
  S.DominantCount = 20;
  S.IterTicks = 2000;
  S.ProbeTicks = 300;
  S.MinStepTicks = 60;
  S.Func = "main";
  S.File = "src/main.c";
  Pr.Sites = {S, S, S};
  Pr.Sites[1].Hash = 0xabd;
  Pr.Sites[2].Module = 1;
  Pr.Sites[2].File = "";
  // Sites 0 and 1: an unproven copy group, 1 naming 0 as its previous copy
  // with the offsets the runtime observed.
  for (MemSite &C : {std::ref(Pr.Sites[0]), std::ref(Pr.Sites[1])}) {
    C.Flags |= activetime::abi::MS_CopyUnproven;
    C.CopyGroup = 1;
  }
  Pr.Sites[1].CopyPrev = 1;
  Pr.Sites[1].PrevOffset = -56;
  Pr.Sites[1].PrevPairs = 30;
  Pr.Sites[1].PrevOffsetCount = 29;
  Parallel &Par = Pr.Par;
  Par.Present = true;
  Par.Status = raw::OS_Ompt;
  Par.LostEvents = 3;
  Par.Regions = {{0x1234, "/usr/bin/app", 4, 900, 8},
                 {0x99, "/usr/lib/libx.so", 1, 50, 2}};
  RegionThread E;
  E.Region = 1;
  E.Tid = 43;
  for (uint32_t I = 0; I < raw::kNumWorkerStates; ++I) {
    E.StateTicks[I] = 10 + I;
    for (uint32_t J = 0; J < raw::kNumWorkerStates; ++J)
      E.Transitions[I][J] = I * 4 + J;
  }
  E.LocalTakes = 5;
  E.StolenTakes = 6;
  E.TasksCreated = 7;
  E.Chunks = 8;
  E.WaitEntries = 9;
  Par.Entries = {E};

  std::string Bytes = serialize(P);
  Expected<Profile> Q = parse(Bytes);
  ASSERT_TRUE(bool(Q)) << toString(Q.takeError());
  EXPECT_EQ(serialize(*Q), Bytes);
  const Process &X = Q->Processes[0];
  ASSERT_EQ(X.Sites.size(), 3u);
  EXPECT_EQ(X.Sites[1].Hash, 0xabdu);
  EXPECT_EQ(X.Sites[2].Module, 1u);
  EXPECT_EQ(X.Sites[0].StaticStride, -8);
  EXPECT_EQ(X.Sites[0].Dominant, -8);
  EXPECT_EQ(X.Sites[0].MinStepTicks, 60u);
  EXPECT_EQ(X.Sites[0].File, "src/main.c");
  EXPECT_EQ(X.Sites[1].CopyPrev, 1u);
  EXPECT_EQ(X.Sites[1].PrevOffset, -56);
  EXPECT_EQ(X.Sites[1].PrevPairs, 30u);
  EXPECT_EQ(X.Sites[1].PrevOffsetCount, 29u);
  ASSERT_TRUE(X.Par.Present);
  EXPECT_EQ(X.Par.LostEvents, 3u);
  ASSERT_EQ(X.Par.Regions.size(), 2u);
  EXPECT_EQ(X.Par.Regions[1].Path, "/usr/lib/libx.so");
  EXPECT_EQ(X.Par.Regions[1].MaxWorkers, 2u);
  ASSERT_EQ(X.Par.Entries.size(), 1u);
  EXPECT_EQ(X.Par.Entries[0].Transitions[3][2], 14u);
  EXPECT_EQ(X.Par.Entries[0].StateTicks[2], 12u);
  EXPECT_EQ(X.Par.Entries[0].WaitEntries, 9u);
}

TEST(ProfileIO, CopyGroupsOfAnyId) {
  // ~0 and ~0 - 1 are a hash map's reserved keys; a file may hold them.
  Profile P = makeProfile();
  MemSite S;
  S.Func = "main";
  S.AccessSize = 8;
  std::vector<MemSite> &Sites = P.Processes[0].Sites;
  Sites = {S, S, S, S};
  Sites[0].CopyGroup = Sites[2].CopyGroup = UINT32_MAX;
  Sites[1].CopyGroup = Sites[3].CopyGroup = UINT32_MAX - 1;
  Sites[1].Flags = Sites[3].Flags = activetime::abi::MS_CopyUnproven;
  Sites[3].CopyPrev = 2; // site 1, the group's previous
  Expected<Profile> Q = parse(serialize(P));
  ASSERT_TRUE(bool(Q)) << toString(Q.takeError());
  EXPECT_EQ(Q->Processes[0].Sites[3].CopyGroup, UINT32_MAX - 1);
  // The group of ~0 is proven: an unproven copy in it is refused.
  Sites[2].Flags = activetime::abi::MS_CopyUnproven;
  Q = parse(serialize(P));
  ASSERT_FALSE(bool(Q));
  EXPECT_NE(toString(Q.takeError()).find("copy group 4294967295 mixes"),
            std::string::npos);
}

TEST(ProfileIO, ProbeLeads) {
  // Site 1 measured by site 0's probe, 8 bytes below it: the lead's
  // figures.
  Profile P = makeProfile();
  MemSite S;
  S.Func = "main";
  S.AccessSize = 8;
  S.Executions = 100;
  S.Observations = 10;
  std::vector<MemSite> &Sites = P.Processes[0].Sites;
  Sites = {S, S, S};
  Sites[1].ProbeLead = 1;
  Sites[1].LeadOffset = -8;
  Sites[2].Flags = activetime::abi::MS_Static;
  Sites[2].Executions = Sites[2].Observations = 0;
  P.Processes[0].ProbeGapTicks = 37;
  std::string Bytes = serialize(P);
  Expected<Profile> Q = parse(Bytes);
  ASSERT_TRUE(bool(Q)) << toString(Q.takeError());
  EXPECT_EQ(serialize(*Q), Bytes);
  EXPECT_EQ(Q->Processes[0].Sites[1].ProbeLead, 1u);
  EXPECT_EQ(Q->Processes[0].Sites[1].LeadOffset, -8);
  EXPECT_EQ(Q->Processes[0].ProbeGapTicks, 37u);

  auto Refused = [&](function_ref<void(std::vector<MemSite> &)> Damage,
                     StringRef Why) {
    Profile D = P;
    Damage(D.Processes[0].Sites);
    Expected<Profile> R = parse(serialize(D));
    ASSERT_FALSE(bool(R)) << Why.str();
    std::string Msg = toString(R.takeError());
    EXPECT_NE(Msg.find(Why.str()), std::string::npos) << Msg;
  };
  Refused([](auto &S) { S[1].ProbeLead = 2; },
          "site 1: probe lead 2 is not an earlier site");
  Refused([](auto &S) { S[0].ProbeLead = 1; },
          "site 0: probe lead 1 is not an earlier site");
  Refused([](auto &S) { S[2].ProbeLead = 2; },
          "site 2: static site or unproven copy with a probe lead (2)");
  Refused(
      [](auto &S) {
        S.push_back(S[1]);
        S[3].ProbeLead = 2;
      },
      "site 3: probe lead 2 has no probe of its own");
  Refused([](auto &S) { S[1].Executions = 99; },
          "site 1: 99 executions, 10 observed, but its probe lead 1 has "
          "100 and 10");
  Refused([](auto &S) { S[0].LeadOffset = 8; },
          "site 0: offset 8 from a probe lead it does not have");
}

/// Two linked objects' block counts: the first with two functions, their
/// counters and values, the second empty.
static Profile makeBlockCountsProfile() {
  Profile P = makeProfile();
  BlockCountTable T;
  T.Funcs = {{0x1111, 0xaaaa, 0, 3, 1, 0}, {0x2222, 0xbbbb, 3, 1, 0, 2}};
  T.Counters = {7, 5, 2, 9};
  T.Values = {{0, 0, 0, 0x2222, 4}, {1, 1, 1, 8, 6}};
  T.Names = std::string("\x05\x00main\x00", 7);
  T.ValuesLost = 2;
  P.Processes[0].BlockCounts = {T, BlockCountTable()};
  return P;
}

TEST(ProfileIO, RoundTripBlockCounts) {
  std::string Bytes = serialize(makeBlockCountsProfile());
  Expected<Profile> Q = parse(Bytes);
  ASSERT_TRUE(bool(Q)) << toString(Q.takeError());
  EXPECT_EQ(serialize(*Q), Bytes);
  const std::vector<BlockCountTable> &B = Q->Processes[0].BlockCounts;
  ASSERT_EQ(B.size(), 2u);
  ASSERT_EQ(B[0].Funcs.size(), 2u);
  EXPECT_EQ(B[0].Funcs[1].NameRef, 0x2222u);
  EXPECT_EQ(B[0].Funcs[1].FirstCounter, 3u);
  EXPECT_EQ(B[0].Funcs[1].MemOpSites, 2u);
  EXPECT_EQ(B[0].Counters, (std::vector<uint64_t>{7, 5, 2, 9}));
  ASSERT_EQ(B[0].Values.size(), 2u);
  EXPECT_EQ(B[0].Values[1].Kind, 1u);
  EXPECT_EQ(B[0].Values[1].Count, 6u);
  EXPECT_EQ(B[0].Names.size(), 7u);
  EXPECT_EQ(B[0].ValuesLost, 2u);
  EXPECT_TRUE(B[1].Funcs.empty());
}

TEST(ProfileIO, BlockCountsRejected) {
  struct Case {
    const char *Name;
    void (*Damage)(BlockCountTable &T);
    const char *Error;
  } Cases[] = {
      {"CountersOverrun", [](BlockCountTable &T) { T.Funcs[1].NumCounters = 2; },
       "block counts 0 of process (pid 42): function 1's counters [3, +2) "
       "overrun the 4 counts"},
      {"ValueFunction", [](BlockCountTable &T) { T.Values[0].Func = 2; },
       "block counts 0 of process (pid 42): value 0: function 2 out of "
       "range"},
      {"ValueKind", [](BlockCountTable &T) { T.Values[0].Kind = 2; },
       "block counts 0 of process (pid 42): value 0: unknown value kind 2"},
      {"ValueSite", [](BlockCountTable &T) { T.Values[1].Site = 2; },
       "block counts 0 of process (pid 42): value 1: site 2 of a function "
       "with 2"},
  };
  for (const Case &C : Cases) {
    Profile P = makeBlockCountsProfile();
    C.Damage(P.Processes[0].BlockCounts[0]);
    // The writer writes what it is given; the reader refuses it.
    std::string Bytes;
    raw_string_ostream OS(Bytes);
    if (Error E = writeProfile(P, OS))
      FAIL() << C.Name << ": " << toString(std::move(E));
    OS.flush();
    Expected<Profile> Q = parse(Bytes);
    ASSERT_FALSE(bool(Q)) << C.Name;
    EXPECT_EQ(toString(Q.takeError()), C.Error) << C.Name;
  }
}

} // namespace
