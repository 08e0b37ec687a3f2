//===- activetime_sampler.cpp - Shadow-stack sampler ------------*- C++ -*-===//
//
// See activetime_sampler.h. Nothing here runs on a probe path: the probes
// only keep ThreadTls::Seq (plain stores they already made for re-entrancy).
//
//===----------------------------------------------------------------------===//

#include "activetime_sampler.h"

#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_tsan.h"
#include "activetime_worker.h"
#include "activetime_writer.h"
#include "sanitizer_common/sanitizer_linux.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace __activetime {

namespace raw = activetime::raw;

namespace {

constexpr u64 kNsPerSec = 1000000000ull;
constexpr int kSnapshotTries = 4;
constexpr u64 kSelfPreemptMarginNs = 20000;
// Records walked in another thread's ring before giving up on it (a thread
// that has not drained for this long is certainly running its own code
// rarely; /proc decides then).
constexpr int kMaxRingWalk = 4096;

struct Sampler {
  raw::SampleRecord *Buf;
  u64 Cap;
  u64 Num;           // published with release; the writer reads it acquire
  u64 Sweeps;
  u64 Dropped;
  u64 TornRetries;
  u64 TornDiscarded;
  u64 ProcState;
  u64 IntervalNs;
  u64 StartTick;
  u64 EndTick;       // set when stopped
  u64 CpuNs;         // set when stopped
  u64 Rng;
  u32 Randomized;
  u32 Realtime;      // the sampler runs at SCHED_FIFO priority 1
  u64 LateNs;        // sum over sweeps of (sweep start - its deadline)
  WorkerThread W;
  int Ever;          // sampling was on in this process
};
Sampler sampler;

// The sampler thread's counters: a profile written mid-run (activetime_flush
// on another thread) reads them while it counts. Relaxed atomics, one writer.
void Count(u64 *C, u64 N = 1) {
  __atomic_store_n(C, __atomic_load_n(C, __ATOMIC_RELAXED) + N, __ATOMIC_RELAXED);
}
template <typename T> T Peek(const T *C) {
  return __atomic_load_n(C, __ATOMIC_RELAXED);
}

// Off-CPU state of TS from its perf ring: the last switch record after the
// owner's consumed tail. No record: the owner drained on a CPU and has not
// been switched out since. Returns false when the ring cannot tell.
// Sweep-wide time base for perf records written with CLOCK_MONOTONIC_RAW.
struct SweepClock {
  u64 WakeTick;   // the sweep started here
  u64 AnchorTick; // (tick, raw ns) pair read at the sweep start
  u64 AnchorNs;
  u64 Rate;
  u64 Margin;     // kSelfPreemptMarginNs in ticks
};

bool RingState(ThreadState *TS, const SweepClock &SC, u32 *Flags) {
  const SwitchState &S = TS->Switch;
  const PerfRing &R = S.Ring;
  if (!R.Page || !R.Data)
    return false;
  u64 Head = R.LoadHead();
  u64 Tail = __atomic_load_n(&R.Header()->data_tail, __ATOMIC_ACQUIRE);
  if (Head - Tail > R.DataMask + 1)
    return false;
  int LastMisc = -1;
  u64 LastTime = 0;
  int Walked = 0;
  // Resume where the previous sweep stopped if the owner has not consumed
  // past it: a thread that runs long without probes keeps its records.
  u64 Pos = TS->SampleRingPos;
  if (Pos - Tail <= Head - Tail && Pos != Tail) {
    LastMisc = int(TS->SampleRingMisc);
    LastTime = TS->SampleRingTime;
    Tail = Pos;
  }
  PerfRecordWalk W(R, Tail, Head);
  PerfRecord Rec;
  while (W.Next(&Rec)) {
    if (++Walked > kMaxRingWalk) {
      TS->SampleRingPos = 0;
      return false;
    }
    u64 Time;
    if (Rec.Type == PERF_RECORD_SWITCH && SwitchRecordTime(Rec, &Time)) {
      LastMisc = Rec.Misc;
      LastTime = Time;
    }
  }
  if (!W.Done()) {
    TS->SampleRingPos = 0;
    return false; // overwritten under us: no verdict
  }
  Tail = W.Tail;
  TS->SampleRingPos = Tail;
  TS->SampleRingMisc = LastMisc;
  TS->SampleRingTime = LastTime;
  *Flags = 0;
  if (LastMisc >= 0 && (LastMisc & PERF_RECORD_MISC_SWITCH_OUT)) {
    *Flags = raw::SF_OffCpu;
    if (LastMisc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
      *Flags |= raw::SF_Preempted;
      // Preempted after the sampler woke up: on a busy machine its own
      // wake-up took the thread's CPU. The thread was running until then.
      u64 Out = S.Conv == PTC_TimeZero
                    ? PerfTimeToTick(LastTime, S.TimeZero, S.TimeMult,
                                     S.TimeShift)
                    : RawNsToTick(LastTime, SC.AnchorTick, SC.AnchorNs,
                                  SC.Rate);
      // The margin covers the skew of the perf clock -> tick conversion
      // (a few microseconds through CLOCK_MONOTONIC_RAW in VMs).
      if (Out + SC.Margin >= SC.WakeTick)
        *Flags = raw::SF_SelfPreempted;
    }
  }
  return true;
}

// /proc/self/task/<tid>/stat's state letter: R is on a CPU or runnable
// (preemption is not visible here), anything else is off CPU.
bool ProcState(u64 Tid, u32 *Flags) {
  char Path[64];
  internal_snprintf(Path, sizeof(Path), "/proc/self/task/%llu/stat",
                    (unsigned long long)Tid);
  fd_t Fd = internal_open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd == kInvalidFd)
    return false;
  char Buf[512];
  uptr N = internal_read(Fd, Buf, sizeof(Buf) - 1);
  internal_close(Fd);
  if (internal_iserror(N) || N == 0)
    return false;
  Buf[N] = 0;
  // The name may contain ')': the state follows the last one.
  char *Close = nullptr;
  for (uptr I = 0; I < N; ++I)
    if (Buf[I] == ')')
      Close = &Buf[I];
  if (!Close || Close + 2 >= Buf + N)
    return false;
  *Flags = raw::SF_ProcState | (Close[2] == 'R' ? 0 : raw::SF_OffCpu);
  return true;
}

