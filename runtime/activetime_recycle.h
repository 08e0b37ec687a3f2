//===- activetime_recycle.h - Mappings reused from thread to thread -*- C++ -*-===//
//
// A thread's state is a handful of mappings (its ThreadState, shadow stack,
// call-tree index, directory and nodes, histogram and count arenas, code
// sample table), made at its start and unmapped when it is folded. In a
// program that starts threads by the thousand per second, mmap and munmap
// (the address-space lock, page-table teardown, a TLB shootdown on every
// CPU) cost more than the rest of the runtime. Retired mappings of the
// common sizes wait here, a bounded number per size, for the next thread;
// the bytes their owner may have written are zeroed on reuse, so callers
// get what mmap gives them: zeroed memory.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_RECYCLE_H
#define ACTIVETIME_RECYCLE_H

#include "activetime_internal.h"

namespace __activetime {

// Zeroed memory of Bytes (page-rounded) bytes: a recycled mapping, or a
// new one (MmapOrDie).
void *MapRecycled(uptr Bytes, const char *Name);
// Gives P (Bytes, as mapped) back; the caller promises that every byte at
// or after Dirty is still zero. Unmapped when the cache for its size is
// full.
void Recycle(void *P, uptr Bytes, uptr Dirty);
// fork(): the cache's lock around the fork.
void LockRecycleForFork();
void UnlockRecycleAfterFork();

} // namespace __activetime

#endif // ACTIVETIME_RECYCLE_H
