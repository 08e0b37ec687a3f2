//===- activetime_switch.cpp - Context-switch sources -----------*- C++ -*-===//
//
// See activetime_switch.h. Everything here runs on slow paths: thread init
// and finish, fork, and the probes' poll when a context switch happened or
// a cpuclock check is due.
//
//===----------------------------------------------------------------------===//

#include "activetime_switch.h"

#include "activetime/raw_format.h"
#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "sanitizer_common/sanitizer_linux.h"

#include <linux/perf_event.h>
#include <time.h>

namespace __activetime {

namespace raw = activetime::raw;

namespace {
// The "ring head" of threads without a perf ring: never moves.
const volatile u64 kZeroWord = 0;

constexpr u64 kNsPerSec = 1000000000ull;

void ReadTickAndRawNs(u64 *Tick, u64 *Ns) { ReadTickRawNsPair(Tick, Ns); }

u64 TicksFromNs(u64 Ns, u64 Rate) {
  return (u64)((unsigned __int128)Ns * Rate / kNsPerSec);
}

// Appends a switch event to the trace (mode=trace).
void TraceSwitch(ThreadState *TS, u64 Tick, bool Out) {
  TraceBuffers &B = TS->Trace;
  if (!B.Switches)
    return;
  if (B.NumSwitches >= B.ReadySwitches &&
      (B.NumSwitches >= B.CapSwitches || !TraceReadySwitches(B))) {
    B.DroppedSwitches++;
    return;
  }
  TraceSw &E = B.Switches[B.NumSwitches];
  E.Tick = Tick;
  E.Out = Out;
  E.Reserved = 0;
  __atomic_store_n(&B.NumSwitches, B.NumSwitches + 1, __ATOMIC_RELEASE);
}

// A complete switched-out interval read at the probe tick Now. The thread
// was running when it read Now, so whatever part of the interval lies after
// Now (a switch inside this probe, or skew between the perf clock and the
// tick counter) belongs to the frames open after this probe: it is charged
// at the next one. Splitting at Now charges every frame exactly the part of
// the interval inside it, as the offline active-time computation does when
// it clips intervals to frames.
// Sw: the switch it counts (kSwVoluntary, kSwInvoluntary, or 0 for none).
void AddInterval(ThreadTls &T, SwitchState &S, u64 Out, u64 In, u64 Sw,
                 u64 Now) {
  if (In <= Now) {
    T.Off += In > Out ? In - Out : 0;
    T.Sw += Sw;
    return;
  }
  u64 Start = Out;
  if (Out < Now) {
    T.Off += Now - Out;
    T.Sw += Sw;
    Start = Now;
  } else {
    S.PendSw += Sw;
  }
  S.PendOff += In - Start;
  if (!S.PendCount || Start < S.PendFirstOut)
    S.PendFirstOut = Start;
  S.PendCount++;
}

void FlushPending(ThreadTls &T, SwitchState &S, u64 Now) {
  if (!S.PendCount || S.PendFirstOut >= Now)
    return;
  T.Off += S.PendOff;
  T.Sw += S.PendSw;
  S.PendOff = S.PendSw = 0;
  S.PendCount = 0;
}

int PerfOpen(u64 Tid, bool ClockRaw) {
  struct perf_event_attr A;
  internal_memset(&A, 0, sizeof(A));
  A.size = sizeof(A);
  A.type = PERF_TYPE_SOFTWARE;
  A.config = PERF_COUNT_SW_DUMMY;
  A.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
  A.disabled = 0;
  A.exclude_kernel = 1;
  A.exclude_hv = 1;
  A.sample_id_all = 1;
  A.context_switch = 1;
  if (ClockRaw) {
    A.use_clockid = 1;
    A.clockid = CLOCK_MONOTONIC_RAW;
  }
  return PerfEventOpen(&A, Tid);
}

constexpr const char kOverBudgetWhy[] =
    "the runtime's descriptor budget, an eighth of ulimit -n, is spent";

// Whether the kernel publishes the TSC <-> perf time conversion is the
// same for every thread: once a ring showed it does not, later threads ask
// for CLOCK_MONOTONIC_RAW at once instead of opening a ring twice.
u32 no_time_zero;

// Opens the perf ring for Tid; returns null on success, else why not.
const char *OpenPerf(SwitchState &S, u64 Tid) {
  uptr Pages = uptr(flags()->switch_buffer_pages);
  for (int Try = __atomic_load_n(&no_time_zero, __ATOMIC_RELAXED); Try < 2;
       ++Try) {
    bool ClockRaw = Try == 1;
    int Fd = PerfOpen(Tid, ClockRaw);
    if (Fd == kOverBudget)
      return kOverBudgetWhy;
    if (Fd < 0)
      return "perf_event_open failed";
    if (!MapPerfRing(S.Ring, Fd, Pages))
      return "mmap of the perf ring failed";
    perf_event_mmap_page *P = S.Ring.Header();
    if (!ClockRaw && !P->cap_user_time_zero) {
      // No TSC <-> perf time conversion published (typical in VMs): ask
      // for CLOCK_MONOTONIC_RAW timestamps instead.
      ClosePerfRing(S.Ring);
      __atomic_store_n(&no_time_zero, 1, __ATOMIC_RELAXED);
      continue;
    }
    S.Conv = ClockRaw ? PTC_ClockRaw : PTC_TimeZero;
    S.TimeZero = P->time_zero;
    S.TimeMult = P->time_mult;
    S.TimeShift = P->time_shift;
    return nullptr;
  }
  return "perf_event_open with CLOCK_MONOTONIC_RAW failed";
}

// Maps CLOCK_MONOTONIC_RAW record times to ticks (PTC_ClockRaw): a (tick,
// raw ns) pair read once per drain, and the tick rate.
struct RawClockAnchor {
  u64 Tick = 0, Ns = 0, Rate = 0;
};

// The tick of a PERF_RECORD_SWITCH; false for any other record.
bool SwitchRecordTick(const SwitchState &S, const PerfRecord &R,
                      const RawClockAnchor &A, u64 *Tick) {
  u64 Time;
  if (R.Type != PERF_RECORD_SWITCH || !SwitchRecordTime(R, &Time))
    return false;
  *Tick = S.Conv == PTC_TimeZero
              ? PerfTimeToTick(Time, S.TimeZero, S.TimeMult, S.TimeShift)
              : RawNsToTick(Time, A.Tick, A.Ns, A.Rate);
  return true;
}

// One PERF_RECORD_SWITCH or PERF_RECORD_LOST of the thread's ring.
void TakeSwitchRecord(ThreadTls &T, SwitchState &S, const PerfRecord &R,
                      u64 Now, const RawClockAnchor &A) {
  ThreadState *TS = T.TS;
  if (R.Type == PERF_RECORD_LOST) {
    u64 Lost = LostRecordCount(R);
    S.Lost += Lost;
    if (TS && TS->Trace.Switches)
      TS->Trace.DroppedSwitches += Lost;
    S.HaveOpen = 0; // its switch-in may be among the lost ones
    return;
  }
  u64 Tick;
  if (!SwitchRecordTick(S, R, A, &Tick))
    return;
  bool Out = R.Misc & PERF_RECORD_MISC_SWITCH_OUT;
  if (TS && Tick >= S.From)
    TraceSwitch(TS, Tick, Out);
  bool First = !S.Seen;
  S.Seen = 1;
  if (Out) {
    // A previous unmatched switch-out lost its switch-in: dropped.
    S.OpenOut = Tick;
    S.HaveOpen = 1;
    S.OpenPreempt = (R.Misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
  } else if (S.HaveOpen) {
    // A late ring: the CPU clock charged what lies before From.
    if (Tick > S.From)
      AddInterval(T, S, S.OpenOut > S.From ? S.OpenOut : S.From, Tick,
                  S.OpenPreempt ? kSwInvoluntary : kSwVoluntary, Now);
    S.HaveOpen = 0;
  } else if (First && S.From && Tick > S.From) {
    // A late ring's first record: off CPU since before From. The time
    // after From is known; the switch itself came before (uncounted, as
    // the CPU clock counts none).
    AddInterval(T, S, S.From, Tick, /*Sw=*/0, Now);
  }
  // Any other switch-in without a switch-out (the first record of a ring
  // opened at thread start, or after a loss) has no known start: ignored.
}
} // namespace

u64 PerfTimeToTick(u64 Time, u64 TimeZero, u32 TimeMult, u32 TimeShift) {
  if (Time <= TimeZero || !TimeMult)
    return 0;
  unsigned __int128 D = (unsigned __int128)(Time - TimeZero) << TimeShift;
  return (u64)(D / TimeMult);
}

u64 RawNsToTick(u64 Ns, u64 AnchorTick, u64 AnchorNs, u64 Rate) {
  if (Ns >= AnchorNs)
    return AnchorTick + TicksFromNs(Ns - AnchorNs, Rate);
  u64 Back = TicksFromNs(AnchorNs - Ns, Rate);
  return Back < AnchorTick ? AnchorTick - Back : 0;
}

void DrainPerfRing(ThreadTls &T, SwitchState &S, u64 Now) {
  FlushPending(T, S, Now);
  u64 Head = S.Ring.LoadHead();
  RawClockAnchor Anchor;
  if (S.Conv == PTC_ClockRaw && Head != S.Ring.Tail) {
    ReadTickAndRawNs(&Anchor.Tick, &Anchor.Ns);
    Anchor.Rate = ProvisionalTickRate();
  }
  PerfRecordWalk W(S.Ring, S.Ring.Tail, Head);
  PerfRecord R;
  while (W.Next(&R))
    TakeSwitchRecord(T, S, R, Now, Anchor);
  // A corrupt record: stop there (resynchronize at the next head).
  ConsumePerfRing(S.Ring, W.Tail);
  T.SwitchTailSeen = Head;
  SetNextCheck(T, S.PendCount ? 0 : ~0ull);
}

u64 CpuClockStep(SwitchState &S, u64 NowTick, u64 CpuNs, u64 Rate) {
  u64 Wall = NowTick > S.LastWall ? NowTick - S.LastWall : 0;
  u64 Cpu = CpuNs > S.LastCpuNs ? TicksFromNs(CpuNs - S.LastCpuNs, Rate) : 0;
  S.LastWall = NowTick;
  S.LastCpuNs = CpuNs;
  return Wall > Cpu ? Wall - Cpu : 0;
}

namespace {
void CheckSwitchSource(ThreadTls &T, SwitchState &S, u64 Now) {
  if (S.Source == raw::SS_Perf) {
    DrainPerfRing(T, S, Now);
  } else if (S.Source == raw::SS_CpuClock) {
    // The CPU clock is read after the tick; the window ends at the tick read
    // just after it (the syscall's own time is on-CPU).
    u64 Cpu = ThreadCpuNs();
    u64 Wall = ReadTick();
    T.Off += CpuClockStep(S, Wall, Cpu, ProvisionalTickRate());
    SetNextCheck(T, Wall + S.Resolution);
  } else {
    SetNextCheck(T, ~0ull);
    T.SwitchTailSeen = *T.SwitchHead;
  }
}
} // namespace

void PollSwitchSource(ThreadTls &T, u64 Now) {
  CheckSwitchSource(T, T.TS->Switch, Now);
}

// A switch inside the probe has both its records in the ring by the time
// the thread runs again. A cpuclock window may also hold off-CPU time from
// before the probe; the caller caps what it takes out at the probe's own
// interval. Code samples wait for the next poll: their cost is charged as
// a whole there.
u64 CollectSwitchedOut(ThreadTls &T, u64 Now) {
  ThreadState *TS = T.TS;
  if (!TS || TS->Switch.Source == raw::SS_None)
    return 0;
  u64 Before = T.Off;
  CheckSwitchSource(T, TS->Switch, Now);
  return T.Off - Before;
}

namespace {
void NotePerfUnavailable(ThreadState *TS, const char *Why) {
  TS->SwitchFallbackWhy = Why;
  VLog(1, "thread %llu: switch_source=perf unavailable (%s); using cpuclock",
       (unsigned long long)TS->Tid, Why);
}

// The thread's source becomes its perf ring S.Ring.
void UsePerfRing(ThreadTls &T, SwitchState &S) {
  S.Source = raw::SS_Perf;
  T.SwitchHead = S.Ring.HeadWord();
  T.SwitchTailSeen = S.Ring.Tail;
  SetNextCheck(T, ~0ull);
}

// The thread's perf ring, or why not (then it keeps its CPU clock).
bool TryPerf(ThreadTls &T, ThreadState *TS) {
  SwitchState &S = TS->Switch;
  if (const char *Why = OpenPerf(S, TS->Tid)) {
    NotePerfUnavailable(TS, Why);
    return false;
  }
  UsePerfRing(T, S);
  return true;
}

// A thread on its CPU clock moves to its perf ring, which records switches
// already: the clock's last window runs to a tick read now, and the ring's
// records before that tick are dropped (From). A switch while the ring was
// opened or enabled is then charged once, by one source or the other.
void MoveToPerfRing(ThreadTls &T, SwitchState &S) {
  u64 Cpu = ThreadCpuNs();
  u64 Wall = ReadTick();
  T.Off += CpuClockStep(S, Wall, Cpu, ProvisionalTickRate());
  S.From = Wall;
  UsePerfRing(T, S);
}

// Threads other than the main one start on their CPU clock and open their
// perf rings once they have lived perf_after_us. Not in mode=trace: the
// offline computation takes every thread's switches from its first event.
// (A thread's code-sample ring may open late on its own:
// StartThreadCodeSamples.)
u64 PerfFromTick(const ThreadState *TS, u64 Now) {
  u64 Us = u64(flags()->perf_after_us);
  if (!Us || flags()->mode == RunMode::Trace ||
      TS->Tid == u64(internal_getpid()))
    return 0;
  u64 Ticks = TicksFromNs(Us * 1000ull, ProvisionalTickRate());
  return Now + (Ticks ? Ticks : 1);
}
} // namespace

void OpenThreadSwitchSource(ThreadTls &T, ThreadState *TS, u64 Now) {
  SwitchState &S = TS->Switch;
  internal_memset(&S, 0, sizeof(S));
  S.Ring.Fd = -1;
  S.Source = raw::SS_None;
  T.SwitchHead = &kZeroWord;
  T.SwitchTailSeen = 0;
  SetNextCheck(T, ~0ull);
  // (Again in a fork child: no drainer there holds the parent's claim.)
  __atomic_store_n(&TS->PerfFromTick, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&TS->LateClaim, 0u, __ATOMIC_RELAXED);
  __atomic_store_n(&TS->LateReady, 0, __ATOMIC_RELAXED);
  SwitchSourceFlag Want = flags()->switch_source;
  bool Perf = Want == SwitchSourceFlag::Auto || Want == SwitchSourceFlag::Perf;
  bool CpuClock = Perf || Want == SwitchSourceFlag::CpuClock;
  if (Perf) {
    u64 From = PerfFromTick(TS, Now);
    __atomic_store_n(&TS->PerfFromTick, From, __ATOMIC_RELAXED);
    if (!From && TryPerf(T, TS))
      return;
  }
  if (CpuClock) {
    S.Source = raw::SS_CpuClock;
    u64 Rate = ProvisionalTickRate();
    S.Resolution = TicksFromNs(u64(flags()->cpuclock_check_us) * 1000ull, Rate);
    if (!S.Resolution)
      S.Resolution = 1;
    S.LastCpuNs = ThreadCpuNs();
    S.LastWall = ReadTick();
    SetNextCheck(T, S.LastWall + S.Resolution);
  }
}

void OpenLateSwitchSource(ThreadTls &T, ThreadState *TS) {
  SwitchState &S = TS->Switch;
  if (S.Source != raw::SS_CpuClock)
    return; // on its perf ring already (only its code ring was late)
  if (const char *Why = OpenPerf(S, TS->Tid))
    return NotePerfUnavailable(TS, Why);
  MoveToPerfRing(T, S);
}

void AdoptLateSwitchSource(ThreadTls &T, ThreadState *TS) {
  SwitchState &S = TS->Switch;
  // None installed (or the drainer could not open it: SwitchFallbackWhy),
  // or adopted already.
  if (S.Ring.Fd < 0 || S.Source != raw::SS_CpuClock)
    return;
  if (!S.LateTick)
    return MoveToPerfRing(T, S);
  // The ring has recorded since before LateTick: the CPU clock's windows
  // end there (or at the thread's own last check of it, if that came
  // later, or straddled the drainer's two reads), the records count from
  // there on. A thread that ran no probe since (only counted calls, or
  // blocked) thus has its switches from the drainer's round on.
  if (S.LateTick > S.LastWall && S.LateCpuNs >= S.LastCpuNs)
    T.Off += CpuClockStep(S, S.LateTick, S.LateCpuNs, ProvisionalTickRate());
  S.From = S.LastWall;
  UsePerfRing(T, S);
}

const char *OpenSwitchRingFor(SwitchState &S, u64 Tid) {
  internal_memset(&S, 0, sizeof(S));
  S.Ring.Fd = -1;
  return OpenPerf(S, Tid);
}

void InstallLateSwitchRing(ThreadState *TS, SwitchState &S, const char *Why) {
  if (Why)
    return NotePerfUnavailable(TS, Why);
  SwitchState &D = TS->Switch;
  D.Ring = S.Ring;
  D.Conv = S.Conv;
  D.TimeZero = S.TimeZero;
  D.TimeMult = S.TimeMult;
  D.TimeShift = S.TimeShift;
  // The CPU time first, then the tick: as the thread's own checks read them.
  u64 Cpu;
  if (ThreadCpuNsOf(TS->Tid, &Cpu)) {
    D.LateCpuNs = Cpu;
    D.LateTick = ReadTick();
  }
}

void CloseThreadSwitchSource(ThreadTls &T, ThreadState *TS, bool Drain,
                             u64 Now) {
  SwitchState &S = TS->Switch;
  if (Drain && S.Source == raw::SS_CpuClock)
    // The thread ends at Now; what follows (its wait for the registry lock,
    // with hundreds of threads ending at once) is not its switched-out time.
    T.Off += CpuClockStep(S, Now, ThreadCpuNs(), ProvisionalTickRate());
  else if (Drain && S.Source != raw::SS_None)
    CheckSwitchSource(T, S, Now);
  ClosePerfRing(S.Ring);
  T.SwitchHead = &kZeroWord;
  T.SwitchTailSeen = 0;
  SetNextCheck(T, ~0ull);
}

SwitchSnapshot SnapshotSwitch(const SwitchState &S) {
  SwitchSnapshot X;
  X.Source = S.Source;
  X.HaveOpen = S.HaveOpen;
  X.Seen = S.Seen;
  X.OpenOut = S.OpenOut;
  X.RingTail = S.Ring.Tail;
  X.PendOff = S.PendCount ? S.PendOff : 0;
  X.PendSw = S.PendCount ? S.PendSw : 0;
  X.LastWall = S.LastWall;
  X.LastCpuNs = S.LastCpuNs;
  X.From = S.From;
  return X;
}

namespace {
// The part of [Out, In] up to EndTick.
u64 ClippedInterval(u64 Out, u64 In, u64 EndTick) {
  u64 End = In < EndTick ? In : EndTick;
  return End > Out ? End - Out : 0;
}

// perf: the intervals in the records after Snap.RingTail, read in place.
void UnreadIntervals(const SwitchState &S, const SwitchSnapshot &Snap,
                     u64 EndTick, u64 *Off, u64 *Sw) {
  if (!S.Ring.Page)
    return;
  RawClockAnchor A;
  if (S.Conv == PTC_ClockRaw) {
    ReadTickAndRawNs(&A.Tick, &A.Ns);
    A.Rate = ProvisionalTickRate();
  }
  bool Open = Snap.HaveOpen;
  bool Seen = Snap.Seen;
  u64 From = Snap.From; // a late ring's records before it: the CPU clock's
  u64 OpenOut = Snap.OpenOut;
  u64 OpenSw = kSwVoluntary;
  PerfRecordWalk W(S.Ring, Snap.RingTail, S.Ring.LoadHead());
  PerfRecord R;
  while (W.Next(&R)) {
    u64 Tick;
    if (!SwitchRecordTick(S, R, A, &Tick))
      continue;
    bool First = !Seen;
    Seen = true;
    if (R.Misc & PERF_RECORD_MISC_SWITCH_OUT) {
      Open = true;
      OpenOut = Tick;
      OpenSw = (R.Misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? kSwInvoluntary
                                                              : kSwVoluntary;
    } else if (Open) {
      if (Tick > From) {
        *Off += ClippedInterval(OpenOut > From ? OpenOut : From, Tick, EndTick);
        *Sw += OpenSw;
      }
      Open = false;
    } else if (First && From && Tick > From) {
      *Off += ClippedInterval(From, Tick, EndTick); // as TakeSwitchRecord
    }
  }
  // Overwritten under us (the owner consumed and the kernel reused the
  // space): what was read stands, nothing is assumed open.
  if (Open && W.Done()) {
    *Off += ClippedInterval(OpenOut > From ? OpenOut : From, EndTick, EndTick);
    *Sw += OpenSw;
  }
}
} // namespace

void UnchargedSwitchedOut(const ThreadState *TS, const SwitchSnapshot &Snap,
                          u64 EndTick, u64 *Off, u64 *Sw) {
  *Off = *Sw = 0;
  if (Snap.Source == raw::SS_Perf) {
    *Off = Snap.PendOff;
    *Sw = Snap.PendSw;
    UnreadIntervals(TS->Switch, Snap, EndTick, Off, Sw);
  } else if (Snap.Source == raw::SS_CpuClock) {
    u64 Cpu;
    if (!ThreadCpuNsOf(TS->Tid, &Cpu))
      return;
    SwitchState S;
    S.LastWall = Snap.LastWall;
    S.LastCpuNs = Snap.LastCpuNs;
    *Off = CpuClockStep(S, EndTick, Cpu, ProvisionalTickRate());
  }
}

namespace {
void FinishThreadSwitchSource(ThreadTls &T, ThreadState *TS, u64 Now) {
  // A ring the drainer installed that no probe adopted since (the thread
  // ran only counted calls, or blocked): its records are the thread's
  // switches since then. Only one installed by Now: this runs after the
  // wait for the registry lock (long, with hundreds of threads ending at
  // once), and adopting reads the clocks, or takes the drainer's reading,
  // from after the thread's end; the CPU clock's window would then run
  // past Now and charge that wait as switched-out time. Such a thread
  // keeps its CPU clock, whose last window ends at Now (below).
  const SwitchState &S = TS->Switch;
  if (S.LateTick && S.LateTick <= Now)
    AdoptLateSwitchSource(T, TS);
  CloseThreadSwitchSource(T, TS, /*Drain=*/true, Now);
}

// The inherited perf event watches the parent's thread: close it (and its
// mapping) and watch this one.
void RestartThreadSwitchSource(ThreadTls &T, ThreadState *TS, u64 Now) {
  ForgetInheritedPerfRing(TS->Switch.Ring);
  CloseThreadSwitchSource(T, TS, /*Drain=*/false, Now);
  OpenThreadSwitchSource(T, TS, Now);
}

void ForgetThreadSwitchSource(ThreadTls &T, ThreadState *TS) {
  CloseThreadSwitchSource(T, TS, /*Drain=*/false, 0);
}

// No locks: in such a child they may be held for ever by threads of the
// parent. The descriptor is this process's copy, the mapping not.
void AbandonThreadSwitchSource(ThreadTls &T, ThreadState *TS) {
  T.SwitchHead = &kZeroWord;
  T.SwitchTailSeen = 0;
  SetNextCheck(T, ~0ull);
  if (!TS)
    return;
  ForgetInheritedPerfRing(TS->Switch.Ring);
  TS->Switch.Source = raw::SS_None;
}

void FillSwitchThreadRecord(raw::ThreadRecord &R, const ThreadState &TS) {
  const SwitchState &S = TS.Switch;
  R.SwitchSource = S.Source;
  R.SwitchResolution = S.Source == raw::SS_CpuClock ? S.Resolution : 0;
  R.LostSwitchRecords = S.Lost;
  if (TS.SwitchFallbackWhy == kOverBudgetWhy)
    R.Flags |= raw::TF_NoDescriptors;
}
// How much a source's figures can be trusted: a folded record claims no
// more than its least exact thread.
int SourceRank(u32 Source) {
  return Source == raw::SS_Perf ? 2 : Source == raw::SS_CpuClock ? 1 : 0;
}

void FoldSwitchSource(ThreadState &Into, ThreadState &From, const u32 *, u32) {
  SwitchState &I = Into.Switch;
  const SwitchState &F = From.Switch;
  if (!Into.FoldedThreads || SourceRank(F.Source) < SourceRank(I.Source))
    I.Source = F.Source;
  if (F.Source == raw::SS_CpuClock && F.Resolution > I.Resolution)
    I.Resolution = F.Resolution;
  I.Lost += F.Lost;
  if (From.SwitchFallbackWhy == kOverBudgetWhy)
    Into.SwitchFallbackWhy = kOverBudgetWhy;
}
} // namespace

const Collector kSwitchCollector = {
    .Name = "switch",
    .Order = 60,
    .ThreadStart = OpenThreadSwitchSource,
    .ThreadFinish = FinishThreadSwitchSource,
    .ThreadAfterForkChild = RestartThreadSwitchSource,
    .ThreadFold = FoldSwitchSource,
    .ThreadForget = ForgetThreadSwitchSource,
    .ThreadAbandon = AbandonThreadSwitchSource,
    .FillThread = FillSwitchThreadRecord,
};
AT_REGISTER_COLLECTOR(kSwitchCollector);

void InstallSwitchRingForTesting(void *Page) {
  ThreadTls &T = at_tls;
  if (T.Capacity == 0)
    InitCurrentThread(0);
  ThreadState *TS = T.TS;
  CloseThreadSwitchSource(T, TS, false, 0);
  SwitchState &S = TS->Switch;
  internal_memset(&S, 0, sizeof(S));
  perf_event_mmap_page *P = (perf_event_mmap_page *)Page;
  S.Ring.Fd = -1;
  S.Source = raw::SS_Perf;
  S.Conv = PTC_TimeZero;
  S.Ring.Page = (char *)Page;
  S.Ring.Data = (char *)Page + P->data_offset;
  S.Ring.DataMask = P->data_size - 1;
  S.Ring.Tail = P->data_tail;
  S.TimeZero = P->time_zero;
  S.TimeMult = P->time_mult;
  S.TimeShift = P->time_shift;
  T.SwitchHead = S.Ring.HeadWord();
  T.SwitchTailSeen = S.Ring.Tail;
  SetNextCheck(T, ~0ull);
}

void RemoveSwitchRingForTesting() {
  ThreadTls &T = at_tls;
  if (!T.TS)
    return;
  CloseThreadSwitchSource(T, T.TS, false, 0);
  T.TS->Switch.Source = raw::SS_None;
}

} // namespace __activetime
