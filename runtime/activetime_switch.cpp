//===- activetime_switch.cpp - Context-switch sources -----------*- C++ -*-===//
//
// See activetime_switch.h. Everything here runs on slow paths: thread init
// and finish, fork, and the switch check's slow path (a context switch
// happened, or a cpuclock check is due).
//
//===----------------------------------------------------------------------===//

#include "activetime_switch.h"

#include "activetime/raw_format.h"
#include "activetime_flags.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "sanitizer_common/sanitizer_linux.h"

#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace __activetime {

namespace raw = activetime::raw;

namespace {
// The "ring head" of threads without a perf ring: never moves.
const volatile u64 kZeroWord = 0;

constexpr u64 kNsPerSec = 1000000000ull;

u64 ThreadCpuNs() {
  struct timespec TS = {0, 0};
  internal_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &TS);
  return u64(TS.tv_sec) * kNsPerSec + u64(TS.tv_nsec);
}

void ReadTickAndRawNs(u64 *Tick, u64 *Ns) { ReadTickRawNsPair(Tick, Ns); }

u64 TicksFromNs(u64 Ns, u64 Rate) {
  return (u64)((unsigned __int128)Ns * Rate / kNsPerSec);
}

// Appends a switch event to the trace (mode=trace).
void TraceSwitch(ThreadState *TS, u64 Tick, bool Out) {
  TraceBuffers &B = TS->Trace;
  if (!B.Switches)
    return;
  if (B.NumSwitches >= B.CapSwitches) {
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
// the interval inside it, as the offline method (seed 000, step 706) does.
void AddInterval(ThreadTls &T, SwitchState &S, u64 Out, u64 In, bool Preempt,
                 u64 Now) {
  u64 Sw = Preempt ? kSwInvoluntary : kSwVoluntary;
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
  if (flags()->perf_deny)
    return -1; // as perf_event_open returns when denied (EACCES)
  long Fd = syscall(SYS_perf_event_open, &A, (pid_t)Tid, -1, -1,
                    PERF_FLAG_FD_CLOEXEC);
  return Fd < 0 ? -1 : (int)Fd;
}

// Opens the perf ring for Tid; returns null on success, else why not.
const char *OpenPerf(SwitchState &S, u64 Tid) {
  int Pages = flags()->switch_buffer_pages;
  uptr PS = GetPageSizeCached();
  uptr Bytes = (uptr(Pages) + 1) * PS;
  for (int Try = 0; Try < 2; ++Try) {
    bool ClockRaw = Try == 1;
    int Fd = PerfOpen(Tid, ClockRaw);
    if (Fd < 0)
      return "perf_event_open failed";
    void *M = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
    if (M == MAP_FAILED) {
      close(Fd);
      return "mmap of the perf ring failed";
    }
    perf_event_mmap_page *P = (perf_event_mmap_page *)M;
    if (!ClockRaw && !P->cap_user_time_zero) {
      // No TSC <-> perf time conversion published (typical in VMs): ask
      // for CLOCK_MONOTONIC_RAW timestamps instead.
      munmap(M, Bytes);
      close(Fd);
      continue;
    }
    S.Fd = Fd;
    S.Page = (char *)M;
    S.MapBytes = Bytes;
    S.Data = (char *)M + (P->data_offset ? P->data_offset : PS);
    S.DataMask = (P->data_size ? P->data_size : uptr(Pages) * PS) - 1;
    S.Tail = __atomic_load_n(&P->data_tail, __ATOMIC_RELAXED);
    S.Conv = ClockRaw ? PTC_ClockRaw : PTC_TimeZero;
    S.TimeZero = P->time_zero;
    S.TimeMult = P->time_mult;
    S.TimeShift = P->time_shift;
    return nullptr;
  }
  return "perf_event_open with CLOCK_MONOTONIC_RAW failed";
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
  perf_event_mmap_page *P = (perf_event_mmap_page *)S.Page;
  u64 Head = __atomic_load_n(&P->data_head, __ATOMIC_ACQUIRE);
  u64 Tail = S.Tail;
  u64 AnchorTick = 0, AnchorNs = 0, Rate = 0;
  if (S.Conv == PTC_ClockRaw && Head != Tail) {
    ReadTickAndRawNs(&AnchorTick, &AnchorNs);
    Rate = ProvisionalTickRate();
  }
  ThreadState *TS = T.TS;
  u64 Size = S.DataMask + 1;
  while (Head - Tail >= sizeof(perf_event_header)) {
    // Copy the record out (it may wrap around the end of the ring).
    alignas(8) char Buf[64];
    perf_event_header H;
    for (uptr I = 0; I < sizeof(H); ++I)
      ((char *)&H)[I] = S.Data[(Tail + I) & S.DataMask];
    if (H.size < sizeof(H) || H.size > Head - Tail || H.size > Size)
      break; // corrupt: stop here (resynchronize at the next head)
    uptr N = H.size < sizeof(Buf) ? H.size : sizeof(Buf);
    u64 Off = Tail & S.DataMask;
    if (Off + N <= Size) {
      internal_memcpy(Buf, S.Data + Off, N);
    } else {
      uptr First = Size - Off;
      internal_memcpy(Buf, S.Data + Off, First);
      internal_memcpy(Buf + First, S.Data, N - First);
    }
    Tail += H.size;
    if (H.type == PERF_RECORD_SWITCH) {
      // sample_id: u32 pid, tid; u64 time.
      if (N < sizeof(H) + 16)
        continue;
      u64 Time;
      internal_memcpy(&Time, Buf + sizeof(H) + 8, 8);
      u64 Tick = S.Conv == PTC_TimeZero
                     ? PerfTimeToTick(Time, S.TimeZero, S.TimeMult, S.TimeShift)
                     : RawNsToTick(Time, AnchorTick, AnchorNs, Rate);
      bool Out = H.misc & PERF_RECORD_MISC_SWITCH_OUT;
      if (TS)
        TraceSwitch(TS, Tick, Out);
      if (Out) {
        // A previous unmatched switch-out lost its switch-in: dropped.
        S.OpenOut = Tick;
        S.HaveOpen = 1;
        S.OpenPreempt = (H.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
      } else if (S.HaveOpen) {
        AddInterval(T, S, S.OpenOut, Tick, S.OpenPreempt, Now);
        S.HaveOpen = 0;
      }
      // A switch-in without a switch-out (the first record, or after a
      // loss) has no known start: ignored.
    } else if (H.type == PERF_RECORD_LOST) {
      u64 Lost = 0;
      if (N >= sizeof(H) + 16)
        internal_memcpy(&Lost, Buf + sizeof(H) + 8, 8);
      S.Lost += Lost;
      if (TS && TS->Trace.Switches)
        TS->Trace.DroppedSwitches += Lost;
      S.HaveOpen = 0; // its switch-in may be among the lost ones
    }
  }
  S.Tail = Tail;
  __atomic_store_n(&P->data_tail, Tail, __ATOMIC_RELEASE);
  T.SwitchTailSeen = Head;
  T.NextCheckTick = S.PendCount ? 0 : ~0ull;
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
    T.NextCheckTick = Wall + S.Resolution;
  } else {
    T.NextCheckTick = ~0ull;
    T.SwitchTailSeen = *T.SwitchHead;
  }
}
} // namespace

void SwitchCheckSlow(ThreadTls &T, u64 Now) {
  ThreadState *TS = T.TS;
  if (!TS)
    return;
  if (*T.SampleHead != T.SampleTailSeen)
    DrainCodeSamples(T);
  CheckSwitchSource(T, TS->Switch, Now);
}

// A switch inside the probe has both its records in the ring by the time
// the thread runs again. A cpuclock window may also hold off-CPU time from
// before the probe; the caller caps what it takes out at the probe's own
// interval. Code samples wait for the next check: their cost is charged as
// a whole there.
u64 CollectSwitchedOut(ThreadTls &T, u64 Now) {
  ThreadState *TS = T.TS;
  if (!TS || TS->Switch.Source == raw::SS_None)
    return 0;
  u64 Before = T.Off;
  CheckSwitchSource(T, TS->Switch, Now);
  return T.Off - Before;
}

void OpenThreadSwitchSource(ThreadTls &T, ThreadState *TS, u64 Now) {
  SwitchState &S = TS->Switch;
  internal_memset(&S, 0, sizeof(S));
  S.Fd = -1;
  S.Source = raw::SS_None;
  T.SwitchHead = &kZeroWord;
  T.SwitchTailSeen = 0;
  T.NextCheckTick = ~0ull;
  SwitchSourceFlag Want = flags()->switch_source;
  bool Perf = Want == SwitchSourceFlag::Auto || Want == SwitchSourceFlag::Perf;
  bool CpuClock = Perf || Want == SwitchSourceFlag::CpuClock;
  if (Perf) {
    const char *Why = OpenPerf(S, TS->Tid);
    if (!Why) {
      S.Source = raw::SS_Perf;
      perf_event_mmap_page *P = (perf_event_mmap_page *)S.Page;
      T.SwitchHead = (const volatile u64 *)&P->data_head;
      T.SwitchTailSeen = S.Tail;
      return;
    }
    TS->SwitchFallbackWhy = Why;
    VLog(1, "thread %llu: switch_source=perf unavailable (%s); using cpuclock",
         (unsigned long long)TS->Tid, Why);
  }
  if (CpuClock) {
    S.Source = raw::SS_CpuClock;
    u64 Rate = ProvisionalTickRate();
    S.Resolution = TicksFromNs(u64(flags()->cpuclock_check_us) * 1000ull, Rate);
    if (!S.Resolution)
      S.Resolution = 1;
    S.LastCpuNs = ThreadCpuNs();
    S.LastWall = ReadTick();
    T.NextCheckTick = S.LastWall + S.Resolution;
  }
}

void CloseThreadSwitchSource(ThreadTls &T, ThreadState *TS, bool Drain,
                             u64 Now) {
  SwitchState &S = TS->Switch;
  if (Drain && S.Source != raw::SS_None)
    SwitchCheckSlow(T, Now);
  if (S.MapBytes)
    munmap(S.Page, S.MapBytes);
  if (S.Fd >= 0)
    close(S.Fd);
  S.Page = S.Data = nullptr;
  S.MapBytes = 0;
  S.Fd = -1;
  T.SwitchHead = &kZeroWord;
  T.SwitchTailSeen = 0;
  T.NextCheckTick = ~0ull;
}

void InstallSwitchRingForTesting(void *Page) {
  ThreadTls &T = at_tls;
  if (T.Capacity == 0)
    InitCurrentThread(0);
  ThreadState *TS = T.TS;
  CloseThreadSwitchSource(T, TS, false, 0);
  SwitchState &S = TS->Switch;
  internal_memset(&S, 0, sizeof(S));
  perf_event_mmap_page *P = (perf_event_mmap_page *)Page;
  S.Fd = -1;
  S.Source = raw::SS_Perf;
  S.Conv = PTC_TimeZero;
  S.Page = (char *)Page;
  S.Data = (char *)Page + P->data_offset;
  S.DataMask = P->data_size - 1;
  S.Tail = P->data_tail;
  S.TimeZero = P->time_zero;
  S.TimeMult = P->time_mult;
  S.TimeShift = P->time_shift;
  T.SwitchHead = (const volatile u64 *)&P->data_head;
  T.SwitchTailSeen = S.Tail;
  T.NextCheckTick = ~0ull;
}

void RemoveSwitchRingForTesting() {
  ThreadTls &T = at_tls;
  if (!T.TS)
    return;
  CloseThreadSwitchSource(T, T.TS, false, 0);
  T.TS->Switch.Source = raw::SS_None;
}

} // namespace __activetime
