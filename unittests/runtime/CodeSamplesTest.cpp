//===- CodeSamplesTest.cpp - code samples of timed frames -----------------===//
//
// The runtime has no testing hook for the code sample ring (the switch ring
// has InstallSwitchRingForTesting), so these tests install a fake ring by
// filling the thread's CodeSampleState and ThreadTls::SampleHead the way
// OpenThreadCodeSamples does for a real one (Fd is a descriptor of
// /dev/null: DrainCodeSamples only reads a thread whose Fd is valid). The
// probes then drain it as they drain a real one.
//
// Sampling stays off in this process (main() sets code_samples=0): its
// per-thread stack size and sample cost are only set by InitCodeSampling,
// which cannot be undone, so the test of samples taken outside the program
// (which need the sampled stacks) turns sampling on in a child process.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestSupport.h"
#include "UnwindFrames.h"

#include "gtest/gtest-spi.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "activetime_codesamples.h"
#include "activetime_probes.h"
#include "activetime_unwind.h"
#include "activetime_writer.h"

using namespace attest;

// A counting sequence as the pass compiles it for a module of an
// executable (x86-64): load the module's counter pointer by its offset from
// the thread pointer, increment the function's counter, branch on its sign.
// Never executed; code samples point into it. Padded with nops on both
// sides so every address around it is code.
__asm__(".text\n"
        ".p2align 4\n"
        ".globl at_test_code\n"
        ".type at_test_code,@function\n"
        "at_test_code:\n"
        ".fill 32, 1, 0x90\n"
        ".globl at_test_counting_seq\n"
        "at_test_counting_seq:\n"
        "  movq %fs:at_test_counts@tpoff, %rax\n" // +0, 9 bytes
        "  incq 16(%rax)\n"                       // +9, 4 bytes
        "  js 1f\n"                               // +13, 2 bytes
        "1:\n"
        ".fill 48, 1, 0x90\n"                     // +15 ...
        "  ret\n"
        ".size at_test_code, .-at_test_code\n");
extern "C" char at_test_code[];
extern "C" char at_test_counting_seq[];

// The sample poll's check as the pass compiles it at every entry (abi.h),
// through the GOT as an object built -fPIE has it, then a look-alike
// through another thread-local variable's slot. Never executed.
__asm__(".text\n"
        ".p2align 4\n"
        ".globl at_test_poll_code\n"
        ".type at_test_poll_code,@function\n"
        "at_test_poll_code:\n"
        ".fill 32, 1, 0x90\n"
        ".globl at_test_poll_seq\n"
        "at_test_poll_seq:\n"
        "  movq __activetime_thread@GOTTPOFF(%rip), %rax\n" // +0, 7 bytes
        "  movq %fs:(%rax), %rcx\n"                         // +7, 4
        "  movq (%rcx), %rcx\n"                             // +11, 3
        "  cmpq %fs:8(%rax), %rcx\n"                        // +14, 5
        "  jne 1f\n"                                        // +19, 2
        "1:\n"
        ".fill 48, 1, 0x90\n"                               // +21 ...
        ".globl at_test_other_tls_seq\n"
        "at_test_other_tls_seq:\n"
        "  movq at_test_counts@GOTTPOFF(%rip), %rax\n"
        "  movq %fs:(%rax), %rcx\n"
        "  movq (%rcx), %rcx\n"
        "  cmpq %fs:8(%rax), %rcx\n"
        "  jne 2f\n"
        "2:\n"
        ".fill 48, 1, 0x90\n"
        "  ret\n"
        ".size at_test_poll_code, .-at_test_poll_code\n");
extern "C" char at_test_poll_seq[];
extern "C" char at_test_other_tls_seq[];

