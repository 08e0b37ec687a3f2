//===- RuntimeTestSupport.h - shared pieces of the runtime unit tests -----===//
//
// The fixture that gives each test a fresh thread state and module registry,
// a parser of the raw profile image the writer builds, and a fake perf ring
// (a perf_event_mmap_page image and its data area) for the switch and code
// sample records. Shared by RuntimeTest.cpp, CountsTest.cpp,
// CodeSamplesTest.cpp and UnwindTest.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_UNITTESTS_RUNTIME_SUPPORT_H
#define ACTIVETIME_UNITTESTS_RUNTIME_SUPPORT_H

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "activetime/latency.h"
#include "activetime/raw_format.h"
#include "activetime_calltree.h"
#include "activetime_checksum.h"
#include "activetime_counts.h"
#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_module.h"
#include "activetime_thread.h"

#include <linux/perf_event.h>

namespace attest {

using namespace __activetime;
namespace atabi = activetime::abi;
namespace raw = activetime::raw;

// Registers M as its module constructor would. ResetModulesForTesting
// forgets the registry but not ModuleDesc::RuntimeData, which
// RegisterModule now takes as "registered already": a static descriptor
// registered by an earlier test must be cleared first.
inline void RegisterFresh(atabi::ModuleDesc *M) {
  M->RuntimeData = nullptr;
  __activetime_register_module(M);
}

// The current thread's tree: node I, and the first child of Parent for F
// (any call site; 0 if none).
inline Node *NodeOf(u32 I) { return at_tls.Tree->At(I); }
inline u32 ChildOf(u32 Parent, const atabi::FuncDesc *F) {
  for (u32 I = Parent + 1; I < at_tls.Tree->Size(); ++I)
    if (NodeOf(I)->Parent == Parent && NodeOf(I)->Fn == F)
      return I;
  return 0;
}

// Every test starts with a fresh thread state (the next probe creates it)
// and no modules; no real switch source, no overhead table, every call
// timed (timing threshold 0) unless the test sets them.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    EnsureInit();
    Saved = *flags();
    SavedThreshold = TimingThreshold();
    flags()->switch_source = SwitchSourceFlag::None;
    flags()->mode = RunMode::Profile;
    SetOverheadForTesting(0, 0);
    SetTimingThreshold(0);
    ResetThreadsForTesting();
    ResetModulesForTesting();
  }
  void TearDown() override {
    ResetThreadsForTesting();
    ResetModulesForTesting();
    *flags() = Saved;
    SetOverheadForTesting(0, 0);
    SetTimingThreshold(SavedThreshold);
  }
  Flags Saved;
  u64 SavedThreshold = 0;
};

// ---- a module with counters (CountsTest.cpp) ---------------------------

// The instrumented module of an executable as the pass emits it (abi.h,
// "Timed or counted"): its own thread-local pointer to the thread's array of
// its counters, starting at its bootstrap array, whose address its
// constructor stores into ModuleDesc::CountsTls. Functions P, F, G, H, K.
constexpr u32 kCountedFuncs = 5;
extern atabi::FuncDesc CountedFuncs[kCountedFuncs];
extern atabi::ModuleDesc CountedModule;

// Points this thread's pointer back at the (zeroed) bootstrap array and
// registers the module as its constructor would.
void RegisterCountedModule();

// The calling thread's counter pointer of the module.
u64 *CountedPointer();
u64 *CountedBootstrap();

// The entry of a call of CountedFuncs[I] as compiled: the inline increment,
// then the entry probe (with an injected tick) if the counter says timed.
// Returns whether the call is timed; its exits take the same decision.
bool CountedEnter(u32 I, uptr Frame, u64 Now);
void CountedExit(u32 I, uptr Frame, u64 Now, bool Timed);
// One whole call of Len ticks from Start.
bool CountedCall(u32 I, uptr Frame, u64 Start, u64 Len);

// ---- the raw image -----------------------------------------------------

struct Parsed {
  raw::FileHeader H;
  raw::ProcessRecord P;
  std::vector<raw::ModuleRecord> Mods;
  std::vector<std::vector<std::string>> ModFuncNames;
  std::vector<raw::ThreadRecord> Threads;
  std::vector<std::vector<raw::NodeRecord>> Nodes;
  std::vector<std::vector<raw::CountRecord>> Counts;            // per thread
  std::vector<std::vector<raw::CodeSampleRecord>> CodeSamples;
  std::vector<std::vector<raw::LatencyRecord>> Latency;      // per thread
  std::vector<raw::TraceRecord> Traces;
  std::vector<std::vector<raw::TraceEvent>> TraceEvents;
  std::vector<std::vector<raw::SwitchEvent>> TraceSwitches;
};

