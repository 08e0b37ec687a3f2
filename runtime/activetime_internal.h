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
  atomic_uint8_t Initialized;
  u32 Pid;
  u64 StartTick;      // runtime start, or the fork in a child
  u64 StartUnixNs;    // CLOCK_REALTIME at StartTick
};
extern RuntimeState runtime;

// Initializes the runtime once (flags, timer, thread key, atfork, atexit).
void InitRuntimeSlow();
ALWAYS_INLINE void EnsureInit() {
  if (LIKELY(atomic_load(&runtime.Initialized, memory_order_acquire)))
    return;
  InitRuntimeSlow();
}

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