namespace {

ThreadState *TS() { return at_tls.TS; }
const atabi::FuncDesc *Fn(u32 I) { return &CountedFuncs[I]; }

const volatile u64 kZeroHead = 0;

// Installs R as the calling thread's code sample ring (initializing the
// thread if needed); the destructor detaches it.
struct SampleRing {
  explicit SampleRing(FakeRing &R) {
    if (at_tls.Capacity == 0)
      InitCurrentThread(0);
    CodeSampleState &S = at_tls.TS->Code;
    // A real sampler (this process has none: code_samples=0) is replaced.
    if (S.Ring.Fd >= 0)
      CloseThreadCodeSamples(at_tls, at_tls.TS, /*Drain=*/false);
    S.Ring.Fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    S.Ring.Page = (char *)R.Page;
    S.Ring.MapBytes = 0; // not ours to unmap
    S.Ring.Data = (char *)R.Page + R.Page->data_offset;
    S.Ring.DataMask = R.Page->data_size - 1;
    S.Ring.Tail = R.Page->data_tail;
    at_tls.SampleHead = S.Ring.HeadWord();
    at_tls.SampleTailSeen = S.Ring.Tail;
  }
  ~SampleRing() {
    if (at_tls.TS) {
      // Not a perf descriptor: closed here, so that the runtime's count of
      // open perf descriptors (ClosePerfFd) is not decremented for it. (It
      // was: the count wrapped, and every later perf_event_open of the
      // process, a forked test's included, was refused as over budget.)
      PerfRing &Ring = at_tls.TS->Code.Ring;
      if (Ring.Fd >= 0)
        close(Ring.Fd);
      Ring.Fd = -1;
      CloseThreadCodeSamples(at_tls, at_tls.TS, /*Drain=*/false);
    }
    at_tls.SampleHead = &kZeroHead;
  }
};

struct Key {
  u32 Node, Flags;
  u64 Addr;
};

u64 CountOf(const std::vector<prof::CodeSample> &Rs, Key K) {
  u64 N = 0;
  for (const auto &R : Rs)
    if (R.Node == K.Node && R.Flags == K.Flags && R.Addr == K.Addr)
      N += R.Count;
  return N;
}

u64 Total(const std::vector<prof::CodeSample> &Rs) {
  u64 N = 0;
  for (const auto &R : Rs)
    N += R.Count;
  return N;
}

// The written index of the node of Fn under the written parent (kNoParent:
// a root).
u32 WrittenNode(const Parsed &P, u32 Thread, u32 Parent, u32 Func) {
  const auto &Ns = P.P.Threads[Thread].Nodes;
  for (u32 I = 0; I < Ns.size(); ++I)
    if (Ns[I].Parent == Parent && Ns[I].Func == Func)
      return I;
  return raw::kNoNode;
}

// Samples are recorded against the innermost open timed frame when a
// probe drains the ring, before that probe changes the stack; their
// instructions in the program are kept, those on a counting sequence are
// flagged, and without sampled stacks the others have no caller.
TEST_F(RuntimeTest, CodeSamplesGoToTheTopFrameWhenAProbeDrains) {
  ASSERT_EQ(CodeSamplePeriodNs(), 0u); // sampling off in this process
  ASSERT_EQ(CodeSampleCost256(), 0u);
  RegisterCountedModule(); // registers the counting offset of at_test_counts
  AddProgramCode(at_test_code);
  const uptr Seq = uptr(at_test_counting_seq);
  const uptr Plain = Seq + 40; // the nops after the sequence
  const uptr Lib = uptr(dlsym(RTLD_DEFAULT, "lfind"));
  const uptr Kernel = 0xffffffff81000000ull;
  ASSERT_NE(Lib, 0u);
  FakeRing R(4096);
  SampleRing Ring(R);

  // Before any frame: drained by F's entry, before F's frame is pushed.
  R.Sample(Plain);
  R.Sample(Plain);
  R.Publish();
  ProbeEnterAt(Fn(1), 1000, 10);
  EXPECT_EQ(R.Page->data_tail, R.Head);
  EXPECT_EQ(at_tls.SampleTailSeen, R.Head);
  // Inside F: drained by G's entry.
  for (int I = 0; I < 3; ++I)
    R.Sample(Plain);
  R.Sample(Seq);      // the load of the counter pointer
  R.Sample(Seq + 9);  // the increment
  R.Sample(Seq + 13); // the sign branch
  R.Sample(Seq + 15); // after it: not counting
  R.Sample(Kernel, /*Kernel=*/true);
  R.Sample(Lib);
  R.Lost(4);
  R.Publish();
  ProbeEnterAt(Fn(2), 900, 20);
  // Inside G: drained by G's exit, before G's frame closes.
  R.Sample(Plain);
  R.Publish();
  ProbeExitAt(Fn(2), 900, 30);
  ProbeExitAt(Fn(1), 1000, 40);
  EXPECT_EQ(R.Page->data_tail, R.Head);
  EXPECT_EQ(TS()->Code.Lost, 4u);
  EXPECT_EQ(at_tls.Ovh, 0u); // no sample cost measured: nothing charged
  // The in-memory nodes' figures are those of injected ticks only.
  u32 NF = ChildOf(0, Fn(1));
  EXPECT_EQ(at_tls.Tree->At(NF)->Ovh256, 0u);

  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, 100);
  Parsed P;
  ASSERT_TRUE(Parse(Buf.Data, Buf.Size, P));
  Buf.Release();
  ASSERT_EQ(P.P.Threads.size(), 1u);
  EXPECT_EQ(P.P.Threads[0].LostCodeSamples, 4u);
  ModuleInfo *MI;
  u32 Idx;
  ASSERT_TRUE(FindFuncModule(Fn(1), &MI, &Idx));
  u32 WF = WrittenNode(P, 0, raw::kNoParent, MI->FirstId + 1);
  u32 WG = WrittenNode(P, 0, WF, MI->FirstId + 2);
  ASSERT_NE(WF, raw::kNoNode);
  ASSERT_NE(WG, raw::kNoNode);
  const auto &S = P.P.Threads[0].CodeSamples;
  EXPECT_EQ(Total(S), 12u);
  EXPECT_EQ(CountOf(S, {raw::kNoNode, 0, Plain}), 2u);
  EXPECT_EQ(CountOf(S, {WF, 0, Plain}), 3u);
  EXPECT_EQ(CountOf(S, {WF, raw::CSR_Counting, Seq}), 1u);
  EXPECT_EQ(CountOf(S, {WF, raw::CSR_Counting, Seq + 9}), 1u);
  EXPECT_EQ(CountOf(S, {WF, raw::CSR_Counting, Seq + 13}), 1u);
  EXPECT_EQ(CountOf(S, {WF, 0, Seq + 15}), 1u);
  EXPECT_EQ(CountOf(S, {WF, raw::CSR_Kernel, 0}), 1u);
  EXPECT_EQ(CountOf(S, {WF, 0, 0}), 1u); // in libc, no stack: no caller
  EXPECT_EQ(CountOf(S, {WG, 0, Plain}), 1u);
}

