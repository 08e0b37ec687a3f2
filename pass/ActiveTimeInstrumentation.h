//===- ActiveTimeInstrumentation.h - ActiveTime probe insertion -*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// This file declares the ActiveTime instrumentation pass. It gives every
// function that survives the optimization pipeline an entry probe and an exit
// probe on each path out of it, emits a per-module table describing the
// instrumented functions, and a constructor/destructor pair that registers the
// table with the ActiveTime runtime. The probe names are defined in
// include/activetime/abi.h, the table layouts in include/activetime/ABIData.inc.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PASS_ACTIVETIMEINSTRUMENTATION_H
#define ACTIVETIME_PASS_ACTIVETIMEINSTRUMENTATION_H

#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace activetime {

/// Module pass inserting ActiveTime probes, tables and registration code.
/// Running it on a module that already carries the "activetime.instrumented"
/// module flag does nothing, so it is safe to schedule more than once (for
/// example in both halves of an LTO build).
class ActiveTimePass : public llvm::PassInfoMixin<ActiveTimePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  // Instrumentation must not be dropped by optnone or opt-bisect.
  static bool isRequired() { return true; }
};

/// Whether -activetime-before-inlining asks for the function probes at the
/// start of the pipeline (PassPlugin.cpp schedules the pass there).
bool instrumentBeforeInlining();

/// The census of the functions the source defined (Census.cpp), taken at the
/// start of the optimization pipeline into the module's named metadata
/// "activetime.census", so that the instrumentation after inlining can tell
/// which of them the optimizer inlined away.
class ActiveTimeCensusPass : public llvm::PassInfoMixin<ActiveTimeCensusPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

/// Moves the census entries whose function has no definition left into the
/// named metadata "activetime.inlined_away" (and prints them with
/// -activetime-print-decisions); returns whether the module changed.
bool recordInlinedAway(llvm::Module &M);

/// An entry of !activetime.inlined_away.
struct InlinedAwayFunction {
  std::string Name; // linkage name
  std::string File; // "dir/file", or empty without debug info
  unsigned Line = 0;
  bool Local = false; // internal or private linkage
};
std::vector<InlinedAwayFunction> readInlinedAway(const llvm::Module &M);

} // namespace activetime

#endif // ACTIVETIME_PASS_ACTIVETIMEINSTRUMENTATION_H
