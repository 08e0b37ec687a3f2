//===- activetime_probes.h - Probe logic with explicit ticks ----*- C++ -*-===//
//
// The entry points __activetime_func_enter/exit read the tick and run this
// logic; tests call these variants to inject ticks.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROBES_H
#define ACTIVETIME_PROBES_H

#include "activetime_internal.h"

namespace __activetime {
// Site: the call site (return address) the entry probe would read; 0 in
// tests that do not care.
void ProbeEnterAt(const FuncDesc *Fn, uptr Frame, u64 Now, uptr Site = 0);
void ProbeExitAt(const FuncDesc *Fn, uptr Frame, u64 Now);
} // namespace __activetime

#endif // ACTIVETIME_PROBES_H
