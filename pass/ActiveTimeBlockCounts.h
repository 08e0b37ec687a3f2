//===- ActiveTimeBlockCounts.h - Per-thread PGO block counts ----*- C++ -*-===//
//
// Part of ActiveTime. The training build for profile-guided optimization:
// LLVM's own IR PGO instrumentation places the counters (so the profile's
// CFG hashes and counter order are exactly what -fprofile-instr-use
// expects), this pass makes them per-thread and hands them to the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PASS_ACTIVETIMEBLOCKCOUNTS_H
#define ACTIVETIME_PASS_ACTIVETIMEBLOCKCOUNTS_H

#include "llvm/IR/PassManager.h"

namespace activetime {

class ActiveTimeBlockCountsPass
    : public llvm::PassInfoMixin<ActiveTimeBlockCountsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

/// -activetime-block-counts was given.
bool blockCountsEnabled();

} // namespace activetime

#endif // ACTIVETIME_PASS_ACTIVETIMEBLOCKCOUNTS_H
