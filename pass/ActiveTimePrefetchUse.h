//===- ActiveTimePrefetchUse.h - Prefetch feedback pass ---------*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// This file declares the prefetch feedback pass, the use half of stride
// profiling: a module built with -activetime-strides records the strides of
// its loads at run time, `activetime export --format=prefetch` turns the
// constant ones into a hint file, and this pass inserts llvm.prefetch for
// them when the program is compiled again. A feedback build gets no probes.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PASS_ACTIVETIMEPREFETCHUSE_H
#define ACTIVETIME_PASS_ACTIVETIMEPREFETCHUSE_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace activetime {

/// The hint file of -activetime-prefetch-use, empty if not given.
std::string getPrefetchUseFile();

/// Module pass inserting a prefetch before every load in a loop that the
/// hint file names (by its key and shape in this compile). Hints of this
/// module that no longer match are reported as warnings and ignored, and so
/// is a file that cannot be read: the feedback is an optimization, never a
/// reason to fail the build.
class ActiveTimePrefetchUsePass
    : public llvm::PassInfoMixin<ActiveTimePrefetchUsePass> {
public:
  explicit ActiveTimePrefetchUsePass(std::string HintFile);
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  // Runs wherever the instrumentation would have: the hints were measured
  // on the profiling build, which instrumented optnone functions too.
  static bool isRequired() { return true; }

private:
  std::string HintFile;
};

} // namespace activetime

#endif // ACTIVETIME_PASS_ACTIVETIMEPREFETCHUSE_H