// The seqlock's reads of another thread's Seq, Depth and top frame race with
// that thread's probes by design: the probes store plainly (no cost on their
// fast path) and a read that overlapped a probe is detected through Seq and
// discarded. Under TSan these reads are ignored (activetime_tsan.h); the
// handshake that keeps the memory alive (SampleRef/Leaving) stays checked.
u32 LoadSeq(const ThreadTls *T) {
  AT_TSAN_IGNORE_READS_BEGIN();
  u32 S = __atomic_load_n(&T->Seq, __ATOMIC_ACQUIRE);
  AT_TSAN_IGNORE_READS_END();
  return S;
}

// Reads the top of T's shadow stack under the seqlock. Loads are atomic so
// the compiler neither tears nor caches them; the owner's stores are plain
// (program order suffices on x86-64; the fences make the intent explicit).
// S1: Seq as read before the thread's on/off-CPU state, so a probe between
// the state read and the stack read also counts as torn (the pair must
// describe one instant).
bool SnapshotReads(ThreadTls *T, u32 S1, u32 *Node, u32 *Depth) {
  // Capacity before Stack: GrowStack publishes the larger stack first, so
  // the stack read is at least this large.
  u32 Cap = __atomic_load_n(&T->Capacity, __ATOMIC_ACQUIRE);
  Frame *Stk = __atomic_load_n(&T->Stack, __ATOMIC_ACQUIRE);
  u32 D = __atomic_load_n(&T->Depth, __ATOMIC_ACQUIRE);
  if (!Stk || D == 0 || D > Cap)
    return false;
  u32 N = __atomic_load_n(&Stk[D - 1].NodeIdx, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  if (__atomic_load_n(&T->Seq, __ATOMIC_RELAXED) != S1)
    return false;
  *Node = N;
  *Depth = D - 1; // frame 0 is the sentinel
  return true;
}

bool Snapshot(ThreadTls *T, u32 S1, u32 *Node, u32 *Depth) {
  if (S1 & 1)
    return false;
  AT_TSAN_IGNORE_READS_BEGIN();
  bool Ok = SnapshotReads(T, S1, Node, Depth);
  AT_TSAN_IGNORE_READS_END();
  return Ok;
}

void Record(u64 Tick, u64 Weight, u32 Ord, u32 Node, u32 Flags, u32 Depth) {
  u64 I = sampler.Num;
  if (I >= sampler.Cap) {
    Count(&sampler.Dropped);
    return;
  }
  raw::SampleRecord &R = sampler.Buf[I];
  R.Tick = Tick;
  R.Weight = Weight;
  R.Thread = Ord;
  R.Node = Node;
  R.Flags = Flags;
  R.Depth = Depth;
  __atomic_store_n(&sampler.Num, I + 1, __ATOMIC_RELEASE);
}

void SampleThread(ThreadState *TS, u32 Ord, const SweepClock &SC) {
  __atomic_store_n(&TS->SampleRef, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&TS->Leaving, __ATOMIC_SEQ_CST)) {
    __atomic_store_n(&TS->SampleRef, 0, __ATOMIC_RELEASE);
    return;
  }
  ThreadTls *T = __atomic_load_n(&TS->Tls, __ATOMIC_ACQUIRE);
  if (!T || !__atomic_load_n(&T->Capacity, __ATOMIC_ACQUIRE)) {
    __atomic_store_n(&TS->SampleRef, 0, __ATOMIC_RELEASE);
    return; // not started yet, or dead
  }
  u32 Flags = 0;
  bool Known = false, Proc = false;
  u64 Tick = 0;
  u32 Node = 0, Depth = 0;
  bool Ok = false;
  for (int Try = 0; Try < kSnapshotTries; ++Try) {
    u32 S0 = LoadSeq(T);
    Flags = 0;
    Known = TS->Switch.Source == raw::SS_Perf && RingState(TS, SC, &Flags);
    Proc = !Known && ProcState(TS->Tid, &Flags);
    Known |= Proc;
    Tick = ReadTick();
    if (Snapshot(T, S0, &Node, &Depth)) {
      Ok = true;
      break;
    }
    Count(&sampler.TornRetries);
    if (Known && (Flags & raw::SF_OffCpu) && (S0 & 1))
      break; // the owner is off CPU mid-probe: re-reading will not help
    internal_sched_yield();
  }
  Count(&sampler.ProcState, Proc);
  __atomic_store_n(&TS->SampleRef, 0, __ATOMIC_RELEASE);

  if (!Known) {
    // Neither the ring nor /proc answered: count as torn, nothing recorded.
    Count(&sampler.TornDiscarded);
    return;
  }
  if (!Ok) {
    if (!(Flags & raw::SF_OffCpu) || !TS->SampleHaveOn) {
      Count(&sampler.TornDiscarded);
      return; // the weight carries over to the thread's next sample
    }
    Node = TS->SampleLastOnNode;
    Depth = 0;
    Flags |= raw::SF_PriorFrame;
  }
  u64 From = TS->SampleLastTick;
  if (!From)
    From = TS->StartTick > sampler.StartTick ? TS->StartTick : sampler.StartTick;
  u64 Weight = Tick > From ? Tick - From : 0;
  TS->SampleLastTick = Tick;
  if (!(Flags & raw::SF_OffCpu)) {
    TS->SampleLastOnNode = Node;
    TS->SampleHaveOn = 1;
  }
  Record(Tick, Weight, Ord, Node, Flags, Depth);
}

