//===- activetime_codesamples.cpp - Code samples of timed frames -*- C++ -*-===//
//
// See activetime_codesamples.h. Everything here is a slow path: thread start
// and finish, and the probes' check when the sample ring's head moved.
//
//===----------------------------------------------------------------------===//

#include "activetime_codesamples.h"
#include "activetime_recycle.h"

#include "activetime/raw_format.h"
#include "activetime_code_segments.h"
#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_helper.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_tsan.h"
#include "activetime_unwind.h"
#include "activetime_worker.h"
#include "activetime_writer.h"
#include "sanitizer_common/sanitizer_linux.h"

#include <link.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

namespace __activetime {

namespace raw = activetime::raw;

namespace {

// The executable segments of the instrumented objects. Read and written
// only under the loader's lock (UnderLoaderLock).
struct CodeRange {
  uptr Begin, End;
};
constexpr u32 kMaxRanges = 256;
CodeRange ranges[kMaxRanges];
u32 num_ranges;
u64 seen_unloads; // dlpi_subs when the ranges were last checked

u64 period_ns;
u64 cost256;
u32 sampling_flags;
bool exclude_kernel;
// Sampling is on for this process (perf events allowed, not disabled); its
// rings open once the sample cost is measured.
bool sampling_wanted;
// Set once cost256 and period_ns are (release): the helper process or a
// runtime thread measures the cost, so no program thread waits for it, and
// every thread's code ring opens late (PerfFromTick), after it.
u32 cost_ready;
// Whoever measures it claims it first (0 free, 1 taken).
u32 cost_claimed;
// The drainer waits for the program's second thread (StartDeferredDrainer).
u32 drainer_deferred;
// Some module's counted calls do not poll (NoteModuleWithoutSamplePoll).
u32 counted_without_poll;

u32 stack_bytes; // user stack copied with each sample (code_sample_stack)
constexpr uptr kRingPages = 64;
// The drainer wakes this often and drains rings at least this full.
constexpr u64 kDrainerWakeNs = 4000000;
constexpr u64 kDrainFillDivisor = 4;

WorkerThread drainer;

// perf_after_us: the drainer opens the late rings of at most this many
// threads a round (each about a third of a millisecond of kernel work,
// while those threads' exits wait for it), and a thread whose rings it has
// not opened this long after its PerfFromTick (the drainer skips rounds
// whose registry lock is busy) opens them itself.
constexpr u32 kMaxLatePerRound = 8;
constexpr u64 kLateGraceNs = 5 * kDrainerWakeNs;
u64 late_grace_ticks;
// Whether the drainer runs to open late rings (read by the threads' polls).
u32 late_by_drainer;

#if defined(__x86_64__)
// PERF_REG_X86_BP, _SP, _IP: recorded in this (bit) order.
constexpr u64 kUserRegsMask = (u64(1) << 6) | (u64(1) << 7) | (u64(1) << 8);
#endif

// The thread-pointer offsets of the modules' counter pointers.
constexpr u32 kMaxCountingOffsets = 4096;
s32 counting_offsets[kMaxCountingOffsets];
u32 num_counting_offsets;
StaticSpinMutex counting_offsets_mu;

bool IsCountingOffset(s32 Off) {
  u32 N = __atomic_load_n(&num_counting_offsets, __ATOMIC_ACQUIRE);
  for (u32 I = 0; I < N; ++I)
    if (counting_offsets[I] == Off)
      return true;
  return false;
}

#if defined(__x86_64__)
// The sample poll's check (abi.h) as the pass's entry compiles: the thread
// pointer offset of at_tls from the GOT (`mov X(%rip), %t`, the slot
// holding that offset) or as an immediate (`mov $X, %t`, the linker's
// relaxation), `mov %fs:(%t), %h`, `mov (%h), %h`, `cmp %fs:8(%t), %h`,
// `jne`. Returns the end of the sequence that starts at P, or null.
const u8 *PollCheckEnd(const u8 *P) {
  bool FromGot = (P[0] & 0xfb) == 0x48 && P[1] == 0x8b && (P[2] & 0xc7) == 0x05;
  bool Immediate =
      (P[0] & 0xfe) == 0x48 && P[1] == 0xc7 && (P[2] & 0xf8) == 0xc0;
  if (!FromGot && !Immediate)
    return nullptr;
  // mov %fs:(%t), %h: 64 REX.W 8b ModRM (mod 00); mov (%h), %h: REX.W 8b
  // ModRM (mod 00); cmp %fs:8(%t), %h: 64 REX.W 3b ModRM (mod 01) 08.
  const u8 *Q = P + 7;
  if (Q[0] != 0x64 || (Q[1] & 0xf8) != 0x48 || Q[2] != 0x8b ||
      (Q[3] & 0xc0) != 0)
    return nullptr;
  Q += 4;
  if ((Q[0] & 0xf8) != 0x48 || Q[1] != 0x8b || (Q[2] & 0xc0) != 0)
    return nullptr;
  Q += 3;
  if (Q[0] != 0x64 || (Q[1] & 0xf8) != 0x48 || Q[2] != 0x3b ||
      (Q[3] & 0xc0) != 0x40 || Q[4] != 8)
    return nullptr;
  Q += 5;
  const u8 *End = Q[0] == 0x75                    ? Q + 2
                  : Q[0] == 0x0f && Q[1] == 0x85 ? Q + 6
                                                 : nullptr;
  if (!End)
    return nullptr;
  // Only now, the whole sequence matched (the first instruction is one):
  // the offset it loads is at_tls's.
  s32 V;
  internal_memcpy(&V, P + 3, 4);
  sptr Off = V;
  if (FromGot) // the GOT slot holding the offset, RIP-relative
    internal_memcpy(&Off, P + 7 + V, 8);
  return Off == sptr(&at_tls) - sptr(__builtin_thread_pointer()) ? End
                                                                  : nullptr;
}
#endif

// Whether Ip is in the instrumentation of a counted call's entry: the
// sample poll's check (PollCheckEnd), or the counting sequence, `mov
// %fs:Off, %reg` (Off a module's counter pointer), `inc Disp(%reg)` and
// the sign branch after it (x86-64 encodings as the pass's entry is
// compiled). Ip and up to kEntryBack bytes before it must be readable
// program code.
constexpr uptr kEntryBack = 40;
bool AtCounting(uptr Ip) {
#if defined(__x86_64__)
  for (uptr Back = 0; Back <= kEntryBack - 16; ++Back)
    if (const u8 *E = PollCheckEnd((const u8 *)(Ip - Back)))
      return Ip < uptr(E);
  for (uptr Back = 0; Back <= 16; ++Back) {
    const u8 *P = (const u8 *)(Ip - Back);
    if (P[0] != 0x64 || (P[1] & 0xfb) != 0x48 || P[2] != 0x8b ||
        (P[3] & 0xc7) != 0x04 || P[4] != 0x25)
      continue;
    s32 Off;
    internal_memcpy(&Off, P + 5, 4);
    if (!IsCountingOffset(Off))
      continue;
    const u8 *Q = P + 9; // inc: REX.W FF /0 with a base register
    if ((Q[0] & 0xfa) != 0x48 || Q[1] != 0xff || (Q[2] & 0x38) != 0)
      return false;
    u8 Mod = Q[2] >> 6;
    const u8 *E = Q + 3 + (Mod == 1 ? 1 : Mod == 2 ? 4 : 0);
    if (E[0] == 0x78 || E[0] == 0x79)
      E += 2;                                   // js/jns rel8
    else if (E[0] == 0x0f && (E[1] == 0x88 || E[1] == 0x89))
      E += 6;                                   // js/jns rel32
    return Ip < uptr(E);
  }
#endif
  (void)Ip;
  return false;
}

// The runtime's own code: a sample there interrupted a probe (or the
// runtime's other work on the thread), whose measured interval holds the
// interrupt already. The static runtime's one object brackets its code
// with these (runtime/activetime_rt.ld); the shared runtime is a library of
// its own; the unit tests' plain archive has neither (no range).
extern "C" char __at_rt_text_begin[] __attribute__((weak, visibility("hidden")));
extern "C" char __at_rt_text_end[] __attribute__((weak, visibility("hidden")));
uptr runtime_text_begin, runtime_text_end;

int FindRuntimeLibrary(struct dl_phdr_info *Info, size_t, void *) {
  uptr Self = uptr(&FindRuntimeLibrary);
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    uptr B = Info->dlpi_addr + P.p_vaddr;
    if (P.p_type != PT_LOAD || !(P.p_flags & PF_X) || Self < B ||
        Self >= B + P.p_memsz)
      continue;
    // The main program (name ""): the runtime is linked into it, and its
    // code segment holds the program's too.
    if (Info->dlpi_name && Info->dlpi_name[0]) {
      runtime_text_begin = B;
      runtime_text_end = B + P.p_memsz;
    }
    return 1;
  }
  return 0;
}

void FindRuntimeText() {
  if (__at_rt_text_begin && __at_rt_text_end > __at_rt_text_begin) {
    runtime_text_begin = uptr(__at_rt_text_begin);
    runtime_text_end = uptr(__at_rt_text_end);
  } else {
    dl_iterate_phdr(FindRuntimeLibrary, nullptr);
  }
  VLog(2, "runtime code: [%p, %p)", (void *)runtime_text_begin,
       (void *)runtime_text_end);
}

bool InRuntime(uptr Ip) {
  return Ip >= runtime_text_begin && Ip < runtime_text_end;
}

bool InProgram(uptr A) {
  for (u32 I = 0; I < num_ranges; ++I)
    if (A >= ranges[I].Begin && A < ranges[I].End)
      return true;
  return false;
}

struct PhdrQuery {
  uptr Addr;
};

int AddRangesOf(struct dl_phdr_info *Info, size_t, void *Arg) {
  uptr A = ((PhdrQuery *)Arg)->Addr;
  bool Mine = false;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    uptr B = Info->dlpi_addr + P.p_vaddr;
    if (P.p_type == PT_LOAD && A >= B && A < B + P.p_memsz)
      Mine = true;
  }
  if (!Mine)
    return 0;
  ForEachCodeSegment(Info, [](uptr B, uptr E) {
    bool Known = false;
    for (u32 J = 0; J < num_ranges; ++J)
      Known |= ranges[J].Begin == B && ranges[J].End == E;
    if (!Known && num_ranges < kMaxRanges)
      ranges[num_ranges++] = {B, E};
  });
  return 1;
}

