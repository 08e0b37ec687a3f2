//===- RuntimeTestSupport.h - shared pieces of the runtime unit tests -----===//
//
// The fixture that gives each test a fresh thread state and module registry,
// the raw profile image the writer builds as the tool's reader reads it, and
// a fake perf ring
// (a perf_event_mmap_page image and its data area) for the switch and code
// sample records. Shared by RuntimeTest.cpp, CountsTest.cpp,
// CodeSamplesTest.cpp and UnwindTest.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_UNITTESTS_RUNTIME_SUPPORT_H
#define ACTIVETIME_UNITTESTS_RUNTIME_SUPPORT_H

// The tool's model and reader first: the runtime's headers define macros
// (sanitizer_common's) that LLVM's headers need not see.
#include "activetime/Profile/Profile.h"
#include "llvm/Support/MemoryBufferRef.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "activetime/latency.h"
#include "activetime/raw_format.h"
#include "activetime_calltree.h"
#include "activetime_counts.h"
#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_internal.h"
#include "activetime_module.h"
#include "activetime_thread.h"

#include <linux/perf_event.h>

namespace attest {

using namespace __activetime;
namespace atabi = activetime::abi;
namespace raw = activetime::raw;
namespace prof = activetime::profile;

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
// timed (timing threshold 0) unless the test sets them. The tests inject
// their ticks counting from 0, so the process starts at tick 0 too: the
// reader refuses a profile that ends before its process started.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    EnsureInit();
    // The table calibrated beside the program must not be published (with
    // its counting threshold) in the middle of a test.
    WaitForProbeTableForTesting();
    Saved = *flags();
    SavedThreshold = TimingThreshold();
    SavedStartTick = runtime.StartTick;
    runtime.StartTick = 0;
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
    runtime.StartTick = SavedStartTick;
  }
  Flags Saved;
  u64 SavedThreshold = 0;
  u64 SavedStartTick = 0;
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

// The profile image the writer built, as the tool reads it: the file header
// as written, and the one process block the runtime writes, in the tool's
// model (activetime/Profile/Profile.h).
struct Parsed {
  raw::FileHeader H;
  prof::Process P;
};

// Reads the image with the tool's reader, which checks everything a profile
// must hold: the checksums (with LLVM's xxHash, not the runtime's), the
// sections' order, sizes and counts, and every record's values.
inline ::testing::AssertionResult Parse(const char *Data, size_t Size,
                                        Parsed &Out) {
  llvm::Expected<prof::Profile> Prof = prof::readProfile(
      llvm::MemoryBufferRef(llvm::StringRef(Data, Size), "the image"));
  if (!Prof)
    return ::testing::AssertionFailure() << llvm::toString(Prof.takeError());
  if (Prof->Merged || Prof->Processes.size() != 1)
    return ::testing::AssertionFailure()
           << Prof->Processes.size() << " process blocks";
  std::memcpy(&Out.H, Data, sizeof(Out.H));
  Out.P = std::move(Prof->Processes[0]);
  return ::testing::AssertionSuccess();
}

// The linkage names of module M's functions, in function-id order.
inline std::vector<std::string> FuncNames(const prof::Process &P, u32 M) {
  std::vector<std::string> Names;
  for (const prof::Function &F : P.Functions)
    if (F.Module == M)
      Names.push_back(F.Name);
  return Names;
}

// The thread's latency records: its nodes' non-empty buckets.
inline size_t NumLatency(const prof::Thread &T) {
  size_t N = 0;
  for (const prof::Node &X : T.Nodes)
    N += X.Latency.size();
  return N;
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