// Parses and checks the layout (v6: a thread section is its record, the
// nodes, the count records, then the code sample records) and the
// checksums (v8).
inline ::testing::AssertionResult Parse(const char *Data, size_t Size, Parsed &Out) {
  if (Size < sizeof(raw::FileHeader))
    return ::testing::AssertionFailure() << "short";
  std::memcpy(&Out.H, Data, sizeof(Out.H));
  if (std::memcmp(Out.H.Magic, raw::kMagic, 8) != 0)
    return ::testing::AssertionFailure() << "magic";
  if (Out.H.FileSize != Size || Out.H.HeaderSize != sizeof(raw::FileHeader))
    return ::testing::AssertionFailure() << "sizes";
  if (Out.H.Checksum != Checksum64(Data, raw::kFileHeaderChecksummed))
    return ::testing::AssertionFailure() << "header checksum";
  size_t Off = sizeof(raw::FileHeader);
  for (uint32_t S = 0; S < Out.H.NumSections; ++S) {
    raw::SectionHeader SH;
    if (Off + sizeof(SH) > Size || Off % 8)
      return ::testing::AssertionFailure() << "section header at " << Off;
    std::memcpy(&SH, Data + Off, sizeof(SH));
    Off += sizeof(SH);
    if (SH.Size % 8 || Off + SH.Size > Size)
      return ::testing::AssertionFailure() << "section size";
    // Kind, Size and the payload (raw_format.h, "Checksums").
    const char *Sum = Data + Off - sizeof(SH) + raw::kSectionChecksumFrom;
    if (SH.Checksum != (uint32_t)Checksum64(Sum, Data + Off + SH.Size - Sum))
      return ::testing::AssertionFailure() << "section " << S << " checksum";
    const char *P = Data + Off;
    if (SH.Kind == raw::SK_Process) {
      if (S != 0)
        return ::testing::AssertionFailure() << "process not first";
      std::memcpy(&Out.P, P, sizeof(Out.P));
      size_t Need = sizeof(Out.P) + Out.P.ExeLen + Out.P.BuildIdLen;
      if ((Need + 7) / 8 * 8 != SH.Size)
        return ::testing::AssertionFailure() << "process size";
      if (Out.P.Reserved)
        return ::testing::AssertionFailure() << "process reserved";
    } else if (SH.Kind == raw::SK_Module) {
      raw::ModuleRecord MR;
      std::memcpy(&MR, P, sizeof(MR));
      Out.Mods.push_back(MR);
      size_t Q = sizeof(MR) + MR.NameLen + MR.PathLen;
      std::vector<std::string> Names;
      for (uint32_t F = 0; F < MR.NumFuncs; ++F) {
        raw::FuncRecord FR;
        std::memcpy(&FR, P + Q, sizeof(FR));
        Q += sizeof(FR);
        Names.emplace_back(P + Q, FR.NameLen);
        Q += FR.NameLen + FR.FileLen;
      }
      Out.ModFuncNames.push_back(Names);
      if ((Q + 7) / 8 * 8 != SH.Size)
        return ::testing::AssertionFailure() << "module size";
    } else if (SH.Kind == raw::SK_Thread) {
      raw::ThreadRecord TR;
      std::memcpy(&TR, P, sizeof(TR));
      Out.Threads.push_back(TR);
      size_t NodesBytes = size_t(TR.NumNodes) * sizeof(raw::NodeRecord);
      size_t CountsBytes = size_t(TR.NumCounts) * sizeof(raw::CountRecord);
      size_t CodeBytes = size_t(TR.NumCodeSamples) * sizeof(raw::CodeSampleRecord);
      size_t LatBytes = size_t(TR.NumLatency) * sizeof(raw::LatencyRecord);
      if (sizeof(TR) + NodesBytes + CountsBytes + CodeBytes + LatBytes !=
          SH.Size)
        return ::testing::AssertionFailure() << "thread size";
      if (TR.NumLatency && !(TR.Flags & raw::TF_Latency))
        return ::testing::AssertionFailure() << "latency without its flag";
      std::vector<raw::NodeRecord> Ns(TR.NumNodes);
      if (TR.NumNodes)
        std::memcpy(Ns.data(), P + sizeof(TR), NodesBytes);
      for (uint32_t I = 0; I < TR.NumNodes; ++I)
        if (Ns[I].Parent != raw::kNoParent && Ns[I].Parent >= I)
          return ::testing::AssertionFailure() << "parent order";
      Out.Nodes.push_back(Ns);
      std::vector<raw::CountRecord> Cs(TR.NumCounts);
      if (TR.NumCounts)
        std::memcpy(Cs.data(), P + sizeof(TR) + NodesBytes, CountsBytes);
      for (uint32_t I = 0; I < TR.NumCounts; ++I) {
        if (I && Cs[I].Func <= Cs[I - 1].Func)
          return ::testing::AssertionFailure() << "counts not ascending";
        if (!Cs[I].Calls || (Cs[I].Flags & ~uint32_t(raw::CR_Known)))
          return ::testing::AssertionFailure() << "count record " << I;
      }
      Out.Counts.push_back(Cs);
      std::vector<raw::CodeSampleRecord> Ss(TR.NumCodeSamples);
      if (TR.NumCodeSamples)
        std::memcpy(Ss.data(), P + sizeof(TR) + NodesBytes + CountsBytes, CodeBytes);
      for (uint32_t I = 0; I < TR.NumCodeSamples; ++I)
        if (!Ss[I].Count || (Ss[I].Flags & ~uint32_t(raw::CSR_Known)) ||
            (Ss[I].Node != raw::kNoNode && Ss[I].Node >= TR.NumNodes))
          return ::testing::AssertionFailure() << "code sample record " << I;
      Out.CodeSamples.push_back(Ss);
      // Latency (v9): ascending (node, bucket); each node's counts sum to
      // its calls (at most, with sampled calls set apart, v10).
      std::vector<raw::LatencyRecord> Ls(TR.NumLatency);
      if (TR.NumLatency)
        std::memcpy(Ls.data(),
                    P + sizeof(TR) + NodesBytes + CountsBytes + CodeBytes,
                    LatBytes);
      std::vector<uint64_t> Sums(TR.NumNodes);
      for (uint32_t I = 0; I < TR.NumLatency; ++I) {
        const raw::LatencyRecord &L = Ls[I];
        if (L.Node >= TR.NumNodes || !L.Count ||
            L.Bucket >= activetime::latency::kLatencyBuckets ||
            (I && (L.Node < Ls[I - 1].Node ||
                   (L.Node == Ls[I - 1].Node && L.Bucket <= Ls[I - 1].Bucket))))
          return ::testing::AssertionFailure() << "latency record " << I;
        Sums[L.Node] += L.Count;
      }
      bool Apart = TR.Flags & raw::TF_SampledCallsApart;
      for (uint32_t I = 0; (TR.Flags & raw::TF_Latency) && I < TR.NumNodes; ++I)
        if (Apart ? Sums[I] > Ns[I].Calls : Sums[I] != Ns[I].Calls)
          return ::testing::AssertionFailure()
                 << "node " << I << ": latency counts " << Sums[I] << " != calls "
                 << Ns[I].Calls;
      Out.Latency.push_back(Ls);
    } else if (SH.Kind == raw::SK_Trace) {
      if (Out.Threads.size() != Out.P.NumThreads)
        return ::testing::AssertionFailure() << "trace before the last thread";
      raw::TraceRecord TR;
      std::memcpy(&TR, P, sizeof(TR));
      Out.Traces.push_back(TR);
      size_t Need = sizeof(TR) + TR.NumEvents * sizeof(raw::TraceEvent) +
                    TR.NumSwitches * sizeof(raw::SwitchEvent);
      if ((Need + 7) / 8 * 8 != SH.Size)
        return ::testing::AssertionFailure() << "trace size";
      std::vector<raw::TraceEvent> Ev(TR.NumEvents);
      if (TR.NumEvents)
        std::memcpy(Ev.data(), P + sizeof(TR), TR.NumEvents * sizeof(raw::TraceEvent));
      std::vector<raw::SwitchEvent> Sw(TR.NumSwitches);
      if (TR.NumSwitches)
        std::memcpy(Sw.data(), P + sizeof(TR) + TR.NumEvents * sizeof(raw::TraceEvent),
                    TR.NumSwitches * sizeof(raw::SwitchEvent));
      Out.TraceEvents.push_back(Ev);
      Out.TraceSwitches.push_back(Sw);
    } else {
      return ::testing::AssertionFailure() << "bad kind " << SH.Kind;
    }
    Off += SH.Size;
  }
  if (Off != Size)
    return ::testing::AssertionFailure() << "trailing bytes";
  if (Out.Mods.size() != Out.P.NumModules || Out.Threads.size() != Out.P.NumThreads ||
      Out.Traces.size() != Out.P.NumTraces)
    return ::testing::AssertionFailure() << "counts";
  return ::testing::AssertionSuccess();
}

