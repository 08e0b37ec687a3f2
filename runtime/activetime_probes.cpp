//===- activetime_probes.cpp - Probe hot path -------------------*- C++ -*-===//
//
// No locks, allocation or system calls on the fast path: one tick read, the
// TLS block, one hash probe on entry, a handful of stores. Everything unusual
// (first probe of a thread, full shadow stack, re-entrancy from a signal
// handler, frames abandoned by longjmp/unwinding, unmatched exits) goes to
// NOINLINE slow paths.
//
//===----------------------------------------------------------------------===//

#include "activetime/raw_format.h"
#include "activetime_counts.h"
#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_probes.h"
#include "activetime_thread.h"
#include "activetime_timer.h"

#define AT_PROBE_ATTRS __attribute__((no_stack_protector, hot))

namespace __activetime {

ProbeGate probe_gate;

// Whether the program disabled collection: kGateUserOff kept where a fork
// keeps it (the gate's page is zeroed in a child).
static u32 user_off;

void ReopenProbeGateAfterFork() {
  __atomic_store_n(&probe_gate.State, kGateOurs | (user_off ? kGateUserOff : 0),
                   __ATOMIC_RELEASE);
}

// Nonzero: probes fence their tick read and their work (flag probe_fence),
// set once at start-up before the overhead calibration.
u32 probe_fence;

// An exit that matched no frame: the return of a call whose entry was
// skipped while collection was off, or else a genuinely unmatched exit.
ALWAYS_INLINE static void NoteUnmatchedExit(ThreadState *TS) {
  if (TS->SkippedEntries)
    TS->SkippedEntries--;
  else
    TS->UnmatchedExits++;
}

// A long probe interval may hold a stretch the thread spent switched out,
// which the switch source charges as off-CPU time too: it comes out of the
// probe's cost so that no frame loses it twice. Frames see it either way
// (an entry probe's frame is open already, an exit probe's closed). In
// mode=trace every probe comes here first to store its whole interval in
// its event (the offline method takes the union with the switched-out
// intervals itself).
// Switch events stored here, after the probe's second tick read, may make
// trace memory ready (activetime_trace.cpp): that time is charged as
// overhead explicitly.
static NOINLINE u64 OnCpuPart(ThreadTls &T, u64 Interval, u64 End) {
  u64 BufferTicks = 0;
  if (T.Trace) {
    TraceBuffers &B = T.TS->Trace;
    if (B.OpenEvent) {
      B.Events[B.OpenEvent - 1].Measured = Interval;
      B.OpenEvent = 0;
    }
    if (Interval < T.TS->LongProbeTicks)
      return Interval;
    BufferTicks = B.BufferTicks;
  }
  u64 Off = CollectSwitchedOut(T, End);
  if (T.Trace)
    T.Ovh += (T.TS->Trace.BufferTicks - BufferTicks) << 8;
  return Interval > Off ? Interval - Off : 0;
}

// A probe's own cost, charged to the thread's overhead counter before the
// probe ends: the interval from its first tick read (Start) to a second read
// here, which includes whatever the probe paid (cache misses, slow paths),
// plus Extra256, the calibrated cost of the few instructions outside the two
// reads (the call, the return). Probes fed injected ticks (tests) charge
// Extra256 alone.
ALWAYS_INLINE static void ChargeProbe(ThreadTls &T, u64 Start, u64 Extra256,
                                      bool Measured = true) {
  u64 Cost256 = Extra256;
  if (Measured) {
    u64 End = ReadTick();
    u64 Interval = End > Start ? End - Start : 0;
    if (UNLIKELY(Interval >= T.LongProbe))
      Interval = OnCpuPart(T, Interval, End);
    Cost256 += Interval << 8;
  }
  T.Ovh += Cost256;
}

// The latency histogram counter of a call of N that lasted A active ticks,
// made by the slow path the first time a call lands in a group of buckets
// without storage.
static NOINLINE u64 *LatencySlotSlow(ThreadTls &T, Node *N, u64 A) {
  return T.Tree->LatencySlotSlow(N, activetime::latency::bucketOf(A));
}

// Completes frame I (>= 1) at Now and charges it to its parent frame.
// Active ticks of the call = elapsed - overhead - off-CPU, where overhead is
// what the thread's overhead counter grew by since the frame's entry snapshot
// (own entry probe + every nested probe; the own exit probe is added to the
// counter only after this) and off-CPU what the off-CPU counter grew by.
// The node's histogram counts its previous call (Node::PendingA) and keeps
// this one pending. Looked: the caller (ExitFast, which must not call out)
// looked up Slot, the counter of the pending call, already.
ALWAYS_INLINE static void CloseFrame(ThreadTls &T, Frame *Stk, u32 I, u64 Now,
                                     u64 *Slot = nullptr,
                                     bool Looked = false) {
  Frame *F = &Stk[I];
  u64 El = Now - F->StartTick;
  u64 Ovh = T.Ovh - F->OvhAtEntry;
  u64 Off = T.Off - F->OffAtEntry;
  // A thread-CPU-clock window (switch_source=cpuclock) that straddles the
  // entry, or ends at a tick read after Now, can charge more than the call
  // lasted: the rest was outside it (its caller still has all of it).
  Off = Off < El ? Off : El;
  s64 Act = s64(El) - s64((Ovh + 128) >> 8) - s64(Off);
  u64 A = Act > 0 ? u64(Act) : 0;
  // Per-call figures (min, max, latency bucket) bound the call's true
  // active time: with K code samples' interrupts charged at their start-up
  // estimate, it lies between A and A + K * cost (the interrupts could have
  // cost nothing; they cost no more than the time the call took). The
  // minimum takes the upper end, the maximum the lower, so neither is
  // moved past the truth by an estimate; a call whose estimate is a large
  // part of it is left out of the histogram (raw::TF_SampledCallsApart).
  u64 Upper = A, Pending = A;
  if (UNLIKELY(T.Samples != F->SamplesAtEntry)) {
    u64 Cost = u64(T.Samples - F->SamplesAtEntry) * T.SampleCost;
    Upper = A + Cost;
    if (Cost * 4 > Upper)
      Pending = kNoPending;
  }
  u64 Sw = T.Sw - F->SwAtEntry;
  Node *N = F->N;
  u64 Prev = N->PendingA;
  if (Prev != kNoPending) {
    if (!Looked) {
      Slot = CallTree::LatencySlot(N, activetime::latency::bucketOf(Prev));
      if (UNLIKELY(!Slot))
        Slot = LatencySlotSlow(T, N, Prev);
    }
    ++*Slot;
  }
  N->PendingA = Pending;
  N->Calls++;
  N->Incl += El;
  N->Excl += El - F->ChildTicks;
  N->Ovh256 += Ovh;
  N->Off += Off;
  N->Vol += u32(Sw >> 32);
  N->Invol += u32(Sw);
  if (Upper < N->Min)
    N->Min = Upper;
  if (A > N->Max)
    N->Max = A;
  Stk[I - 1].ChildTicks += El;
  if (UNLIKELY(N->Calls >= N->NextCheck))
    CheckTiming(N, I);
}

// mode=trace: one timer measurement, bounded buffer, never blocks. Past the
// pages made ready so far, the next chunk is made ready first (a system call
// once per chunk): between the probe's two tick reads, so its cost is part
// of the probe's measured cost, removed from every open call.
NOINLINE void TraceRecordEvent(ThreadTls &T, const FuncDesc *Fn, u32 Kind,
                               u64 Now) {
  TraceBuffers &B = T.TS->Trace;
  u64 I = B.NumEvents;
  if (UNLIKELY(I >= B.ReadyEvents) &&
      (I >= B.CapEvents || !TraceReadyEvents(B))) {
    B.DroppedEvents++;
    return;
  }
  B.Events[I].Tick = Now;
  B.Events[I].FnKind = uptr(Fn) | Kind;
  B.Events[I].Measured = 0;
  B.OpenEvent = I + 1;
  __atomic_store_n(&B.NumEvents, I + 1, __ATOMIC_RELEASE);
}

// The poll, run by every probe after it read its tick: whether the perf
// switch ring's or the code sample ring's head moved (one load and compare
// each) or the cpuclock deadline passed. Macros, and a function for the
// fast paths, which test it as one term of their bail-out condition: the
// probes compile as they did when each spelled the condition out.
#define AT_POLL_DUE(T, Now)                                                    \
  (*(T).SwitchHead != (T).SwitchTailSeen ||                                    \
   *(T).SampleHead != (T).SampleTailSeen || (Now) >= (T).NextCheckTick)

#define AT_POLL(T, Now)                                                        \
  do {                                                                         \
    if (UNLIKELY(AT_POLL_DUE(T, Now)))                                         \
      PollSlow((T), (Now));                                                    \
  } while (0)

ALWAYS_INLINE static bool PollDue(const ThreadTls &T, u64 Now) {
  return AT_POLL_DUE(T, Now);
}

// Pops frames at or below Addr on the same stack: they were abandoned by a
// longjmp or an unwind we did not see. Charged up to Now, counted as unwound.
static NOINLINE void PopStaleFrames(ThreadTls &T, uptr Addr, u64 Now) {
  u32 D = T.Depth;
  Frame *Stk = T.Stack;
  while (D > 1) {
    Frame *Top = &Stk[D - 1];
    if (Top->Addr > Addr || Addr - Top->Addr >= kSameStackDistance)
      break;
    CloseFrame(T, Stk, D - 1, Now);
    T.TS->UnwoundFrames++;
    --D;
  }
  T.Depth = D;
}

// Opens the frame above Top for node Idx of Fn, charging the entry probe.
ALWAYS_INLINE static void OpenFrame(ThreadTls &T, Frame *Top, const FuncDesc *Fn,
                                    uptr Addr, u64 Now, u32 Idx) {
  Frame *F = Top + 1;
  F->Fn = Fn;
  F->Addr = Addr;
  F->StartTick = Now;
  F->ChildTicks = 0;
  F->N = T.Tree->At(Idx);
  F->OvhAtEntry = T.Ovh;
  F->OffAtEntry = T.Off;
  F->SwAtEntry = T.Sw;
  F->NodeIdx = Idx;
  F->SamplesAtEntry = T.Samples;
  T.Depth++;
}

// A call that opens a new node: possibly the thread's first call into Fn's
// module, made through its bootstrap counters (activetime_counts.h).
static NOINLINE u32 NewNode(ThreadTls &T, u32 Parent, const FuncDesc *Fn,
                            uptr Site) {
  AdoptCounters(T, Fn);
  return T.Tree->Insert(Parent, Fn, Site);
}

// Pushes a frame for Fn, called from Site, above Top (the current top frame).
ALWAYS_INLINE static void PushFrame(ThreadTls &T, Frame *Top,
                                    const FuncDesc *Fn, uptr Addr, uptr Site,
                                    u64 Now) {
  u32 Idx = T.Tree->Find(Top->NodeIdx, Fn, Site);
  if (UNLIKELY(!Idx))
    Idx = NewNode(T, Top->NodeIdx, Fn, Site);
  OpenFrame(T, Top, Fn, Addr, Now, Idx);
  if (UNLIKELY(T.Trace))
    TraceRecordEvent(T, Fn, activetime::raw::TE_Enter, Now);
}

ALWAYS_INLINE static void EnterBody(ThreadTls &T, const FuncDesc *Fn,
                                    uptr Addr, uptr Site, u64 Now) {
  Frame *Top = &T.Stack[T.Depth - 1];
  if (UNLIKELY(Top->Addr <= Addr)) {
    PopStaleFrames(T, Addr, Now);
    Top = &T.Stack[T.Depth - 1];
  }
  PushFrame(T, Top, Fn, Addr, Site, Now);
}

// A region frame takes the address of the frame it opens in, so the repairs
// treat it as part of that frame: a callee's entry never finds it stale, and
// the enclosing function's exit closes it (as unwound) if it is still open.
// No stale-frame repair here: the region's own address proves nothing.
ALWAYS_INLINE static void RegionEnterBody(ThreadTls &T, const FuncDesc *R,
                                          u64 Now) {
  Frame *Top = &T.Stack[T.Depth - 1];
  PushFrame(T, Top, R, Top->Addr, /*Site=*/0, Now);
}

// RealTick: Now was read by the probe itself (not injected by a test); after
// a thread init (perf_event_open can take milliseconds the first time) the
// frame starts at a fresh tick so the init is in no frame's elapsed time.
static NOINLINE void EnterSlow(const FuncDesc *Fn, uptr Addr, uptr Site,
                               u64 Now, bool RealTick, bool Region) {
  ThreadTls &T = at_tls;
  if (UNLIKELY(!ProcessIsOurs()))
    return AbandonProcess(T);
  if (T.Seq & 1) {
    if (T.TS)
      T.TS->DroppedEvents++;
    return;
  }
  if (T.Dead)
    return;
  if (GateState() & kGateUserOff) {
    if (T.TS)
      T.TS->SkippedEntries++;
    return;
  }
  T.Seq++;
  AT_BARRIER();
  bool Ok = true;
  if (T.Capacity == 0) {
    Ok = InitCurrentThread(Now);
    if (RealTick)
      Now = ReadTick();
  } else if (T.Depth >= T.Capacity)
    GrowStack(T);
  if (Ok) {
    AT_POLL(T, Now);
    if (Region)
      RegionEnterBody(T, Fn, Now);
    else
      EnterBody(T, Fn, Addr, Site, Now);
    ChargeProbe(T, Now, T.Enter256, RealTick);
  }
  AT_BARRIER();
  T.Seq++;
}

ALWAYS_INLINE static void EnterImpl(const FuncDesc *Fn, uptr Addr, uptr Site,
                                    u64 Now, bool RealTick) {
  ThreadTls &T = at_tls;
  if (UNLIKELY(T.Capacity == T.Depth || (T.Seq & 1) ||
               GateState() != kGateOurs))
    return EnterSlow(Fn, Addr, Site, Now, RealTick, /*Region=*/false);
  T.Seq++;
  AT_BARRIER();
  AT_POLL(T, Now);
  EnterBody(T, Fn, Addr, Site, Now);
  ChargeProbe(T, Now, T.Enter256, RealTick);
  AT_BARRIER();
  T.Seq++;
}

// Closes the frames above frame Found (>= 1) as unwound, then Found itself.
static void CloseThrough(ThreadTls &T, u32 Found, u64 Now) {
  Frame *Stk = T.Stack;
  for (u32 I = T.Depth - 1; I > Found; --I) {
    CloseFrame(T, Stk, I, Now);
    T.TS->UnwoundFrames++;
  }
  CloseFrame(T, Stk, Found, Now);
  T.Depth = Found;
}

// The top frame is not (Fn, Addr). Search down for it; if found, close the
// frames above it as unwound and then it normally; else it is a return with
// no matching entry: a no-op, counted.
static NOINLINE bool ExitRepair(ThreadTls &T, const FuncDesc *Fn, uptr Addr,
                                u64 Now) {
  Frame *Stk = T.Stack;
  u32 D = T.Depth;
  u32 Found = 0;
  for (u32 I = D - 1; I >= 1; --I) {
    if (Stk[I].Fn == Fn && Stk[I].Addr == Addr) {
      Found = I;
      break;
    }
    // A frame shallower than ours on the same stack: ours cannot be below it.
    if (Stk[I].Addr > Addr && Stk[I].Addr - Addr < kSameStackDistance)
      break;
  }
  if (!Found) {
    NoteUnmatchedExit(T.TS);
    return false;
  }
  CloseThrough(T, Found, Now);
  return true;
}

// An exit-side event that cannot be recorded: no thread state yet, the
// thread finished, or it re-entered a probe of its own (a signal handler),
// which is counted as dropped.
ALWAYS_INLINE static bool IgnoreEvent(ThreadTls &T) {
  if (UNLIKELY(!ProcessIsOurs())) {
    AbandonProcess(T);
    return true;
  }
  if (!T.TS || T.Dead)
    return true;
  if (T.Seq & 1) {
    T.TS->DroppedEvents++;
    return true;
  }
  return false;
}

static NOINLINE void ExitSlow(const FuncDesc *Fn, uptr Addr, u64 Now,
                              bool RealTick) {
  ThreadTls &T = at_tls;
  if (IgnoreEvent(T))
    return;
  // Depth <= 1: nothing open, a return with no matching entry. The probe
  // still ran inside the thread's time.
  T.Seq++;
  AT_BARRIER();
  AT_POLL(T, Now);
  NoteUnmatchedExit(T.TS);
  ChargeProbe(T, Now, T.Exit256, RealTick);
  AT_BARRIER();
  T.Seq++;
}

ALWAYS_INLINE static void ExitImpl(const FuncDesc *Fn, uptr Addr, u64 Now,
                                   bool RealTick) {
  ThreadTls &T = at_tls;
  if (UNLIKELY((T.Seq & 1) || T.Depth <= 1 || !(GateState() & kGateOurs)))
    return ExitSlow(Fn, Addr, Now, RealTick);
  T.Seq++;
  AT_BARRIER();
  AT_POLL(T, Now);
  u32 D = T.Depth;
  Frame *Top = &T.Stack[D - 1];
  bool Matched = true;
  if (LIKELY(Top->Fn == Fn && Top->Addr == Addr)) {
    CloseFrame(T, T.Stack, D - 1, Now);
    T.Depth = D - 1;
  } else {
    Matched = ExitRepair(T, Fn, Addr, Now);
  }
  if (UNLIKELY(T.Trace) && Matched)
    TraceRecordEvent(T, Fn, activetime::raw::TE_Exit, Now);
  // The exit probe's own cost lies after the frame's recorded end: charged
  // to the enclosing frames only.
  ChargeProbe(T, Now, T.Exit256, RealTick);
  AT_BARRIER();
  T.Seq++;
}

// Region end: closes the innermost open frame of R, and as unwound any frame
// above it (abandoned by a longjmp back into the region's function). No frame
// of R: an unmatched end, counted and otherwise ignored.
static NOINLINE void RegionExit(const FuncDesc *R, u64 Now) {
  ThreadTls &T = at_tls;
  if (IgnoreEvent(T))
    return;
  T.Seq++;
  AT_BARRIER();
  AT_POLL(T, Now);
  Frame *Stk = T.Stack;
  u32 D = T.Depth;
  u32 Found = 0;
  for (u32 I = D; I-- > 1;)
    if (Stk[I].Fn == R) {
      Found = I;
      break;
    }
  if (Found)
    CloseThrough(T, Found, Now);
  else
    NoteUnmatchedExit(T.TS);
  if (UNLIKELY(T.Trace) && Found)
    TraceRecordEvent(T, R, activetime::raw::TE_Exit, Now);
  ChargeProbe(T, Now, T.Exit256);
  AT_BARRIER();
  T.Seq++;
}

u32 CloseOpenFrames(ThreadTls &T, u64 Now) {
  u32 N = 0;
  for (u32 I = T.Depth; I-- > 1;) {
    CloseFrame(T, T.Stack, I, Now);
    ++N;
  }
  if (T.Depth > 1)
    T.Depth = 1;
  return N;
}

void ProbeEnterAt(const FuncDesc *Fn, uptr Addr, u64 Now, uptr Site) {
  EnterImpl(Fn, Addr, Site, Now, /*RealTick=*/false);
}
void ProbeExitAt(const FuncDesc *Fn, uptr Addr, u64 Now) {
  ExitImpl(Fn, Addr, Now, /*RealTick=*/false);
}

#ifndef ACTIVETIME_PROBE_FAST_PATH
#define ACTIVETIME_PROBE_FAST_PATH 1
#endif


// The exported probes: a leaf fast path for the common case (no call, so no
// callee-saved registers to spill) that tail-calls the general path above for
// anything else. The general path redoes every check, so a bail-out only
// costs the checks. Seq is made odd before the stack is read: a signal
// handler's probes cannot grow the stack or the tree under us. Measured
// against the general path alone in docs/performance.md.
static NOINLINE void EnterGeneral(const FuncDesc *Fn, uptr Addr, uptr Site,
                                  u64 Now) {
  EnterImpl(Fn, Addr, Site, Now, /*RealTick=*/true);
}

static NOINLINE void ExitGeneral(const FuncDesc *Fn, uptr Addr, u64 Now) {
  ExitImpl(Fn, Addr, Now, /*RealTick=*/true);
}

ALWAYS_INLINE static void EnterFast(const FuncDesc *Fn, uptr Addr, uptr Site,
                                    u64 Now) {
  ThreadTls &T = at_tls;
  u32 S = T.Seq;
  u32 D = T.Depth;
  if (UNLIKELY((S & 1) || D == T.Capacity ||
               GateState() != kGateOurs))
    return EnterGeneral(Fn, Addr, Site, Now);
  T.Seq = S + 1;
  AT_BARRIER();
  Frame *Top = &T.Stack[D - 1];
  CallTree *Tree = T.Tree;
  u32 Idx;
  if (UNLIKELY(PollDue(T, Now) || T.Trace || Top->Addr <= Addr ||
               !(Idx = Tree->Find(Top->NodeIdx, Fn, Site)))) {
    AT_BARRIER();
    T.Seq = S;
    return EnterGeneral(Fn, Addr, Site, Now);
  }
  OpenFrame(T, Top, Fn, Addr, Now, Idx);
  ChargeProbe(T, Now, T.Enter256);
  AT_BARRIER();
  T.Seq = S + 2;
}

ALWAYS_INLINE static void ExitFast(const FuncDesc *Fn, uptr Addr, u64 Now) {
  ThreadTls &T = at_tls;
  u32 S = T.Seq;
  u32 D = T.Depth;
  if (UNLIKELY((S & 1) || D <= 1 || !(GateState() & kGateOurs)))
    return ExitGeneral(Fn, Addr, Now);
  T.Seq = S + 1;
  AT_BARRIER();
  Frame *Stk = T.Stack;
  Frame *Top = &Stk[D - 1];
  // The node's pending call (from its previous exit) is counted now: its
  // counter is found from values in memory, independent of this probe's
  // tick read. One without storage yet goes the general way, which may
  // allocate: this path stays a leaf (no call).
  u64 *Slot = nullptr;
  if (UNLIKELY(PollDue(T, Now) || T.Trace || Top->Fn != Fn ||
               Top->Addr != Addr)) {
    AT_BARRIER();
    T.Seq = S;
    return ExitGeneral(Fn, Addr, Now);
  }
  u64 Prev = Top->N->PendingA;
  if (LIKELY(Prev != kNoPending)) {
    Slot = CallTree::LatencySlot(Top->N, activetime::latency::bucketOf(Prev));
    if (UNLIKELY(!Slot)) {
      AT_BARRIER();
      T.Seq = S;
      return ExitGeneral(Fn, Addr, Now);
    }
  }
  CloseFrame(T, Stk, D - 1, Now, Slot, /*Looked=*/true);
  T.Depth = D - 1;
  ChargeProbe(T, Now, T.Exit256);
  AT_BARRIER();
  T.Seq = S + 2;
}

} // namespace __activetime

