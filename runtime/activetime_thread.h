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
#include "activetime_internal.h"

namespace __activetime {

struct Frame {
  const FuncDesc *Fn;
  uptr Addr;       // frame address (slot of the return address)
  u64 StartTick;
  u64 ChildTicks;  // inclusive ticks of completed callees
  Node *N;         // == Tree->At(NodeIdx); nodes never move
  u32 NodeIdx;
  u32 Reserved;
};

struct ThreadState;

struct ThreadTls {
  Frame *Stack;
  u32 Depth;
  u32 Capacity;
  u32 Busy;   // a probe of this thread is running (signal re-entrancy)
  u32 Dead;   // finished: later probes are ignored
  CallTree *Tree;
  ThreadState *TS;
};

extern THREADLOCAL ThreadTls at_tls __attribute__((tls_model("initial-exec")));

struct ThreadState {
  ThreadTls *Tls;     // the owner's TLS block; read by the writer while live
  CallTree Tree;
  u64 Tid;
  u64 StartTick;
  u64 EndTick;        // set when finished
  u64 UnmatchedExits;
  u64 UnwoundFrames;
  u64 DroppedEvents;
  char Name[16];
  bool Finished;
  ThreadState *Next;  // registry list, creation order
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

// Registry access for the writer and fork handling.
void LockThreadRegistry();
void UnlockThreadRegistry();
ThreadState *ThreadListHead(); // registry lock held
// Fork child: keep only the current thread, restart its profile at Now.
void ThreadRegistryAfterForkChild(u64 Now);

// Testing: forget every thread's state (empties the registry; the current
// thread's next probe creates a fresh state). Other threads must not run.
void ResetThreadsForTesting();

} // namespace __activetime

#endif // ACTIVETIME_THREAD_H