// Whether [Begin, End) is still an executable segment of a loaded object.
struct LiveQuery {
  CodeRange R;
  bool Live;
};

int FindLiveRange(struct dl_phdr_info *Info, size_t, void *Arg) {
  LiveQuery &Q = *(LiveQuery *)Arg;
  ForEachCodeSegment(Info, [&Q](uptr B, uptr E) {
    Q.Live |= B == Q.R.Begin && E == Q.R.End;
  });
  return Q.Live;
}

// An object was unloaded since the last look: drop its ranges (the loader's
// lock held; dl_iterate_phdr nests).
void ForgetUnloaded(u64 Unloads) {
  if (Unloads == seen_unloads)
    return;
  seen_unloads = Unloads;
  u32 Kept = 0;
  for (u32 I = 0; I < num_ranges; ++I) {
    LiveQuery Q = {ranges[I], false};
    dl_iterate_phdr(FindLiveRange, &Q);
    if (Q.Live)
      ranges[Kept++] = ranges[I];
  }
  num_ranges = Kept;
  ForgetUnwindObjects();
}

// Reading an object's code or unwind tables while another thread unloads
// it would fault. The loader unlinks an object from its list under the lock
// dl_iterate_phdr holds, and unmaps it only after that; so Fn runs inside a
// dl_iterate_phdr callback (as libgcc's unwinder searches its tables), after
// the caches of object ranges dropped what was unloaded (dlpi_subs moved).
// Lock order: the loader's lock, then the registry (tried, never waited
// for) and a ring's lock; nothing waits for the loader's lock while holding
// the registry.
struct LoaderLockCall {
  void (*Fn)(void *);
  void *Arg;
};

// TSan's view of the loader's lock (activetime_tsan.h; unused without TSan).
[[maybe_unused]] char loader_lock_hb;

int RunWithLoaderLock(struct dl_phdr_info *Info, size_t Size, void *Arg) {
  AT_TSAN_LOCK_ENTERED(&loader_lock_hb);
  LoaderLockCall &C = *(LoaderLockCall *)Arg;
  if (Size >= __builtin_offsetof(struct dl_phdr_info, dlpi_subs) +
                  sizeof(Info->dlpi_subs))
    ForgetUnloaded(Info->dlpi_subs);
  C.Fn(C.Arg);
  AT_TSAN_LOCK_LEAVING(&loader_lock_hb);
  return 1; // the first object (the executable) suffices
}

// The runtime's own dl_iterate_phdr calls pass a gate that fork closes:
// glibc's fork does not take the loader's lock, so a child forked while
// the drainer (or a draining probe) was inside dl_iterate_phdr inherits it
// held and deadlocks at its first dl_iterate_phdr (its exit-time drain).
// ForkPrepare closes the gate and waits for those inside to leave; the
// callbacks wait for no lock that ForkPrepare holds (the registry is only
// tried). Nested calls on one thread pass (the loader's lock is recursive).
u32 loader_gate_closed, loader_users;
THREADLOCAL u32 loader_depth;

int GatedIteratePhdr(int (*Cb)(struct dl_phdr_info *, size_t, void *),
                     void *Arg) {
  if (loader_depth)
    return dl_iterate_phdr(Cb, Arg);
  for (;;) {
    while (__atomic_load_n(&loader_gate_closed, __ATOMIC_ACQUIRE))
      internal_sched_yield();
    __atomic_fetch_add(&loader_users, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&loader_gate_closed, __ATOMIC_SEQ_CST))
      break;
    __atomic_fetch_sub(&loader_users, 1, __ATOMIC_RELEASE);
  }
  ++loader_depth;
  int R = dl_iterate_phdr(Cb, Arg);
  --loader_depth;
  __atomic_fetch_sub(&loader_users, 1, __ATOMIC_RELEASE);
  return R;
}

void UnderLoaderLock(void (*Fn)(void *), void *Arg) {
  LoaderLockCall C = {Fn, Arg};
  GatedIteratePhdr(RunWithLoaderLock, &C);
}

// Whether a call instruction ends right before A (x86-64 encodings of call
// rel32, call *disp32(%rip), call *%reg, call *disp8(%reg), call *(%reg)).
bool FollowsCall(uptr A) {
#if defined(__x86_64__)
  const u8 *P = (const u8 *)A;
  if (P[-5] == 0xe8)
    return true;
  if (P[-6] == 0xff && (P[-5] & 0x38) == 0x10)
    return true; // ModRM /2 with a 32-bit displacement (RIP-relative too)
  if (P[-2] == 0xff && (P[-1] & 0xf8) == 0xd0)
    return true; // call *%reg
  if (P[-3] == 0xff && (P[-2] & 0x38) == 0x10)
    return true; // ModRM /2 with an 8-bit displacement, or REX + call *%reg
  if (P[-2] == 0xff && (P[-1] & 0x38) == 0x10)
    return true; // call *(%reg)
  return false;
#else
  (void)A;
  return false;
#endif
}

