//===- activetime_codesamples.h - Code samples of timed frames --*- C++ -*-===//
//
// Counted calls (activetime_counts.h) run inside the nearest timed frame, so
// that frame's self time holds their time too. To say how it divides, each
// thread is interrupted every code_sample_us of its CPU time by a perf
// cpu-clock event and the instruction it was at is recorded against the
// timed frame it was in: in the kernel's ring buffer, read by the thread's
// own probes (the stack has not changed between the sample and the next
// probe, so the top frame then is the top frame at the sample). The tool
// maps the instructions to functions and divides each frame's measured self
// time in proportion.
//
// A sample outside the program's code (a library, the kernel) is charged to
// the program function that called out: the first word of the sampled user
// stack that is a return address into the program (it follows a call
// instruction). Each sample's interrupt costs the thread time inside its
// frames; that cost, measured at start-up, is charged as probe overhead.
//
// A thread that runs long between two timed probes would fill its ring, so
// a drainer thread empties rings that are a quarter full. It reads the
// records up to the ring's head, then the top frame under the thread's
// seqlock (ThreadTls::Seq): if no probe ran meanwhile, every one of those
// records was written after the thread's last probe had drained the ring
// (or during that probe: an address in the runtime, which the tool sets
// aside), so the top frame is theirs. The ring's lock keeps the owner and
// the drainer from draining at once; the drainer's share of the interrupt
// cost waits in PendingSamples for the owner's next probe, which charges it
// to the same frames (none opened or closed since).
//
// With perf_after_us, threads other than the main one start without perf
// rings (ThreadState::PerfFromTick). The drainer opens them, in its next
// round after the thread has lived that long, for the thread: the kernel's
// work for them is off the thread (a short one, ended before, has none to
// do), and a thread that runs only counted calls, and so reaches no probe,
// is sampled all the same. The thread's probes poll a word of its state
// (LateReady) in place of a ring's head until the drainer sets it; the
// next probe then adopts the rings (AdoptLateRings). Without a drainer,
// the thread opens them itself at its first poll after that time.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_CODESAMPLES_H
#define ACTIVETIME_CODESAMPLES_H

#include "activetime_internal.h"
#include "activetime_perf_ring.h"