// DeadlineNs: the CLOCK_MONOTONIC instant the sweep was due. The timer
// fires there and may preempt a thread before the sampler runs, so the
// sweep's wake tick is the deadline's, not the sampler's first tick.
void Sweep(u64 DeadlineNs) {
  Count(&sampler.Sweeps);
  SweepClock SC;
  u64 A = ReadTick();
  u64 Mono = MonotonicNs();
  u64 LateTicks = Mono > DeadlineNs
                      ? u64((unsigned __int128)(Mono - DeadlineNs) *
                            ProvisionalTickRate() / kNsPerSec)
                      : 0;
  SC.WakeTick = A > LateTicks ? A - LateTicks : 0;
  Count(&sampler.LateNs, Mono > DeadlineNs ? Mono - DeadlineNs : 0);
  ReadTickRawNsPair(&SC.AnchorTick, &SC.AnchorNs);
  SC.Rate = ProvisionalTickRate();
  SC.Margin = u64((unsigned __int128)kSelfPreemptMarginNs * SC.Rate / kNsPerSec);
  BeginLiveWalk();
  for (ThreadState *TS = LiveListHeadAcquire(); TS;
       TS = __atomic_load_n(&TS->LiveNext, __ATOMIC_ACQUIRE)) {
    if (__atomic_load_n(&TS->Leaving, __ATOMIC_ACQUIRE))
      continue;
    SampleThread(TS, TS->Ordinal, SC);
  }
  EndLiveWalk();
}

