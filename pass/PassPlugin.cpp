//===- PassPlugin.cpp - ActiveTime pass plugin registration ---------------===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// Entry point of ActiveTime.so, a new-pass-manager plugin. It makes the
// passes available by name to opt:
//
//   -passes=activetime               probes, tables and registration code
//                                    (ActiveTimeInstrumentation.h)
//   -passes=activetime-census        the census of defined functions
//                                    (Census.cpp)
//   -passes=activetime-prefetch-use  prefetches from the hint file of
//                                    -activetime-prefetch-use
//                                    (ActiveTimePrefetchUse.h)
//
// and schedules one of them at the end of every default pipeline clang
// builds when given -fpass-plugin: the prefetch-use pass when
// -activetime-prefetch-use names a hint file, the instrumentation otherwise.
//
//===----------------------------------------------------------------------===//

#include "ActiveTimeBlockCounts.h"
#include "ActiveTimeInstrumentation.h"
#include "ActiveTimePrefetchUse.h"
#include "activetime/llvm_compat.h"

#include "llvm/Passes/PassBuilder.h"
#include ACTIVETIME_PASS_PLUGIN_H

using namespace llvm;
using namespace activetime;

/// The pass clang runs: a build with a hint file is a feedback build, which
/// gets prefetches and no probes. `-passes=activetime` with
/// -activetime-prefetch-use chooses the same way, as it did when the
/// feedback was a mode of the instrumentation pass.
static void addActiveTimePass(ModulePassManager &MPM) {
  // A training build counts blocks and measures no time: timing probes
  // would make it slower than LLVM's own instrumented build, and its times
  // would be those of a program running block counters.
  if (blockCountsEnabled()) {
    MPM.addPass(ActiveTimeBlockCountsPass());
    return;
  }
  std::string HintFile = getPrefetchUseFile();
  if (!HintFile.empty())
    MPM.addPass(ActiveTimePrefetchUsePass(std::move(HintFile)));
  else
    MPM.addPass(ActiveTimePass());
}

static void registerActiveTimeCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "activetime") {
          addActiveTimePass(MPM);
          return true;
        }
        if (Name == "activetime-block-counts") {
          MPM.addPass(ActiveTimeBlockCountsPass());
          return true;
        }
        if (Name == "activetime-census") {
          MPM.addPass(ActiveTimeCensusPass());
          return true;
        }
        if (Name == "activetime-prefetch-use") {
          MPM.addPass(ActiveTimePrefetchUsePass(getPrefetchUseFile()));
          return true;
        }
        return false;
      });

  // The start of the pipeline: the census of the source's functions (the
  // instrumentation after inlining names those that were inlined away), or,
  // with -activetime-before-inlining, the instrumentation itself. The run at
  // OptimizerLast then finds the module flag and does nothing, so the tables
  // and the constructor are emitted once and no function is instrumented
  // twice.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        if (!getPrefetchUseFile().empty() || blockCountsEnabled())
          return;
        if (instrumentBeforeInlining())
          MPM.addPass(ActiveTimePass());
        else
          MPM.addPass(ActiveTimeCensusPass());
      });

  // OptimizerLast runs after inlining, so a function inlined everywhere has no
  // probes (as with XRay and post-inline -finstrument-functions); the
  // census names it. In LLVM 19 this extension point is also invoked
  // by the -O0 pipeline and by the full and thin LTO pre-link pipelines, so a
  // -flto compile is instrumented before the bitcode is written and the link
  // step needs no plugin. If the plugin is loaded into the LTO backend as
  // well, the module flag set by the first run turns the second into a no-op.
  activetime::compat::registerOptimizerLastEP(
      PB, [](ModulePassManager &MPM, OptimizationLevel) {
        addActiveTimePass(MPM);
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ActiveTime", LLVM_VERSION_STRING,
          registerActiveTimeCallbacks};
}