// The first word of the sampled stack (Size bytes at Off) that returns into
// the program.
uptr CallerOnStack(const PerfRecord &R, u64 Off, u64 Size) {
  for (u64 I = 0; I + 8 <= Size && Off + I + 8 <= R.Size; I += 8) {
    uptr W = R.Word(Off + I);
    if (W > 8 && InProgram(W) && InProgram(W - 6) && FollowsCall(W))
      return W;
  }
  return 0;
}

void FillAttr(perf_event_attr *A, u64 Period, bool NoKernel) {
  internal_memset(A, 0, sizeof(*A));
  A->size = sizeof(*A);
  A->type = PERF_TYPE_SOFTWARE;
  A->config = PERF_COUNT_SW_CPU_CLOCK;
  A->sample_period = Period;
  A->sample_type = PERF_SAMPLE_IP;
#if defined(__x86_64__)
  if (stack_bytes) {
    A->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    A->sample_regs_user = kUserRegsMask;
    A->sample_stack_user = stack_bytes;
  }
#endif
  A->exclude_kernel = NoKernel;
  A->exclude_hv = 1;
}

// Opens a sampling event on Tid with the given period (disabled: until
// PERF_EVENT_IOC_ENABLE); -1 if refused.
int OpenSampler(u64 Tid, u64 Period, bool Disabled = false) {
  perf_event_attr A;
  FillAttr(&A, Period, exclude_kernel);
  A.disabled = Disabled;
  return PerfEventOpen(&A, Tid);
}

// The work a sample's cost is measured against: a multiply-add chain over
// 256 KiB, one word per cache line, so it keeps L1 and L2 busy the way
// program code does.
struct CostWork {
  u64 *Buf;
  uptr Words;
  u64 Reps;
  u64 Run() const {
    u64 Start = ReadTick(), S = 0;
    for (u64 R = 0; R < Reps; ++R)
      for (uptr I = 0; I < Words; I += 8)
        S = S * 3 + Buf[I];
    __asm__ __volatile__("" : : "r"(S) : "memory");
    return ReadTick() - Start;
  }
};

// The sample records between the tail and the head of a ring; moves the
// tail to the head.
u64 TakeSamples(PerfRing &R) {
  PerfRecordWalk W(R, R.Tail, R.LoadHead());
  PerfRecord Rec;
  u64 N = 0;
  while (W.Next(&Rec))
    N += Rec.Type == PERF_RECORD_SAMPLE;
  ConsumePerfRing(R, W.Head);
  return N;
}

// One sample's cost to the sampled thread, as the slowdown it causes: the
// same ~100 us chunk of CostWork timed with a sampling event (every 25 us)
// enabled and disabled in turn, (on - off) / the samples the on chunk took,
// median over 16 pairs. That counts what the interrupt's own gap does not:
// the cache lines and TLB entries the handler (in a virtual machine, also
// the hypervisor) evicts, which the program pays for later; on the
// reference VM 1.3-2x the gap, which left the sampling's cost in the times.
// The cost per sample does not depend on the period (100 pairs at 100 us and
// at 25 us agreed within 3% on the reference VM), so the measurement samples
// 4x faster than the program is sampled: 4x the signal per chunk, and about
// 3.5 ms of a runtime thread's CPU where 400 us chunks at 100 us took 13 ms
// and moved by +-30% between processes (+-6% now). A pair slowed by a
// preemption is left out; fewer than 4 good pairs within 100 ms (a busy
// machine) is no measurement: 0. So is a measurement that Stop asks to end
// (the process is ending).
u64 MeasureSampleCost256(u64 Tid, const WorkerThread *Stop) {
  constexpr u64 kPeriodNs = 25000, kChunkNs = 100000;
  int Fd = OpenSampler(Tid, kPeriodNs, /*Disabled=*/true);
  if (Fd < 0)
    return 0;
  PerfRing Ring;
  bool Mapped = MapPerfRing(Ring, Fd, 16);
  constexpr uptr kBytes = 256 << 10;
  CostWork W = {(u64 *)MmapOrDie(kBytes, "ActiveTime sample cost"),
                kBytes / 8, 1};
  for (uptr I = 0; I < W.Words; ++I)
    W.Buf[I] = I;
  u64 Rate = ProvisionalTickRate();
  u64 Once = W.Run();
  u64 ChunkTicks = Rate / (1000000000ull / kChunkNs),
      PeriodTicks = Rate / (1000000000ull / kPeriodNs);
  W.Reps = Once ? ChunkTicks / Once + 1 : 1;
  constexpr int kPairs = 16, kMaxPairs = 48, kMinPairs = 4;
  u64 On[kMaxPairs], Off[kMaxPairs], Taken[kMaxPairs], Cost[kMaxPairs];
  int N = 0, Good = 0;
  u64 Deadline = ReadTick() + Rate / 10, MinOff = ~0ull;
  // Slower than the fastest chunk by a third beyond its samples' share (at
  // most a period each): preempted, or disturbed some other way.
  auto GoodPairs = [&] {
    int G = 0;
    u64 Bound = MinOff + MinOff / 3;
    for (int I = 0; I < N; ++I)
      if (Taken[I] && Off[I] <= Bound &&
          On[I] <= Bound + Taken[I] * PeriodTicks)
        Cost[G++] = On[I] > Off[I] ? ((On[I] - Off[I]) << 8) / Taken[I] : 0;
    return G;
  };
  while (Mapped && N < kMaxPairs && Good < kPairs && ReadTick() < Deadline &&
         !(Stop && StopRequested(*Stop))) {
    ioctl(Fd, PERF_EVENT_IOC_ENABLE, 0);
    On[N] = W.Run();
    ioctl(Fd, PERF_EVENT_IOC_DISABLE, 0);
    Taken[N] = TakeSamples(Ring);
    Off[N] = W.Run();
    MinOff = Off[N] < MinOff ? Off[N] : MinOff;
    ++N;
    Good = GoodPairs();
  }
  UnmapOrDie(W.Buf, kBytes);
  ClosePerfRing(Ring); // closes Fd (MapPerfRing did if it failed)
  if (Good < kMinPairs || (Stop && StopRequested(*Stop)))
    return 0;
  for (int I = 1; I < Good; ++I)
    for (int J = I; J > 0 && Cost[J - 1] > Cost[J]; --J) {
      u64 X = Cost[J];
      Cost[J] = Cost[J - 1];
      Cost[J - 1] = X;
    }
  return Cost[Good / 2];
}

uptr SlotHash(const CodeSampleSlot &E, uptr Mask) {
  return ((E.Addr ^ E.Caller * 0xC2B2AE3D27D4EB4Full) * 0x9E3779B97F4A7C15ull ^
          E.Node ^ (u64(E.Flags) << 32)) & Mask;
}

void Grow(CodeSampleState &S) {
  uptr OldN = S.Slots ? S.Mask + 1 : 0, NewN = OldN ? OldN * 2 : 512;
  CodeSampleSlot *Old = S.Slots;
  S.Slots = (CodeSampleSlot *)MapRecycled(NewN * sizeof(CodeSampleSlot),
                                        "ActiveTime code samples");
  S.Mask = NewN - 1;
  S.Used = 0;
  for (uptr I = 0; I < OldN; ++I)
    if (Old[I].Count) {
      uptr H = SlotHash(Old[I], S.Mask);
      while (S.Slots[H].Count)
        H = (H + 1) & S.Mask;
      S.Slots[H] = Old[I];
      S.Used++;
    }
  if (!Old)
    return;
  if (S.NumOld < CodeSampleState::kMaxOld) {
    S.Old[S.NumOld] = Old;
    S.OldBytes[S.NumOld++] = OldN * sizeof(CodeSampleSlot);
  }
}