using namespace __activetime;

// Every exported probe: fence (if probe_fence), tick read, work, fence.
#define AT_FENCED_PROBE(Now, Work)                                             \
  do {                                                                         \
    u32 Fenced = __atomic_load_n(&probe_fence, __ATOMIC_RELAXED);              \
    if (Fenced)                                                                \
      ProbeFence();                                                            \
    u64 Now = ReadTick();                                                      \
    Work;                                                                      \
    if (Fenced)                                                                \
      ProbeFence();                                                            \
  } while (0)

// The call site: the return address, which the call stored in the slot
// Frame points at (llvm.addressofreturnaddress). Free at entry: the load hits
// the line the call just wrote.
ALWAYS_INLINE static uptr CallSiteOf(void *Frame) {
#if defined(__x86_64__)
  return *(const uptr *)Frame;
#else
  (void)Frame;
  return 0;
#endif
}

ALWAYS_INLINE static void FuncEnter(const activetime::abi::FuncDesc *Fn,
                                    void *Frame, u64 Now) {
#if ACTIVETIME_PROBE_FAST_PATH
  EnterFast(Fn, uptr(Frame), CallSiteOf(Frame), Now);
#else
  EnterImpl(Fn, uptr(Frame), CallSiteOf(Frame), Now, /*RealTick=*/true);
#endif
}