// A counted call's entry starts with the sample poll's check: a sample in
// it is instrumentation, flagged as the counting sequence's are; the same
// instructions loading another thread-local variable's offset are not.
TEST_F(RuntimeTest, CodeSamplesInThePollCheckAreCounting) {
  RegisterCountedModule();
  AddProgramCode(at_test_code);
  const uptr Poll = uptr(at_test_poll_seq), Other = uptr(at_test_other_tls_seq);
  FakeRing R(4096);
  SampleRing Ring(R);
  ProbeEnterAt(Fn(1), 1000, 10);
  const uptr In[] = {Poll, Poll + 7, Poll + 11, Poll + 14, Poll + 19};
  const uptr Out[] = {Poll + 21, Other, Other + 14, Other + 19};
  for (uptr A : In)
    R.Sample(A);
  for (uptr A : Out)
    R.Sample(A);
  R.Publish();
  ProbeEnterAt(Fn(2), 900, 20); // drains them in F
  ProbeExitAt(Fn(2), 900, 30);
  ProbeExitAt(Fn(1), 1000, 40);
  const CodeSampleState &S = TS()->Code;
  auto FlagsOf = [&](uptr A) {
    u32 F = ~0u;
    for (uptr I = 0; S.Slots && I <= S.Mask; ++I)
      if (S.Slots[I].Count && S.Slots[I].Addr == A)
        F = S.Slots[I].Flags;
    return F;
  };
  for (uptr A : In)
    EXPECT_EQ(FlagsOf(A), u32(raw::CSR_Counting)) << A - Poll;
  for (uptr A : Out)
    EXPECT_EQ(FlagsOf(A), 0u) << A - Poll;
}

