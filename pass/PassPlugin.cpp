//===- PassPlugin.cpp - ActiveTime pass plugin registration ---------------===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// Entry point of ActiveTime.so, a new-pass-manager plugin. It makes the pass
// available by name to `opt -passes=activetime` and schedules it at the end of
// every default pipeline clang builds when given -fpass-plugin.
//
//===----------------------------------------------------------------------===//

#include "ActiveTimeInstrumentation.h"
#include "activetime/llvm_compat.h"

#include "llvm/Passes/PassBuilder.h"
#include ACTIVETIME_PASS_PLUGIN_H

using namespace llvm;
using namespace activetime;

static void registerActiveTimeCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "activetime")
          return false;
        MPM.addPass(ActiveTimePass());
        return true;
      });

  // OptimizerLast runs after inlining, so a function inlined everywhere leaves
  // no trace in the profile (as with XRay and post-inline
  // -finstrument-functions). In LLVM 19 this extension point is also invoked
  // by the -O0 pipeline and by the full and thin LTO pre-link pipelines, so a
  // -flto compile is instrumented before the bitcode is written and the link
  // step needs no plugin. If the plugin is loaded into the LTO backend as
  // well, the module flag set by the first run turns the second into a no-op.
  activetime::compat::registerOptimizerLastEP(
      PB, [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ActiveTimePass());
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ActiveTime", LLVM_VERSION_STRING,
          registerActiveTimeCallbacks};
}
