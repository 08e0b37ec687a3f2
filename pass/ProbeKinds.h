//===- ProbeKinds.h - Probe kinds that register themselves ------*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// A probe kind beyond the function probes (entry/exit, counting) and the
// memory-access probes the instrumentation pass inserts itself is a file of
// its own that registers it, in the manner of LLVM's registries:
//
//   static ProbeKind LoopHeaders("loop-headers", instrumentLoopHeaders);
//
// The instrumentation pass (ActiveTimeInstrumentation.cpp) runs every
// registered kind on the functions it selected, before it inserts its own
// probes, so a function's copy for timing carries the kind's probes too.
// The kind decides from its own options (cl::opt) whether it does anything;
// its runtime entry points are defined by its collector in the runtime
// (runtime/activetime_collector.h), which a program built with the kind
// fails to link without. The pass's sources are the directory's .cpp files,
// so a new kind is its file alone.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PASS_PROBEKINDS_H
#define ACTIVETIME_PASS_PROBEKINDS_H

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

namespace activetime {

class FunctionSelection;

class ProbeKind {
public:
  /// Inserts the kind's probes into the selected functions of a module;
  /// returns whether the IR changed.
  using InstrumentFn = bool (*)(llvm::Module &M, const FunctionSelection &Sel,
                                llvm::FunctionAnalysisManager &FAM);

  /// Registers the kind (a static object of its file; the plugin is loaded
  /// before any pass runs).
  ProbeKind(const char *Name, InstrumentFn Instrument);

  /// Runs every registered kind, in the order of their names (the IR does
  /// not depend on the plugin's link order); returns whether one changed
  /// the IR.
  static bool instrumentAll(llvm::Module &M, const FunctionSelection &Sel,
                            llvm::FunctionAnalysisManager &FAM);

private:
  const char *Name;
  InstrumentFn Instrument;
  ProbeKind *Next;
};

} // namespace activetime

#endif // ACTIVETIME_PASS_PROBEKINDS_H
