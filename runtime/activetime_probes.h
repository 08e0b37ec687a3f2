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
void ProbeEnterAt(const FuncDesc *Fn, uptr Frame, u64 Now);
void ProbeExitAt(const FuncDesc *Fn, uptr Frame, u64 Now);
} // namespace __activetime

#endif // ACTIVETIME_PROBES_H
