//===- activetime_probes.cpp - Probe hot path -------------------*- C++ -*-===//
//
// No locks, allocation or system calls on the fast path: one tick read, the
// TLS block, one hash probe on entry, a handful of stores. Everything unusual
// (first probe of a thread, full shadow stack, re-entrancy from a signal
// handler, frames abandoned by longjmp/unwinding, unmatched exits) goes to
// NOINLINE slow paths.
//
//===----------------------------------------------------------------------===//

#include "activetime_interface.h"
#include "activetime_probes.h"
#include "activetime_thread.h"
#include "activetime_timer.h"

#define AT_PROBE_ATTRS __attribute__((no_stack_protector, hot))

namespace __activetime {

// Completes frame I (>= 1) at Now and charges it to its parent frame.
ALWAYS_INLINE static void CloseFrame(Frame *Stk, u32 I, u64 Now) {
  Frame *F = &Stk[I];
  u64 El = Now - F->StartTick;
  Node *N = F->N;
  N->Calls++;
  N->Incl += El;
  N->Excl += El - F->ChildTicks;
  if (El < N->Min)
    N->Min = El;
  if (El > N->Max)
    N->Max = El;
  Stk[I - 1].ChildTicks += El;
}

// Pops frames at or below Addr on the same stack: they were abandoned by a
// longjmp or an unwind we did not see. Charged up to Now, counted as unwound.
static NOINLINE void PopStaleFrames(ThreadTls &T, uptr Addr, u64 Now) {
  u32 D = T.Depth;
  Frame *Stk = T.Stack;
  while (D > 1) {
    Frame *Top = &Stk[D - 1];
    if (Top->Addr > Addr || Addr - Top->Addr >= kSameStackDistance)
      break;
    CloseFrame(Stk, D - 1, Now);
    T.TS->UnwoundFrames++;
    --D;
  }
  T.Depth = D;
}

ALWAYS_INLINE static void EnterBody(ThreadTls &T, const FuncDesc *Fn,
                                    uptr Addr, u64 Now) {
  Frame *Top = &T.Stack[T.Depth - 1];
  if (UNLIKELY(Top->Addr <= Addr)) {
    PopStaleFrames(T, Addr, Now);
    Top = &T.Stack[T.Depth - 1];
  }
  CallTree *Tree = T.Tree;
  u32 Idx = Tree->FindOrInsert(Top->NodeIdx, Fn);
  Frame *F = Top + 1;
  F->Fn = Fn;
  F->Addr = Addr;
  F->StartTick = Now;
  F->ChildTicks = 0;
  F->N = Tree->At(Idx);
  F->NodeIdx = Idx;
  T.Depth++;
}

static NOINLINE void EnterSlow(const FuncDesc *Fn, uptr Addr, u64 Now) {
  ThreadTls &T = at_tls;
  if (T.Busy) {
    if (T.TS)
      T.TS->DroppedEvents++;
    return;
  }
  if (T.Dead)
    return;
  T.Busy = 1;
  AT_BARRIER();
  bool Ok = true;
  if (T.Capacity == 0)
    Ok = InitCurrentThread(Now);
  else if (T.Depth >= T.Capacity)
    GrowStack(T);
  if (Ok)
    EnterBody(T, Fn, Addr, Now);
  AT_BARRIER();
  T.Busy = 0;
}

ALWAYS_INLINE static void EnterImpl(const FuncDesc *Fn, uptr Addr, u64 Now) {
  ThreadTls &T = at_tls;
  if (UNLIKELY(T.Capacity == T.Depth || T.Busy))
    return EnterSlow(Fn, Addr, Now);
  T.Busy = 1;
  AT_BARRIER();
  EnterBody(T, Fn, Addr, Now);
  AT_BARRIER();
  T.Busy = 0;
}

// The top frame is not (Fn, Addr). Search down for it; if found, close the
// frames above it as unwound and then it normally; else it is a return with
// no matching entry: a no-op, counted.
static NOINLINE void ExitRepair(ThreadTls &T, const FuncDesc *Fn, uptr Addr,
                                u64 Now) {
  Frame *Stk = T.Stack;
  u32 D = T.Depth;
  u32 Found = 0;
  for (u32 I = D - 1; I >= 1; --I) {
    if (Stk[I].Fn == Fn && Stk[I].Addr == Addr) {
      Found = I;
      break;
    }
    // A frame shallower than ours on the same stack: ours cannot be below it.
    if (Stk[I].Addr > Addr && Stk[I].Addr - Addr < kSameStackDistance)
      break;
  }
  if (!Found) {
    T.TS->UnmatchedExits++;
    return;
  }
  for (u32 I = D - 1; I > Found; --I) {
    CloseFrame(Stk, I, Now);
    T.TS->UnwoundFrames++;
  }
  CloseFrame(Stk, Found, Now);
  T.Depth = Found;
}

static NOINLINE void ExitSlow(const FuncDesc *Fn, uptr Addr, u64 Now) {
  ThreadTls &T = at_tls;
  if (!T.TS || T.Dead)
    return;
  if (T.Busy) {
    T.TS->DroppedEvents++;
    return;
  }
  // Depth <= 1: nothing open, a return with no matching entry.
  T.TS->UnmatchedExits++;
}

ALWAYS_INLINE static void ExitImpl(const FuncDesc *Fn, uptr Addr, u64 Now) {
  ThreadTls &T = at_tls;
  if (UNLIKELY(T.Busy || T.Depth <= 1))
    return ExitSlow(Fn, Addr, Now);
  T.Busy = 1;
  AT_BARRIER();
  u32 D = T.Depth;
  Frame *Top = &T.Stack[D - 1];
  if (LIKELY(Top->Fn == Fn && Top->Addr == Addr)) {
    CloseFrame(T.Stack, D - 1, Now);
    T.Depth = D - 1;
  } else {
    ExitRepair(T, Fn, Addr, Now);
  }
  AT_BARRIER();
  T.Busy = 0;
}

void ProbeEnterAt(const FuncDesc *Fn, uptr Addr, u64 Now) {
  EnterImpl(Fn, Addr, Now);
}
void ProbeExitAt(const FuncDesc *Fn, uptr Addr, u64 Now) {
  ExitImpl(Fn, Addr, Now);
}

} // namespace __activetime

using namespace __activetime;

extern "C" AT_PROBE_ATTRS void
__activetime_func_enter(const activetime::abi::FuncDesc *Fn, void *Frame) {
  u64 Now = ReadTick();
  EnterImpl(Fn, uptr(Frame), Now);
}

extern "C" AT_PROBE_ATTRS void
__activetime_func_exit(const activetime::abi::FuncDesc *Fn, void *Frame) {
  u64 Now = ReadTick();
  ExitImpl(Fn, uptr(Frame), Now);
}
