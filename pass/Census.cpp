//===- Census.cpp - The functions the source defined ----------------------===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// The pass instruments after inlining, so a function inlined into every
// caller has no probes and leaves no row in the report: its time is in its
// callers'. To be able to say so, a census at the start of the pipeline
// (before any inlining) writes the functions the module defines into named
// metadata:
//
//   !activetime.census = !{!0, ...}
//   !0 = !{!"linkage name", !"dir/file", i32 line, i1 local linkage}
//
// and the instrumentation, after inlining, keeps the entries whose function
// has no definition left as !activetime.inlined_away (same shape). A
// function whose definition is still there is instrumented, whatever
// happened to its calls: calls inlined into callers in this module are then
// not in its count (the user guide says so). A definition may also go
// because it was unused after other optimizations; the census cannot tell
// that from inlining, and the wording says "inlined or removed".
//
//===----------------------------------------------------------------------===//

#include "ActiveTimeInstrumentation.h"
#include "FunctionSelection.h"
#include "activetime/abi.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime;

static constexpr const char kCensusMD[] = "activetime.census";
static constexpr const char kInlinedAwayMD[] = "activetime.inlined_away";

/// Functions whose absence later is worth telling: bodies from the source,
/// not copies for the optimizer nor our own.
static bool countsInCensus(const Function &F) {
  return !F.isDeclaration() && !F.hasAvailableExternallyLinkage() &&
         !F.getName().starts_with(abi::kRuntimePrefix) && !F.isIntrinsic();
}

PreservedAnalyses ActiveTimeCensusPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  if (M.getModuleFlag(abi::kInstrumentedFlag) ||
      M.getNamedMetadata(kCensusMD))
    return PreservedAnalyses::all();
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *Census = M.getOrInsertNamedMetadata(kCensusMD);
  Type *Int32Ty = Type::getInt32Ty(Ctx);
  for (const Function &F : M) {
    if (!countsInCensus(F))
      continue;
    const DISubprogram *SP = F.getSubprogram();
    Metadata *Ops[] = {
        MDString::get(Ctx, F.getName()),
        MDString::get(Ctx, getSourceFile(F)),
        ConstantAsMetadata::get(
            ConstantInt::get(Int32Ty, SP ? SP->getLine() : 0)),
        ConstantAsMetadata::get(
            ConstantInt::get(Type::getInt1Ty(Ctx), F.hasLocalLinkage()))};
    Census->addOperand(MDNode::get(Ctx, Ops));
  }
  // Named metadata invalidates no analysis.
  return PreservedAnalyses::all();
}

bool activetime::recordInlinedAway(Module &M) {
  NamedMDNode *Census = M.getNamedMetadata(kCensusMD);
  if (!Census)
    return false;
  // The defined functions, also under their names before a clone suffix
  // (foo.constprop.0, foo.specialized.1: foo's code is still there).
  StringSet<> Defined;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    StringRef Name = F.getName();
    Defined.insert(Name);
    for (size_t Dot = Name.find('.'); Dot != StringRef::npos;
         Dot = Name.find('.', Dot + 1))
      Defined.insert(Name.take_front(Dot));
  }
  NamedMDNode *Away = M.getOrInsertNamedMetadata(kInlinedAwayMD);
  for (const MDNode *Entry : Census->operands()) {
    if (Entry->getNumOperands() != 4)
      continue;
    auto *Name = dyn_cast<MDString>(Entry->getOperand(0));
    if (!Name)
      continue;
    if (Defined.contains(Name->getString()))
      continue;
    Away->addOperand(const_cast<MDNode *>(Entry));
    if (printDecisions()) {
      auto *File = dyn_cast<MDString>(Entry->getOperand(1));
      errs() << "activetime: inlined away: " << Name->getString();
      if (File && !File->getString().empty())
        errs() << " (" << File->getString() << ":"
               << mdconst::extract<ConstantInt>(Entry->getOperand(2))
                      ->getZExtValue()
               << ")";
      errs() << "\n";
    }
  }
  Census->eraseFromParent();
  // Sorted by name: the table (and the profile) does not depend on the
  // order functions had in the module.
  SmallVector<MDNode *, 16> Sorted(Away->operands());
  llvm::sort(Sorted, [](const MDNode *A, const MDNode *B) {
    return cast<MDString>(A->getOperand(0))->getString() <
           cast<MDString>(B->getOperand(0))->getString();
  });
  Away->clearOperands();
  for (MDNode *N : Sorted)
    Away->addOperand(N);
  if (Away->getNumOperands() == 0)
    Away->eraseFromParent();
  return true;
}

std::vector<InlinedAwayFunction> activetime::readInlinedAway(const Module &M) {
  std::vector<InlinedAwayFunction> Out;
  const NamedMDNode *Away = M.getNamedMetadata(kInlinedAwayMD);
  if (!Away)
    return Out;
  for (const MDNode *Entry : Away->operands()) {
    if (Entry->getNumOperands() != 4)
      continue;
    auto *Name = dyn_cast<MDString>(Entry->getOperand(0));
    auto *File = dyn_cast<MDString>(Entry->getOperand(1));
    auto *Line = mdconst::dyn_extract<ConstantInt>(Entry->getOperand(2));
    auto *Local = mdconst::dyn_extract<ConstantInt>(Entry->getOperand(3));
    if (!Name || !File || !Line || !Local)
      continue;
    Out.push_back({Name->getString().str(), File->getString().str(),
                   unsigned(Line->getZExtValue()), !Local->isZero()});
  }
  return Out;
}