// Many drains around a small ring: every sample lands once, with its
// frame, however the records sit in the ring.
TEST_F(RuntimeTest, CodeSampleRingWrapsAround) {
  RegisterCountedModule();
  AddProgramCode(at_test_code);
  const uptr Plain = uptr(at_test_counting_seq) + 40;
  FakeRing R(512);
  SampleRing Ring(R);
  ProbeEnterAt(Fn(1), 1000, 1);
  u64 Want = 0;
  for (int I = 0; I < 100; ++I) {
    for (int J = 0; J < 1 + I % 7; ++J, ++Want)
      R.Sample(Plain + J);
    R.Publish();
    ProbeEnterAt(Fn(2), 900, 10 + 10 * I); // drained in F
    ProbeExitAt(Fn(2), 900, 15 + 10 * I);
  }
  ProbeExitAt(Fn(1), 1000, 5000);
  EXPECT_EQ(R.Page->data_tail, R.Head);
  u64 InF = 0, Elsewhere = 0;
  const CodeSampleState &S = TS()->Code;
  u32 NF = ChildOf(0, Fn(1));
  for (uptr I = 0; S.Slots && I <= S.Mask; ++I)
    if (S.Slots[I].Count)
      (S.Slots[I].Node == NF ? InF : Elsewhere) += S.Slots[I].Count;
  EXPECT_EQ(InF, Want);
  EXPECT_EQ(Elsewhere, 0u);
}

// ---- with sampled stacks, in a child process --------------------------

bool PerfSamplingAvailable() {
  perf_event_attr A;
  std::memset(&A, 0, sizeof(A));
  A.size = sizeof(A);
  A.type = PERF_TYPE_SOFTWARE;
  A.config = PERF_COUNT_SW_CPU_CLOCK;
  A.sample_period = 1000000;
  A.sample_type = PERF_SAMPLE_IP;
  A.exclude_kernel = 1;
  A.exclude_hv = 1;
  long Fd = syscall(SYS_perf_event_open, &A, 0, -1, -1, 0);
  if (Fd < 0)
    return false;
  close(int(Fd));
  return true;
}

