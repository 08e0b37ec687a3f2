//===- activetime_thread.h - Per-thread state and registry ------*- C++ -*-===//
//
// Each thread has a small initial-exec TLS block (ThreadTls) that the probes
// read, and a heap ThreadState (call tree, counters) registered in a global
// registry so the exit-time writer can read every thread. The shadow stack's
// frame 0 is a sentinel (fn null, frame ~0, node = root 0): depth >= 1 once
// initialized. Capacity is 0 until initialized and after the thread finished,
// which sends every probe to the slow path (initialize, or ignore).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_THREAD_H
#define ACTIVETIME_THREAD_H

#include "activetime_calltree.h"
#include "activetime_codesamples.h"
#include "activetime_counts.h"
#include "activetime_internal.h"
#include "activetime_switch.h"

namespace __activetime {

// Active time (elapsed minus probe overhead minus switched-out time): a
// frame snapshots the thread's cumulative overhead, off-CPU and switch
// counters at entry (after the poll, before its own entry overhead
// is added); at exit the differences are what happened inside it: own entry
// probe + every nested probe (not its own exit), and every switched-out
// interval that started after its entry tick.
struct Frame {     // 72 bytes
  const FuncDesc *Fn;
  uptr Addr;       // frame address (slot of the return address)
  u64 StartTick;
  u64 ChildTicks;  // inclusive (elapsed) ticks of completed callees
  Node *N;         // == Tree->At(NodeIdx); nodes never move
  u64 OvhAtEntry;  // ThreadTls::Ovh at entry (ticks * 256)
  u64 OffAtEntry;  // ThreadTls::Off at entry
  u64 SwAtEntry;   // ThreadTls::Sw at entry
  u32 NodeIdx;
  u32 SamplesAtEntry; // ThreadTls::Samples at entry
};

struct ThreadState;

struct ThreadTls {
  // Code samples (activetime_codesamples.h): whether the sample ring's
  // data_head moved (a zero word when the thread is not sampled, never
  // null). First: the counted calls' entries read them too (abi.h, "The
  // sample poll"; at_tls is kSamplePollTlsName).
  const volatile u64 *SampleHead;
  u64 SampleTailSeen;
  Frame *Stack;
  u32 Depth;
  u32 Capacity;
  // Odd while a probe (or the writer) mutates this thread's state: signal
  // re-entrancy check, and the sampler's seqlock (it re-reads the stack
  // when Seq changed or was odd). Only plain stores by the owner.
  u32 Seq;
  u32 Dead;   // finished: later probes are ignored
  CallTree *Tree;
  ThreadState *TS;
  // The poll (every probe, after reading its tick; PollSlow): the slow path
  // runs when the perf ring's data_head moved (SwitchHead points at a zero
  // word for other sources) or the tick reached NextCheckTick (cpuclock
  // checks; 0 forces the next probe in when a pending interval waits; ~0 =
  // never).
  const volatile u64 *SwitchHead;
  u64 SwitchTailSeen;
  u64 NextCheckTick;
  // Cumulative per-thread counters, only ever increasing.
  u64 Ovh;      // probe overhead charged so far, ticks * 256
  u64 Off;      // switched-out ticks charged so far
  u64 Sw;       // switches charged so far: voluntary << 32 | involuntary
  u64 Enter256; // the overhead table, copied here when published
  u64 Exit256;
  // Nonzero until the thread adopted the calibrated table (PollProbeTable).
  u32 TablePending;
  u32 Pad0;
  // While TablePending: the tick by which the thread polls again (0: none).
  // The switch source's deadlines never put NextCheckTick past it
  // (SetNextCheck): the table, and a helper process's figures, are taken
  // at those polls.
  u64 TablePollTick;
  u32 Trace;    // mode=trace: record the timer measurements
  // A probe whose measured interval exceeds this many ticks asks the switch
  // source whether the thread was switched out inside it (ChargeProbe); 0
  // in mode=trace, where every probe stores its interval in its event.
  u32 LongProbe;
  // Code samples whose interrupts were charged to Ovh so far (wraps), and
  // what one is charged, in ticks: a call that had some has a per-call
  // figure only as good as that start-up estimate (CloseFrame).
  u32 Samples;
  u32 SampleCost;
};

// NextCheckTick for a deadline Tick of the switch source's (~0: none), no
// later than the thread's poll for the probe table.
ALWAYS_INLINE void SetNextCheck(ThreadTls &T, u64 Tick) {
  u64 P = T.TablePollTick;
  T.NextCheckTick = P && P < Tick ? P : Tick;
}

// Packing of ThreadTls::Sw / Frame::SwAtEntry.
constexpr u64 kSwVoluntary = u64(1) << 32;
constexpr u64 kSwInvoluntary = 1;

// mode=trace per-thread buffers (mapped at thread init, never grown; their
// pages made ready a chunk at a time: activetime_trace.cpp).
struct TraceEv {   // the timer measurement as recorded at run time
  u64 Tick;
  uptr FnKind;     // FuncDesc pointer | TraceEventKind (bit 0)
  u64 Measured;    // the probe's measured interval, ticks
};
struct TraceSw {
  u64 Tick;
  u32 Out;         // 1: switched out, 0: switched in
  u32 Reserved;
};
// A trace buffer's mapping: [0, Ready) has been faulted in by the runtime.
struct TraceMemory {
  char *Base;
  uptr Bytes;      // mapped (cut to Ready when the kernel had no memory)
  uptr Ready;
  uptr HugeFrom;   // offset from which huge pages were asked for (or Bytes)
};
struct TraceBuffers {
  TraceEv *Events;
  u64 NumEvents;   // written by the owner; the writer reads it (volatile)
  // The event the running probe recorded, 1-based (0: none yet): its
  // measured interval is known only when the probe ends.
  u64 OpenEvent;
  u64 CapEvents;
  u64 ReadyEvents; // events that fit the ready pages (<= CapEvents)
  u64 DroppedEvents;
  TraceSw *Switches;
  u64 NumSwitches;
  u64 CapSwitches;
  u64 ReadySwitches;
  u64 DroppedSwitches;
  TraceMemory EventMem, SwitchMem;
  // What making pages ready cost this thread (raw::TraceRecord::Buffer*):
  // owner-written, read by the writer.
  u64 BufferTicks;
  u64 BufferBytes;
  u32 BufferFlags; // raw::TraceBufferFlags
};

// The thread's own. Exported as the sample poll's words (abi.h), which
// start out at a zero word.
extern const volatile u64 kNoSampleRing;
extern SANITIZER_INTERFACE_ATTRIBUTE THREADLOCAL ThreadTls at_tls asm(
    "__activetime_thread") __attribute__((tls_model("initial-exec")));

struct ThreadState {
  ThreadTls *Tls;     // the owner's TLS block; read by the writer while live
  CallTree Tree;
  u64 Tid;
  u64 StartTick;
  u64 EndTick;        // set when finished
  u64 UnmatchedExits;
  u64 UnwoundFrames;
  u64 DroppedEvents;
  // Entries skipped while collection was off whose exits are still to come;
  // such an exit matches no frame and is not counted as unmatched.
  u64 SkippedEntries;
  char Name[16];
  SwitchState Switch; // the thread's context-switch source (slow path only)
  CodeSampleState Code; // its code samples (slow path only)
  const char *SwitchFallbackWhy; // why perf was not used (or null)
  // Not 0: the tick from which the thread's perf rings may be opened; until
  // they are, its switch source is its CPU clock (perf_after_us). Owner-
  // written (atomic: the drainer reads it).
  u64 PerfFromTick;
  // Who opens those late rings (a LateClaim, by compare-and-swap): the
  // code-sample drainer, for a thread that has lived perf_after_us, so that
  // the thread pays no perf_event_open and one that runs only counted
  // calls still gets its code samples; or the thread itself, when no
  // drainer runs (activetime_codesamples.h). LateReady: 1 once the drainer
  // has installed them, which the thread's code-sample poll watches
  // (ThreadTls::SampleHead points at it until the thread adopts them).
  u32 LateClaim;
  u64 LateReady;
  u32 LongProbeTicks;   // ThreadTls::LongProbe's threshold (also in trace)
  TraceBuffers Trace; // mode=trace
  // Copies of the ThreadTls counters, made when the thread finished.
  u64 FinalOff;
  u64 FinalSw;
  // The thread's CPU clock at its first probe and when it finished
  // (raw::ThreadRecord::CpuNs).
  u64 StartCpuNs;
  u64 FinalCpuNs;
  bool Finished;
  // Sampler handshake (activetime_sampler.cpp): the sampler holds SampleRef
  // while it reads Tls/stacks/ring; FinishCurrentThread sets Leaving and
  // waits for SampleRef == 0 before it frees them.
  u32 SampleRef;
  u32 Leaving;
  // Sampler-owned.
  u64 SampleLastTick;   // tick of the thread's previous recorded sample
  u32 SampleLastOnNode; // node of its previous on-CPU sample
  u32 SampleHaveOn;
  // Ring position the sampler parsed up to, and the last switch record
  // before it (misc, -1 if none since the owner's tail; perf time).
  u64 SampleRingPos;
  s64 SampleRingMisc;
  u64 SampleRingTime;
  // Counted calls (activetime_counts.h): the arrays the thread counts in,
  // and the chunk the per-module arrays are cut from.
  CountArrays Counts;
  char *CountArena;
  uptr CountArenaLeft;
  void *CountChunks; // the arena's chunks, linked through their first word
  // Some node was opened for a function whose module was not registered:
  // adoptions then count the calls the thread's nodes already hold.
  bool UncountedNodes;
  // The registry: every thread whose profile is kept (its own, or the
  // process's folded threads), in creation order; Prev under the lock only.
  ThreadState *Next;
  ThreadState *Prev;
  // The live threads, which the drainer and the sampler walk (the sampler
  // without the lock: a thread leaves this list with its LiveNext intact,
  // and its memory outlives any sweep that may stand on it).
  ThreadState *LiveNext;
  ThreadState *LivePrev;
  // Position in creation order among the process's threads (the sampler's
  // records name threads by it); never reused.
  u32 Ordinal;
  // The sampler's record count when the thread started: its samples are
  // after it (a fold rewrites them).
  u64 FirstSample;
  // > 0: the record of that many finished threads folded together
  // (raw::TF_Folded), with their switches summed apart (FinalSw packs a
  // thread's in 32 bits each) and whether one's CPU time was unknown.
  u64 FoldedThreads;
  u64 FoldedVoluntary;
  u64 FoldedInvoluntary;
  bool FoldedCpuUnknown;
  // Shadow stacks replaced by larger ones; freed when the thread finishes.
  static constexpr int kMaxOldStacks = 40;
  Frame *OldStacks[kMaxOldStacks];
  uptr OldStackBytes[kMaxOldStacks];
  int NumOldStacks;
};

// Slow path helpers (activetime_thread.cpp).
// Creates the calling thread's state (and initializes the runtime if
// needed); returns false if the thread is dead.
bool InitCurrentThread(u64 Now);
void GrowStack(ThreadTls &T);
// Closes the thread's open frames at Now (counted as unwound), marks it
// finished and dead. Called from the pthread key destructor.
void FinishCurrentThread(u64 Now);
void InitThreadRegistry();   // pthread key (call once, at runtime init)

// The slow path of the probes' poll (a ring's head moved, or a cpuclock
// check is due): drains the thread's code samples (PollCodeSamples), then
// consumes its switch records / cpuclock check at tick Now
// (PollSwitchSource), which charges T.Off / T.Sw (activetime_collector.cpp);
// last, while the thread waits for the calibrated probe table, adopts it
// once published (PollProbeTable).
void PollSlow(ThreadTls &T, u64 Now);
// The thread's probe table (activetime_overhead.cpp): the published one, or,
// while the calibration is pending, a poll within a millisecond (NextCheckTick
// capped) to look again; T.TablePending stays set while the helper process
// measures (activetime_helper.h).
void PollProbeTable(ThreadTls &T, u64 Now);
// First in a pending thread's poll: publishes the helper process's figures
// once it has written them (and starts it, a millisecond into the run).
void PollMeasuredBeside();
// A thread's first counted function: what is measured beside the program
// starts now, without the millisecond's wait (its counted calls will not
// poll until the sample cost is known: the helper's Ready wakes them).
void MeasureBesideNow();
void PollSwitchSource(ThreadTls &T, u64 Now);
// For a probe that took long: consumes the switch source's records at tick
// Now (the probe's end) like PollSwitchSource, and returns the switched-out
// ticks that charged to T.Off.
u64 CollectSwitchedOut(ThreadTls &T, u64 Now);
// Opens the thread's switch source (thread init, fork child) / drains and
// closes it (thread finish, fork child for the parent's source).
void OpenThreadSwitchSource(ThreadTls &T, ThreadState *TS, u64 Now);
// A thread that started on its CPU clock (ThreadState::PerfFromTick) opens
// its perf ring now; it keeps the CPU clock if it cannot.
void OpenLateSwitchSource(ThreadTls &T, ThreadState *TS);
// ... or makes the one the drainer installed for it its source
// (InstallLateSwitchRing); the CPU clock stays if there is none.
void AdoptLateSwitchSource(ThreadTls &T, ThreadState *TS);
void CloseThreadSwitchSource(ThreadTls &T, ThreadState *TS, bool Drain, u64 Now);
// Closes every open frame of the calling thread at Now (same accounting as
// an exit); returns how many. Leaves Depth at 1.
u32 CloseOpenFrames(ThreadTls &T, u64 Now);
// mode=trace: records one timer measurement (owner thread, probe held busy).
void TraceRecordEvent(ThreadTls &T, const FuncDesc *Fn, u32 Kind, u64 Now);
// mode=trace buffers (activetime_trace.cpp): maps the thread's buffers and
// makes their first pages ready (thread init); makes the next chunk of the
// event / switch buffer ready, false if the buffer is full (owner thread,
// probe held busy); forgets the inherited contents in a fork child.
void OpenTraceBuffers(TraceBuffers &B);
bool TraceReadyEvents(TraceBuffers &B);
bool TraceReadySwitches(TraceBuffers &B);
void ResetTraceBuffersAfterFork(TraceBuffers &B);

// Registry access for the writer and fork handling.
void LockThreadRegistry();
bool TryLockThreadRegistry();
void UnlockThreadRegistry();
// The threads with a profile of their own, and the record of the folded
// ones (registry lock held).
ThreadState *ThreadListHead();
// Thread ordinals handed out so far (registry lock held).
u32 NumThreadOrdinals();
// The live threads: with the registry lock held, or (the sampler, between
// BeginLiveWalk and EndLiveWalk) without: a thread that leaves the list
// stays readable until every walk that began before it left has ended.
ThreadState *LiveListHead();
ThreadState *LiveListHeadAcquire();
void BeginLiveWalk();
void EndLiveWalk();
// Fork child: keep only the current thread, restart its profile at Now.
void ThreadRegistryAfterForkChild(u64 Now);

// Testing: forget every thread's state (empties the registry; the current
// thread's next probe creates a fresh state). Other threads must not run.
void ResetThreadsForTesting();

} // namespace __activetime

#endif // ACTIVETIME_THREAD_H