ALWAYS_INLINE static void FuncExit(const activetime::abi::FuncDesc *Fn,
                                   void *Frame, u64 Now) {
#if ACTIVETIME_PROBE_FAST_PATH
  ExitFast(Fn, uptr(Frame), Now);
#else
  ExitImpl(Fn, uptr(Frame), Now, /*RealTick=*/true);
#endif
}

ALWAYS_INLINE static void RegionBegin(const activetime::abi::FuncDesc *R,
                                      u64 Now) {
  if (!R)
    return;
  ThreadTls &T = at_tls;
  if (UNLIKELY(T.Capacity == T.Depth || (T.Seq & 1) ||
               GateState() != kGateOurs))
    return EnterSlow(R, 0, 0, Now, /*RealTick=*/true, /*Region=*/true);
  T.Seq++;
  AT_BARRIER();
  AT_POLL(T, Now);
  RegionEnterBody(T, R, Now);
  ChargeProbe(T, Now, T.Enter256);
  AT_BARRIER();
  T.Seq++;
}

ALWAYS_INLINE static void RegionEnd(const activetime::abi::FuncDesc *R,
                                    u64 Now) {
  if (!R)
    return;
  ThreadTls &T = at_tls;
  // The common case, the region on top, takes the exit probe's path.
  if (LIKELY(!(T.Seq & 1) && T.Depth > 1 && T.Stack[T.Depth - 1].Fn == R))
    return ExitImpl(R, T.Stack[T.Depth - 1].Addr, Now, /*RealTick=*/true);
  RegionExit(R, Now);
}