void Insert(CodeSampleState &S, u32 Node, u32 Flags, uptr Addr, uptr Caller,
            u64 Count = 1) {
  if (!S.Slots || 2 * (S.Used + 1) > S.Mask + 1)
    Grow(S);
  CodeSampleSlot Key = {Addr, Node, Flags, 0, Caller};
  for (uptr H = SlotHash(Key, S.Mask);; H = (H + 1) & S.Mask) {
    CodeSampleSlot &E = S.Slots[H];
    if (!E.Count) {
      E.Addr = Addr;
      E.Node = Node;
      E.Flags = Flags;
      E.Caller = Caller;
      __atomic_store_n(&E.Count, Count, __ATOMIC_RELEASE);
      S.Used++;
      return;
    }
    if (E.Addr == Addr && E.Node == Node && E.Flags == Flags &&
        E.Caller == Caller) {
      __atomic_store_n(&E.Count, E.Count + Count, __ATOMIC_RELAXED);
      return;
    }
  }
}

bool ReadSampledWord(const void *Ctx, uptr Addr, uptr *Word);

// The sampled user stack inside a ring record: Size bytes at Off, copied
// from the thread's stack at Sp.
struct StackCopy {
  const PerfRecord *R;
  u64 Off, Size;
  uptr Sp;
};

bool ReadSampledWord(const void *Ctx, uptr Addr, uptr *Word) {
  const StackCopy &C = *(const StackCopy *)Ctx;
  if (Addr < C.Sp || Addr - C.Sp + 8 > C.Size || (Addr & 7))
    return false;
  *Word = C.R->Word(C.Off + (Addr - C.Sp));
  return true;
}

// The user registers and stack copy of a PERF_RECORD_SAMPLE (x86-64, with
// stacks): ip, then abi, bp, sp, ip, stack size, stack, dynamic size.
// False when the record has none.
bool UserStackOf(const PerfRecord &R, uptr *UserIp, StackCopy *Copy,
                 SampledStack *St) {
#if defined(__x86_64__)
  if (!stack_bytes || R.Size < 16 + 3 * 8 + 8 || !R.Word(8))
    return false;
  uptr Bp = R.Word(16), Sp = R.Word(24);
  *UserIp = R.Word(32);
  u64 Size = R.Word(40), DynSize = Size && R.Size >= 48 + Size + 8
                                      ? R.Word(48 + Size) : 0;
  if (DynSize > Size)
    DynSize = Size;
  *Copy = {&R, 48, DynSize, Sp};
  *St = {*UserIp, Sp, Bp, Copy, ReadSampledWord};
  return true;
#else
  (void)R, (void)UserIp, (void)Copy, (void)St;
  return false;
#endif
}

// The program function a sample outside the program's code belongs to: the
// return address into the program that unwinding the sampled stack through
// the library's unwind tables reaches, or else the first word of the copy
// that looks like one (a call instruction before it). 0 if neither.
uptr CallerOf(const PerfRecord &R, uptr Ip, bool Kernel) {
  uptr UserIp;
  StackCopy Copy;
  SampledStack St;
  if (!UserStackOf(R, &UserIp, &Copy, &St))
    return 0;
  // In the kernel on behalf of program code (a fault at an instruction of
  // its own): that instruction (+1: read as a return address, less one).
  if (Kernel && InProgram(UserIp))
    return UserIp + 1;
  if (!Kernel)
    St.Ip = Ip;
  if (uptr Ra = UnwindToProgram(St, InProgram))
    return Ra;
  return CallerOnStack(R, Copy.Off, Copy.Size);
}

bool AnyAddress(uptr) { return true; }

// Where the program function holding Ip was called from: the return address
// one unwinding step up from the sampled registers, 0 if the unwind tables
// do not give it. Samples of counted calls, which have no entry probe, are
// placed at call sites through it.
uptr ReturnAddressAt(const PerfRecord &R, uptr Ip) {
  uptr UserIp;
  StackCopy Copy;
  SampledStack St;
  if (!UserStackOf(R, &UserIp, &Copy, &St))
    return 0;
  St.Ip = Ip;
  return UnwindToProgram(St, AnyAddress);
}

// Whether sample R interrupted the runtime (in user mode, or in a system
// call the runtime made: the user registers say so, when they were taken).
bool InterruptedRuntime(const PerfRecord &R, uptr Ip, bool Kernel) {
  if (!Kernel)
    return InRuntime(Ip);
  uptr UserIp;
  StackCopy Copy;
  SampledStack St;
  return UserStackOf(R, &UserIp, &Copy, &St) && InRuntime(UserIp);
}