u64 NextIntervalNs() {
  if (!sampler.Randomized)
    return sampler.IntervalNs;
  u64 V = NextExponential(&sampler.Rng, sampler.IntervalNs);
  return V ? V : 1;
}

void *SamplerMain(void *) {
  internal_prctl(15 /*PR_SET_NAME*/, uptr("activetime-smp"), 0, 0, 0);
  // No timer slack: with the default 50 us the kernel fires our timer
  // together with other timers that expire in that window -- e.g. the very
  // wake-up of a periodic activity -- which correlates the sample instants
  // with what is sampled.
  internal_prctl(29 /*PR_SET_TIMERSLACK*/, 1, 0, 0, 0);
  if (flags()->sample_realtime) {
    // A normal-priority sampler runs when a CPU is free, i.e. more often
    // when the sampled threads are not running: a bias towards idle. Where
    // allowed (root, RLIMIT_RTPRIO), the lowest real-time priority makes it
    // run at its deadline; it runs a few microseconds per wake-up.
    struct sched_param SP;
    SP.sched_priority = 1;
    __atomic_store_n(&sampler.Realtime,
                     pthread_setschedparam(pthread_self(), SCHED_FIFO, &SP) == 0,
                     __ATOMIC_RELAXED);
  }
  u64 Deadline = MonotonicNs();
  // A fixed period ticks on whole multiples of itself, as a periodic timer
  // would: what the fixed-vs-random comparison is about.
  if (!sampler.Randomized)
    Deadline -= Deadline % sampler.IntervalNs;
  while (!StopRequested(sampler.W)) {
    Deadline += NextIntervalNs();
    u64 Now = MonotonicNs();
    // Fell behind by more than a whole interval (the machine is loaded):
    // restart from now rather than firing a burst of sweeps.
    if (Deadline + sampler.IntervalNs < Now)
      Deadline = Now;
    SleepUntil(sampler.W, Deadline);
    if (StopRequested(sampler.W))
      break;
    Sweep(Deadline);
  }
  __atomic_store_n(&sampler.CpuNs, ThreadCpuNs(), __ATOMIC_RELAXED);
  return nullptr;
}

bool Launch() {
  if (int R = StartWorker(sampler.W, SamplerMain)) {
    Printf("ActiveTime: WARNING: cannot start the sampler thread (error %d); "
           "no samples\n", R);
    return false;
  }
  return true;
}
} // namespace

bool SnapshotForTesting(ThreadTls *T, u32 *Node, u32 *Depth) {
  return Snapshot(T, LoadSeq(T), Node, Depth);
}

double LogUnit(double X) {
  // X = M * 2^E with M in [1, 2); ln M = 2 atanh((M-1)/(M+1)), |z| < 1/3.
  u64 Bits;
  internal_memcpy(&Bits, &X, sizeof(Bits));
  int E = int((Bits >> 52) & 0x7ff) - 1023;
  Bits = (Bits & ((u64(1) << 52) - 1)) | (u64(1023) << 52);
  double M;
  internal_memcpy(&M, &Bits, sizeof(M));
  double Z = (M - 1) / (M + 1), Z2 = Z * Z, Term = Z, Sum = 0;
  for (int K = 1; K < 40; K += 2) {
    Sum += Term / K;
    Term *= Z2;
  }
  return E * 0.69314718055994530942 + 2 * Sum;
}