// The child: turns sampling on (with stacks), feeds samples taken in libc
// and in the kernel through a fake ring and checks where they went.
void CallerChildChecks() {
  flags()->code_samples = true;
  flags()->code_sample_stack = 8192;
  flags()->code_sample_us = 1000;
  flags()->perf_deny = false;
  InitCodeSampling();
  MeasureCodeSampleCost(); // the drainer's first step (none runs here)
  if (!(CodeSamplingFlags() & raw::CSF_Stacks)) {
    ADD_FAILURE() << "sampling with stacks unavailable (flags "
                  << CodeSamplingFlags() << ")";
    return;
  }
  EXPECT_EQ(CodeSamplePeriodNs(), 1000000u);

  static LibcCallCapture Q;
  std::memset(&Q, 0, sizeof(Q));
  at_test_call_lfind(&Q);
  EXPECT_TRUE(Q.Done);
  RegisterCountedModule();
  AddProgramCode(at_test_code); // this executable
  // lfind's state where the comparator returns to it: a sample there.
  uptr Cfa;
  int RaOff, BpOff;
  bool BpSaved;
  EXPECT_TRUE(UnwindStepForTesting(Q.Ip, false, Q.Sp, Q.Bp, &Cfa, &RaOff, &BpSaved,
                                   &BpOff));
  uptr LibIp = 0, LibBp = Q.Bp;
  std::memcpy(&LibIp, Q.Stack + (Cfa + RaOff - Q.Sp), 8);
  if (BpSaved)
    std::memcpy(&LibBp, Q.Stack + (Cfa + BpOff - Q.Sp), 8);
  const unsigned char *LibStack = Q.Stack + (Cfa - Q.Sp);
  size_t LibBytes = Q.StackBytes - (Cfa - Q.Sp);
  if (LibBytes > 4096)
    LibBytes = 4096;
  const uptr Plain = uptr(at_test_counting_seq) + 40;
  const uptr KernelIp = 0xffffffff81000000ull;
  static unsigned char Zeros[512];

  FakeRing R(1 << 15);
  {
    SampleRing Ring(R);
    ProbeEnterAt(Fn(1), 1000, 10);
    u64 Ovh0 = at_tls.Ovh;
    // In libc, user mode: unwound to the program's call of lfind.
    R.StackSample(LibIp, false, LibBp, Cfa, LibIp, LibStack, LibBytes);
    R.StackSample(LibIp, false, LibBp, Cfa, LibIp, LibStack, LibBytes);
    // In the kernel on behalf of libc code: the same caller.
    R.StackSample(KernelIp, true, LibBp, Cfa, LibIp, LibStack, LibBytes);
    // In the kernel on behalf of program code: that instruction (+1).
    R.StackSample(KernelIp, true, 0, Cfa, Plain, LibStack, LibBytes);
    // In libc with a stack that leads nowhere: no caller.
    R.StackSample(LibIp, false, 0, Cfa, LibIp, Zeros, sizeof(Zeros));
    R.Publish();
    ProbeEnterAt(Fn(2), 900, 20); // drains: 5 samples in F
    EXPECT_EQ(at_tls.Ovh - Ovh0, 5 * CodeSampleCost256());
    ProbeExitAt(Fn(2), 900, 30);
    ProbeExitAt(Fn(1), 1000, 40);
  }
  // The fork handler started the child's profile at the fork's real tick;
  // the ticks here are injected from 0 (as the fixture sets it).
  runtime.StartTick = 0;
  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, 100);
  Parsed P;
  EXPECT_TRUE(Parse(Buf.Data, Buf.Size, P));
  Buf.Release();
  EXPECT_TRUE(P.P.CodeSampleFlags & raw::CSF_Stacks);
  EXPECT_EQ(P.P.CodeSamplePeriodNs, 1000000u);
  EXPECT_EQ(P.P.CodeSampleCost256, CodeSampleCost256());
  if (!P.P.Threads.empty()) {
    const auto &S = P.P.Threads[0].CodeSamples;
    ModuleInfo *MI;
    u32 Idx;
    EXPECT_TRUE(FindFuncModule(Fn(1), &MI, &Idx));
    u32 WF = WrittenNode(P, 0, raw::kNoParent, MI->FirstId + 1);
    EXPECT_EQ(Total(S), 5u);
    EXPECT_EQ(CountOf(S, {WF, raw::CSR_Caller, Q.CallerRet}), 2u);
    EXPECT_EQ(CountOf(S, {WF, raw::CSR_Caller | raw::CSR_Kernel, Q.CallerRet}), 1u);
    EXPECT_EQ(CountOf(S, {WF, raw::CSR_Caller | raw::CSR_Kernel, Plain + 1}), 1u);
    EXPECT_EQ(CountOf(S, {WF, 0, 0}), 1u);
  } else {
    ADD_FAILURE() << "no thread section";
  }
}

// Runs the checks in the child with their failures captured, prints them
// to stderr (the parent shows it) and exits 1 if any failed.
[[noreturn]] void CallerChild() {
  ::testing::TestPartResultArray Results;
  {
    ::testing::ScopedFakeTestPartResultReporter Capture(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD,
        &Results);
    CallerChildChecks();
  }
  int Failed = 0;
  for (int I = 0; I < Results.size(); ++I) {
    const ::testing::TestPartResult &R = Results.GetTestPartResult(I);
    if (R.failed()) {
      ++Failed;
      fprintf(stderr, "child: %s:%d: %s\n", R.file_name() ? R.file_name() : "?",
              R.line_number(), R.message());
    }
  }
  fflush(stderr);
  _exit(Failed ? 1 : 0);
}

// A sample outside the program's code is charged to the program function
// that called out (found by unwinding the sampled stack with the library's
// unwind tables), and each sample's interrupt cost is charged as overhead.
TEST_F(RuntimeTest, CodeSampleOutsideTheProgramGoesToTheCaller) {
  if (!PerfSamplingAvailable())
    GTEST_SKIP() << "perf_event_open refused: no code samples here";
  EXPECT_EXIT(CallerChild(), ::testing::ExitedWithCode(0), "");
}

} // namespace