// One PERF_RECORD_SAMPLE. Returns whether its interrupt's cost is to be
// charged as overhead: not when it interrupted the runtime, where the
// probe's measured interval holds that cost already.
bool RecordSample(CodeSampleState &S, u32 Node, const PerfRecord &R) {
  if (R.Size < 8)
    return false;
  uptr Ip = R.Word(0);
  bool Kernel =
      (R.Misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
  bool Charge = !InterruptedRuntime(R, Ip, Kernel);
  u32 Flags = Kernel ? raw::CSR_Kernel : 0;
  if (!Kernel && InProgram(Ip)) {
    if (InProgram(Ip - kEntryBack) && AtCounting(Ip))
      Flags |= raw::CSR_Counting;
    Insert(S, Node, Flags, Ip, ReturnAddressAt(R, Ip));
    return Charge;
  }
  uptr Caller = CallerOf(R, Ip, Kernel);
  if (Caller)
    Flags |= raw::CSR_Caller;
  Insert(S, Node, Flags, Caller, 0);
  return Charge;
}

void LockRing(CodeSampleState &S) {
  for (int Spin = 0; __atomic_exchange_n(&S.Lock, 1, __ATOMIC_ACQUIRE); ++Spin)
    if (Spin > 64)
      internal_sched_yield();
    else
      __builtin_ia32_pause();
}

void UnlockRing(CodeSampleState &S) {
  __atomic_store_n(&S.Lock, 0, __ATOMIC_RELEASE);
}

// A code-sample ring opened on a thread, or why not.
struct CodeRingOpen {
  PerfRing Ring; // Fd -1: none
  u32 Refused;
  u32 OverBudget;
};

void OpenCodeRing(u64 Tid, bool Disabled, CodeRingOpen &O) {
  internal_memset(&O, 0, sizeof(O));
  O.Ring.Fd = -1;
  int Fd = OpenSampler(Tid, period_ns, Disabled);
  O.Refused = Fd < 0;
  O.OverBudget = Fd == kOverBudget;
  if (Fd < 0)
    return;
  if (!MapPerfRing(O.Ring, Fd, kRingPages)) {
    VLog(1, "thread %llu: no code samples (the perf ring could not be mapped: "
            "perf_event_mlock_kb, ulimit -l)", (unsigned long long)Tid);
    O.Refused = 1;
  }
}

// The ring lock held (the drainer may be looking at a registered thread).
// The ring is installed disabled.
void InstallCodeRing(CodeSampleState &S, const CodeRingOpen &O) {
  S.Refused = O.Refused;
  S.OverBudget = O.OverBudget;
  S.Enabled = 0;
  if (O.Ring.Fd < 0)
    return;
  S.Ring = O.Ring;
  S.CostTicks = u32((cost256 + 128) >> 8);
}

// Starts the installed ring's sampling (ring lock held); a ring whose event
// cannot be enabled is closed: the thread is not sampled.
void EnableRing(CodeSampleState &S) {
  if (S.Ring.Fd < 0 || S.Enabled)
    return;
  if (EnablePerfFd(S.Ring.Fd)) {
    S.Enabled = 1;
    return;
  }
  ClosePerfRing(S.Ring);
  S.Refused = 1;
}

// The thread's probes poll its ring from now on.
void WatchRing(ThreadTls &T, const CodeSampleState &S) {
  if (S.Ring.Fd < 0) {
    T.SampleHead = &kNoSampleRing;
    T.SampleTailSeen = 0;
    return;
  }
  T.SampleHead = S.Ring.HeadWord();
  T.SampleTailSeen = S.Ring.Tail;
  T.SampleCost = S.CostTicks;
}
// Records the ring's records up to Head against Node; returns how many
// samples' costs are to be charged (RecordSample). Ring lock held.
u64 DrainRecords(CodeSampleState &S, u32 Node, u64 Head) {
  PerfRecordWalk W(S.Ring, S.Ring.Tail, Head);
  PerfRecord R;
  u64 Samples = 0;
  while (W.Next(&R)) {
    if (R.Type == PERF_RECORD_SAMPLE) {
      Samples += RecordSample(S, Node, R);
    } else if (R.Type == PERF_RECORD_LOST) {
      S.Lost += LostRecordCount(R);
    }
  }
  ConsumePerfRing(S.Ring, W.Tail);
  return Samples;
}

// The drainer's read of another thread's top frame, under its seqlock.
bool TopFrame(const ThreadTls *T, u32 *Node) {
  AT_TSAN_IGNORE_READS_BEGIN();
  u32 S1 = __atomic_load_n(&T->Seq, __ATOMIC_ACQUIRE);
  u32 Cap = __atomic_load_n(&T->Capacity, __ATOMIC_ACQUIRE);
  Frame *Stk = __atomic_load_n(&T->Stack, __ATOMIC_ACQUIRE);
  u32 D = __atomic_load_n(&T->Depth, __ATOMIC_ACQUIRE);
  bool Ok = !(S1 & 1) && Stk && D >= 1 && D <= Cap;
  if (Ok)
    *Node = __atomic_load_n(&Stk[D - 1].NodeIdx, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  Ok = Ok && __atomic_load_n(&T->Seq, __ATOMIC_RELAXED) == S1;
  AT_TSAN_IGNORE_READS_END();
  return Ok;
}

// Drains another thread's ring if it is filling up (registry and loader
// locks held). The ring lock first: its owner closes the ring under it.
void DrainFromOutside(ThreadState *TS) {
  CodeSampleState &S = TS->Code;
  if (TS->Finished || !TS->Tls)
    return;
  LockRing(S);
  if (S.Ring.Fd < 0 || !S.Ring.Page) {
    UnlockRing(S);
    return;
  }
  u64 Head = S.Ring.LoadHead();
  u32 Node;
  // The top frame read after the head: a probe that changes the stack after
  // this point waits for the lock and drains later records itself.
  if (Head - S.Ring.Tail >= (S.Ring.DataMask + 1) / kDrainFillDivisor &&
      TopFrame(TS->Tls, &Node)) {
    u64 Samples = DrainRecords(S, Node, Head);
    __atomic_fetch_add(&S.PendingSamples, Samples, __ATOMIC_RELAXED);
  }
  UnlockRing(S);
}

// The threads whose late rings the drainer opens this round.
struct LateRound {
  u32 N;
  ThreadState *TS[kMaxLatePerRound];
  // Whether the thread is still on its CPU clock (needs a switch ring too),
  // read under the registry lock with its claim: a claimed thread does not
  // change its switch source until it adopts what the drainer installs.
  bool NeedsSwitch[kMaxLatePerRound];
};

// Claims TS's late rings if it has lived perf_after_us (registry lock
// held: TS is live and not finished).
bool ClaimLateRings(ThreadState *TS, u64 Now) {
  u64 From = __atomic_load_n(&TS->PerfFromTick, __ATOMIC_RELAXED);
  // No period yet: the helper process is still measuring the cost.
  if (!From || Now < From || TS->Finished || !TS->Tls || CodeSamplesPending())
    return false;
  u32 Free = LC_Free;
  return __atomic_compare_exchange_n(&TS->LateClaim, &Free, LC_Drainer, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

// The drainer's round. The registry only if free at once: a thread inside
// dl_iterate_phdr may be waiting for it.
void DrainAllThreads(void *Arg) {
  LateRound &Late = *(LateRound *)Arg;
  if (!TryLockThreadRegistry())
    return;
  u64 Now = ReadTick();
  for (ThreadState *TS = LiveListHead(); TS; TS = TS->LiveNext) {
    DrainFromOutside(TS);
    if (Late.N < kMaxLatePerRound && ClaimLateRings(TS, Now)) {
      Late.NeedsSwitch[Late.N] = TS->Switch.Source == raw::SS_CpuClock;
      Late.TS[Late.N++] = TS;
    }
  }
  UnlockThreadRegistry();
}

// Opens the claimed threads' rings without a lock (the kernel's work), then
// installs them under the registry lock (excluding the profile writer and
// fork) and each thread's ring lock. A claimed thread stays registered
// meanwhile: it waits for the claim before it finishes
// (LeaveThreadCodeSamples). Its code-sample ring, opened disabled, is
// enabled only once the word its probes poll (LateReady) is set: a sample
// then finds the next probe draining it against the frame it was taken in,
// as on a ring the thread opened itself. Its switch ring records from the
// start; the thread moves off its CPU clock onto it at its next poll (or
// as it finishes), from the tick read at the install on
// (AdoptLateSwitchSource).
void OpenClaimedLateRings(LateRound &Late) {
  if (!Late.N)
    return;
  SwitchState Switch[kMaxLatePerRound];
  const char *Why[kMaxLatePerRound];
  CodeRingOpen Code[kMaxLatePerRound];
  for (u32 I = 0; I < Late.N; ++I) {
    u64 Tid = Late.TS[I]->Tid;
    Why[I] = Late.NeedsSwitch[I] ? OpenSwitchRingFor(Switch[I], Tid) : nullptr;
    OpenCodeRing(Tid, /*Disabled=*/true, Code[I]);
  }
  LockThreadRegistry();
  for (u32 I = 0; I < Late.N; ++I) {
    ThreadState *TS = Late.TS[I];
    CodeSampleState &S = TS->Code;
    LockRing(S);
    if (Late.NeedsSwitch[I])
      InstallLateSwitchRing(TS, Switch[I], Why[I]);
    InstallCodeRing(S, Code[I]);
    AT_TSAN_IGNORE_WRITES_BEGIN();
    __atomic_store_n(&TS->LateReady, 1, __ATOMIC_SEQ_CST);
    AT_TSAN_IGNORE_WRITES_END();
    // A thread that has counted nothing yet samples once it does
    // (StartSamplingCounted).
    if (S.Counted)
      EnableRing(S);
    UnlockRing(S);
    __atomic_store_n(&TS->LateClaim, LC_Done, __ATOMIC_RELEASE);
  }
  UnlockThreadRegistry();
}

// The sample cost, measured on the calling thread, and the period that
// follows (published with cost_ready); false if Stop ended it first.
bool MeasureCostAndSetPeriod(const WorkerThread *Stop);

void *DrainerMain(void *) {
  internal_prctl(15 /* PR_SET_NAME */, uptr("at-drain"), 0, 0, 0);
  if (!WaitToMeasure(drainer) || !CalibrateBeside(drainer) ||
      !MeasureCostAndSetPeriod(&drainer))
    return nullptr; // the process ended first: no rings were opened
  // A round at once: the threads that have waited for the cost get their
  // rings now.
  for (;;) {
    PollMeasuredBeside(); // a helper process's sample cost, published here
    LateRound Late;
    Late.N = 0;
    UnderLoaderLock(DrainAllThreads, &Late);
    OpenClaimedLateRings(Late);
    SleepUntil(drainer, MonotonicNs() + kDrainerWakeNs);
    if (StopRequested(drainer))
      break;
  }
  return nullptr;
}

void StartDrainerNow() {
  if (int R = StartWorker(drainer, DrainerMain)) {
    VLog(1, "cannot start the code sample drainer (error %d): rings are read "
            "only by the probes", R);
    // Measured here then: the threads open their rings themselves.
    MeasureCodeSampleCost();
    return;
  }
  __atomic_store_n(&late_by_drainer, 1u, __ATOMIC_RELAXED);
}
} // namespace

void StartCodeSampleDrainer() {
  if (!sampling_wanted || drainer.Running)
    return;
  // A single-threaded program stays so (activetime_helper.h) until it
  // needs the drainer: when a thread first counts calls that do not poll
  // the ring (StartSamplingCounted); with the sample poll (abi.h) its
  // probes and counted calls read it, until a stretch of code without
  // either outlasts the ring (DrainCodeSamples); or with the program's
  // second thread (StartDeferredDrainer).
  if (HelperProcessUsable() && flags()->measure_in_process) {
    __atomic_store_n(&drainer_deferred, 1u, __ATOMIC_RELEASE);
    return;
  }
  StartDrainerNow();
}

bool CodeSampleDrainerRuns() { return drainer.Running; }

void StartDeferredDrainer(bool Needed) {
  u32 Deferred = 1;
  if (__atomic_load_n(&drainer_deferred, __ATOMIC_ACQUIRE) &&
      (Needed || !HelperProcessUsable()) &&
      __atomic_compare_exchange_n(&drainer_deferred, &Deferred, 0u, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    StartDrainerNow();
}

void StopCodeSampleDrainer() {
  // Threads still running open their late rings themselves: a round in
  // progress resolves its claims before the drainer ends.
  __atomic_store_n(&late_by_drainer, 0u, __ATOMIC_RELAXED);
  StopWorker(drainer);
}

void CloseLoaderGateForFork() {
  __atomic_store_n(&loader_gate_closed, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&loader_users, __ATOMIC_SEQ_CST))
    internal_sched_yield();
}

void OpenLoaderGateAfterFork() {
  __atomic_store_n(&loader_gate_closed, 0, __ATOMIC_RELEASE);
}

void CodeSamplesAfterForkChild() {
  drainer.Running = 0; // it did not survive the fork
  __atomic_store_n(&late_by_drainer, 0u, __ATOMIC_RELAXED);
  __atomic_store_n(&drainer_deferred, 0u, __ATOMIC_RELAXED);
  if (!__atomic_load_n(&cost_ready, __ATOMIC_ACQUIRE))
    ReleaseCodeSampleCost(); // whoever measured it is the parent's
#if !ACTIVETIME_TSAN
  StartCodeSampleDrainer();
#else
  // ThreadSanitizer kills a child of a multi-threaded fork that starts a
  // thread: the child's rings are drained by its own probes only (and the
  // sample cost, if the parent had not measured it yet, measured here).
  MeasureCodeSampleCost();
#endif
}

void InitCodeSampling() {
  // mode=trace times every call: no counted callee to split time off for,
  // and the offline method has no place for the samples' cost.
  if (!flags()->code_samples || flags()->mode == RunMode::Trace) {
    sampling_flags = raw::CSF_Disabled;
    return;
  }
  u64 Tid = GetTid();
  perf_event_attr A;
  FillAttr(&A, 1000000, false);
  int Fd = PerfEventOpen(&A, Tid);
  if (Fd < 0) {
    FillAttr(&A, 1000000, true);
    Fd = PerfEventOpen(&A, Tid);
    exclude_kernel = true;
  }
  if (Fd < 0) {
    sampling_flags = raw::CSF_Unavailable;
    VLog(1, "code samples unavailable (perf_event_open refused)");
    return;
  }
  ClosePerfFd(Fd);
  sampling_flags = exclude_kernel ? raw::CSF_UserOnly : 0;
#if defined(__x86_64__)
  stack_bytes = u32(flags()->code_sample_stack) & ~7u;
  if (stack_bytes)
    sampling_flags |= raw::CSF_Stacks;
#endif
  FindRuntimeText();
  late_grace_ticks = (u64)((unsigned __int128)kLateGraceNs *
                           ProvisionalTickRate() / 1000000000ull);
  // The sample cost is measured beside the program rather than before
  // main (a short process pays nothing for it): by the helper process of a
  // single-threaded program, else the drainer (MeasureCostAndSetPeriod).
  // Until then no thread, the main one included, has a code ring
  // (StartThreadCodeSamples).
  sampling_wanted = true;
}

namespace {
void SetPeriodFromCost(u64 Cost256) {
  cost256 = Cost256;
  if (!cost256)
    sampling_flags |= raw::CSF_CostUnmeasured;
  u64 Us = flags()->code_sample_us;
  if (Us == 0 && !cost256) {
    Us = 1000; // unmeasured: a rate whose cost stays small (about 1-2%)
  } else if (Us == 0) {
    // Auto: the budget's share of a thread's CPU time (code_sample_budget,
    // 10%: one sample per 10 sample costs, charged as overhead, where a
    // sample costs as much as in a virtual machine), at most every 100 us:
    // where interrupts are cheap, 100 us at a few percent. The budget is a
    // ceiling: no minimum rate overrides it. The counted
    // functions' shares are as precise as the number of samples (at 5% of
    // a 200 ms run on the reference VM, lua's shares were 8 points from
    // perf's where two perf runs differ by 4), but what the samples cost is
    // removed with the error of its measurement (a few percent of it): at
    // 15%, CPU-bound threads came out 2-7% short of the uninstrumented
    // run's CPU time (bench/truth, bench/accuracy, docs/performance.md).
    u64 CostNs = (u64)((unsigned __int128)(cost256 >> 8) * 1000000000ull /
                       ProvisionalTickRate());
    Us = CostNs * 100 / u64(flags()->code_sample_budget) / 1000;
    Us = Us < 100 ? 100 : Us;
  }
  period_ns = Us * 1000;
  VLog(2, "code samples every %llu us of CPU time, %llu ticks each",
       (unsigned long long)Us, (unsigned long long)(cost256 >> 8));
}

bool MeasureCostAndSetPeriod(const WorkerThread *Stop) {
  if (__atomic_load_n(&cost_ready, __ATOMIC_ACQUIRE) || !ClaimCodeSampleCost())
    return true; // measured (a fork child's parent did), or being measured
  u64 Cost = MeasureSampleCost256(GetTid(), Stop);
  if (Stop && StopRequested(*Stop))
    return false;
  PublishCodeSampleCost(Cost);
  return true;
}
} // namespace

bool ClaimCodeSampleCost() {
  u32 Free = 0;
  return __atomic_compare_exchange_n(&cost_claimed, &Free, 1u, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void ReleaseCodeSampleCost() {
  __atomic_store_n(&cost_claimed, 0u, __ATOMIC_RELEASE);
}

void PublishCodeSampleCost(u64 Cost256) {
  SetPeriodFromCost(Cost256);
  __atomic_store_n(&cost_ready, 1u, __ATOMIC_RELEASE);
}

u64 MeasureCodeSampleCostHere() {
  return MeasureSampleCost256(GetTid(), nullptr);
}

bool MeasureCodeSampleCost(const WorkerThread *Stop) {
  return !sampling_wanted || MeasureCostAndSetPeriod(Stop);
}

bool CodeSamplesPending() {
  return sampling_wanted && !__atomic_load_n(&cost_ready, __ATOMIC_ACQUIRE);
}

u64 CodeSamplePeriodNs() { return period_ns; }
u64 CodeSampleCost256() { return cost256; }
u32 CodeSamplingFlags() { return sampling_flags; }

void AddCountingOffset(sptr TpOffset) {
  SpinMutexLock L(&counting_offsets_mu);
  u32 N = num_counting_offsets;
  if (N == kMaxCountingOffsets || TpOffset != sptr(s32(TpOffset)))
    return;
  counting_offsets[N] = s32(TpOffset);
  __atomic_store_n(&num_counting_offsets, N + 1, __ATOMIC_RELEASE);
}

void AddProgramCode(const void *Addr) {
  if (!Addr)
    return;
  PhdrQuery Q = {uptr(Addr)};
  GatedIteratePhdr(AddRangesOf, &Q); // the ranges change under its lock
}

// What a thread whose rings open late watches as its ring's head: the
// word the drainer sets once it installed them (LateReady), or without a
// drainer (a single-threaded program) the helper process's Ready, set once
// the sample cost is measured: the next poll, a counted call's included,
// then opens the rings itself (PollLateRings).
void WatchLateReady(ThreadTls &T, ThreadState *TS) {
  T.SampleHead = __atomic_load_n(&drainer_deferred, __ATOMIC_ACQUIRE) &&
                         CodeSamplesPending()
                     ? HelperReadyWord()
                     : &TS->LateReady;
  T.SampleTailSeen = 0;
}

void OpenThreadCodeSamples(ThreadTls &T, ThreadState *TS) {
  CodeSampleState &S = TS->Code;
  S.Ring.Fd = -1;
  T.SampleHead = &kNoSampleRing;
  T.SampleTailSeen = 0;
  T.SampleCost = 0;
  if (!period_ns)
    return;
  CodeRingOpen O;
  OpenCodeRing(TS->Tid, /*Disabled=*/true, O);
  LockRing(S);
  InstallCodeRing(S, O);
  if (S.Counted)
    EnableRing(S);
  UnlockRing(S);
  WatchRing(T, S);
}

void NoteModuleWithoutSamplePoll() {
  __atomic_store_n(&counted_without_poll, 1u, __ATOMIC_RELAXED);
}

bool EntriesPollSamples() {
  return !__atomic_load_n(&counted_without_poll, __ATOMIC_RELAXED);
}

void StartSamplingCounted(ThreadTls &T) {
  MeasureBesideNow();
  if (!EntriesPollSamples())
    StartDeferredDrainer(/*Needed=*/true);
  CodeSampleState &S = T.TS->Code;
  LockRing(S);
  S.Counted = 1;
  // A ring the drainer installed but the thread has not adopted yet is
  // enabled here all the same (the thread watches it from its next poll).
  bool Watched = S.Ring.Fd >= 0 && T.SampleHead == S.Ring.HeadWord();
  EnableRing(S);
  UnlockRing(S);
  if (Watched && S.Ring.Fd < 0)
    WatchRing(T, S); // closed: the probes stop polling it
}

void AdoptLateRings(ThreadTls &T, ThreadState *TS) {
  CodeSampleState &S = TS->Code;
  LockRing(S); // what the drainer installed, under this lock
  WatchRing(T, S);
  UnlockRing(S);
  AdoptLateSwitchSource(T, TS);
  __atomic_store_n(&TS->PerfFromTick, 0, __ATOMIC_RELAXED);
}

bool ClaimLateRingsForThread(ThreadState *TS, u64 Now) {
  if (CodeSamplesPending())
    return false; // no period yet: the drainer opens them once it has one
  if (__atomic_load_n(&late_by_drainer, __ATOMIC_RELAXED) &&
      Now - TS->PerfFromTick < late_grace_ticks)
    return false;
  u32 Free = LC_Free;
  return __atomic_compare_exchange_n(&TS->LateClaim, &Free, LC_Done, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

namespace {
// A drain that finds the ring this full (the kernel drops records it has no
// room for, and says so only once it has room again) asks for the drainer
// (DrainCodeSamples).
constexpr u64 kOverflowFillDivisor = 2;

struct OwnDrain {
  ThreadTls *T;
  bool Filled; // out: the ring was at least 1/kOverflowFillDivisor full
};

void DrainOwnRing(void *Arg) {
  OwnDrain &D = *(OwnDrain *)Arg;
  ThreadTls &T = *D.T;
  CodeSampleState &S = T.TS->Code;
  LockRing(S);
  u64 Head = S.Ring.LoadHead();
  D.Filled = Head - S.Ring.Tail >= (S.Ring.DataMask + 1) / kOverflowFillDivisor;
  u32 Node = T.Depth >= 1 && T.Stack ? T.Stack[T.Depth - 1].NodeIdx : 0;
  u64 Samples = DrainRecords(S, Node, Head);
  Samples += __atomic_exchange_n(&S.PendingSamples, 0, __ATOMIC_RELAXED);
  // A ring the drainer installed, drained as the thread finishes without
  // having adopted it: the calls still open are charged at its estimate.
  T.SampleCost = S.CostTicks;
  UnlockRing(S);
  T.SampleTailSeen = Head;
  // The interrupts happened inside the frames open now (none opened or
  // closed since): their cost is probe overhead to each of them.
  T.Ovh += Samples * cost256;
  T.Samples += u32(Samples);
}
} // namespace

void DrainCodeSamples(ThreadTls &T) {
  ThreadState *TS = T.TS;
  if (!TS || TS->Code.Ring.Fd < 0)
    return;
  u64 Lost = TS->Code.Lost;
  OwnDrain D = {&T, false};
  UnderLoaderLock(DrainOwnRing, &D);
  // The ring filled between two polls (a long stretch of code without
  // instrumented calls): from now on a runtime thread reads it too.
  if (UNLIKELY(D.Filled || TS->Code.Lost != Lost) &&
      __atomic_load_n(&drainer_deferred, __ATOMIC_RELAXED))
    StartDeferredDrainer(/*Needed=*/true);
}

void PollCodeSamples(ThreadTls &T) {
  if (*T.SampleHead != T.SampleTailSeen)
    DrainCodeSamples(T);
}

void CloseThreadCodeSamples(ThreadTls &T, ThreadState *TS, bool Drain) {
  CodeSampleState &S = TS->Code;
  if (Drain && S.Ring.Fd >= 0)
    DrainCodeSamples(T);
  LockRing(S); // the drainer may be reading it
  ClosePerfRing(S.Ring);
  UnlockRing(S);
  T.SampleHead = &kNoSampleRing;
  T.SampleTailSeen = 0;
  T.SampleCost = 0;
}

namespace {
void StartThreadCodeSamples(ThreadTls &T, ThreadState *TS, u64 Now) {
  TS->Code.Ring.Fd = -1;
  TS->Code.Counted = 0;
  TS->Code.Enabled = 0;
  T.SampleHead = &kNoSampleRing;
  T.SampleTailSeen = 0;
  if (!TS->PerfFromTick && !CodeSamplesPending()) {
    OpenThreadCodeSamples(T, TS);
  } else if (sampling_wanted) {
    // Late: the drainer installs the rings (the code ring alone for a
    // thread on its perf switch ring already) once the sample cost is
    // known and the thread has lived perf_after_us.
    if (!TS->PerfFromTick)
      __atomic_store_n(&TS->PerfFromTick, Now ? Now : 1, __ATOMIC_RELAXED);
    WatchLateReady(T, TS);
  }
}

// Waits for a drainer that is opening the thread's late rings, and keeps
// it from starting to.
void SettleLateClaim(ThreadState *TS) {
  for (;;) {
    u32 C = LC_Free;
    if (__atomic_compare_exchange_n(&TS->LateClaim, &C, LC_Done, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
        C == LC_Done)
      return;
    internal_sched_yield(); // LC_Drainer: a few hundred microseconds
  }
}

void LeaveThreadCodeSamples(ThreadTls &T, ThreadState *TS, u64) {
  if (TS->PerfFromTick) {
    SettleLateClaim(TS);
    // Neither the drainer nor the thread opened its rings: it ended first.
    if (sampling_wanted && !__atomic_load_n(&TS->LateReady, __ATOMIC_RELAXED))
      TS->Code.Refused = TS->Code.ShortLived = 1;
  }
  CloseThreadCodeSamples(T, TS, /*Drain=*/true);
}

// The inherited ring samples the parent's thread, and the table holds the
// parent's samples.
void RestartThreadCodeSamples(ThreadTls &T, ThreadState *TS, u64) {
  ForgetInheritedPerfRing(TS->Code.Ring);
  CloseThreadCodeSamples(T, TS, /*Drain=*/false);
  internal_memset(&TS->Code, 0, sizeof(TS->Code));
  StartThreadCodeSamples(T, TS, 0); // late if the cost is not measured yet
}

void ForgetThreadCodeSamples(ThreadTls &T, ThreadState *TS) {
  CloseThreadCodeSamples(T, TS, /*Drain=*/false);
}

// No locks, the ring's either: in such a child they may be held for ever
// by threads of the parent. The descriptor is this process's copy, the
// mapping not.
void AbandonThreadCodeSamples(ThreadTls &T, ThreadState *TS) {
  T.SampleHead = &kNoSampleRing;
  T.SampleTailSeen = 0;
  if (TS)
    ForgetInheritedPerfRing(TS->Code.Ring);
}

void FillCodeSamplesProcessRecord(raw::ProcessRecord &R) {
  R.CodeSamplePeriodNs = period_ns;
  R.CodeSampleCost256 = cost256;
  // Not measured by this write (the run ended, or a periodic write came,
  // within the measurement): no samples yet, and the report says why.
  R.CodeSampleFlags =
      sampling_flags | (CodeSamplesPending() ? raw::CSF_NotStarted : 0);
}

void FillCodeSamplesThreadRecord(raw::ThreadRecord &R, const ThreadState &TS) {
  R.Flags |= (TS.Code.Refused ? raw::TF_NotSampled : 0) |
             (TS.Code.OverBudget ? raw::TF_NoDescriptors : 0) |
             (TS.Code.ShortLived ? raw::TF_ShortLived : 0) |
             (TS.Code.CostTicks ? raw::TF_SampledCallsApart : 0);
  R.LostCodeSamples = TS.Code.Lost;
}

// The table and the ones it replaced.
void ReleaseTables(CodeSampleState &S) {
  uptr Bytes = (S.Mask + 1) * sizeof(CodeSampleSlot);
  if (S.Slots)
    Recycle(S.Slots, Bytes, Bytes);
  for (int I = 0; I < S.NumOld; ++I)
    Recycle(S.Old[I], S.OldBytes[I], S.OldBytes[I]);
  S.Slots = nullptr;
  S.NumOld = 0;
}

void FoldThreadCodeSamples(ThreadState &Into, ThreadState &From,
                           const u32 *Map, u32 NumTreeNodes) {
  CodeSampleState &I = Into.Code, &F = From.Code;
  for (uptr J = 0; F.Slots && J <= F.Mask; ++J) {
    const CodeSampleSlot &E = F.Slots[J];
    if (E.Count)
      Insert(I, E.Node < NumTreeNodes ? Map[E.Node] : 0, E.Flags, E.Addr,
             E.Caller, E.Count);
  }
  I.Lost += F.Lost;
  I.Refused |= F.Refused;
  I.OverBudget |= F.OverBudget;
  I.ShortLived |= F.ShortLived;
  if (F.CostTicks > I.CostTicks)
    I.CostTicks = F.CostTicks;
  ReleaseTables(F);
}

// The thread's code samples with their nodes mapped to written nodes (no
// frame, or a node not written: kNoNode). A live thread may be adding to
// its table: the counts read are as of some instant per slot.
u32 WriteCodeSampleRecords(OutBuffer *B, const ThreadState &TS, const u32 *Map,
                           u32 NumTreeNodes) {
  const CodeSampleState &S = TS.Code;
  AT_TSAN_IGNORE_READS_BEGIN();
  CodeSampleSlot *Slots = *(CodeSampleSlot *volatile *)&S.Slots;
  uptr N = Slots ? *(volatile uptr *)&S.Mask + 1 : 0;
  AT_TSAN_IGNORE_READS_END();
  u32 Num = 0;
  for (uptr I = 0; I < N; ++I) {
    AT_TSAN_IGNORE_READS_BEGIN();
    u64 Count = __atomic_load_n(&Slots[I].Count, __ATOMIC_ACQUIRE);
    CodeSampleSlot E = Slots[I];
    AT_TSAN_IGNORE_READS_END();
    if (!Count)
      continue;
    raw::CodeSampleRecord R;
    u32 Mapped = E.Node < NumTreeNodes ? Map[E.Node] : kMapDrop;
    R.Node = Mapped >= kMapRoot ? raw::kNoNode : Mapped;
    R.Flags = E.Flags;
    R.Addr = E.Addr;
    R.Count = Count;
    R.Caller = E.Caller;
    B->Append(&R, sizeof(R));
    ++Num;
  }
  return Num;
}
} // namespace

const Collector kCodeSamplesCollector = {
    .Name = "codesamples",
    .Order = 110,
    .Init = InitCodeSampling,
    .Start = StartCodeSampleDrainer,
    .Stop = StopCodeSampleDrainer,
    .ForkPrepare = CloseLoaderGateForFork,
    .ForkParent = OpenLoaderGateAfterFork,
    .ForkChild = OpenLoaderGateAfterFork,
    .AfterForkChild = CodeSamplesAfterForkChild,
    .ThreadStart = StartThreadCodeSamples,
    .ThreadLeave = LeaveThreadCodeSamples,
    .ThreadAfterForkChild = RestartThreadCodeSamples,
    .ThreadFold = FoldThreadCodeSamples,
    .ThreadForget = ForgetThreadCodeSamples,
    .ThreadAbandon = AbandonThreadCodeSamples,
    .FillProcess = FillCodeSamplesProcessRecord,
    .FillThread = FillCodeSamplesThreadRecord,
    .WriteThreadRecords = WriteCodeSampleRecords,
    .NumThreadRecords = &raw::ThreadRecord::NumCodeSamples,
};
AT_REGISTER_COLLECTOR(kCodeSamplesCollector);

} // namespace __activetime
