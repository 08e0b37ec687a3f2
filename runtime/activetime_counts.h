//===- activetime_counts.h - Counted calls ----------------------*- C++ -*-===//
//
// Every call of an instrumented function increments the calling thread's
// counter for the function, inline (abi.h, "Timed or counted"). The sign of
// the counter says whether the call is also timed: functions start timed on
// every thread; once a function's calls on a thread prove too short for the
// probes' cost to be removed from them with confidence, the thread's exit
// probe sets the sign bit and its later calls there are only counted. Their
// time stays inside the nearest timed frame, where code samples split it
// off again (activetime_codesamples.h).
//
// The arrays: one per (thread, module) for modules of the executable,
// reached through the module's own thread-local pointer, and one per thread
// for all PIC modules (shared libraries), reached through the runtime's
// __activetime_counts, in which each such module has slots from its
// CountBase on. A pointer starts at a bootstrap array shared by all threads
// in which every function reads as timed, so a thread's first call of a
// function reaches the entry probe; there, when the call opens a new node,
// AdoptCounters gives the thread its own array (counting that call) and
// aims the pointer at it. The arrays live until the process ends: the
// exit-time writer reads those of finished threads too.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_COUNTS_H
#define ACTIVETIME_COUNTS_H

#include "activetime_internal.h"

namespace __activetime {

struct Node;
struct ModuleInfo;
struct ThreadState;
struct ThreadTls;

// Slots of the per-thread array of the PIC modules. Modules registered
// after they ran out get none: their calls are timed and not counted.
constexpr u32 kMaxSharedSlots = 1u << 18;

// Hands out N consecutive slots of that array; returns the first, or 0
// when they ran out (slot 0 is never handed out).
u32 AllocateSharedSlots(u32 N);

// The runtime's bootstrap array for the PIC modules.
u64 *SharedBootstrap();

// One counter array a thread counts in, and the thread-local pointer to it.
struct CountArray {
  const ModuleInfo *Module; // null: the thread's array of the PIC modules
  u64 **Slot;               // the thread's pointer (module's or runtime's)
  u64 *Counts;
};

// A thread's arrays: appended by the thread only, read by others (writer,
// collection switch) without a lock: entries below Size (acquire) are set.
struct CountArrays {
  static constexpr u32 kChunk = 64;
  struct Chunk {
    CountArray Entries[kChunk];
    Chunk *Next;
  };
  Chunk First;
  Chunk *Last;  // owner only
  u32 Size;
  template <typename Fn> void ForEach(Fn F) const {
    u32 N = __atomic_load_n(&Size, __ATOMIC_ACQUIRE);
    const Chunk *C = &First;
    for (u32 I = 0; I < N; ++I) {
      if (I && I % kChunk == 0)
        C = __atomic_load_n(&C->Next, __ATOMIC_ACQUIRE);
      F(C->Entries[I % kChunk]);
    }
  }
};

// The first call of Fn on the calling thread that opened a node (the entry
// probe's slow path): if the thread's pointer for Fn's module is still the
// bootstrap array, gives the thread its own array, counts this call in it
// and aims the pointer there. Calls made before the module registered went
// through the bootstrap array too, all timed: they are counted from the
// thread's nodes and open frames. Late (LateBelow: from the timing check of
// the frame at that shadow-stack index, for a function whose calls opened
// no new node since its module registered): no call at hand to count, and
// only the frames open below that one.
void AdoptCounters(ThreadTls &T, const FuncDesc *Fn, u32 LateBelow = 0);

// Calls of module MI's functions counted on a thread (its array from MI's
// first function on), or null if the thread never counted one. Writer.
const u64 *ThreadCounters(const ThreadState *TS, const ModuleInfo *MI);

// Fork child: zeroes the calling thread's counts (keeping each function's
// timed or counted state).
void ResetThreadCountsAfterFork(ThreadState *TS);

// Collection switch (__activetime_set_enabled): while off, every pointer of
// every thread is aimed at one discard array in which every function is
// counted, so calls neither run probes nor add to the counts.
void SetCountingEnabled(bool On);

// The timing decision, in the exit probe of the node's thread when the
// node's calls reached its next checkpoint (Frame: the shadow-stack index
// of the frame being closed): switches the node's function to counting on
// this thread if its calls are on average shorter than the timing
// threshold. Slow path.
void CheckTiming(Node *N, u32 Frame);

// The threshold in ticks: calls shorter than this on average are counted,
// not timed; 0 times every call. InitTiming (runtime init, after the
// overhead calibration) sets it to timing_ratio times the calibrated pair
// cost, or 0 with mode=trace (which records every call).
void InitTiming();
void SetTimingThreshold(u64 Ticks);
u64 TimingThreshold();

// First checkpoint of a node; each later one is 4x the previous.
constexpr u64 kFirstTimingCheck = 16;

// The calling thread's thread pointer (the base its static TLS offsets are
// taken from).
uptr ThreadPointer();

} // namespace __activetime

#endif // ACTIVETIME_COUNTS_H
