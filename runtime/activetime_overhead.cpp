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
// When. The calibration takes about 2 ms of CPU, which every short process
// would pay before main. It runs beside the program instead, a millisecond
// after start-up: in a helper process while the program has one thread
// (activetime_helper.h: a runtime thread would switch glibc to its slower
// multi-threaded paths), else on a runtime thread (the code-sample
// drainer's first work, or its own thread). A process that ends first
// pays nothing and its profile says the table was never calibrated. Until
// the table is published the probes charge only what they measure of
// themselves (the parts outside their tick reads stay in the callers'
// times, within the tool's per-pair error bound), and no function is
// switched to counting.
// Each thread adopts the published table at its next poll; a pending
// thread polls at least every millisecond for it.
//
//===----------------------------------------------------------------------===//

#include "activetime_collector.h"
#include "activetime_codesamples.h"
#include "activetime_counts.h"
#include "activetime_flags.h"
#include "activetime_helper.h"
#include "activetime_interface.h"
#include "activetime_internal.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_worker.h"

#include "sanitizer_common/sanitizer_linux.h"
#include "sanitizer_common/sanitizer_mutex.h"

namespace __activetime {

namespace raw = activetime::raw;

namespace {
constexpr int kBatches = 31;
constexpr int kCalls = 128;
constexpr int kRounds = 3;
constexpr u64 kSpreadBoundPermille = 100;

// How often a thread waiting for the table polls for it.
constexpr u64 kPendingPollNs = 1000000;

// The table is to be calibrated and is not published yet (set at start-up,
// cleared, with release, once runtime.Overhead and runtime.TickStep256 hold
// the calibrated figures; threads adopt them at their next poll).
u32 calibration_pending;
// Claimed by whoever calibrates (0 free, 1 taken): the helper process's
// starter, the drainer, or the calibration's own thread.
u32 calibration_claimed;
u64 pending_poll_ticks;
// runtime.Overhead and TickStep256 between the publication and the writer.
StaticSpinMutex table_mu;
WorkerThread calibrator;

// The helper process's course (activetime_helper.h): started by the first
// pending poll a millisecond into the run, its figures published by the
// first poll that finds them written.
enum HelperState : u32 {
  HP_Off,      // none: measured on a runtime thread, or nothing to measure
  HP_Waiting,  // to be started, a millisecond into the run
  HP_Starting, // a poll is starting it
  HP_Running,  // measuring
  HP_Polling,  // a poll is reading it
};
u32 helper_state;
bool helper_table, helper_cost; // what it measures (claimed for it)

bool ClaimCalibration() {
  u32 Free = 0;
  return __atomic_compare_exchange_n(&calibration_claimed, &Free, 1u, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void ReleaseCalibration() {
  __atomic_store_n(&calibration_claimed, 0u, __ATOMIC_RELEASE);
}

// A flag's fixed part of the table (ticks * 256), 0 where calibrated.
u64 FixedPart256(int Ticks) { return Ticks >= 0 ? u64(Ticks) << 8 : 0; }

// A calibration beside the program stops at the next batch once its worker
// is asked to (Stop null: one before main, which runs to its end).
bool Stopping(const WorkerThread *Stop) {
  return Stop && StopRequested(*Stop);
}

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

// Instrumented like compiled code: the sample poll's check when the
// program's modules have it (abi.h; Poll), entry probe, body, exit probe.
// Its frame slot holds a fixed "return address", so that the calls from
// every loop of the calibration are one node (one call site).
template <bool Poll> NOINLINE void CalibLeafInstrumented(u32 Steps) {
  volatile uptr Slot[1] = {0};
  void *F = (void *)Slot;
  if (Poll && UNLIKELY(*at_tls.SampleHead != at_tls.SampleTailSeen))
    __activetime_sample_poll();
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
  bool Stopped; // the worker was asked to stop: no figures
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
RoundResult RunRound(const Node *N, u32 Steps, u64 EmptyPlain256,
                     const WorkerThread *Stop) {
  bool Poll = EntriesPollSamples();
  u64 Ins[kBatches], Pls[kBatches], Els[kBatches], Bs[kBatches];
  u64 Mes[kBatches], Mxs[kBatches];
  const ThreadTls &T = at_tls;
  RoundResult R = {};
  for (int Bt = 0; Bt < kBatches; ++Bt) {
    if (Stopping(Stop)) {
      R.Stopped = true;
      return R;
    }
    u64 C0 = N->Calls, I0 = N->Incl, O0 = N->Ovh256, TO0 = T.Ovh;
    u64 T0 = ReadTick();
    if (Poll)
      for (int I = 0; I < kCalls; ++I)
        CalibLeafInstrumented<true>(Steps);
    else
      for (int I = 0; I < kCalls; ++I)
        CalibLeafInstrumented<false>(Steps);
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

RoundResult Calibrate(const Node *N, u32 Steps, u64 EmptyPlain256,
                      const WorkerThread *Stop, int Rounds = kRounds) {
  RoundResult Best = {0, 0, ~0ull, 0, 0, false};
  for (int Round = 0; Round < Rounds; ++Round) {
    RoundResult R = RunRound(N, Steps, EmptyPlain256, Stop);
    if (R.Stopped)
      return R;
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

bool CalibrateOverhead(raw::OverheadRecord *Out, const WorkerThread *Stop) {
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
    EntriesPollSamples() ? CalibLeafInstrumented<true>(0)
                         : CalibLeafInstrumented<false>(0);
  const Node *N = TS->Tree.At(TS->Tree.Find(0, &calib_desc, 0));
  u64 EmptyPlain = PlainCost256(0);
  // Around an empty body first, then (unfenced) around a body as long as
  // that pair. A fenced pair costs the same around any body, and the
  // empty-body figure is the one without the body's own start-up after the
  // fence (the plain loop overlaps it, the fenced one cannot), so it is kept.
  // Unfenced, the empty-body pair only sizes the body (to the nearest step),
  // so one round of it does.
  bool Fenced = __atomic_load_n(&probe_fence, __ATOMIC_RELAXED);
  RoundResult Best = Calibrate(N, 0, EmptyPlain, Stop, Fenced ? kRounds : 1);
  if (!Fenced) {
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
    if (!Best.Stopped)
      Best = Calibrate(N, Steps, EmptyPlain, Stop);
  }
  if (Best.A > Best.B)
    Best.A = Best.B;

  AT_BARRIER();
  T = Saved;
  AT_BARRIER();
  TS->Tree.Destroy();
  UnmapOrDie(Stk, PS);
  UnmapOrDie(TS, TSBytes);
  if (Best.Stopped)
    return false;

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
  return true;
}

namespace {
// The table's flags that do not depend on the calibration.
u32 TableFlags() {
  int E = flags()->overhead_enter_ticks, X = flags()->overhead_exit_ticks;
  u32 F = raw::OF_Measured; // every probe charges its own interval
  if (E >= 0 && X >= 0)
    F |= raw::OF_Stable;
  if (flags()->probe_fence)
    F |= raw::OF_Fenced;
  return F;
}

// The table with calibrated figures C (null: none yet), the flags' fixed
// parts overriding their calibrated values.
raw::OverheadRecord TableFrom(const raw::OverheadRecord *C) {
  int E = flags()->overhead_enter_ticks, X = flags()->overhead_exit_ticks;
  raw::OverheadRecord R;
  internal_memset(&R, 0, sizeof(R));
  if (C)
    R = *C;
  if (E >= 0)
    R.Enter256 = FixedPart256(E);
  if (X >= 0)
    R.Exit256 = FixedPart256(X);
  if (E >= 0 || X >= 0)
    R.Source = raw::OS_Option;
  else if (!C)
    R.Source = raw::OS_Uncalibrated;
  R.Flags |= TableFlags();
  return R;
}

void LogTable(const raw::OverheadRecord &R) {
  VLog(2, "overhead table: enter %llu/256 exit %llu/256 ticks (%s, spread %u "
          "permille%s)",
       (unsigned long long)R.Enter256, (unsigned long long)R.Exit256,
       R.Source == raw::OS_Option       ? "option"
       : R.Source == raw::OS_Calibrated ? "calibrated"
                                        : "calibration pending",
       R.SpreadPermille, (R.Flags & raw::OF_Stable) ? "" : ", UNSTABLE");
}

// The calibrated table, for every thread from its next poll on (AtStart:
// before the first frame, ReadyTick 0).
void PublishTable(const raw::OverheadRecord &C, u64 TickStep256,
                  bool AtStart) {
  raw::OverheadRecord R = TableFrom(&C);
  R.ReadyTick = AtStart ? 0 : ReadTick();
  {
    SpinMutexLock L(&table_mu);
    runtime.Overhead = R;
    runtime.TickStep256 = TickStep256;
  }
  InitTiming(); // the counting threshold, from the pair's cost
  LogTable(R);
  // Last: whoever sees the table published sees all of the above done.
  __atomic_store_n(&calibration_pending, 0u, __ATOMIC_RELEASE);
}

// Measures the tick step and calibrates the table (Stop: the worker it runs
// on, whose stop request abandons it), then publishes both.
bool CalibrateAndPublish(const WorkerThread *Stop, bool AtStart) {
  u64 Step256 = MeasureTickStep256();
  raw::OverheadRecord C;
  if (!CalibrateOverhead(&C, Stop))
    return false;
  PublishTable(C, Step256, AtStart);
  return true;
}

// It stays (asleep) until the exit stops it: a thread that ended unjoined
// would be a leak to ThreadSanitizer in a child made by clone(), which
// runs no exit handler.
void *CalibratorMain(void *) {
  internal_prctl(15 /* PR_SET_NAME */, uptr("at-calib"), 0, 0, 0);
  if (CalibrateBeside(calibrator) && MeasureCodeSampleCost(&calibrator))
    SleepUntil(calibrator, ~0ull);
  return nullptr;
}

// The calibration and the sample cost on a thread of their own.
void StartCalibratorThread() {
  if (calibrator.Running)
    return;
  if (int R = StartWorker(calibrator, CalibratorMain)) {
    VLog(1, "cannot start the probe calibration's thread (error %d): "
            "calibrating now", R);
    CalibrateBeside(calibrator);
    MeasureCodeSampleCost();
  }
}

bool MeasurementsPending() {
  return __atomic_load_n(&calibration_pending, __ATOMIC_ACQUIRE) ||
         CodeSamplesPending();
}

// Start-up, after the code-sample drainer: who measures beside the program.
// A drainer that runs does (the table first, then the sample cost);
// without one, a single-threaded program's helper process, else a thread.
void StartCalibrator() {
  if (!MeasurementsPending() || CodeSampleDrainerRuns())
    return;
  // The page first: threads waiting for the figures watch its Ready.
  if (flags()->measure_in_process && HelperProcessUsable() &&
      MapHelperPage()) {
    __atomic_store_n(&helper_state, u32(HP_Waiting), __ATOMIC_RELEASE);
    return;
  }
  StartCalibratorThread();
}

bool HelperPending() {
  return __atomic_load_n(&helper_state, __ATOMIC_ACQUIRE) != HP_Off;
}

bool MoveHelper(u32 From, u32 To) {
  return __atomic_compare_exchange_n(&helper_state, &From, To, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void ReleaseHelperClaims() {
  if (helper_table)
    ReleaseCalibration();
  if (helper_cost)
    ReleaseCodeSampleCost();
  helper_table = helper_cost = false;
}

void StartHelper() {
  helper_table =
      __atomic_load_n(&calibration_pending, __ATOMIC_ACQUIRE) &&
      ClaimCalibration();
  helper_cost = CodeSamplesPending() && ClaimCodeSampleCost();
  if (!helper_table && !helper_cost) {
    __atomic_store_n(&helper_state, u32(HP_Off), __ATOMIC_RELEASE);
    return;
  }
  if (StartHelperProcess(helper_table, helper_cost)) {
    VLog(2, "measuring in a helper process:%s%s",
         helper_table ? " the probe table" : "",
         helper_cost ? " a code sample's cost" : "");
    __atomic_store_n(&helper_state, u32(HP_Running), __ATOMIC_RELEASE);
    return;
  }
  // No helper (the program has a thread by now, or clone() was refused).
  ReleaseHelperClaims();
  __atomic_store_n(&helper_state, u32(HP_Off), __ATOMIC_RELEASE);
  StartCalibratorThread();
}

// A poll's look at the helper; Exiting: the process's last, which does not
// start one and ends one still measuring.
void PollHelper(bool Exiting) {
  if (!Exiting && MeasureTimeReached() && MoveHelper(HP_Waiting, HP_Starting))
    return StartHelper();
  if (Exiting && MoveHelper(HP_Waiting, HP_Off))
    return;
  if (!MoveHelper(HP_Running, HP_Polling))
    return; // not started yet, or another poll is reading it
  HelperFigures F;
  HelperStatus St = PollHelperProcess(&F);
  // The table as soon as it is written: the sample cost comes ~4 ms later.
  if (helper_table && F.TableDone) {
    helper_table = false;
    if (F.HasTable)
      PublishTable(F.Table, F.TickStep256, /*AtStart=*/false);
    else
      ReleaseCalibration();
  }
  if (St == HS_Running && !Exiting) {
    __atomic_store_n(&helper_state, u32(HP_Running), __ATOMIC_RELEASE);
    return;
  }
  if (St == HS_Done) {
    if (helper_cost && F.HasCost)
      PublishCodeSampleCost(F.Cost256);
    helper_cost = false;
    __atomic_store_n(&helper_state, u32(HP_Off), __ATOMIC_RELEASE);
    return;
  }
  StopHelperProcess(); // still measuring at exit: not in this profile
  ReleaseHelperClaims();
  __atomic_store_n(&helper_state, u32(HP_Off), __ATOMIC_RELEASE);
  if (!Exiting) {
    VLog(1, "the measuring helper process ended without its figures: "
            "measuring on a runtime thread");
    StartCalibratorThread();
  }
}

void StopCalibrator() {
  PollHelper(/*Exiting=*/true);
  StopWorker(calibrator);
}

// fork(): the table's lock is not held across it (a publication on the
// drainer thread would leave it locked in the child for ever).
void LockTableForFork() { table_mu.Lock(); }
void UnlockTableAfterFork() { table_mu.Unlock(); }

// A fork child: its parent's calibrating thread did not survive. First in
// the child (before the drainer restarts and may claim it): the claim is
// free again, a millisecond into the child's life.
void CalibrationForkChild() {
  table_mu.Unlock();
  calibrator.Running = 0;
  ReleaseCalibration();
  ForgetHelperProcess();
  __atomic_store_n(&helper_state, u32(HP_Off), __ATOMIC_RELEASE);
  MarkProcessStart();
}

// Then what is still pending is measured again.
void CalibratorAfterForkChild() {
  if (!MeasurementsPending())
    return;
#if !ACTIVETIME_TSAN
  StartCalibrator();
#else
  // ThreadSanitizer kills a child of a multi-threaded fork that starts a
  // thread: calibrated on the spot.
  if (!CodeSampleDrainerRuns())
    CalibrateBeside(calibrator);
#endif
}

// The thread's table: the published one, or the flags' fixed parts while
// the calibration is pending (and a poll within a millisecond).
void StartThreadTable(ThreadTls &T, ThreadState *, u64 Now) {
  T.TablePending = 1;
  T.Enter256 = FixedPart256(flags()->overhead_enter_ticks);
  T.Exit256 = FixedPart256(flags()->overhead_exit_ticks);
  PollProbeTable(T, Now);
}

void RestartThreadTable(ThreadTls &T, ThreadState *, u64 Now) {
  if (T.TablePending)
    PollProbeTable(T, Now);
}

void FillTable(raw::ProcessRecord &R) {
  SpinMutexLock L(&table_mu);
  R.Overhead = runtime.Overhead;
  R.TickStep256 = runtime.TickStep256;
}
} // namespace

bool CalibrateBeside(WorkerThread &W) {
  if (!__atomic_load_n(&calibration_pending, __ATOMIC_ACQUIRE))
    return true;
  if (!ClaimCalibration())
    return true; // another runtime thread (or the helper process) has it
  return WaitToMeasure(W) && CalibrateAndPublish(&W, /*AtStart=*/false);
}

bool ProbeTablePending() {
  return __atomic_load_n(&calibration_pending, __ATOMIC_ACQUIRE);
}

void PollMeasuredBeside() {
  if (HelperPending())
    PollHelper(/*Exiting=*/false);
}

void MeasureBesideNow() {
  if (MoveHelper(HP_Waiting, HP_Starting))
    StartHelper();
}

void PollProbeTable(ThreadTls &T, u64 Now) {
  if (!ProbeTablePending()) {
    // Published (or never pending): constant from now on.
    T.Enter256 = runtime.Overhead.Enter256;
    T.Exit256 = runtime.Overhead.Exit256;
    if (!HelperPending()) {
      T.TablePending = 0;
      T.TablePollTick = 0;
      return;
    }
  }
  u64 Next = Now + pending_poll_ticks;
  T.TablePollTick = Next;
  if (Next < T.NextCheckTick)
    T.NextCheckTick = Next;
}

void InitOverheadTable() {
  __atomic_store_n(&probe_fence, flags()->probe_fence ? 1u : 0u,
                   __ATOMIC_RELAXED);
  int E = flags()->overhead_enter_ticks, X = flags()->overhead_exit_ticks;
  bool Calibrate = E < 0 || X < 0;
  ReleaseCalibration();
  __atomic_store_n(&helper_state, u32(HP_Off), __ATOMIC_RELEASE); // Start's
  __atomic_store_n(&calibration_pending, Calibrate ? 1u : 0u,
                   __ATOMIC_RELEASE);
  pending_poll_ticks = u64((unsigned __int128)kPendingPollNs *
                           ProvisionalTickRate() / 1000000000ull);
  MarkProcessStart();
  raw::OverheadRecord R = TableFrom(nullptr);
  {
    SpinMutexLock L(&table_mu);
    runtime.Overhead = R;
    runtime.TickStep256 = 0; // measured with the table
  }
  LogTable(R);
  // mode=trace: its offline computation applies the table to every event,
  // so the probes must have had it from the first one too.
  if (Calibrate &&
      (flags()->calibrate_at_start || flags()->mode == RunMode::Trace)) {
    __atomic_store_n(&calibration_claimed, 1u, __ATOMIC_RELEASE);
    CalibrateAndPublish(/*Stop=*/nullptr, /*AtStart=*/true);
  } else if (!Calibrate) {
    // Fixed figures: only the tick step is left to measure, at once.
    SpinMutexLock L(&table_mu);
    runtime.TickStep256 = MeasureTickStep256();
  }
}

void CalibrateOverheadForTesting() {
  WorkerThread W = {};
  CalibrateBeside(W);
}

void WaitForProbeTableForTesting() {
  CalibrateOverheadForTesting(); // here, unless a runtime thread has it
  while (__atomic_load_n(&calibration_pending, __ATOMIC_ACQUIRE)) {
    PollMeasuredBeside();
    internal_sched_yield();
  }
}

void SetOverheadForTesting(u64 Enter256, u64 Exit256) {
  runtime.Overhead.Enter256 = Enter256;
  runtime.Overhead.Exit256 = Exit256;
  runtime.Overhead.Source = raw::OS_Option;
  __atomic_store_n(&calibration_pending, 0u, __ATOMIC_RELEASE);
  at_tls.Enter256 = Enter256;
  at_tls.Exit256 = Exit256;
  at_tls.TablePending = 0;
  at_tls.TablePollTick = 0;
}

// After the code-sample drainer (Start: it may calibrate instead), and
// after the switch source and code samples (ThreadStart: the pending poll
// caps the NextCheckTick they set).
const Collector kProbeTableCollector = {
    .Name = "probe-table",
    .Order = 120,
    .Start = StartCalibrator,
    .Stop = StopCalibrator,
    .ForkPrepare = LockTableForFork,
    .ForkParent = UnlockTableAfterFork,
    .ForkChild = CalibrationForkChild,
    .AfterForkChild = CalibratorAfterForkChild,
    .ThreadStart = StartThreadTable,
    .ThreadAfterForkChild = RestartThreadTable,
    .FillProcess = FillTable,
};
AT_REGISTER_COLLECTOR(kProbeTableCollector);

} // namespace __activetime
