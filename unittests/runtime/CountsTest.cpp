//===- CountsTest.cpp - timed or counted calls ----------------------------===//
//
// The counters of activetime_counts.h driven the way compiled code drives
// them: an inline increment of the thread's counter, then the probes (fed
// injected ticks) only while the counter's sign bit is clear. Covers the
// adoption of a thread's own array through the bootstrap array, the timing
// decision at the checkpoints (16, 64, 256, ...), the shared array of the
// PIC modules, the collection switch, and what the probes charge.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestSupport.h"

#include <thread>

#include "activetime_interface.h"
#include "activetime_probes.h"
#include "activetime_timer.h"
#include "activetime_writer.h"

using namespace attest;
using activetime::abi::kCountedBit;

// The module's thread-local counter pointer and bootstrap array, with C
// names: CodeSamplesTest.cpp's counting sequence loads the pointer by its
// thread-pointer offset (at_test_counts@tpoff), as compiled code does.
extern "C" {
uint64_t at_test_boot[attest::kCountedFuncs];
__thread uint64_t *at_test_counts
    __attribute__((tls_model("local-exec"))) = at_test_boot;
}

namespace attest {

atabi::FuncDesc CountedFuncs[kCountedFuncs] = {
    {(const void *)0x2000, "P", "counted.c", 1, 0},
    {(const void *)0x2010, "F", "counted.c", 2, 0},
    {(const void *)0x2020, "G", "counted.c", 3, 0},
    {(const void *)0x2030, "H", "counted.c", 4, 0},
    {(const void *)0x2040, "K", "counted.c", 5, 0},
};

atabi::ModuleDesc CountedModule = {atabi::kAbiVersion, kCountedFuncs, CountedFuncs,
                                   "counted.c", 0xc0c0, nullptr, 0, 0, nullptr,
                                   0, 0, nullptr, at_test_boot};

void RegisterCountedModule() {
  std::memset(at_test_boot, 0, sizeof(at_test_boot));
  at_test_counts = at_test_boot;
  CountedModule.CountsTls = (void *)&at_test_counts;
  RegisterFresh(&CountedModule);
}

u64 *CountedPointer() { return (u64 *)at_test_counts; }
u64 *CountedBootstrap() { return (u64 *)at_test_boot; }

bool CountedEnter(u32 I, uptr Frame, u64 Now) {
  u64 V = ++CountedPointer()[I];
  if (s64(V) < 0)
    return false;
  ProbeEnterAt(&CountedFuncs[I], Frame, Now);
  return true;
}

void CountedExit(u32 I, uptr Frame, u64 Now, bool Timed) {
  if (Timed)
    ProbeExitAt(&CountedFuncs[I], Frame, Now);
}

bool CountedCall(u32 I, uptr Frame, u64 Start, u64 Len) {
  bool Timed = CountedEnter(I, Frame, Start);
  CountedExit(I, Frame, Start + Len, Timed);
  return Timed;
}

} // namespace attest

// A PIC module (a shared library): its counters are slots of the runtime's
// per-thread array from CountBase on, reached through __activetime_counts.
extern "C" __thread u64 *__activetime_counts
    __attribute__((tls_model("initial-exec")));

