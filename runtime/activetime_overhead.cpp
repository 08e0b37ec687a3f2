//===- activetime_overhead.cpp - Probe overhead table -----------*- C++ -*-===//
//
// The probe overhead table of the active-time computation, measured at
// start-up.
//
// Model. One instrumented call costs its caller B ticks more than the same
// call uninstrumented. Of that, the part between the entry probe's tick read
// and the exit probe's tick read lies inside the callee's own elapsed
// interval: A = (entry probe after its tick read) + (exit probe before its
// tick read). The table is Enter = A, Exit = B - A. With the active-time rule
// (every event except a frame's last one contributes the interval
// [t, t + cost[event])), a frame with n nested instrumented calls contains
// its own Enter plus n times (Enter + Exit) = A + n*B: exactly the time the
// probes added to it.
//
// What B is depends on the code around the probes: the tick read does not
// serialize, so an out-of-order core runs the probe's instructions in the
// shadow of the callee's latency-bound work. Around an empty body a pair
// costs several times what it costs around a body of a few dozen cycles
// (docs/performance.md has the measured curve). Calibrating with an empty
// callee therefore over-corrects every real function, as TAU's compensation
// did. We calibrate around a body as long as the probe pair itself: first
// B0 around an empty body, then B around a dependent chain whose plain
// latency is about B0. A is what the callee's elapsed shows beyond the
// body's own plain cost (both measured in the same batches).
//
// Calibration runs the real probe code (__activetime_func_enter/exit, with
// the poll) on a scratch thread state: the calling thread's TLS block
// is saved by value, a scratch shadow stack and call tree (not in the
// registry) installed, and restored afterwards. Batches of kCalls calls of a
// NOINLINE leaf instrumented exactly like compiled code (desc pointer, frame
// address), interleaved with batches of the same leaf uninstrumented. Over
// kBatches batches the 25th percentile of each figure is kept (preemption and
// interrupts only make batches slower); spread = (q75 - q25) / median of B.
// Up to kRounds rounds while the spread exceeds 10%, keeping the most stable.
// Fixed point: ticks * 256.
//
//===----------------------------------------------------------------------===//

#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_internal.h"
#include "activetime_thread.h"
#include "activetime_timer.h"