// ---- a fake perf ring --------------------------------------------------

// A perf_event_mmap_page image followed by the data area. Records are
// written at the head (wrapping around the end) and published.
struct FakeRing {
  static constexpr size_t kPage = 4096;
  explicit FakeRing(size_t DataSize) : Mem(kPage + DataSize + 64, 0) {
    Page = (perf_event_mmap_page *)Aligned();
    Page->data_offset = kPage;
    Page->data_size = DataSize;
    Page->time_zero = 0; // tick = time: identity conversion
    Page->time_mult = 1;
    Page->time_shift = 0;
    Size = DataSize;
  }
  char *Aligned() { return (char *)(((uintptr_t)Mem.data() + 63) & ~uintptr_t(63)); }
  void Put(const void *P, size_t N) {
    char *Data = (char *)Page + kPage;
    for (size_t I = 0; I < N; ++I)
      Data[(Head + I) % Size] = ((const char *)P)[I];
    Head += N;
  }
  void Switch(uint64_t Time, bool Out, bool Preempt = false) {
    perf_event_header H = {PERF_RECORD_SWITCH,
                           (uint16_t)((Out ? PERF_RECORD_MISC_SWITCH_OUT : 0) |
                                      (Preempt ? PERF_RECORD_MISC_SWITCH_OUT_PREEMPT : 0)),
                           24};
    uint32_t PidTid[2] = {1, 1};
    Put(&H, sizeof(H));
    Put(PidTid, 8);
    Put(&Time, 8);
  }
  void Interval(uint64_t Out, uint64_t In, bool Preempt = false) {
    Switch(Out, true, Preempt);
    Switch(In, false);
  }
  void Lost(uint64_t N) {
    perf_event_header H = {PERF_RECORD_LOST, 0, 40};
    uint64_t Id = 7, Sample[2] = {0, 0};
    Put(&H, sizeof(H));
    Put(&Id, 8);
    Put(&N, 8);
    Put(Sample, 16);
  }
  // A code sample as the runtime's sampler asks for it: PERF_SAMPLE_IP
  // alone (no stacks), ...
  void Sample(uint64_t Ip, bool Kernel = false) {
    perf_event_header H = {PERF_RECORD_SAMPLE,
                           (uint16_t)(Kernel ? PERF_RECORD_MISC_KERNEL
                                             : PERF_RECORD_MISC_USER),
                           16};
    Put(&H, sizeof(H));
    Put(&Ip, 8);
  }
  // ... or with the user registers (bp, sp, ip) and a copy of the user
  // stack from sp up (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER).
  void StackSample(uint64_t Ip, bool Kernel, uint64_t Bp, uint64_t Sp, uint64_t UserIp,
                   const void *Stack, uint64_t StackBytes) {
    uint64_t Size = (StackBytes + 7) & ~uint64_t(7);
    perf_event_header H = {PERF_RECORD_SAMPLE,
                           (uint16_t)(Kernel ? PERF_RECORD_MISC_KERNEL
                                             : PERF_RECORD_MISC_USER),
                           (uint16_t)(8 + 8 + 8 + 24 + 8 + Size + 8)};
    uint64_t Abi = 2; // PERF_SAMPLE_REGS_ABI_64
    uint64_t Regs[3] = {Bp, Sp, UserIp};
    Put(&H, sizeof(H));
    Put(&Ip, 8);
    Put(&Abi, 8);
    Put(Regs, sizeof(Regs));
    Put(&Size, 8);
    std::vector<char> Copy(Size, 0);
    std::memcpy(Copy.data(), Stack, StackBytes);
    Put(Copy.data(), Size);
    Put(&StackBytes, 8); // dyn_size
  }
  void Publish() { __atomic_store_n(&Page->data_head, Head, __ATOMIC_RELEASE); }
  std::vector<char> Mem;
  perf_event_mmap_page *Page;
  size_t Size;
  uint64_t Head = 0;
};

} // namespace attest

#endif // ACTIVETIME_UNITTESTS_RUNTIME_SUPPORT_H