extern "C" AT_PROBE_ATTRS void
__activetime_func_enter(const activetime::abi::FuncDesc *Fn, void *Frame) {
  AT_FENCED_PROBE(Now, FuncEnter(Fn, Frame, Now));
}

extern "C" AT_PROBE_ATTRS void
__activetime_func_exit(const activetime::abi::FuncDesc *Fn, void *Frame) {
  AT_FENCED_PROBE(Now, FuncExit(Fn, Frame, Now));
}

extern "C" AT_PROBE_ATTRS void
__activetime_region_begin(const activetime::abi::FuncDesc *R) {
  AT_FENCED_PROBE(Now, RegionBegin(R, Now));
}

extern "C" AT_PROBE_ATTRS void
__activetime_region_end(const activetime::abi::FuncDesc *R) {
  AT_FENCED_PROBE(Now, RegionEnd(R, Now));
}

// The sample poll of a counted call's entry (abi.h): its ring's head moved.
// A counted call is in no frame of its own: the samples go to the frames
// open now, as at a probe, and the poll's measured time is their overhead.
extern "C" SANITIZER_INTERFACE_ATTRIBUTE __attribute__((preserve_most)) void
__activetime_sample_poll() {
  u64 Now = ReadTick();
  ThreadTls &T = at_tls;
  // Inside a probe (a signal handler's call), before the thread's first
  // timed call or after its last, or with collection off: the records stay
  // in the ring for a later poll, and this one is quiet until the head
  // moves again (the entry that called it jumps back to its start).
  if (UNLIKELY(!ProcessIsOurs()) || (T.Seq & 1) || T.Dead || !T.TS ||
      T.Capacity == 0 || GateState() != kGateOurs) {
    T.SampleTailSeen = *T.SampleHead;
    return;
  }
  T.Seq++;
  AT_BARRIER();
  PollSlow(T, Now);
  // A record that came meanwhile is drained too; whatever is left (a word
  // that is no ring's), the entry's jump back must find seen.
  PollCodeSamples(T);
  T.SampleTailSeen = *T.SampleHead;
  ChargeProbe(T, Now, 0);
  AT_BARRIER();
  T.Seq++;
}

extern "C" int __activetime_set_enabled(int On) {
  u32 Old = On ? __atomic_fetch_and(&probe_gate.State, ~u32(kGateUserOff),
                                    __ATOMIC_RELAXED)
               : __atomic_fetch_or(&probe_gate.State, kGateUserOff,
                                   __ATOMIC_RELAXED);
  __atomic_store_n(&user_off, On ? 0u : 1u, __ATOMIC_RELAXED);
  bool WasOn = !(Old & kGateUserOff);
  if (WasOn != (On != 0))
    SetCountingEnabled(On != 0);
  return WasOn ? 1 : 0;
}

extern "C" int __activetime_enabled(void) {
  return (GateState() & kGateUserOff) ? 0 : 1;
}

