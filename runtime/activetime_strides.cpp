//===- activetime_strides.cpp - Stride profiling by GCD ---------*- C++ -*-===//
//
// The memory-access probe. Its fast path is inline in the instrumented code:
// one decrement of the site's count in the module's thread-local countdown
// array. The probe runs only when that count runs out (the slot goes below
// zero, see SlotOf): the first
// execution of a thread or site, the end of a skip phase, every execution of
// an inspect phase. It may allocate the thread's record array.
//
// Phase manager: a site alternates skip phases (Countdown executions, only
// counted) and inspect phases (every address observed). At the end of an
// inspect phase in which every adjacent difference equalled the site's
// dominant stride, or of the second phase in a row in which most differed
// from it, its next skip phase doubles (up to stride_skip_max), so a hot
// settled site costs a decrement; so does a second mixed phase in a row;
// any other phase resets it to stride_skip.
//
//===----------------------------------------------------------------------===//

#include "activetime_strides.h"

#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_module.h"
#include "activetime_timer.h"
#include "activetime_writer.h"

#include <pthread.h>

#define AT_PROBE_ATTRS __attribute__((no_stack_protector))

#ifndef PTHREAD_DESTRUCTOR_ITERATIONS
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#endif

namespace __activetime {

namespace raw = activetime::raw;

// SiteStats::WasIrregular: the last inspect phase was mostly misses, or had
// some.
constexpr u16 kPhaseIrregular = 1, kPhaseMixed = 2;

namespace {

struct MemTls {
  SiteStats *Recs;
  u32 Cap;
  u32 Busy;
};

// Every thread that ever ran a memory probe; its records are never freed
// (the exit-time writer reads them, also for threads that finished).
struct MemThread {
  SiteStats *volatile Recs;
  volatile u32 Cap;
  MemThread *Next;
  // Arrays replaced by larger ones (the writer may still be reading them).
  SiteStats *Old[32];
  u32 NumOld;
};

THREADLOCAL MemTls at_mem_tls __attribute__((tls_model("initial-exec")));
THREADLOCAL MemThread *at_mem_thread __attribute__((tls_model("initial-exec")));

Mutex mem_threads_mu;
MemThread *mem_threads;
pthread_key_t mem_key;
bool mem_key_ready;
atomic_uint32_t next_site_id;

PhaseConfig phase_config;
atomic_uint8_t phase_config_ready;

const PhaseConfig &GetPhaseConfig() {
  if (LIKELY(atomic_load(&phase_config_ready, memory_order_acquire)))
    return phase_config;
  EnsureInit();
  PhaseConfig C;
  C.Skip = u32(flags()->stride_skip);
  C.Inspect = u32(flags()->stride_inspect);
  // A bound below the base length leaves the skip phase at its base.
  C.SkipMax = Max(u32(flags()->stride_skip_max), C.Skip);
  C.Adaptive = flags()->stride_adaptive;
  phase_config = C;
  atomic_store(&phase_config_ready, 1, memory_order_release);
  return phase_config;
}

void MemThreadExit(void *V);

// Makes the calling thread's array cover global site G. Slow path only.
bool GrowRecords(MemTls &T, u32 G) {
  MemThread *MT = at_mem_thread;
  if (!MT) {
    MT = (MemThread *)PersistentAlloc(sizeof(MemThread));
    internal_memset(MT, 0, sizeof(*MT));
    Lock L(&mem_threads_mu);
    MT->Next = mem_threads;
    mem_threads = MT;
    at_mem_thread = MT;
    if (!mem_key_ready)
      mem_key_ready = pthread_key_create(&mem_key, MemThreadExit) == 0;
    if (mem_key_ready)
      pthread_setspecific(mem_key, (void *)1);
  }
  u32 Want = atomic_load(&next_site_id, memory_order_acquire);
  if (Want <= G)
    Want = G + 1;
  uptr PS = GetPageSizeCached();
  u32 NewCap = u32(RoundUpTo(Want * sizeof(SiteStats), PS) / sizeof(SiteStats));
  SiteStats *N = (SiteStats *)MmapOrDie(NewCap * sizeof(SiteStats),
                                        "ActiveTime stride records");
  if (T.Cap)
    internal_memcpy(N, T.Recs, T.Cap * sizeof(SiteStats));
  if (MT->Recs && MT->NumOld < 32)
    MT->Old[MT->NumOld++] = MT->Recs;
  // Records before capacity: a reader that sees the new capacity sees the
  // new array.
  MT->Recs = N;
  AT_BARRIER();
  MT->Cap = NewCap;
  T.Recs = N;
  AT_BARRIER();
  T.Cap = NewCap;
  return true;
}

// Counts the skip phases in progress of a finishing thread: its countdowns
// (module TLS) go away with it. Modules that were unloaded took theirs
// already; their partial phases are lost.
void FlushThreadCountdowns(MemThread *MT) {
  LockModules();
  Lock L(&mem_threads_mu);
  for (uptr I = 0; I < NumModules(); ++I) {
    ModuleInfo *MI = GetModule(I);
    for (u32 J = 0; J < MI->NumSites; ++J) {
      u32 G = MI->SiteBase + J;
      if (G >= MT->Cap)
        break;
      SiteStats &S = MT->Recs[G];
      if (S.Slot && !MI->Unloaded)
        S.Executions = SiteExecutions(S, CountdownOf(*S.Slot));
      if (S.Slot) {
        // The partial phase is now counted: look complete from here on.
        S.InspectLeft = 1;
        S.CurSkip = 0;
        S.Slot = nullptr;
      }
    }
  }
  UnlockModules();
}

void MemThreadExit(void *V) {
  // Re-arm until the last round: probes in later TLS destructors still count.
  uptr Iter = uptr(V);
  if (Iter < PTHREAD_DESTRUCTOR_ITERATIONS) {
    pthread_setspecific(mem_key, (void *)(Iter + 1));
    return;
  }
  if (MemThread *MT = at_mem_thread)
    FlushThreadCountdowns(MT);
}

// The end of a probe call that read the tick at Start: the rest of the call
// lies inside the site's next step, measured so the tool can take it out of
// the iteration time.
ALWAYS_INLINE void EndProbe(SiteStats &S, u64 Start) {
  u64 Spent = ReadTick() - Start;
  S.LastProbe = Spent < ~u32(0) ? u32(Spent) : ~u32(0);
}

ALWAYS_INLINE void MemAccessSlow(const ModuleDesc *M, u32 Site, uptr Addr,
                                 s32 *Countdown) {
  // First: all of the call after this tick read is measured (LastProbe);
  // what lies before it is the probe gap (MeasureProbeGap).
  u64 Start = ReadTick();
  MemTls &T = at_mem_tls;
  if (T.Busy) { // a signal handler interrupted a slow path of this thread
    *Countdown = SlotOf(1);
    return;
  }
  T.Busy = 1;
  AT_BARRIER();
  u32 G = M->SiteBase + Site;
  if (G < T.Cap || GrowRecords(T, G)) {
    SiteStats &S = T.Recs[G];
    S.Slot = Countdown;
    SiteSlowStep(S, Addr, Start, GetPhaseConfig());
    *Countdown = SlotOf(S.Countdown);
    // An unproven copy: its offset from the previous copy (lower index,
    // inside this thread's array; its Slot is this thread's countdown).
    const MemSiteDesc &D = M->Sites[Site];
    if ((D.Flags & activetime::abi::MS_CopyUnproven) && D.CopyPrev &&
        D.CopyPrev - 1 < Site) {
      const SiteStats &Prev = T.Recs[M->SiteBase + D.CopyPrev - 1];
      if (Prev.Slot)
        ObserveCopyOffset(S, Prev, CountdownOf(*Prev.Slot), Addr);
    }
    EndProbe(S, Start);
  } else {
    *Countdown = SlotOf(1);
  }
  AT_BARRIER();
  T.Busy = 0;
}

} // namespace

void SiteSlowStep(SiteStats &S, uptr Addr, u64 Tick, const PhaseConfig &C) {
  if (S.InspectLeft == 0) {
    // A fresh record, or the skip phase in progress has just ended.
    if (S.SkipLen == 0)
      S.SkipLen = C.Skip ? C.Skip : 1;
    else
      S.Executions += S.CurSkip;
    S.CurSkip = 0;
    S.InspectLeft = C.Inspect;
    S.PhaseMiss = 0;
  }
  ObserveAddress(S, Addr, S.PrevObserved, Tick);
  S.Executions++;
  S.PrevObserved = 1;
  S.Countdown = 1; // the next execution comes here too
  if (--S.InspectLeft)
    return;
  if (C.Skip == 0) {
    // Inspect everything: back-to-back inspect phases.
    S.InspectLeft = C.Inspect;
    S.PhaseMiss = 0;
    return;
  }
  // A phase with adjacent differences all equal to the dominant stride
  // settles the site a bit more; so does a second phase in a row in which
  // most differences missed it (the site is settled as irregular).
  // A phase of some misses but mostly the dominant stride, twice in a row,
  // settles it too: a mostly regular site with the odd jump (an
  // interpreter's dispatch, a hash table's probes) would otherwise be
  // inspected at the base rate for ever.
  u16 Kind = 2 * S.PhaseMiss > C.Inspect ? kPhaseIrregular
             : S.PhaseMiss                ? kPhaseMixed
                                          : 0;
  bool Settled = (S.PhaseMiss == 0 && S.Vote > 0) ||
                 (Kind && Kind == S.WasIrregular);
  S.WasIrregular = Kind;
  if (C.Adaptive && Settled)
    S.SkipLen = S.SkipLen >= C.SkipMax / 2 ? C.SkipMax : S.SkipLen * 2;
  else
    S.SkipLen = C.Skip;
  S.CurSkip = S.SkipLen;
  S.Countdown = s32(S.SkipLen) + 1;
  S.PrevObserved = 0;
}

u64 SiteExecutions(const SiteStats &S, s32 Live) {
  u64 E = S.Executions;
  // Skip phase in progress: CurSkip + 1 - Live of it ran.
  if (S.InspectLeft == 0 && S.CurSkip && Live >= 1 &&
      u32(Live) <= S.CurSkip + 1)
    E += S.CurSkip + 1 - u32(Live);
  return E;
}

void MergeSiteStats(SiteStats &Into, const SiteStats &From, s32 Live) {
  if (From.Observations) {
    if (!Into.Observations || From.MinAddr < Into.MinAddr)
      Into.MinAddr = From.MinAddr;
    if (!Into.Observations || From.MaxAddr > Into.MaxAddr)
      Into.MaxAddr = From.MaxAddr;
  }
  Into.Executions += SiteExecutions(From, Live);
  // The copies' offset as the dominant stride: the best supported thread
  // candidate, threads agreeing add up.
  Into.CopyPairs += From.CopyPairs;
  if (From.CopyCandCount) {
    if (Into.CopyCandCount && From.CopyCand == Into.CopyCand) {
      Into.CopyCandCount += From.CopyCandCount;
    } else if (From.CopyCandCount > Into.CopyCandCount) {
      Into.CopyCand = From.CopyCand;
      Into.CopyCandCount = From.CopyCandCount;
    }
  }
  Into.Observations += From.Observations;
  Into.Differences += From.Differences;
  Into.Adjacent += From.Adjacent;
  Into.ZeroDiffs += From.ZeroDiffs;
  Into.Gcd = Gcd64(Into.Gcd, From.Gcd);
  Into.AnyStepTicks += From.AnyStepTicks;
  Into.AnyProbeTicks += From.AnyProbeTicks;
  if (From.MinAnyStepPlus1 &&
      (!Into.MinAnyStepPlus1 || From.MinAnyStepPlus1 < Into.MinAnyStepPlus1))
    Into.MinAnyStepPlus1 = From.MinAnyStepPlus1;
  if (!From.CandCount)
    return;
  // The dominant stride of the process: the thread candidate with the most
  // supporting differences; threads agreeing on it add up.
  if (Into.CandCount && From.Cand == Into.Cand) {
    Into.CandCount += From.CandCount;
    Into.IterTicks += From.IterTicks;
    Into.ProbeTicks += From.ProbeTicks;
    if (From.MinStepPlus1 &&
        (!Into.MinStepPlus1 || From.MinStepPlus1 < Into.MinStepPlus1))
      Into.MinStepPlus1 = From.MinStepPlus1;
  } else if (From.CandCount > Into.CandCount) {
    Into.Cand = From.Cand;
    Into.CandCount = From.CandCount;
    Into.IterTicks = From.IterTicks;
    Into.ProbeTicks = From.ProbeTicks;
    Into.MinStepPlus1 = From.MinStepPlus1;
  }
}

u32 AllocateSiteIds(u32 N) {
  return atomic_fetch_add(&next_site_id, N, memory_order_acq_rel);
}

void CollectSiteStats(u32 First, u32 N, SiteStats *Out, bool SlotsValid) {
  internal_memset(Out, 0, N * sizeof(SiteStats));
  Lock L(&mem_threads_mu);
  for (MemThread *MT = mem_threads; MT; MT = MT->Next) {
    u32 Cap = MT->Cap;
    AT_BARRIER();
    SiteStats *Recs = MT->Recs;
    for (u32 I = 0; I < N; ++I) {
      if (First + I >= Cap)
        continue;
      const SiteStats &S = Recs[First + I];
      // A live thread's countdown: read racily, it only ever counts down.
      s32 Live = S.Slot && SlotsValid ? CountdownOf(*(volatile s32 *)S.Slot)
                                      : S.Countdown;
      MergeSiteStats(Out[I], S, Live);
    }
  }
}

SiteStats *ThreadSiteForTesting(u32 G) {
  MemTls &T = at_mem_tls;
  return G < T.Cap ? &T.Recs[G] : nullptr;
}

namespace {
void FillStridesProcessRecord(raw::ProcessRecord &R) {
  for (uptr I = 0; I < NumModules(); ++I)
    R.NumStrides += GetModule(I)->NumSites != 0;
}

// A probe-shaped call on a private site: what MemAccessSlow does from its
// first tick read to its last, with nothing around it.
NOINLINE void GapProbe(SiteStats *S, uptr Addr, const PhaseConfig *C) {
  u64 Start = ReadTick();
  SiteSlowStep(*S, Addr, Start, *C);
  EndProbe(*S, Start);
}

// The module-local index of the site whose probe measured site I: its probe
// lead (abi.h, MemSiteDesc::ProbeLead), else itself.
u32 MeasuredBy(const ModuleInfo *MI, u32 I) {
  u32 Lead = MI->Sites[I].ProbeLead;
  return Lead && Lead - 1 < MI->NumSites && !MI->Sites[Lead - 1].ProbeLead
             ? Lead - 1
             : I;
}

// SK_Strides payload of one module: its site table with the figures merged
// over every thread; a site with a probe lead gets the lead's figures (the
// same executions, the same differences), its addresses moved by its offset.
void WriteStrides(OutBuffer *B, u32 ModIdx, const ModuleInfo *MI, u64 Gap) {
  raw::StridesRecord R;
  internal_memset(&R, 0, sizeof(R));
  R.Module = ModIdx;
  R.NumSites = MI->NumSites;
  R.ProbeGapTicks = Gap;
  B->Append(&R, sizeof(R));
  uptr Bytes = RoundUpTo(MI->NumSites * sizeof(SiteStats), GetPageSizeCached());
  SiteStats *St = (SiteStats *)MmapOrDie(Bytes, "ActiveTime stride merge");
  CollectSiteStats(MI->SiteBase, MI->NumSites, St, !MI->Unloaded);
  for (u32 I = 0; I < MI->NumSites; ++I) {
    const MemSiteDesc &D = MI->Sites[I];
    u32 By = MeasuredBy(MI, I);
    const SiteStats &S = St[By];
    s64 Shift = By == I ? 0 : D.LeadOffset;
    raw::SiteRecord SR;
    internal_memset(&SR, 0, sizeof(SR));
    SR.Hash = D.Hash;
    SR.StaticStride = D.StaticStride;
    SR.Line = D.Line;
    SR.Column = D.Column;
    SR.AccessSize = D.AccessSize;
    SR.Flags = D.Flags;
    SR.LoopLine = D.LoopLine;
    SR.LoopDepth = D.LoopDepth;
    SR.Executions = S.Executions;
    SR.Observations = S.Observations;
    SR.Differences = S.Differences;
    SR.Adjacent = S.Adjacent;
    SR.ZeroDiffs = S.ZeroDiffs;
    SR.Gcd = S.Gcd;
    SR.Dominant = S.CandCount ? S.Cand : 0;
    SR.DominantCount = S.CandCount;
    SR.IterTicks = S.IterTicks;
    SR.ProbeTicks = S.ProbeTicks;
    SR.MinStepTicks = S.MinStepPlus1 ? S.MinStepPlus1 - 1 : 0;
    SR.FuncLen = StrLenOrZero(D.Func);
    SR.FileLen = StrLenOrZero(D.File);
    SR.CopyGroup = D.CopyGroup;
    SR.CopyOffset = D.CopyOffset;
    SR.CopyPrev = D.CopyPrev;
    SR.ProbeLead = By == I ? 0 : By + 1;
    SR.LeadOffset = Shift;
    if (By == I) { // a lead's offsets from its previous copy are its own
      SR.PrevOffset = S.CopyCandCount ? S.CopyCand : 0;
      SR.PrevPairs = S.CopyPairs;
      SR.PrevOffsetCount = S.CopyCandCount;
    }
    SR.AnyStepTicks = S.AnyStepTicks;
    SR.AnyProbeTicks = S.AnyProbeTicks;
    SR.MinAnyStepTicks = S.MinAnyStepPlus1 ? S.MinAnyStepPlus1 - 1 : 0;
    SR.MinAddress = S.Observations ? S.MinAddr + Shift : 0;
    SR.MaxAddress = S.Observations ? S.MaxAddr + Shift : 0;
    B->Append(&SR, sizeof(SR));
    B->Append(D.Func, SR.FuncLen);
    B->Append(D.File, SR.FileLen);
  }
  UnmapOrDie(St, Bytes);
}

// One section per module with memory-access sites, each with the
// process's probe gap.
void WriteStridesSections(ProfileWriter &W) {
  u64 Gap = 0;
  for (uptr I = 0; I < NumModules(); ++I)
    if (GetModule(I)->NumSites) {
      if (!Gap)
        Gap = MeasureProbeGap();
      W.Section(raw::SK_Strides,
                [&] { WriteStrides(W.Out, (u32)I, GetModule(I), Gap); });
    }
}
} // namespace

u64 MeasureProbeGap() {
  constexpr u32 kSteps = 256;
  SiteStats S;
  internal_memset(&S, 0, sizeof(S));
  const PhaseConfig C = {/*Skip=*/0, /*Inspect=*/kSteps, /*SkipMax=*/0,
                         /*Adaptive=*/false};
  for (u32 I = 1; I <= kSteps; ++I)
    GapProbe(&S, 8 * I, &C);
  // A tick source coarser than the call reads some steps as 0: at least 1.
  return S.MinStepPlus1 > 1 ? S.MinStepPlus1 - 1 : 1;
}

const Collector kStridesCollector = {
    .Name = "strides",
    .Order = 70,
    .FillProcess = FillStridesProcessRecord,
    .WriteSections = WriteStridesSections,
};
AT_REGISTER_COLLECTOR(kStridesCollector);

void ResetStridesForTesting() {
  Lock L(&mem_threads_mu);
  mem_threads = nullptr;
  at_mem_thread = nullptr;
  internal_memset(&at_mem_tls, 0, sizeof(at_mem_tls));
  atomic_store(&next_site_id, 0, memory_order_release);
  atomic_store(&phase_config_ready, 0, memory_order_release);
}

} // namespace __activetime

using namespace __activetime;

extern "C" AT_PROBE_ATTRS void
__activetime_mem_access(const activetime::abi::ModuleDesc *M, u32 Site,
                        void *Addr, s32 *Countdown) {
  MemAccessSlow(M, Site, uptr(Addr), Countdown);
}