namespace __activetime {

struct ThreadTls;
struct ThreadState;

// One entry of a thread's sample table: samples with this node, flags,
// address and caller (raw::CodeSampleRecord before the node is mapped).
struct CodeSampleSlot {
  u64 Addr;
  u32 Node;   // the thread's call-tree node index (0: no frame open)
  u32 Flags;  // raw::CodeSampleFlags
  u64 Count;  // 0: empty slot
  u64 Caller; // return address of the sampled program function's frame
};

struct CodeSampleState {
  PerfRing Ring;       // Ring.Fd -1: no sampling on this thread
  u32 Refused;         // sampling is on, but not for this thread (no ring)
  u32 OverBudget;      // ... because of the runtime's descriptor budget
  u32 Lock;            // the ring and the table: owner probes and drainer
  u64 Lost;            // PERF_RECORD_LOST
  u64 PendingSamples;  // samples the drainer read whose cost is to charge
  u32 CostTicks;       // ThreadTls::SampleCost since the ring was opened
  u32 ShortLived;      // ... because it ended before opening its rings
  // The thread has switched a function to counting: only then has a timed
  // frame's self time anything to split, and only then does its ring
  // sample (it is opened disabled before). Set by the thread, under Lock.
  u32 Counted;
  u32 Enabled;         // the ring's event is enabled (Lock)
  // Open-addressing table, grown by doubling; replaced tables are kept until
  // the thread finishes (the exit-time writer may be reading one).
  CodeSampleSlot *Slots;
  uptr Mask;
  uptr Used;
  static constexpr int kMaxOld = 24;
  CodeSampleSlot *Old[kMaxOld];
  uptr OldBytes[kMaxOld];
  int NumOld;
};

// Runtime init: decides the sampling period (flags), measures the cost of
// one sample to the sampled thread, and records why sampling is off if it
// is. Call once, on the initializing thread.
void InitCodeSampling();
// Sampling is on but its cost not measured yet: no thread opens its code
// ring (it opens late, PerfFromTick, once it is measured: by the helper
// process, activetime_helper.h, or a runtime thread).
bool CodeSamplesPending();
// Measures it on the calling thread now (where no drainer runs to), unless
// another has claimed it; false if Stop (that thread's) ended it first.
bool MeasureCodeSampleCost(const WorkerThread *Stop = nullptr);
// Who measures it claims it first (false: another does or did); a claim
// whose measurement failed is released. Publish sets the period from it.
bool ClaimCodeSampleCost();
void ReleaseCodeSampleCost();
void PublishCodeSampleCost(u64 Cost256);
// The measurement itself, on the calling thread (the helper process's).
u64 MeasureCodeSampleCostHere();

// The process-wide figures for the profile header (raw::ProcessRecord).
u64 CodeSamplePeriodNs();   // 0: no code samples
u64 CodeSampleCost256();
u32 CodeSamplingFlags();

// Records the address ranges of the executable code of the object holding
// Addr (module registration): samples there are the program's.
void AddProgramCode(const void *Addr);

// Module registration: the offset from the thread pointer of a module's
// counter pointer, which its counting instructions load (abi.h): a sample
// at one of them is marked as counting cost.
void AddCountingOffset(sptr TpOffset);

// Thread start / finish / fork child. Open sets T.SampleHead; on a thread
// already registered (its rings opened late), with the ring's lock.
void OpenThreadCodeSamples(ThreadTls &T, ThreadState *TS);

// Who opens a thread's late rings (ThreadState::LateClaim).
enum LateClaimState : u32 {
  LC_Free = 0,    // nobody yet
  LC_Drainer = 1, // the drainer is opening them; the thread waits for it
                  // before it finishes
  LC_Done = 2,    // opened (by the drainer: LateReady), or being opened by
                  // the thread, or never to be: the thread is finishing
};
// A late thread's poll (PollSlow), LateReady set: its probes poll the
// code-sample ring the drainer installed, and its switch source becomes
// the installed switch ring (AdoptLateSwitchSource).
void AdoptLateRings(ThreadTls &T, ThreadState *TS);
// ... LateReady not set, Now past its PerfFromTick: whether the thread
// opens them itself now (it claimed them): when no drainer runs, or it has
// not opened them for a while.
bool ClaimLateRingsForThread(ThreadState *TS, u64 Now);
// ... neither: what the thread's polls watch until it is (the drainer's
// LateReady, or the helper process's Ready word).
void WatchLateReady(ThreadTls &T, ThreadState *TS);
void CloseThreadCodeSamples(ThreadTls &T, ThreadState *TS, bool Drain);

// The probes' slow path: records the samples in the thread's ring against
// the current top frame and charges their interrupts as overhead.
void DrainCodeSamples(ThreadTls &T);
// The code samples' part of the probes' poll (PollSlow): drains the ring if
// its head moved.
void PollCodeSamples(ThreadTls &T);
// The thread switched its first function to counting (CheckTiming): its
// ring, if it has one, starts sampling; one opened later samples at once.
void StartSamplingCounted(ThreadTls &T);

// The drainer thread: started at runtime init when sampling is on, stopped
// before the exit-time write, restarted in a fork child.
void StartCodeSampleDrainer();
void StopCodeSampleDrainer();
// A single-threaded program has no drainer (activetime_helper.h) until it
// needs one (Needed: a thread first counts calls that do not poll their
// ring, or its ring filled between two polls), or a new thread's start
// finds that glibc counts more than one thread.
void StartDeferredDrainer(bool Needed);
// A module whose counted calls do not poll their ring (built without
// -activetime-sample-poll, abi.h): a thread's first counted function then
// starts the drainer, the only reader of its ring until its next probe.
void NoteModuleWithoutSamplePoll();
// Whether every module registered so far has the sample poll's check.
bool EntriesPollSamples();
// Whether the drainer runs: it then calibrates the probe table first
// (CalibrateBeside), so that the two measurements do not disturb each other.
bool CodeSampleDrainerRuns();
void CodeSamplesAfterForkChild();
// fork: no runtime thread may be inside dl_iterate_phdr when the process
// forks (the child would inherit the loader's lock held). Close waits for
// those inside (none is left in the child); both sides reopen it.
void CloseLoaderGateForFork();
void OpenLoaderGateAfterFork();

} // namespace __activetime

#endif // ACTIVETIME_CODESAMPLES_H