namespace {

enum : u32 { kP = 0, kF = 1, kG = 2, kH = 3, kK = 4 };

ThreadState *TS() { return at_tls.TS; }
const atabi::FuncDesc *Fn(u32 I) { return &CountedFuncs[I]; }

ModuleInfo *InfoOf(const atabi::FuncDesc *F) {
  ModuleInfo *MI = nullptr;
  u32 I;
  return FindFuncModule(F, &MI, &I) ? MI : nullptr;
}

bool Counted(u64 V) { return (V & kCountedBit) != 0; }
u64 CallsOf(u64 V) { return V & ~kCountedBit; }

Parsed Serialize(u64 EndTick) {
  OutBuffer Buf = {nullptr, 0, 0};
  SerializeProfile(&Buf, 1000, EndTick);
  Parsed P;
  EXPECT_TRUE(Parse(Buf.Data, Buf.Size, P));
  Buf.Release();
  return P;
}

const prof::CallCount *CountOf(const std::vector<prof::CallCount> &Cs,
                               u32 Func) {
  for (const auto &C : Cs)
    if (C.Func == Func)
      return &C;
  return nullptr;
}

// (c) The first call goes through the bootstrap array, reaches the entry
// probe and leaves the thread with its own array in which it is call 1.
TEST_F(RuntimeTest, FirstCallAdoptsTheThreadsOwnArray) {
  RegisterCountedModule();
  ModuleInfo *MI = InfoOf(Fn(kF));
  ASSERT_NE(MI, nullptr);
  EXPECT_EQ(MI->Bootstrap, CountedBootstrap());
  EXPECT_FALSE(MI->SharedCounts);
  EXPECT_EQ(CountedPointer(), CountedBootstrap());

  EXPECT_TRUE(CountedCall(kF, 1000, 10, 5));
  u64 *A = CountedPointer();
  ASSERT_NE(A, CountedBootstrap());
  EXPECT_EQ(A[kF], 1u);                       // this call, counted in the new array
  EXPECT_EQ(CountedBootstrap()[kF], 1u);      // the increment that led here
  EXPECT_EQ(TS()->Counts.Size, 1u);
  EXPECT_EQ(ThreadCounters(TS(), MI), A);

  // Adopting again for the module (any of its functions) changes nothing.
  AdoptCounters(at_tls, Fn(kF));
  AdoptCounters(at_tls, Fn(kG));
  EXPECT_EQ(CountedPointer(), A);
  EXPECT_EQ(TS()->Counts.Size, 1u);
  EXPECT_EQ(A[kF], 1u);
  EXPECT_EQ(A[kG], 0u);

  // Later calls count in the thread's array only.
  EXPECT_TRUE(CountedCall(kF, 1000, 20, 5));
  EXPECT_TRUE(CountedCall(kG, 1000, 30, 5)); // G's first call: no bootstrap
  EXPECT_EQ(A[kF], 2u);
  EXPECT_EQ(A[kG], 1u);
  EXPECT_EQ(CountedBootstrap()[kF], 1u);
  EXPECT_EQ(CountedBootstrap()[kG], 0u);
  EXPECT_EQ(NodeOf(ChildOf(0, Fn(kF)))->Calls, 2u);

  // Another thread: its own array, its own count.
  u64 OtherF = 0;
  u64 *OtherA = nullptr;
  std::thread Th([&] {
    EXPECT_EQ(CountedPointer(), CountedBootstrap()); // a new thread's pointer
    EXPECT_TRUE(CountedCall(kF, 5000, 1, 2));
    EXPECT_TRUE(CountedCall(kF, 5000, 3, 2));
    OtherA = CountedPointer();
    OtherF = OtherA[kF];
  });
  Th.join();
  EXPECT_NE(OtherA, A);
  EXPECT_NE(OtherA, CountedBootstrap());
  EXPECT_EQ(OtherF, 2u);
  EXPECT_EQ(A[kF], 2u);

  // The writer: each thread's calls by function id, ascending.
  Parsed P = Serialize(100);
  ASSERT_EQ(P.P.Threads.size(), 2u);
  const auto &C0 = P.P.Threads[0].Counts, &C1 = P.P.Threads[1].Counts;
  ASSERT_EQ(C0.size(), 2u);
  EXPECT_EQ(C0[0].Func, MI->FirstId + kF);
  EXPECT_EQ(C0[0].Calls, 2u);
  EXPECT_FALSE(C0[0].Counted);
  EXPECT_EQ(C0[1].Func, MI->FirstId + kG);
  EXPECT_EQ(C0[1].Calls, 1u);
  ASSERT_EQ(C1.size(), 1u);
  EXPECT_EQ(C1[0].Func, MI->FirstId + kF);
  EXPECT_EQ(C1[0].Calls, 2u);
}

// Calls made before the module registered (from a library's constructor,
// say, into an interposed function of the executable) go through the
// bootstrap array and open their node while the runtime cannot find the
// module: the thread adopts no array then, and later calls of that function
// hit the existing node, so they do not adopt either. The thread adopts at
// its first new node of the module, and counts the calls its nodes hold.
TEST_F(RuntimeTest, CallsBeforeTheModuleRegistered) {
  std::memset(at_test_boot, 0, sizeof(at_test_boot));
  at_test_counts = at_test_boot;
  EXPECT_TRUE(CountedCall(kF, 1000, 0, 5)); // module not registered yet
  EXPECT_EQ(CountedPointer(), CountedBootstrap());
  CountedModule.CountsTls = (void *)&at_test_counts;
  RegisterFresh(&CountedModule);
  for (int I = 0; I < 3; ++I)
    EXPECT_TRUE(CountedCall(kF, 1000, 10 + 10 * I, 5));
  EXPECT_EQ(CountedPointer(), CountedBootstrap()); // still not adopted
  EXPECT_TRUE(CountedCall(kG, 1000, 100, 5));      // a new node: adopts
  u64 *A = CountedPointer();
  ASSERT_NE(A, CountedBootstrap());
  EXPECT_TRUE(CountedCall(kF, 1000, 110, 5));
  EXPECT_EQ(NodeOf(ChildOf(0, Fn(kF)))->Calls, 5u);
  // The adoption counted F's four calls from before it (in F's node) and
  // the fifth went through the new array.
  EXPECT_EQ(A[kF], 5u);
  EXPECT_EQ(A[kG], 1u);
}

// (b) The timing decision: a node whose calls are on average shorter than
// the threshold at a checkpoint switches its function to counting on this
// thread; checkpoints are 16, 64, 256, ...
TEST_F(RuntimeTest, CheckTimingCountsShortFunctionsFromTheCheckpoint) {
  RegisterCountedModule();
  SetTimingThreshold(100);
  u64 T = 0;
  bool PTimed = CountedEnter(kP, 2000, T);
  ASSERT_TRUE(PTimed);
  u64 *A = CountedPointer();
  u32 NP = ChildOf(0, Fn(kP));

  // F: 50 ticks a call, below the threshold.
  for (int I = 1; I <= 15; ++I, T += 100)
    EXPECT_TRUE(CountedCall(kF, 1000, T, 50));
  u32 NF = ChildOf(NP, Fn(kF));
  EXPECT_EQ(NodeOf(NF)->NextCheck, 16u);
  EXPECT_FALSE(Counted(A[kF]));
  EXPECT_TRUE(CountedCall(kF, 1000, T, 50)); // the 16th: timed, then checked
  T += 100;
  EXPECT_TRUE(Counted(A[kF]));
  EXPECT_EQ(CallsOf(A[kF]), 16u);
  EXPECT_EQ(NodeOf(NF)->NextCheck, 64u);
  EXPECT_EQ(NodeOf(NF)->Counter, &A[kF]);
  // From now on counted: no probe, the node keeps its 16 timed calls.
  for (int I = 0; I < 10; ++I, T += 100)
    EXPECT_FALSE(CountedCall(kF, 1000, T, 50));
  EXPECT_EQ(CallsOf(A[kF]), 26u);
  EXPECT_EQ(NodeOf(NF)->Calls, 16u);

  // G: exactly the threshold is not below it: timed through 16 and 64.
  for (int I = 0; I < 64; ++I, T += 200)
    EXPECT_TRUE(CountedCall(kG, 1000, T, 100));
  u32 NG = ChildOf(NP, Fn(kG));
  EXPECT_FALSE(Counted(A[kG]));
  EXPECT_EQ(NodeOf(NG)->Calls, 64u);
  EXPECT_EQ(NodeOf(NG)->NextCheck, 256u);

  // H: long first calls pass the check at 16; the mean at the next
  // checkpoint, 64, is (16 * 200 + 48 * 1) / 64 = 50.75: counted from there,
  // not before.
  for (int I = 0; I < 16; ++I, T += 300)
    EXPECT_TRUE(CountedCall(kH, 1000, T, 200));
  u32 NH = ChildOf(NP, Fn(kH));
  EXPECT_FALSE(Counted(A[kH]));
  EXPECT_EQ(NodeOf(NH)->NextCheck, 64u);
  for (int I = 16; I < 63; ++I, T += 10)
    EXPECT_TRUE(CountedCall(kH, 1000, T, 1));
  EXPECT_FALSE(Counted(A[kH]));
  EXPECT_TRUE(CountedCall(kH, 1000, T, 1)); // the 64th
  T += 10;
  EXPECT_TRUE(Counted(A[kH]));
  EXPECT_EQ(NodeOf(NH)->Calls, 64u);
  EXPECT_EQ(NodeOf(NH)->NextCheck, 256u);
  EXPECT_FALSE(CountedCall(kH, 1000, T, 1));
  T += 10;

  // The same function on another thread keeps its own decision.
  bool OtherTimed = false;
  u64 OtherF = 0;
  std::thread Th([&] {
    for (int I = 0; I < 16; ++I)
      OtherTimed = CountedCall(kF, 5000, 10 * I, 500);
    OtherTimed = CountedCall(kF, 5000, 1000, 500);
    OtherF = CountedPointer()[kF];
  });
  Th.join();
  EXPECT_TRUE(OtherTimed);
  EXPECT_EQ(OtherF, 17u);

  CountedExit(kP, 2000, T, PTimed);
  // The writer: every call, and which functions went counted.
  ModuleInfo *MI = InfoOf(Fn(kF));
  Parsed P = Serialize(T + 10);
  ASSERT_EQ(P.P.Threads.size(), 2u);
  const auto &C0 = P.P.Threads[0].Counts;
  const prof::CallCount *CF = CountOf(C0, MI->FirstId + kF);
  const prof::CallCount *CG = CountOf(C0, MI->FirstId + kG);
  const prof::CallCount *CH = CountOf(C0, MI->FirstId + kH);
  const prof::CallCount *CP = CountOf(C0, MI->FirstId + kP);
  ASSERT_TRUE(CF && CG && CH && CP);
  EXPECT_EQ(CF->Calls, 26u);
  EXPECT_TRUE(CF->Counted);
  EXPECT_EQ(CG->Calls, 64u);
  EXPECT_FALSE(CG->Counted);
  EXPECT_EQ(CH->Calls, 65u);
  EXPECT_TRUE(CH->Counted);
  EXPECT_EQ(CP->Calls, 1u);
  const prof::CallCount *OF = CountOf(P.P.Threads[1].Counts, MI->FirstId + kF);
  ASSERT_TRUE(OF);
  EXPECT_EQ(OF->Calls, 17u);
  EXPECT_FALSE(OF->Counted);
  EXPECT_EQ(P.P.TimingThreshold, 100u);
  // The node records keep the timed calls only.
  u64 NodeCallsF = 0;
  for (const auto &N : P.P.Threads[0].Nodes)
    if (N.Func == MI->FirstId + kF)
      NodeCallsF += N.Calls;
  EXPECT_EQ(NodeCallsF, 16u);
}

// What decides is the active time: elapsed less the probes' overhead inside
// the calls (here the entry table, 30 ticks) and switched-out time.
TEST_F(RuntimeTest, CheckTimingJudgesActiveNotElapsedTime) {
  RegisterCountedModule();
  SetTimingThreshold(100);
  SetOverheadForTesting(30 * 256, 0);
  u64 T = 0;
  bool PTimed = CountedEnter(kP, 2000, T);
  for (int I = 0; I < 16; ++I, T += 200)
    EXPECT_TRUE(CountedCall(kK, 1000, T, 120)); // 120 elapsed, 90 active
  EXPECT_TRUE(Counted(CountedPointer()[kK]));
  for (int I = 0; I < 16; ++I, T += 200)
    EXPECT_TRUE(CountedCall(kG, 1000, T, 130)); // 100 active: not below
  EXPECT_FALSE(Counted(CountedPointer()[kG]));
  CountedExit(kP, 2000, T, PTimed);
}

TEST_F(RuntimeTest, TimingThresholdZeroTimesEveryCall) {
  RegisterCountedModule();
  SetTimingThreshold(0);
  u64 T = 0;
  bool PTimed = CountedEnter(kP, 2000, T);
  for (int I = 0; I < 300; ++I, T += 3)
    EXPECT_TRUE(CountedCall(kF, 1000, T, 1));
  u64 *A = CountedPointer();
  EXPECT_EQ(A[kF], 300u);
  u32 NF = ChildOf(ChildOf(0, Fn(kP)), Fn(kF));
  EXPECT_EQ(NodeOf(NF)->Calls, 300u);
  EXPECT_EQ(NodeOf(NF)->NextCheck, 1024u); // 16, 64, 256 passed
  CountedExit(kP, 2000, T, PTimed);
}

// The threshold: timing_ratio times the calibrated pair cost; 0 with
// timing_ratio=0 and in mode=trace (which records every call).
TEST_F(RuntimeTest, InitTimingFromTheRatioAndTheMode) {
  raw::OverheadRecord SavedTable = runtime.Overhead;
  runtime.Overhead.Pair256 = 10 * 256 + 128; // 10.5 ticks
  runtime.Overhead.Enter256 = 256;
  runtime.Overhead.Exit256 = 256;
  flags()->timing_ratio = 40;
  InitTiming();
  EXPECT_EQ(TimingThreshold(), 420u);
  flags()->timing_ratio = 0;
  InitTiming();
  EXPECT_EQ(TimingThreshold(), 0u);
  flags()->timing_ratio = 40;
  flags()->mode = RunMode::Trace;
  InitTiming();
  EXPECT_EQ(TimingThreshold(), 0u);
  flags()->mode = RunMode::Profile;
  runtime.Overhead.Pair256 = 0; // a table fixed by option: its two parts
  InitTiming();
  EXPECT_EQ(TimingThreshold(), 80u);
  runtime.Overhead = SavedTable;
}

// PIC modules: one array per thread for all of them, each module's
// counters from its CountBase on, through the runtime's pointer.
TEST_F(RuntimeTest, PicModulesShareTheThreadsArray) {
  static atabi::FuncDesc LibA[3] = {{(const void *)0x3000, "la0", "la.c", 1, 0},
                                    {(const void *)0x3010, "la1", "la.c", 2, 0},
                                    {(const void *)0x3020, "la2", "la.c", 3, 0}};
  static atabi::FuncDesc LibB[2] = {{(const void *)0x3100, "lb0", "lb.c", 1, 0},
                                    {(const void *)0x3110, "lb1", "lb.c", 2, 0}};
  static atabi::ModuleDesc MA = {atabi::kAbiVersion, 3, LibA, "la.c", 0xa, nullptr,
                                 0, 0, nullptr, 0, atabi::MDF_SharedCounts, nullptr,
                                 nullptr};
  static atabi::ModuleDesc MB = {atabi::kAbiVersion, 2, LibB, "lb.c", 0xb, nullptr,
                                 0, 0, nullptr, 0, atabi::MDF_SharedCounts, nullptr,
                                 nullptr};
  __activetime_counts = SharedBootstrap(); // as in a thread never profiled
  MA.CountBase = MB.CountBase = 0;
  RegisterFresh(&MA);
  RegisterFresh(&MB);
  ASSERT_NE(MA.CountBase, 0u);
  ASSERT_NE(MB.CountBase, 0u);
  EXPECT_TRUE(MB.CountBase >= MA.CountBase + 3 || MA.CountBase >= MB.CountBase + 2);
  EXPECT_TRUE(InfoOf(&LibA[0])->SharedCounts);

  auto Call = [](atabi::ModuleDesc &M, const atabi::FuncDesc *Tbl, u32 I, uptr Frame,
                 u64 Start, u64 Len) {
    u64 V = ++__activetime_counts[M.CountBase + I];
    if (s64(V) < 0)
      return false;
    ProbeEnterAt(&Tbl[I], Frame, Start);
    ProbeExitAt(&Tbl[I], Frame, Start + Len);
    return true;
  };
  EXPECT_TRUE(Call(MA, LibA, 1, 1000, 10, 5));
  u64 *Arr = __activetime_counts;
  ASSERT_NE(Arr, SharedBootstrap());
  EXPECT_EQ(Arr[MA.CountBase + 1], 1u);
  EXPECT_EQ(TS()->Counts.Size, 1u);
  EXPECT_TRUE(Call(MB, LibB, 0, 1000, 20, 5)); // the other module: same array
  EXPECT_TRUE(Call(MB, LibB, 0, 1000, 30, 5));
  EXPECT_EQ(__activetime_counts, Arr);
  EXPECT_EQ(TS()->Counts.Size, 1u);
  EXPECT_EQ(Arr[MB.CountBase + 0], 2u);
  EXPECT_EQ(ThreadCounters(TS(), InfoOf(&LibA[0])), &Arr[MA.CountBase]);
  EXPECT_EQ(ThreadCounters(TS(), InfoOf(&LibB[0])), &Arr[MB.CountBase]);

  // The timing decision reaches the shared slot.
  SetTimingThreshold(100);
  for (int I = 0; I < 16; ++I)
    EXPECT_TRUE(Call(MA, LibA, 2, 1000, 100 + 10 * I, 5));
  EXPECT_TRUE(Counted(Arr[MA.CountBase + 2]));
  EXPECT_FALSE(Call(MA, LibA, 2, 1000, 400, 5));

  Parsed P = Serialize(1000);
  ASSERT_EQ(P.P.Threads.size(), 1u);
  u32 IdA = InfoOf(&LibA[0])->FirstId, IdB = InfoOf(&LibB[0])->FirstId;
  const auto &C0 = P.P.Threads[0].Counts;
  ASSERT_EQ(C0.size(), 3u);
  const prof::CallCount *A1 = CountOf(C0, IdA + 1);
  const prof::CallCount *A2 = CountOf(C0, IdA + 2);
  const prof::CallCount *B0 = CountOf(C0, IdB + 0);
  ASSERT_TRUE(A1 && A2 && B0);
  EXPECT_EQ(A1->Calls, 1u);
  EXPECT_EQ(A2->Calls, 17u);
  EXPECT_TRUE(A2->Counted);
  EXPECT_EQ(B0->Calls, 2u);
  __activetime_counts = SharedBootstrap();
}

// While collection is off every pointer aims at one array in which every
// function reads as counted: calls run no probe and add to no count.
TEST_F(RuntimeTest, CollectionSwitchParksTheCounters) {
  RegisterCountedModule();
  EXPECT_TRUE(CountedCall(kF, 1000, 10, 5));
  u64 *A = CountedPointer();
  EXPECT_EQ(__activetime_set_enabled(0), 1);
  EXPECT_NE(CountedPointer(), A);
  EXPECT_NE(CountedPointer(), CountedBootstrap());
  EXPECT_FALSE(CountedCall(kF, 1000, 20, 5));
  EXPECT_FALSE(CountedCall(kG, 1000, 30, 5));
  EXPECT_EQ(A[kF], 1u);
  EXPECT_EQ(A[kG], 0u);
  EXPECT_EQ(__activetime_set_enabled(1), 0);
  EXPECT_EQ(CountedPointer(), A);
  EXPECT_TRUE(CountedCall(kF, 1000, 40, 5));
  EXPECT_EQ(A[kF], 2u);
  EXPECT_EQ(NodeOf(ChildOf(0, Fn(kF)))->Calls, 2u);
  EXPECT_EQ(TS()->UnmatchedExits, 0u);
}

// (a) With injected ticks a probe charges its table part alone (Enter256
// at an entry, Exit256 at an exit): a frame with n nested calls carries
// Enter + n (Enter + Exit), exactly.
TEST_F(RuntimeTest, InjectedTicksChargeOnlyTheTable) {
  const u64 E = 5, X = 7;
  SetOverheadForTesting(E * 256, X * 256);
  ProbeEnterAt(Fn(kP), 2000, 0); // also initializes the thread
  EXPECT_EQ(at_tls.Ovh, E * 256);
  for (int I = 0; I < 10; ++I) {
    ProbeEnterAt(Fn(kF), 1000, 10 + 10 * I);
    ProbeExitAt(Fn(kF), 1000, 15 + 10 * I);
  }
  EXPECT_EQ(at_tls.Ovh, (E + 10 * (E + X)) * 256);
  ProbeExitAt(Fn(kP), 2000, 200);
  EXPECT_EQ(at_tls.Ovh, (E + 10 * (E + X) + X) * 256);
  u32 NP = ChildOf(0, Fn(kP)), NF = ChildOf(NP, Fn(kF));
  EXPECT_EQ(NodeOf(NP)->Ovh256, (E + 10 * (E + X)) * 256);
  EXPECT_EQ(NodeOf(NF)->Ovh256, 10 * E * 256);
  EXPECT_EQ(NodeOf(NF)->Min, 5u - E);
}

NOINLINE void RealPair(const atabi::FuncDesc *F, void *Frame) {
  __activetime_func_enter(F, Frame);
  __activetime_func_exit(F, Frame);
}

// The real probes read the tick counter twice and charge the interval on
// top of the table: never less than the table, and the exit probes' part
// lies outside the callee's frames.
TEST_F(RuntimeTest, RealProbesChargeTheirMeasuredInterval) {
  const u64 E = 5, X = 7;
  const u64 N = 2000;
  char *Fr = (char *)__builtin_frame_address(0);
  for (int Table = 0; Table < 2; ++Table) {
    ResetThreadsForTesting();
    SetOverheadForTesting(Table * E * 256, Table * X * 256);
    __activetime_func_enter(Fn(kP), Fr);
    u64 Ovh0 = at_tls.Ovh;
    // A frame slot below the test's frame that holds a fixed "return
    // address", so that every pair finds the same node.
    uptr Slot[1] = {0};
    for (u64 I = 0; I < N; ++I)
      RealPair(Fn(kF), Slot);
    u64 Charged = at_tls.Ovh - Ovh0;
    __activetime_func_exit(Fn(kP), Fr);
    u32 NF = ChildOf(ChildOf(0, Fn(kP)), Fn(kF));
    ASSERT_NE(NF, 0u);
    const Node *XF = NodeOf(NF);
    EXPECT_EQ(XF->Calls, N);
    // Some of 2 x 2000 probe intervals span a tick.
    EXPECT_GT(Charged, Table * N * (E + X) * 256) << "table " << Table;
    EXPECT_GE(XF->Ovh256, Table * N * E * 256);
    EXPECT_LT(XF->Ovh256, Charged); // the entries only
    EXPECT_EQ(TS()->UnmatchedExits + TS()->UnwoundFrames, 0u);
  }
}

} // namespace
