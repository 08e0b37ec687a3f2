//===- activetime_thread.cpp - Per-thread state and registry ----*- C++ -*-===//
//
// A thread's start, finish and fork restart, which call the collectors'
// thread hooks (activetime_collector.h); the registry; and the profile's
// thread sections: the call trees, with the frames open at the write timed
// up to its end.
//
//===----------------------------------------------------------------------===//

#include "activetime_thread.h"

#include "activetime/latency.h"
#include "activetime_codesamples.h"
#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_module.h"
#include "activetime_recycle.h"
#include "activetime_timer.h"
#include "activetime_tsan.h"
#include "activetime_writer.h"
#include "sanitizer_common/sanitizer_linux.h"

#include <limits.h>
#include <pthread.h>

#ifndef PTHREAD_DESTRUCTOR_ITERATIONS
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#endif

namespace __activetime {

namespace raw = activetime::raw;

const volatile u64 kNoSampleRing = 0;
THREADLOCAL ThreadTls at_tls = {&kNoSampleRing, 0};
static_assert(__builtin_offsetof(ThreadTls, SampleHead) ==
                      activetime::abi::kSamplePollHeadOffset &&
                  __builtin_offsetof(ThreadTls, SampleTailSeen) ==
                      activetime::abi::kSamplePollSeenOffset,
              "the sample poll's words (abi.h)");

namespace {
Mutex registry_mu;
// Every thread with a profile of its own, and the folded threads' record.
ThreadState *thread_head;
ThreadState *thread_tail;
// The live threads.
ThreadState *live_head;
ThreadState *live_tail;
u32 next_ordinal;
pthread_key_t thread_key;
// Finished threads kept whole so far, and the record later ones fold into.
u32 kept_finished;
ThreadState *folded;
// The sampler's walk of the live list: odd while one runs. Folded threads
// wait in limbo, with the walk count seen when they left the list, until
// that walk has ended.
u64 live_walks;
ThreadState *limbo;

constexpr int kPrGetName = 16; // PR_GET_NAME

void ReadThreadName(char *Name) {
  char Buf[17];
  internal_memset(Buf, 0, sizeof(Buf));
  internal_prctl(kPrGetName, uptr(Buf), 0, 0, 0);
  internal_memcpy(Name, Buf, 16);
}

// Re-arm until the last destructor round so that probes in TLS destructors
// that run after ours still count. Under TSan, TSan's own key (older than
// ours, so its destructor runs first in a round) tears the thread's TSan
// state down in the last round and instrumented code must not run after
// that: finish one round earlier there.
#if ACTIVETIME_TSAN
constexpr uptr kFinishRound = PTHREAD_DESTRUCTOR_ITERATIONS - 1;
#else
constexpr uptr kFinishRound = PTHREAD_DESTRUCTOR_ITERATIONS;
#endif

void ThreadKeyDestructor(void *V) {
  uptr Iter = uptr(V);
  if (Iter < kFinishRound) {
    pthread_setspecific(thread_key, (void *)(Iter + 1));
    return;
  }
  FinishCurrentThread(ReadTick());
}

// 1 us: far above any probe's usual cost, far below a time slice.
u32 LongProbeTicks() {
  u64 Rate = ProvisionalTickRate();
  u64 Ticks = Rate ? Rate / 1000000 : 4096;
  return Ticks > 0xffffffffull ? 0xffffffffu : u32(Ticks ? Ticks : 1);
}

void FreeStacks(ThreadState *TS, Frame *Cur, u32 Cap) {
  uptr Bytes = RoundUpTo(Cap * sizeof(Frame), GetPageSizeCached());
  if (Cur)
    Recycle(Cur, Bytes, Bytes);
  for (int I = 0; I < TS->NumOldStacks; ++I)
    Recycle(TS->OldStacks[I], TS->OldStackBytes[I], TS->OldStackBytes[I]);
  TS->NumOldStacks = 0;
}
} // namespace

void InitThreadRegistry() {
  if (pthread_key_create(&thread_key, ThreadKeyDestructor) != 0) {
    Printf("ActiveTime: ERROR: pthread_key_create failed; thread exits will "
           "not be recorded\n");
  }
}

void LockThreadRegistry() { registry_mu.Lock(); }
bool TryLockThreadRegistry() { return registry_mu.TryLock(); }
void UnlockThreadRegistry() { registry_mu.Unlock(); }
ThreadState *ThreadListHead() { return thread_head; }
u32 NumThreadOrdinals() { return next_ordinal; }
ThreadState *LiveListHead() { return live_head; }
ThreadState *LiveListHeadAcquire() {
  return __atomic_load_n(&live_head, __ATOMIC_ACQUIRE);
}

void BeginLiveWalk() { __atomic_fetch_add(&live_walks, 1, __ATOMIC_SEQ_CST); }
void EndLiveWalk() { __atomic_fetch_add(&live_walks, 1, __ATOMIC_SEQ_CST); }

namespace {
// Appends TS to both lists (registry lock held). Release stores: the
// sampler walks the live list without the lock.
void RegisterThread(ThreadState *TS) {
  TS->Ordinal = next_ordinal++;
  TS->Prev = thread_tail;
  if (thread_tail)
    thread_tail->Next = TS;
  else
    thread_head = TS;
  thread_tail = TS;
  TS->LivePrev = live_tail;
  if (live_tail)
    __atomic_store_n(&live_tail->LiveNext, TS, __ATOMIC_RELEASE);
  else
    __atomic_store_n(&live_head, TS, __ATOMIC_RELEASE);
  live_tail = TS;
}

// A finished thread leaves the live list (registry lock held); its own
// LiveNext stays as it was for a walk standing on it.
void LeaveLiveList(ThreadState *TS) {
  ThreadState *P = TS->LivePrev, *N = TS->LiveNext;
  if (P)
    __atomic_store_n(&P->LiveNext, N, __ATOMIC_RELEASE);
  else
    __atomic_store_n(&live_head, N, __ATOMIC_RELEASE);
  if (N)
    N->LivePrev = P;
  else
    live_tail = P;
}

// Registry lock held.
void LeaveThreadList(ThreadState *TS) {
  ThreadState *P = TS->Prev, *N = TS->Next;
  (P ? P->Next : thread_head) = N;
  (N ? N->Prev : thread_tail) = P;
}
} // namespace

bool InitCurrentThread(u64 Now) {
  ThreadTls &T = at_tls;
  if (T.Dead)
    return false;
  EnsureInit();
  // A process the runtime refused at start-up (CollectorsRegistered):
  // this probe, the first, leaves it alone too.
  if (!ProcessIsOurs())
    return false;
  ThreadState *TS =
      (ThreadState *)MapRecycled(sizeof(ThreadState), "ActiveTime thread state");
  TS->Tls = &T;
  TS->Tree.Init();
  TS->Tid = GetTid();
  TS->StartTick = Now;
  TS->StartCpuNs = ThreadCpuNs();
  ReadThreadName(TS->Name);
  u32 Cap = (u32)flags()->initial_stack_frames;
  Frame *Stk = (Frame *)MapRecycled(Cap * sizeof(Frame), "ActiveTime shadow stack");
  Stk[0].Fn = nullptr;
  Stk[0].Addr = ~uptr(0);
  Stk[0].StartTick = Now;
  Stk[0].ChildTicks = 0;
  Stk[0].N = TS->Tree.At(0);
  Stk[0].OvhAtEntry = Stk[0].OffAtEntry = Stk[0].SwAtEntry = 0;
  Stk[0].NodeIdx = 0;
  T.Stack = Stk;
  T.Tree = &TS->Tree;
  T.TS = TS;
  T.Depth = 1;
  T.Ovh = T.Off = T.Sw = 0;
  TS->LongProbeTicks = LongProbeTicks();
  T.LongProbe = TS->LongProbeTicks;
  T.Trace = 0;
  CallCollectors(&Collector::ThreadStart, T, TS, Now);
  {
    Lock L(&registry_mu);
    RegisterThread(TS);
  }
  pthread_setspecific(thread_key, (void *)1);
  // Last, with release: enables the fast path, and tells the sampler (which
  // found TS in the list before this) that the stack is there.
  __atomic_store_n(&T.Capacity, Cap, __ATOMIC_RELEASE);
  VLog(2, "thread %llu (%s) started", (unsigned long long)TS->Tid, TS->Name);
  StartDeferredDrainer(/*Needed=*/false); // a second thread, perhaps
  return true;
}

void GrowStack(ThreadTls &T) {
  ThreadState *TS = T.TS;
  u32 OldCap = T.Capacity;
  CHECK_LT(OldCap, 0x40000000u);
  u32 NewCap = OldCap * 2;
  uptr PS = GetPageSizeCached();
  Frame *N = (Frame *)MmapOrDie(RoundUpTo(NewCap * sizeof(Frame), PS),
                                "ActiveTime shadow stack");
  internal_memcpy(N, T.Stack, T.Depth * sizeof(Frame));
  // The old array is kept until the thread finishes: the exit-time writer
  // on another thread may be reading it.
  if (TS->NumOldStacks < ThreadState::kMaxOldStacks) {
    TS->OldStacks[TS->NumOldStacks] = T.Stack;
    TS->OldStackBytes[TS->NumOldStacks] = RoundUpTo(OldCap * sizeof(Frame), PS);
    TS->NumOldStacks++;
  }
  // Release stores: the sampler reads Capacity, then Stack (Snapshot).
  __atomic_store_n(&T.Stack, N, __ATOMIC_RELEASE);
  __atomic_store_n(&T.Capacity, NewCap, __ATOMIC_RELEASE);
}

namespace {
uptr ThreadStateBytes() {
  return RoundUpTo(sizeof(ThreadState), GetPageSizeCached());
}

// Frees the folded threads whose limbo has ended (registry lock held).
// Limbo links go through Next, which nobody walks any more.
void DrainLimbo() {
  u64 Now = __atomic_load_n(&live_walks, __ATOMIC_SEQ_CST);
  for (ThreadState **P = &limbo; *P;) {
    ThreadState *TS = *P;
    if (TS->FirstSample == Now && (Now & 1)) {
      P = &TS->Next;
      continue;
    }
    *P = TS->Next;
    Recycle(TS, ThreadStateBytes(), sizeof(ThreadState));
  }
}

// TS left the live list: unmapped now, or once a walk that may stand on
// it has ended.
void FreeWhenUnseen(ThreadState *TS) {
  u64 Walks = __atomic_load_n(&live_walks, __ATOMIC_SEQ_CST);
  if (!(Walks & 1)) {
    Recycle(TS, ThreadStateBytes(), sizeof(ThreadState));
    return;
  }
  TS->FirstSample = Walks; // reused: the walk it waits for
  TS->Next = limbo;
  limbo = TS;
}

// The record the folded threads go into, registered when the first one
// is folded.
ThreadState *FoldedRecord() {
  if (folded)
    return folded;
  ThreadState *F = (ThreadState *)MmapOrDie(ThreadStateBytes(),
                                            "ActiveTime folded threads");
  F->Tree.Init();
  F->Code.Ring.Fd = F->Switch.Ring.Fd = -1; // no rings of its own
  F->Finished = true;
  F->StartTick = ~0ull;
  F->Ordinal = next_ordinal++;
  F->Prev = thread_tail;
  (thread_tail ? thread_tail->Next : thread_head) = F;
  thread_tail = F;
  folded = F;
  return F;
}

// The thread-wide figures of From into the folded record F.
void FoldThreadFigures(ThreadState *F, const ThreadState *From) {
  if (F->FoldedThreads == 0)
    internal_memcpy(F->Name, From->Name, sizeof(F->Name));
  else if (internal_memcmp(F->Name, From->Name, sizeof(F->Name)))
    internal_memset(F->Name, 0, sizeof(F->Name)); // names differ: none
  F->FoldedThreads++;
  if (From->StartTick < F->StartTick)
    F->StartTick = From->StartTick;
  if (From->EndTick > F->EndTick)
    F->EndTick = From->EndTick;
  F->UnmatchedExits += From->UnmatchedExits;
  F->UnwoundFrames += From->UnwoundFrames;
  F->DroppedEvents += From->DroppedEvents;
  F->FinalOff += From->FinalOff;
  F->FoldedVoluntary += From->FinalSw >> 32;
  F->FoldedInvoluntary += u32(From->FinalSw);
  if (From->FinalCpuNs >= From->StartCpuNs)
    F->FinalCpuNs += From->FinalCpuNs - From->StartCpuNs;
  else
    F->FoldedCpuUnknown = true;
}

// A finished thread beyond the first keep_threads goes into the folded
// record, and its memory is freed (registry lock held).
void FoldThread(ThreadState *TS) {
  ThreadState *F = FoldedRecord();
  u32 N = TS->Tree.Size();
  uptr MapBytes = RoundUpTo(uptr(N) * sizeof(u32), GetPageSizeCached());
  u32 *Map = (u32 *)MapRecycled(MapBytes, "ActiveTime fold map");
  F->Tree.FoldFrom(TS->Tree, Map);
  CallCollectors(&Collector::ThreadFold, *F, *TS, (const u32 *)Map, N);
  Recycle(Map, MapBytes, uptr(N) * sizeof(u32));
  FoldThreadFigures(F, TS);
  TS->Tree.Destroy();
  LeaveThreadList(TS);
  FreeWhenUnseen(TS);
}

// The finished thread leaves the live list; it keeps its own profile or is
// folded, and then forgets its state (registry lock held).
void RetireThread(ThreadTls &T, ThreadState *TS) {
  LeaveLiveList(TS);
  DrainLimbo();
  if (flags()->mode == RunMode::Trace ||
      kept_finished < u32(flags()->keep_threads)) {
    ++kept_finished;
    return;
  }
  FoldThread(TS);
  T.TS = nullptr;
  T.Tree = nullptr;
}
} // namespace

void FinishCurrentThread(u64 Now) {
  ThreadTls &T = at_tls;
  ThreadState *TS = T.TS;
  if (!TS || T.Dead)
    return;
  if (!ProcessIsOurs()) { // the registry's lock may be the parent's
    AbandonProcess(T);
    T.Dead = 1;
    return;
  }
  T.Seq++;
  AT_BARRIER();
  // Outside the registry lock: draining code samples takes the loader's.
  CallCollectors(&Collector::ThreadLeave, T, TS, Now);
  Lock L(&registry_mu);
  // The collectors' last records first (switched-out intervals up to Now),
  // then the frames still open at thread exit (pthread_exit, cancellation,
  // forced unwind): closed now, counted as unwound.
  CallCollectors(&Collector::ThreadFinish, T, TS, Now);
  Frame *Stk = T.Stack;
  TS->UnwoundFrames += CloseOpenFrames(T, Now);
  TS->FinalOff = T.Off;
  TS->FinalSw = T.Sw;
  TS->FinalCpuNs = ThreadCpuNs();
  ReadThreadName(TS->Name);
  TS->EndTick = Now;
  TS->Finished = true;
  u32 Cap = T.Capacity;
  T.Capacity = 0;
  T.Depth = 0;
  T.Dead = 1;
  T.Stack = nullptr;
  FreeStacks(TS, Stk, Cap);
  TS->Tree.ReleaseIndex();
  TS->Tls = nullptr;
  VLog(2, "thread %llu finished", (unsigned long long)TS->Tid);
  RetireThread(T, TS);
  AT_BARRIER();
  T.Seq++;
}

void ThreadRegistryAfterForkChild(u64 Now) {
  // Called with registry_mu held (pthread_atfork prepare). Other threads do
  // not exist in the child; finished ones belong to the parent's profile.
  ThreadTls &T = at_tls;
  ThreadState *TS = T.Dead ? nullptr : T.TS;
  thread_head = thread_tail = live_head = live_tail = TS;
  folded = limbo = nullptr;
  kept_finished = 0;
  live_walks = 0;
  next_ordinal = TS ? 1 : 0;
  if (!TS)
    return;
  TS->Next = TS->Prev = TS->LiveNext = TS->LivePrev = nullptr;
  TS->Ordinal = 0;
  TS->FirstSample = 0;
  TS->Tid = GetTid();
  TS->StartTick = Now;
  TS->StartCpuNs = ThreadCpuNs();
  TS->UnmatchedExits = TS->UnwoundFrames = TS->DroppedEvents = 0;
  TS->Tree.ResetStats();
  T.Ovh = T.Off = T.Sw = 0;
  for (u32 I = 0; I < T.Depth; ++I) {
    T.Stack[I].StartTick = Now;
    T.Stack[I].ChildTicks = 0;
    T.Stack[I].OvhAtEntry = T.Stack[I].OffAtEntry = T.Stack[I].SwAtEntry = 0;
  }
  CallCollectors(&Collector::ThreadAfterForkChild, T, TS, Now);
}

void ResetThreadsForTesting() {
  ThreadTls &T = at_tls;
  if (T.TS && !T.Dead)
    CallCollectors(&Collector::ThreadForget, T, T.TS);
  Lock L(&registry_mu);
  thread_head = thread_tail = live_head = live_tail = nullptr;
  folded = limbo = nullptr;
  kept_finished = next_ordinal = 0;
  live_walks = 0;
  internal_memset(&T, 0, sizeof(T));
}

// ---- The thread sections ---------------------------------------------------

namespace {
// Reads the state of a thread that may be running its probes while the
// profile is written: each copy is made under the thread's seqlock
// (ThreadTls::Seq), so it is as of one probe boundary. Unguarded, a node
// read in the middle of CloseFrame can have its call counted but not its
// time, or Excl updated but not Incl, which the reader rightly rejects as a
// corrupt profile. Under TSan the reads are ignored: racy by design,
// validated by Seq.
struct LiveReader {
  const ThreadTls *T; // null: the thread cannot run probes now
  bool Parked;
  // Runs Read (copies of the thread's state) until it ran between two of
  // the thread's probes.
  template <class F> void Run(F Read);
  void Copy(void *Dst, const void *Src, uptr Size) {
    Run([&] { internal_memcpy(Dst, Src, Size); });
  }
};
constexpr int kLiveCopyTries = 100;

template <class F> void LiveReader::Run(F Read) {
  for (int Try = 0; T && !Parked && Try < kLiveCopyTries; ++Try) {
    AT_TSAN_IGNORE_READS_BEGIN();
    u32 S = __atomic_load_n(&T->Seq, __ATOMIC_ACQUIRE);
    bool Ok = false;
    if (!(S & 1)) {
      Read();
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      Ok = __atomic_load_n(&T->Seq, __ATOMIC_RELAXED) == S;
    }
    AT_TSAN_IGNORE_READS_END();
    if (Ok)
      return;
    internal_sched_yield(); // inside a probe: a few instructions, or preempted
  }
  // Still inside the runtime after that many yields: it waits for a lock we
  // hold (it is finishing, or writing a profile itself), so its state does
  // not change until we are done.
  if (T)
    Parked = true;
  AT_TSAN_IGNORE_READS_BEGIN();
  Read();
  AT_TSAN_IGNORE_READS_END();
}

raw::NodeRecord NodeRecordOf(const Node &X, u32 Parent, u32 Func) {
  raw::NodeRecord R;
  R.Parent = Parent == kMapRoot ? raw::kNoParent : Parent;
  R.Func = Func;
  R.Calls = X.Calls;
  R.InclTicks = X.Incl;
  R.ExclTicks = X.Excl;
  // Only sampled calls so far (CloseFrame): the minimum, taken at their
  // upper end, can pass the maximum, taken at their lower end: both are
  // then the latter, the calls' figure with the interrupts' estimate out.
  R.MinTicks = X.Calls ? (X.Min < X.Max ? X.Min : X.Max) : 0;
  R.MaxTicks = X.Max;
  R.OverheadTicks = X.Ovh256; // fixed point until the open frames are in
  R.OffCpuTicks = X.Off;
  R.VoluntarySwitches = X.Vol;
  R.InvoluntarySwitches = X.Invol;
  R.CallSite = X.Site;
  return R;
}

// Calls F(bucket) for each bucket of a node's latency histogram copy in
// the groups of Mask (see CallTree::CopyLatency).
template <class F> void ForEachCopiedBucket(u32 Mask, F Visit) {
  for (; Mask; Mask &= Mask - 1) {
    u32 First = u32(__builtin_ctz(Mask)) * CallTree::kLatGroupBuckets;
    for (u32 Bk = First; Bk < First + CallTree::kLatGroupBuckets; ++Bk)
      Visit(Bk);
  }
}

// A node's non-empty latency buckets (Hist, the groups in Mask) as records
// of written node Out, appended to Lat.
void AppendLatency(OutBuffer *Lat, u32 Out, const u64 *Hist, u32 Mask) {
  ForEachCopiedBucket(Mask, [&](u32 Bk) {
    if (Hist[Bk]) {
      raw::LatencyRecord R = {Out, Bk, Hist[Bk]};
      Lat->Append(&R, sizeof(R));
    }
  });
}

// The calls a node's latency histogram copy counts (Hist, the groups in
// Mask).
u64 HistCalls(const u64 *Hist, u32 Mask) {
  u64 Sum = 0;
  ForEachCopiedBucket(Mask, [&](u32 Bk) { Sum += Hist[Bk]; });
  return Sum;
}
constexpr int kParkedCopyTries = 1000;

// The call-tree nodes 1..N-1 whose function and ancestors are known, in
// tree order; Map[I] becomes node I's written index, kMapRoot (the root)
// or kMapDrop. Returns how many were written; *Dropped counts the calls of
// those left out. A node's latency histogram is copied with it (one probe
// boundary: its counts sum to the copy's calls) into Lat, when Lat is set.
u32 WriteNodes(OutBuffer *B, CallTree &Tree, u32 N, LiveReader &Live,
               u32 *Map, u64 *Dropped, OutBuffer *Lat, u64 *Hist) {
  Map[0] = kMapRoot;
  u32 Out = 0;
  for (u32 I = 1; I < N; ++I) {
    const Node *X = Tree.AtAcquire(I);
    Node Copy;
    u32 HistMask = 0;
    auto Read = [&] {
      internal_memcpy(&Copy, X, sizeof(Copy));
      HistMask = Lat ? Tree.CopyLatency(Copy, Hist) : 0;
    };
    if (Live.T)
      Live.Run(Read);
    else
      Read();
    // A running thread the seqlock could not catch between two probes
    // (Parked): its node and histogram are copied without it. An exit of
    // the node between the two copies counts a call in the histogram that
    // the node's copy lacks (the histogram copy is the later); copy again
    // until they agree, else take the histogram's count of calls.
    if (Live.Parked && HistMask) {
      u64 Counted = HistCalls(Hist, HistMask);
      for (int Try = 0; Try < kParkedCopyTries && Counted != Copy.Calls; ++Try) {
        Read();
        Counted = HistCalls(Hist, HistMask);
      }
      Copy.Calls = Counted;
    }
    X = &Copy;
    u32 P = X->Parent < I ? Map[X->Parent] : kMapDrop;
    u32 Id;
    if (P == kMapDrop || !LookupFuncId(X->Fn, &Id)) {
      Map[I] = kMapDrop;
      *Dropped += X->Calls ? X->Calls : 1;
      continue;
    }
    raw::NodeRecord R = NodeRecordOf(*X, P, Id);
    B->Append(&R, sizeof(R));
    if (HistMask)
      AppendLatency(Lat, Out, Hist, HistMask);
    Map[I] = Out++;
  }
  return Out;
}

bool LatencyLess(const raw::LatencyRecord &A, const raw::LatencyRecord &B) {
  return A.Node != B.Node ? A.Node < B.Node : A.Bucket < B.Bucket;
}

// Appends the thread's latency records (Lat: the nodes' in order, then one
// per open frame) to B, sorted by (node, bucket) with equal ones added up.
// Returns their number.
u32 WriteLatency(OutBuffer *B, OutBuffer *Lat, bool Unsorted) {
  raw::LatencyRecord *R = (raw::LatencyRecord *)Lat->Data;
  uptr Num = Lat->Size / sizeof(raw::LatencyRecord);
  if (Unsorted)
    Sort(R, Num, LatencyLess);
  u32 Out = 0;
  uptr ReadAt = 0;
  for (uptr I = 0; I < Num;) {
    raw::LatencyRecord Sum = R[I];
    for (++I; I < Num && R[I].Node == Sum.Node && R[I].Bucket == Sum.Bucket;
         ++I)
      Sum.Count += R[I].Count;
    B->Append(&Sum, sizeof(Sum));
    ++Out;
    // A streamed side buffer is dropped again as it is read back.
    if ((I - ReadAt) * sizeof(*R) >= OutBuffer::kTrimBytes) {
      Lat->Drop(ReadAt * sizeof(*R), I * sizeof(*R));
      ReadAt = I;
    }
  }
  return Out;
}

// A thread's probe-time counters: probe overhead (ticks * 256), off-CPU
// ticks, switches (voluntary << 32 | involuntary).
struct ThreadCounters {
  u64 Ovh, Off, Sw;
};

// T's counters as of one probe boundary, with another live thread's
// switched-out time since then up to EndTick; a finished thread's final ones.
ThreadCounters ReadThreadCounters(const ThreadState *TS, const ThreadTls *T,
                                  LiveReader &Live, u64 EndTick) {
  if (!T)
    return {0, TS->FinalOff, TS->FinalSw};
  // Ovh, Off, Sw: consecutive, copied together (one probe boundary).
  static_assert(__builtin_offsetof(ThreadTls, Off) ==
                        __builtin_offsetof(ThreadTls, Ovh) + 8 &&
                    __builtin_offsetof(ThreadTls, Sw) ==
                        __builtin_offsetof(ThreadTls, Ovh) + 16,
                "ThreadTls counters layout");
  u64 C[3];
  SwitchSnapshot Snap;
  auto Read = [&] {
    internal_memcpy(C, &T->Ovh, sizeof(C));
    Snap = SnapshotSwitch(TS->Switch);
  };
  if (!Live.T) {
    Read();
    return {C[0], C[1], C[2]};
  }
  Live.Run(Read);
  // Another live thread: what it was switched out for since that probe
  // boundary is in no counter yet. A thread blocked now (waiting for work
  // or for the program to end) has been off CPU since it blocked, and its
  // open frames must not count that as active time.
  u64 Off, Sw;
  UnchargedSwitchedOut(TS, Snap, EndTick, &Off, &Sw);
  return {C[0], C[1] + Off, C[2] + Sw};
}

// Adds an open frame F, timed up to EndTick with its callees' El as
// Child, to its written node R: the same accounting as an exit at EndTick
// (there was no exit probe). El: the frame's elapsed ticks. Returns the
// call's active ticks (for its latency bucket).
u64 AddOpenFrame(raw::NodeRecord *R, const Frame &F, u64 El, u64 Child,
                  const ThreadCounters &C) {
  u64 Ovh = C.Ovh > F.OvhAtEntry ? C.Ovh - F.OvhAtEntry : 0;
  u64 Off = C.Off > F.OffAtEntry ? C.Off - F.OffAtEntry : 0;
  // A live thread's counters were read after EndTick: they can hold time
  // switched out after it, outside this frame's [start, EndTick].
  if (Off > El)
    Off = El;
  // A frame opened after the counters were read has nothing of its own.
  u64 Sw = C.Sw > F.SwAtEntry ? C.Sw - F.SwAtEntry : 0;
  R->Calls++;
  R->InclTicks += El;
  R->ExclTicks += El > Child ? El - Child : 0;
  R->OverheadTicks += Ovh;
  R->OffCpuTicks += Off;
  R->VoluntarySwitches += u32(Sw >> 32);
  R->InvoluntarySwitches += u32(Sw);
  s64 Act = s64(El) - s64((Ovh + 128) >> 8) - s64(Off);
  u64 A = Act > 0 ? u64(Act) : 0;
  if (R->Calls == 1 || A < R->MinTicks)
    R->MinTicks = A;
  if (A > R->MaxTicks)
    R->MaxTicks = A;
  return A;
}

// Accounts T's open frames up to EndTick in the written copy only (Recs,
// through Map over the N tree nodes). Another live thread may be running:
// best effort, bounded reads. Returns the number of frames added. Each
// adds a latency record of its node (in Lat, when set).
u64 AddOpenFrames(raw::NodeRecord *Recs, const u32 *Map, u32 N,
                  const ThreadTls *T, LiveReader &Live, u64 EndTick,
                  const ThreadCounters &C, OutBuffer *Lat) {
  AT_TSAN_IGNORE_READS_BEGIN();
  Frame *Stk = *(Frame *volatile *)&T->Stack;
  u32 Cap = *(volatile u32 *)&T->Capacity;
  u32 D = *(volatile u32 *)&T->Depth;
  AT_TSAN_IGNORE_READS_END();
  if (D > Cap)
    D = Cap;
  u64 Carry = 0, Open = 0;
  for (u32 I = D; Stk && I-- > 1;) {
    Frame F;
    if (Live.T)
      Live.Copy(&F, &Stk[I], sizeof(F));
    else
      F = Stk[I];
    u64 El = EndTick > F.StartTick ? EndTick - F.StartTick : 0;
    if (F.NodeIdx < N && Map[F.NodeIdx] < kMapRoot) {
      u32 Out = Map[F.NodeIdx];
      u64 A = AddOpenFrame(&Recs[Out], F, El, F.ChildTicks + Carry, C);
      if (Lat) {
        raw::LatencyRecord R = {Out, activetime::latency::bucketOf(A), 1};
        Lat->Append(&R, sizeof(R));
      }
      ++Open;
    }
    Carry = El;
  }
  return Open;
}

// The thread's CPU time over its profiled span: to its end, or to now for a
// live thread (the writer's own, or another read through its clock id).
u64 ThreadCpuSpan(const ThreadState *TS) {
  u64 End;
  if (TS->FoldedThreads)
    return TS->FoldedCpuUnknown ? raw::kCpuUnknown : TS->FinalCpuNs;
  if (TS->Finished)
    End = TS->FinalCpuNs;
  else if (TS->Tls == &at_tls)
    End = ThreadCpuNs();
  else if (!ThreadCpuNsOf(TS->Tid, &End))
    return raw::kCpuUnknown;
  return End >= TS->StartCpuNs ? End - TS->StartCpuNs : raw::kCpuUnknown;
}

// The thread record's fields other than NumNodes, OpenFrames, the dropped
// node count and the collectors' record counts; then the collectors'.
void FillThreadRecord(raw::ThreadRecord *P, const ThreadState *TS,
                      u64 ThreadEnd, const ThreadCounters &C) {
  P->Tid = TS->Tid;
  P->StartTick = TS->StartTick;
  P->EndTick = ThreadEnd;
  P->Flags = TS->Finished ? 0 : raw::TF_Running;
  P->UnmatchedExits = TS->UnmatchedExits;
  P->UnwoundFrames = TS->UnwoundFrames;
  internal_memcpy(P->Name, TS->Name, sizeof(P->Name));
  P->OffCpuTicks = C.Off;
  P->VoluntarySwitches = C.Sw >> 32;
  P->InvoluntarySwitches = u32(C.Sw);
  P->CpuNs = ThreadCpuSpan(TS);
  if (TS->FoldedThreads) {
    P->Flags |= raw::TF_Folded;
    P->FoldedThreads = TS->FoldedThreads;
    P->VoluntarySwitches = TS->FoldedVoluntary;
    P->InvoluntarySwitches = TS->FoldedInvoluntary;
  }
  CallCollectors(&Collector::FillThread, *P, *TS);
}

// SK_Thread payload: the thread record, its call-tree nodes (open frames
// timed up to EndTick), the collectors' records (call counts, code samples)
// and the latency records. With MapOut, the tree-index -> written-node map
// is handed to the caller (the samples section needs it) instead of being
// freed.
void WriteThread(OutBuffer *B, ThreadState *TS, u64 EndTick, u32 **MapOut,
                 u32 *MapN) {
  raw::ThreadRecord TR;
  internal_memset(&TR, 0, sizeof(TR));
  uptr RecOff = B->Size;
  B->Append(&TR, sizeof(TR));
  uptr NodesOff = B->Size;

  CallTree &Tree = TS->Tree;
  u32 N = Tree.SizeAcquire();
  // Another thread that has not finished runs its probes while we read
  // (the writer's own thread is held busy by WriteProfile).
  LiveReader Live = {TS->Finished ? nullptr : TS->Tls, false};
  if (Live.T == &at_tls)
    Live.T = nullptr;
  uptr MapBytes = RoundUpTo(uptr(N) * sizeof(u32), GetPageSizeCached());
  u32 *Map = (u32 *)MmapOrDie(MapBytes, "ActiveTime writer map");
  u64 Dropped = 0;
  // latency=0: no histograms (the nodes point at a sink).
  OutBuffer LatBuf = {};
  OutBuffer *Lat = flags()->latency ? &LatBuf : nullptr;
  if (Lat)
    B->AttachSide(Lat);
  uptr HistBytes = RoundUpTo(CallTree::kLatGroups * CallTree::kLatGroupBuckets *
                                 sizeof(u64),
                             GetPageSizeCached());
  u64 *Hist = (u64 *)MmapOrDie(HistBytes, "ActiveTime writer histogram");
  u32 Out = WriteNodes(B, Tree, N, Live, Map, &Dropped, Lat, Hist);
  UnmapOrDie(Hist, HistBytes);

  ThreadTls *T = TS->Finished ? nullptr : TS->Tls;
  ThreadCounters C = ReadThreadCounters(TS, T, Live, EndTick);
  raw::NodeRecord *Recs = (raw::NodeRecord *)(B->Data + NodesOff);
  u64 Open = T ? AddOpenFrames(Recs, Map, N, T, Live, EndTick, C, Lat) : 0;
  // A streamed image's node pages were dropped as they were written: read
  // back here, they are dropped again every few megabytes.
  const u32 DropEvery = OutBuffer::kTrimBytes / sizeof(raw::NodeRecord);
  for (u32 I = 0; I < Out; ++I) {
    Recs[I].OverheadTicks = (Recs[I].OverheadTicks + 128) >> 8;
    if (I % DropEvery == DropEvery - 1)
      B->Drop(NodesOff + uptr(I + 1 - DropEvery) * sizeof(raw::NodeRecord),
              NodesOff + uptr(I + 1) * sizeof(raw::NodeRecord));
  }
  const Collector *Cs[kMaxCollectors];
  for (u32 I = 0, NumC = CollectorsInOrder(Cs); I < NumC; ++I) {
    const Collector &K = *Cs[I];
    if (!K.WriteThreadRecords)
      continue;
    u32 Num = K.WriteThreadRecords(B, *TS, Map, N);
    ((raw::ThreadRecord *)(B->Data + RecOff))->*K.NumThreadRecords = Num;
  }
  u32 NumLat = Lat ? WriteLatency(B, Lat, Open != 0) : 0;
  LatBuf.Release();
  if (MapOut) {
    *MapOut = Map;
    *MapN = N;
  } else {
    UnmapOrDie(Map, MapBytes);
  }

  raw::ThreadRecord *P = (raw::ThreadRecord *)(B->Data + RecOff);
  FillThreadRecord(P, TS, TS->Finished ? TS->EndTick : EndTick, C);
  P->NumNodes = Out;
  P->OpenFrames = Open;
  P->DroppedEvents = TS->DroppedEvents + Dropped;
  P->NumLatency = NumLat;
  if (Lat)
    P->Flags |= raw::TF_Latency;
}

// One section per registered thread, in registry order (the thread
// ordinals), each leaving its node map when a collector asked for them.
void WriteThreadSections(ProfileWriter &W) {
  u32 Sec = 0;
  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next, ++Sec) {
    u32 Ord = TS->Ordinal;
    if (W.NodeMaps)
      W.SectionOf[Ord] = Sec;
    W.Section(raw::SK_Thread, [&] {
      WriteThread(W.Out, TS, W.EndTick, W.NodeMaps ? &W.NodeMaps[Ord] : nullptr,
                  W.NodeMapSizes ? &W.NodeMapSizes[Ord] : nullptr);
    });
  }
}
} // namespace

const Collector kThreadsCollector = {
    .Name = "threads",
    .Order = 30,
    .WriteSections = WriteThreadSections,
};
AT_REGISTER_COLLECTOR(kThreadsCollector);

} // namespace __activetime
