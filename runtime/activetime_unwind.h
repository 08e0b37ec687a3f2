//===- activetime_unwind.h - Unwinding a sampled stack ----------*- C++ -*-===//
//
// A code sample taken in a library or the kernel belongs to the program
// function that called out (the truth perf and the report agree on: library
// time is the caller's). The sample carries the thread's user registers and
// a copy of the top of its user stack; this unwinds that copy through the
// frames of code outside the program with the objects' .eh_frame unwind
// tables (found through PT_GNU_EH_FRAME's search table) until a return
// address lands in the program. Only what .eh_frame describes with a CFA
// of rsp/rbp + offset is followed; anything else fails the unwind.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_UNWIND_H
#define ACTIVETIME_UNWIND_H

#include "activetime_internal.h"

namespace __activetime {

// The thread's user registers at the sample, and a copy of its stack from
// Sp up: Read(Addr) gives the word at Addr if the copy holds it.
struct SampledStack {
  uptr Ip, Sp, Bp;
  const void *Ctx;
  bool (*Read)(const void *Ctx, uptr Addr, uptr *Word);
};

// The first return address into code for which InProgram is true, or 0.
// Reads the objects' unwind tables: call it only inside a dl_iterate_phdr
// callback, whose lock keeps them mapped and serializes the object cache.
uptr UnwindToProgram(const SampledStack &S, bool (*InProgram)(uptr));

// Drops the cached objects (some were unloaded); the loader's lock held.
void ForgetUnwindObjects();

// Testing: unwind one frame at Ip with the unwind table of the object that
// holds it; returns false when there is none or it is not followed.
bool UnwindStepForTesting(uptr Ip, bool Return, uptr Sp, uptr Bp, uptr *Cfa,
                          int *RaOffset, bool *BpSaved, int *BpOffset);

} // namespace __activetime

#endif // ACTIVETIME_UNWIND_H
