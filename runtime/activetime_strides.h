//===- activetime_strides.h - Stride profiling by GCD -----------*- C++ -*-===//
//
// Per-thread, per-site records of the memory-access probes and the phase
// manager that decides which executions are inspected. The fast path is
// inline in the instrumented code (a decrement of the module's thread-local
// countdown of the site, see abi.h); the probe is its slow path. A site's
// global id (ModuleDesc::SiteBase + its index in the module's table) indexes
// the calling thread's record array; nothing is shared on the probe path.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_STRIDES_H
#define ACTIVETIME_STRIDES_H

#include "activetime_internal.h"

namespace __activetime {

using MemSiteDesc = activetime::abi::MemSiteDesc;

// The pass's fast path calls the probe once a decrement leaves the site's
// slot below zero (abi.h, kMemAccessName): a slot holds the countdown, the
// executions until the next call, less one.
inline s32 SlotOf(s32 Countdown) { return Countdown - 1; }
inline s32 CountdownOf(s32 Slot) { return Slot + 1; }

// One site as seen by one thread.
struct SiteStats {
  s32 Countdown;     // what the slow path last stored into *Slot (SlotOf)
  u32 SkipLen;       // length of the next skip phase (adaptive); 0: fresh
  u32 InspectLeft;   // observations left in the inspect phase (0: skipping)
  u16 PrevObserved;  // the previous execution was observed (adjacent diff)
  u16 WasIrregular;  // the last inspect phase: 1 mostly mismatches, 2 some
  u32 PhaseMiss;     // adjacent differences != the candidate, this phase
  u32 CurSkip;       // length of the skip phase in progress
  uptr Last;         // last observed address
  u64 LastTick;      // tick of the last observation
  u64 Executions;    // completed skip phases + observations
  u64 Observations;
  u64 Differences;   // adjacent or not
  u64 Adjacent;
  u64 ZeroDiffs;
  u64 Gcd;           // GCD of the non-zero |differences|
  s64 Cand;          // majority-vote candidate of the adjacent differences
  u32 Vote;
  u32 LastProbe;     // ticks the previous slow path ran after its tick read
  u64 CandCount;     // adjacent differences equal to Cand since it was chosen
  u64 IterTicks;     // summed ticks of the CandCount candidate steps
  u64 ProbeTicks;    // of which spent in this site's own slow path
  u64 MinStepPlus1;  // 1 + the shortest candidate step without its own
                     // slow path (0: none yet)
  // Every adjacent step, whatever its difference: the loop's iteration time
  // for a site without a dominant stride (an indirect a[b[i]]).
  u64 AnyStepTicks;
  u64 AnyProbeTicks;    // of which spent in this site's own slow path
  u64 MinAnyStepPlus1;  // 1 + the shortest of them without the slow path
  uptr MinAddr, MaxAddr; // the observed addresses' range (a table that fits
                         // the cache gains nothing from prefetches)
  s32 *Slot;         // the thread's countdown of the site (module TLS), or
                     // null once the thread finished (partial phase counted)
  // Unproven copies (MS_CopyUnproven with a CopyPrev): the byte offsets
  // from the previous copy's address in the same iteration.
  s64 CopyCand;      // majority-vote candidate of the offsets
  u32 CopyVote;
  u32 Unused;
  u64 CopyPairs;     // offsets taken (both copies observed, one iteration)
  u64 CopyCandCount; // offsets equal to CopyCand since it was chosen
};
static_assert(sizeof(SiteStats) == 216, "SiteStats layout");

inline u64 Gcd64(u64 A, u64 B) {
  while (B) {
    u64 T = A % B;
    A = B;
    B = T;
  }
  return A;
}

// The core step of stride profiling: one observed address. A difference
// between two observations is a stride product (stride * k, k = executions
// between them); the GCD of the products is the stride. Adjacent: the
// previous execution was observed too, so the difference is the exact
// stride and votes for the dominant one.
inline void ObserveAddress(SiteStats &S, uptr Addr, bool Adjacent, u64 Tick) {
  if (!S.Observations || Addr < S.MinAddr)
    S.MinAddr = Addr;
  if (!S.Observations || Addr > S.MaxAddr)
    S.MaxAddr = Addr;
  if (S.Observations++) {
    s64 D = s64(Addr - S.Last);
    S.Differences++;
    if (D == 0)
      S.ZeroDiffs++;
    else
      S.Gcd = Gcd64(S.Gcd, D < 0 ? u64(0) - u64(D) : u64(D));
    if (Adjacent) {
      // Iteration time only over steps of the candidate stride: a step that
      // left the pattern (the loop restarted, another call ran in between)
      // says nothing about the loop's iteration.
      u64 Ticks = Tick - S.LastTick;
      u64 Own = Ticks > S.LastProbe ? Ticks - S.LastProbe : 0;
      S.Adjacent++;
      S.AnyStepTicks += Ticks;
      S.AnyProbeTicks += S.LastProbe;
      if (S.MinAnyStepPlus1 == 0 || Own + 1 < S.MinAnyStepPlus1)
        S.MinAnyStepPlus1 = Own + 1;
      if (D == S.Cand && S.Vote) {
        if (S.Vote != ~u32(0))
          S.Vote++;
        S.CandCount++;
        S.IterTicks += Ticks;
        S.ProbeTicks += S.LastProbe;
        if (S.MinStepPlus1 == 0 || Own + 1 < S.MinStepPlus1)
          S.MinStepPlus1 = Own + 1;
      } else {
        S.PhaseMiss++;
        if (S.Vote == 0) {
          S.Cand = D;
          S.Vote = 1;
          S.CandCount = 1;
          S.IterTicks = Ticks;
          S.ProbeTicks = S.LastProbe;
          S.MinStepPlus1 = Own + 1;
        } else {
          S.Vote--;
        }
      }
    }
  }
  S.Last = Addr;
  S.LastTick = Tick;
}

// An unproven copy S has just observed Addr (SiteSlowStep ran): the offset
// from its previous copy Prev, when Prev's last address is of the same
// iteration. Prev runs once before S in every iteration (instruction order
// in the unrolled body), so its latest execution is this iteration's; it is
// the one Prev.Last holds when PrevLive, Prev's live countdown, is still
// what its slow path stored (no fast-path decrement since: nothing
// skipped). A Prev in a skip phase is not paired. Execution counts would
// say the same while the copies run in lockstep, but not once a loop exit
// between two copies has put one ahead of the other.
inline void ObserveCopyOffset(SiteStats &S, const SiteStats &Prev, s32 PrevLive,
                              uptr Addr) {
  if (!Prev.Observations || PrevLive != Prev.Countdown)
    return;
  s64 Off = s64(Addr - Prev.Last);
  S.CopyPairs++;
  if (S.CopyVote && Off == S.CopyCand) {
    if (S.CopyVote != ~u32(0))
      S.CopyVote++;
    S.CopyCandCount++;
  } else if (S.CopyVote == 0) {
    S.CopyCand = Off;
    S.CopyVote = 1;
    S.CopyCandCount = 1;
  } else {
    S.CopyVote--;
  }
}

// Phase lengths, from the flags (see activetime_flags.inc).
struct PhaseConfig {
  u32 Skip;      // base skip phase length; 0 inspects every execution
  u32 Inspect;   // inspect phase length (>= 1)
  u32 SkipMax;   // adaptive skip phases grow up to this
  bool Adaptive;
};

// The slow path of one execution: phase transitions and the observation.
void SiteSlowStep(SiteStats &S, uptr Addr, u64 Tick, const PhaseConfig &C);

// The ticks of a memory probe's call that its own tick reads cannot see
// (the call and return, one tick read): the shortest step of a private site
// whose probe-shaped calls follow each other with nothing between them,
// less the part the calls measured, as for every site. The tool takes it
// out of the iteration times with the probes' measured time (raw
// StridesRecord::ProbeGapTicks). At least 1.
u64 MeasureProbeGap();

// Merges thread record From into the site's process-wide figures; Live is
// From's current countdown.
void MergeSiteStats(SiteStats &Into, const SiteStats &From, s32 Live);

// Executions of a record, including the skip phase in progress whose
// countdown (the fast path's) is Live.
u64 SiteExecutions(const SiteStats &S, s32 Live);

// Global site ids (registration; module lock held).
u32 AllocateSiteIds(u32 N);

// The process-wide figures of global sites [First, First + N) merged over
// every thread, into Out[0..N) (zeroed first). SlotsValid: the sites'
// module is still loaded, so live threads' countdowns can be read. Takes the
// thread list lock.
void CollectSiteStats(u32 First, u32 N, SiteStats *Out, bool SlotsValid);

// Testing: the calling thread's record of global site G (null if none), and
// forgetting every thread's records.
SiteStats *ThreadSiteForTesting(u32 G);
void ResetStridesForTesting();

} // namespace __activetime

#endif // ACTIVETIME_STRIDES_H