u64 NextExponential(u64 *State, u64 Mean) {
  u64 X = *State;
  X ^= X >> 12;
  X ^= X << 25;
  X ^= X >> 27;
  *State = X;
  u64 R = X * 0x2545F4914F6CDD1Dull;
  double U = double((R >> 11) + 1) * (1.0 / 9007199254740992.0); // (0, 1]
  return u64(-LogUnit(U) * double(Mean) + 0.5);
}

void StartSampler() {
  if (!flags()->sample)
    return;
  sampler.Cap = u64(flags()->sample_buffer);
  // Address space only (pages count as samples fill them): any capacity
  // the flag accepts maps; where even that is refused, no sampling.
  uptr Bytes =
      RoundUpTo(sampler.Cap * sizeof(raw::SampleRecord), GetPageSizeCached());
  uptr P = MmapNamed(nullptr, Bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     "ActiveTime samples");
  if (internal_iserror(P)) {
    Report("ActiveTime: WARNING: cannot map the sample buffer (%zu MiB, "
           "sample_buffer=%llu): no samples this run\n",
           (usize)(Bytes >> 20), (unsigned long long)sampler.Cap);
    sampler.Cap = 0;
    return;
  }
  sampler.Buf = (raw::SampleRecord *)P;
  sampler.IntervalNs = u64(flags()->sample_interval_us) * 1000;
  sampler.Randomized = flags()->sample_random;
  sampler.Rng = (ReadTick() ^ (u64(internal_getpid()) << 32)) | 1;
  sampler.StartTick = ReadTick();
  sampler.Ever = 1;
  Launch();
}

void StopSampler() {
  if (!sampler.W.Running)
    return;
  StopWorker(sampler.W);
  sampler.EndTick = ReadTick();
}

void SamplerAfterForkChild() {
  if (!sampler.Ever)
    return;
  // The surviving thread's entry may have been held by the parent's sampler
  // at the fork: nobody will release it in the child.
  for (ThreadState *TS = LiveListHead(); TS; TS = TS->LiveNext) {
    TS->SampleRef = 0;
    TS->SampleLastTick = 0;
    TS->SampleRingPos = 0;
    TS->SampleHaveOn = 0;
  }
  sampler.W.Running = 0; // it did not survive the fork
  sampler.Num = sampler.Sweeps = sampler.Dropped = 0;
  sampler.TornRetries = sampler.TornDiscarded = sampler.ProcState = 0;
  sampler.EndTick = sampler.CpuNs = sampler.LateNs = 0;
  sampler.Realtime = 0;
  sampler.StartTick = ReadTick();
  sampler.Rng ^= u64(internal_getpid()) << 17;
  Launch();
}

void SamplerWaitThreadLeaving(ThreadState *TS) {
  __atomic_store_n(&TS->Leaving, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&TS->SampleRef, __ATOMIC_SEQ_CST))
    internal_sched_yield();
}

bool GetSamplerView(SamplerView *V, u64 EndTick, u64 TickRate) {
  if (!sampler.Ever)
    return false;
  V->Samples = sampler.Buf;
  V->NumSamples = __atomic_load_n(&sampler.Num, __ATOMIC_ACQUIRE);
  raw::SamplesRecord &H = V->Header;
  internal_memset(&H, 0, sizeof(H));
  // With the profile's calibrated rate, so the interval reads back as set.
  H.IntervalTicks = u64((unsigned __int128)sampler.IntervalNs * TickRate /
                        kNsPerSec);
  if (!H.IntervalTicks)
    H.IntervalTicks = 1;
  H.StartTick = sampler.StartTick;
  H.EndTick = sampler.W.Running ? EndTick : sampler.EndTick;
  // Counters of a running sampler: as of now, each on its own (mid-run only).
  H.Sweeps = Peek(&sampler.Sweeps);
  H.Dropped = Peek(&sampler.Dropped);
  H.TornRetries = Peek(&sampler.TornRetries);
  H.TornDiscarded = Peek(&sampler.TornDiscarded);
  H.ProcStateSamples = Peek(&sampler.ProcState);
  H.SamplerCpuNs = Peek(&sampler.CpuNs);
  H.Flags = (sampler.Randomized ? raw::SMF_Randomized : 0) |
            (Peek(&sampler.Realtime) ? raw::SMF_Realtime : 0);
  H.WakeLateNs = Peek(&sampler.LateNs);
  return true;
}

