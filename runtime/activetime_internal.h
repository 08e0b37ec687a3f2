//===- activetime_internal.h - ActiveTime runtime internals -----*- C++ -*-===//
//
// Shared declarations of the runtime: types, process-wide state, persistent
// allocation. Everything lives in namespace __activetime and is built on
// compiler-rt's sanitizer_common (no libstdc++, no exceptions, no RTTI).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_INTERNAL_H
#define ACTIVETIME_INTERNAL_H

#include "activetime/abi.h"
#include "activetime/raw_format.h"
#include "activetime_tsan.h"
#include "sanitizer_common/sanitizer_atomic.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_internal_defs.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_mutex.h"

namespace __activetime {

using namespace __sanitizer;
using FuncDesc = activetime::abi::FuncDesc;
using ModuleDesc = activetime::abi::ModuleDesc;

#define AT_BARRIER() __asm__ __volatile__("" ::: "memory")

// Distance below which two frame addresses are taken to be on the same stack
// (frames on a sigaltstack or another fiber stack are ignored by repairs).
constexpr uptr kSameStackDistance = uptr(1) << 30;

// Process-wide state, zero-initialized (no constructors: probes may run
// before any C++ constructor).
struct RuntimeState {
  atomic_uint8_t Initialized;       // EnsureCoreInit
  atomic_uint8_t TimingInitialized; // EnsureInit
  u32 Pid;
  u64 StartTick;      // runtime start, or the fork in a child
  u64 StartUnixNs;    // CLOCK_REALTIME at StartTick
  // The overhead table (fixed by the overhead_*_ticks flags, or calibrated
  // beside the program and published once); copied into each thread's TLS
  // block when published (activetime_overhead.cpp).
  activetime::raw::OverheadRecord Overhead;
  u64 TickStep256;    // MeasureTickStep256(), with the table (0 before)
  bool ForkedChild;   // a fork() child: its file name must differ (%p)
  bool Abandoned;     // a child made behind the fork handlers (ProbeGate)
  // The profile went into the MPI job's (ProfileHandedOff): no exit write.
  bool ProfileHandedOff;
};
extern RuntimeState runtime;

// The probes' gate, the one word their fast paths check besides the
// thread's own state: they take the fast path only when it is kGateOurs.
// kGateOurs is set in a process the runtime set up (at start-up and by its
// fork handler), on a page the kernel zeroes in a child process
// (MADV_WIPEONFORK): a child made by clone() without the fork handlers
// (googletest's death tests), in which the parent's perf rings are not
// mapped (the kernel never copies them), finds it clear and leaves by the
// slow paths, which let go of the parent's state (AbandonProcess).
// kGateUserOff: collection disabled (__activetime_set_enabled).
enum : u32 { kGateOurs = 1u << 0, kGateUserOff = 1u << 1 };
struct alignas(4096) ProbeGate {
  u32 State;
  char Pad[4096 - sizeof(u32)];
};
extern ProbeGate probe_gate;
ALWAYS_INLINE u32 GateState() {
  return __atomic_load_n(&probe_gate.State, __ATOMIC_RELAXED);
}
// The fork handler, in the child: the gate as it was (the page was zeroed).
void ReopenProbeGateAfterFork();

// Whether this process is one the runtime set up: false in such a child,
// whose copies of the parent's state (rings, threads, locks) are not its
// own. (Before start-up the gate is clear too.)
ALWAYS_INLINE bool ProcessIsOurs() {
  return (GateState() & kGateOurs) ||
         !atomic_load(&runtime.Initialized, memory_order_acquire);
}
struct ThreadTls;
// In such a child: stops recording (entries skipped, the rings let go)
// and writing a profile; the program runs on untouched.
void AbandonProcess(ThreadTls &T);

// Initializes the runtime once (flags, timer, thread key, atfork, atexit),
// with the calibrations and threads timing needs.
void InitRuntimeSlow();
ALWAYS_INLINE void EnsureInit() {
  if (LIKELY(atomic_load(&runtime.TimingInitialized, memory_order_acquire)))
    return;
  InitRuntimeSlow();
}
// ... without them (block counts, which measure no time).
void InitCoreSlow();
ALWAYS_INLINE void EnsureCoreInit() {
  if (LIKELY(atomic_load(&runtime.Initialized, memory_order_acquire)))
    return;
  InitCoreSlow();
}

// Overhead table (activetime_overhead.cpp). Model: a probe event's cost is an
// interval starting at its timestamp (active time). Enter = the part of one
// instrumented call's probe cost inside the frame's own elapsed interval =
// the elapsed time an EMPTY instrumented function shows (rest of the entry
// probe after its tick read + exit probe up to its tick read); Exit = B -
// Enter where B is the full cost one instrumented call adds to its caller.
// Charging Enter at every entry and Exit at every exit except the frame's own
// then removes exactly Enter + n*B from a frame with n nested calls.
// Runs the real probe code on a scratch thread state (the caller's TLS block
// is saved and restored); fills *Out (Source = OS_Calibrated). With Stop,
// returns false, *Out unset, once that worker is asked to stop.
struct WorkerThread;
bool CalibrateOverhead(activetime::raw::OverheadRecord *Out,
                       const WorkerThread *Stop = nullptr);
// Sets runtime.Overhead from the flags (runtime init): the fixed parts, and
// the calibration pending beside the program if a part is not fixed. Also
// sets probe_fence from the flag, first: the table is the fenced or the
// unfenced probes' cost.
void InitOverheadTable();
// On a runtime thread W: a millisecond into the process's life, measures
// the tick step and calibrates the table, then publishes both (threads
// adopt the table at their next poll). Returns false if W was asked to stop
// first; true at once if nothing is pending or another thread calibrates.
bool CalibrateBeside(WorkerThread &W);
// Whether the table is still to be calibrated (no counting threshold yet).
bool ProbeTablePending();
// Testing: the calibration beside the program, on the calling thread now.
void CalibrateOverheadForTesting();
// Testing: returns once the table is published (calibrated here, or by the
// runtime thread that has it): no publication comes later, in a test.
void WaitForProbeTableForTesting();
// Nonzero while probes fence their tick read and work (activetime_probes.cpp).
extern u32 probe_fence;
// Testing: replaces the table (ticks * 256) for threads initialized later
// and for the calling thread.
void SetOverheadForTesting(u64 Enter256, u64 Exit256);

#if ACTIVETIME_TSAN
// TSan does not see sanitizer_common's raw munmap and would keep the access
// history of unmapped runtime memory: a later mapping at the same address
// (another thread's shadow stack) would then "race" with a thread that has
// long finished. Under TSan the runtime unmaps through the intercepted
// munmap, which clears that history. Hides __sanitizer::UnmapOrDie for
// unqualified calls in namespace __activetime.
void UnmapOrDie(void *Addr, uptr Size);
#endif

// Memory that is never freed (module name copies, thread records).
// Page-backed bump allocator; thread-safe; fork-safe (spin lock held only
// for pointer bumps, reset in the child).
void *PersistentAlloc(uptr Size);
char *PersistentStrdup(const char *S);

// Growable array of PODs backed by mmap (no constructors, zero-init ok).
template <typename T> struct PodVector {
  T *Data;
  uptr Size;
  uptr Cap;
  void PushBack(const T &V) {
    if (Size == Cap) {
      uptr NewCap = Cap ? Cap * 2 : 64;
      T *N = (T *)MmapOrDie(NewCap * sizeof(T), "ActiveTime vector");
      if (Size)
        internal_memcpy(N, Data, Size * sizeof(T));
      if (Data)
        UnmapOrDie(Data, Cap * sizeof(T));
      Data = N;
      Cap = NewCap;
    }
    Data[Size++] = V;
  }
  T &operator[](uptr I) { return Data[I]; }
  void Clear() { Size = 0; }
};

// Verbose log (flags()->verbosity >= Level), one line per call. Needs
// activetime_flags.h.
#define VLog(Level, Fmt, ...)                                                  \
  do {                                                                         \
    if (flags()->verbosity >= (Level))                                         \
      Printf("ActiveTime: " Fmt "\n", ##__VA_ARGS__);                          \
  } while (0)

} // namespace __activetime

#endif // ACTIVETIME_INTERNAL_H