namespace __activetime {

namespace raw = activetime::raw;

namespace {
constexpr int kBatches = 31;
constexpr int kCalls = 256;
constexpr int kRounds = 3;
constexpr u64 kSpreadBoundPermille = 100;

FuncDesc calib_desc = {nullptr, "__activetime_calibration", nullptr, 0, 0};
const volatile u64 calib_zero_word = 0;

volatile u64 calib_sink;

// A dependent chain of Steps multiply/xorshift steps: latency-bound work the
// optimizer cannot fold.
ALWAYS_INLINE u64 CalibBody(u64 X, u32 Steps) {
  for (u32 I = 0; I < Steps; ++I) {
    X ^= X >> 29;
    X *= 0xbf58476d1ce4e5b9ull;
  }
  return X;
}

// Instrumented like compiled code: entry probe, body, exit probe.
// Its frame slot holds a fixed "return address", so that the calls from
// every loop of the calibration are one node (one call site).
NOINLINE void CalibLeafInstrumented(u32 Steps) {
  volatile uptr Slot[1] = {0};
  void *F = (void *)Slot;
  __activetime_func_enter(&calib_desc, F);
  calib_sink = CalibBody(calib_sink, Steps);
  __activetime_func_exit(&calib_desc, F);
}

NOINLINE void CalibLeafPlain(u32 Steps) {
  calib_sink = CalibBody(calib_sink, Steps);
}

void SortU64(u64 *V, int N) {
  for (int I = 1; I < N; ++I) {
    u64 X = V[I];
    int J = I;
    for (; J > 0 && V[J - 1] > X; --J)
      V[J] = V[J - 1];
    V[J] = X;
  }
}

struct RoundResult {
  u64 A, B, Spread;
  // Of A and B - A, what the probes measured of themselves (their two tick
  // reads), per call: the entry probe's interval and the exit probe's.
  u64 MeasuredEnter, MeasuredExit;
};

// The batch figure kept: fenced probes cost the same in every batch, so
// anything above the lowest batch is interference (interrupts, the other
// hyperthread) and the minimum is the estimate. Unfenced probes' cost really
// varies with what the core overlaps; the 25th percentile is kept there.
u64 Kept(const u64 *Sorted) {
  return __atomic_load_n(&probe_fence, __ATOMIC_RELAXED) ? Sorted[0]
                                                         : Sorted[kBatches / 4];
}

// B = (instrumented - plain) / kCalls; A = the leaf's recorded elapsed per
// call minus its body's plain cost beyond an empty call's. Instrumented,
// plain and elapsed are each taken over the batches (Kept), then combined.
RoundResult RunRound(const Node *N, u32 Steps, u64 EmptyPlain256) {
  u64 Ins[kBatches], Pls[kBatches], Els[kBatches], Bs[kBatches];
  u64 Mes[kBatches], Mxs[kBatches];
  const ThreadTls &T = at_tls;
  for (int Bt = 0; Bt < kBatches; ++Bt) {
    u64 C0 = N->Calls, I0 = N->Incl, O0 = N->Ovh256, TO0 = T.Ovh;
    u64 T0 = ReadTick();
    for (int I = 0; I < kCalls; ++I)
      CalibLeafInstrumented(Steps);
    u64 T1 = ReadTick();
    for (int I = 0; I < kCalls; ++I)
      CalibLeafPlain(Steps);
    u64 T2 = ReadTick();
    u64 Instr = T1 - T0, Plain = T2 - T1;
    Ins[Bt] = Instr * 256 / kCalls;
    Pls[Bt] = Plain * 256 / kCalls;
    Bs[Bt] = Instr > Plain ? (Instr - Plain) * 256 / kCalls : 0;
    u64 DC = N->Calls - C0;
    Els[Bt] = DC ? (N->Incl - I0) * 256 / DC : 0;
    // The scratch state charges no calibrated part (Enter256 = Exit256 = 0):
    // the node's overhead is the entry probes' measured intervals, the
    // thread's the entry and exit probes'.
    u64 Enter = DC ? (N->Ovh256 - O0) / DC : 0;
    u64 Both = DC ? (T.Ovh - TO0) / DC : 0;
    Mes[Bt] = Enter;
    Mxs[Bt] = Both > Enter ? Both - Enter : 0;
  }
  SortU64(Ins, kBatches);
  SortU64(Pls, kBatches);
  SortU64(Els, kBatches);
  SortU64(Bs, kBatches);
  SortU64(Mes, kBatches);
  SortU64(Mxs, kBatches);
  u64 In = Kept(Ins), Pl = Kept(Pls), El = Kept(Els);
  u64 Body256 = Pl > EmptyPlain256 ? Pl - EmptyPlain256 : 0;
  RoundResult R;
  R.B = In > Pl ? In - Pl : 0;
  R.A = El > Body256 ? El - Body256 : 0;
  R.MeasuredEnter = Kept(Mes);
  R.MeasuredExit = Kept(Mxs);
  // Stability of the per-batch pair cost: (q75 - q25) / median.
  u64 Med = Bs[kBatches / 2];
  u64 Q75 = Bs[(3 * kBatches) / 4], Q25 = Bs[kBatches / 4];
  R.Spread = Med ? (Q75 - Q25) * 1000 / Med : 1000;
  return R;
}

RoundResult Calibrate(const Node *N, u32 Steps, u64 EmptyPlain256) {
  RoundResult Best = {0, 0, ~0ull, 0, 0};
  for (int Round = 0; Round < kRounds; ++Round) {
    RoundResult R = RunRound(N, Steps, EmptyPlain256);
    if (R.Spread < Best.Spread)
      Best = R;
    if (Best.Spread <= kSpreadBoundPermille)
      break;
  }
  return Best;
}

// Plain cost per call (ticks * 256) of a leaf with a body of Steps steps:
// lowest of kBatches batches.
u64 PlainCost256(u32 Steps) {
  u64 Best = ~0ull;
  for (int Bt = 0; Bt < kBatches; ++Bt) {
    u64 T0 = ReadTick();
    for (int I = 0; I < kCalls; ++I)
      CalibLeafPlain(Steps);
    u64 D = ReadTick() - T0;
    if (D < Best)
      Best = D;
  }
  return Best * 256 / kCalls;
}
} // namespace

void CalibrateOverhead(raw::OverheadRecord *Out) {
  ThreadTls &T = at_tls;
  ThreadTls Saved = T;
  uptr PS = GetPageSizeCached();
  uptr TSBytes = RoundUpTo(sizeof(ThreadState), PS);
  ThreadState *TS = (ThreadState *)MmapOrDie(TSBytes, "ActiveTime calibration");
  TS->Tree.Init();
  TS->Switch.Source = raw::SS_None;
  TS->Switch.Ring.Fd = -1;
  Frame *Stk = (Frame *)MmapOrDie(PS, "ActiveTime calibration stack");
  Stk[0].Addr = ~uptr(0);
  Stk[0].N = TS->Tree.At(0);
  internal_memset(&T, 0, sizeof(T));
  T.Stack = Stk;
  T.Tree = &TS->Tree;
  T.TS = TS;
  T.Depth = 1;
  T.SwitchHead = &calib_zero_word;
  T.SwitchTailSeen = 0;
  T.SampleHead = &calib_zero_word;
  T.SampleTailSeen = 0;
  T.NextCheckTick = ~0ull;
  AT_BARRIER();
  T.Capacity = u32(PS / sizeof(Frame));

  // Warm-up: creates the node, faults the pages in, trains the predictors.
  for (int I = 0; I < 2 * kCalls; ++I)
    CalibLeafInstrumented(0);
  const Node *N = TS->Tree.At(TS->Tree.Find(0, &calib_desc, 0));
  u64 EmptyPlain = PlainCost256(0);
  // Around an empty body first, then (unfenced) around a body as long as
  // that pair. A fenced pair costs the same around any body, and the
  // empty-body figure is the one without the body's own start-up after the
  // fence (the plain loop overlaps it, the fenced one cannot), so it is kept.
  RoundResult Best = Calibrate(N, 0, EmptyPlain);
  if (!__atomic_load_n(&probe_fence, __ATOMIC_RELAXED)) {
    constexpr u32 kProbeSteps = 64;
    u64 Long = PlainCost256(kProbeSteps);
    u64 PerStep = Long > EmptyPlain ? (Long - EmptyPlain) / kProbeSteps : 0;
    u32 Steps = PerStep ? u32((Best.B + PerStep / 2) / PerStep) : 0;
    if (Steps < 1)
      Steps = 1;
    if (Steps > kProbeSteps)
      Steps = kProbeSteps;
    VLog(2, "calibration: empty-body pair %llu/256, A %llu/256, spread %llu; "
            "plain per step %llu/256 -> %u steps",
         (unsigned long long)Best.B, (unsigned long long)Best.A,
         (unsigned long long)Best.Spread, (unsigned long long)PerStep, Steps);
    Best = Calibrate(N, Steps, EmptyPlain);
  }
  if (Best.A > Best.B)
    Best.A = Best.B;

  AT_BARRIER();
  T = Saved;
  AT_BARRIER();
  TS->Tree.Destroy();
  UnmapOrDie(Stk, PS);
  UnmapOrDie(TS, TSBytes);

  internal_memset(Out, 0, sizeof(*Out));
  // The probes measure their own intervals; the table holds the rest of
  // each part of the pair (the instructions outside the two tick reads).
  u64 Exit = Best.B > Best.A ? Best.B - Best.A : 0;
  Out->Enter256 = Best.A > Best.MeasuredEnter ? Best.A - Best.MeasuredEnter : 0;
  Out->Exit256 = Exit > Best.MeasuredExit ? Exit - Best.MeasuredExit : 0;
  Out->Pair256 = Best.B;
  Out->MeasuredEnter256 = Best.MeasuredEnter;
  Out->MeasuredExit256 = Best.MeasuredExit;
  Out->Source = raw::OS_Calibrated;
  Out->Batches = kBatches;
  Out->SpreadPermille = Best.Spread > 0xffffffffull ? 0xffffffffu : u32(Best.Spread);
  Out->Flags = Best.Spread <= kSpreadBoundPermille ? raw::OF_Stable : 0;
}

void InitOverheadTable() {
  int E = flags()->overhead_enter_ticks, X = flags()->overhead_exit_ticks;
  raw::OverheadRecord R;
  internal_memset(&R, 0, sizeof(R));
  __atomic_store_n(&probe_fence, flags()->probe_fence ? 1u : 0u,
                   __ATOMIC_RELAXED);
  if (E < 0 || X < 0)
    CalibrateOverhead(&R);
  if (E >= 0 || X >= 0) {
    // Fixed by option (a single fixed entry overrides its calibrated value).
    if (E >= 0)
      R.Enter256 = u64(E) << 8;
    if (X >= 0)
      R.Exit256 = u64(X) << 8;
    R.Source = raw::OS_Option;
    if (E >= 0 && X >= 0)
      R.Flags |= raw::OF_Stable;
  }
  if (flags()->probe_fence)
    R.Flags |= raw::OF_Fenced;
  R.Flags |= raw::OF_Measured; // every probe charges its own interval
  runtime.Overhead = R;
  VLog(2, "overhead table: enter %llu/256 exit %llu/256 ticks (%s, spread %u permille%s)",
       (unsigned long long)R.Enter256, (unsigned long long)R.Exit256,
       R.Source == raw::OS_Option ? "option" : "calibrated", R.SpreadPermille,
       (R.Flags & raw::OF_Stable) ? "" : ", UNSTABLE");
}

void SetOverheadForTesting(u64 Enter256, u64 Exit256) {
  runtime.Overhead.Enter256 = Enter256;
  runtime.Overhead.Exit256 = Exit256;
  runtime.Overhead.Source = raw::OS_Option;
  at_tls.Enter256 = Enter256;
  at_tls.Exit256 = Exit256;
}

} // namespace __activetime