namespace {
// The samples as the profile began (the thread sections come after: a
// sample taken since may be of a node they do not have). Written under the
// profile write lock, from PrepareWrite to WriteSections.
SamplerView write_view;
bool write_view_taken;

bool PrepareSamplesSection(ProfileWriter &W) {
  write_view_taken = GetSamplerView(&write_view, W.EndTick, W.TickRate);
  return write_view_taken; // the node maps translate the samples' nodes
}

// SK_Samples (if the sampler ever ran): the sampler's records with registry
// ordinals and tree indices translated to thread-section indices and written
// node indices. A sample of a node the thread section dropped (function of
// an unregistered module) or of a thread/node newer than the sections
// (mid-run write) is counted as unmapped and left out.
void WriteSamplesSection(ProfileWriter &W) {
  if (!write_view_taken)
    return;
  const SamplerView &SV = write_view;
  OutBuffer *B = W.Out;
  uptr Off = W.BeginSection(raw::SK_Samples);
  uptr HdrOff = B->Size;
  B->Append(&SV.Header, sizeof(SV.Header));
  u64 Kept = 0, Unmapped = 0;
  for (u64 I = 0; I < SV.NumSamples; ++I) {
    raw::SampleRecord R = SV.Samples[I];
    if (R.Thread >= W.NumOrdinals || W.SectionOf[R.Thread] == kMapDrop ||
        R.Node >= W.NodeMapSizes[R.Thread]) {
      ++Unmapped;
      continue;
    }
    u32 M = W.NodeMaps[R.Thread][R.Node];
    R.Thread = W.SectionOf[R.Thread];
    if (M == kMapDrop) {
      ++Unmapped;
      continue;
    }
    R.Node = M == kMapRoot ? raw::kNoNode : M;
    B->Append(&R, sizeof(R));
    ++Kept;
  }
  raw::SamplesRecord *H = (raw::SamplesRecord *)(B->Data + HdrOff);
  H->NumSamples = Kept;
  H->Unmapped = Unmapped;
  W.EndSection(Off);
}

void LeaveThreadSampler(ThreadTls &, ThreadState *TS, u64) {
  SamplerWaitThreadLeaving(TS);
}

// The thread's samples are all after this one.
void StartThreadSampler(ThreadTls &, ThreadState *TS, u64) {
  TS->FirstSample = __atomic_load_n(&sampler.Num, __ATOMIC_ACQUIRE);
}

// From's samples (all taken: it has left the sampler's walk) now name the
// folded record and its nodes.
void FoldThreadSamples(ThreadState &Into, ThreadState &From, const u32 *Map,
                       u32 NumTreeNodes) {
  u64 N = __atomic_load_n(&sampler.Num, __ATOMIC_ACQUIRE);
  for (u64 I = From.FirstSample; I < N; ++I) {
    raw::SampleRecord &R = sampler.Buf[I];
    if (R.Thread != From.Ordinal)
      continue;
    R.Thread = Into.Ordinal;
    R.Node = R.Node < NumTreeNodes ? Map[R.Node] : kMapDrop;
  }
}
} // namespace

const Collector kSamplerCollector = {
    .Name = "sampler",
    .Order = 100,
    .Start = StartSampler,
    .Stop = StopSampler,
    .AfterForkChild = SamplerAfterForkChild,
    .ThreadStart = StartThreadSampler,
    .ThreadLeave = LeaveThreadSampler,
    .ThreadFold = FoldThreadSamples,
    .PrepareWrite = PrepareSamplesSection,
    .WriteSections = WriteSamplesSection,
};
AT_REGISTER_COLLECTOR(kSamplerCollector);

} // namespace __activetime
