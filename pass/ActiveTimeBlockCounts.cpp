//===- ActiveTimeBlockCounts.cpp - Per-thread PGO block counts ------------===//
//
// Part of ActiveTime. With -activetime-block-counts, a module that LLVM's IR
// PGO instrumentation lowered with runtime counter relocation (clang
// -Xclang -fprofile-instrument=llvm -mllvm -runtime-counter-relocation) gets:
//
//  - every load of the counter bias (__llvm_profile_counter_bias, which the
//    lowering adds to each counter address) replaced by a load of the
//    thread-local kBlockBiasName: the runtime points each thread's bias at
//    its own copy of the counters, so threads never share a counter line and
//    never lose an increment, at one %fs-relative load and test per
//    function (a bias of 0 calls the runtime, which sets the thread up);
//  - the value profiling calls (indirect call targets, memory intrinsic
//    sizes) sent to the runtime's per-thread tables instead of LLVM's
//    profile runtime, which is not linked (the program writes no .profraw);
//  - one descriptor per linked object (a COMDAT group) naming its counter,
//    data and name sections, registered by a constructor.
//
// Counter placement, CFG hashes and names are LLVM's, computed at the same
// point of the same pipeline as -fprofile-instr-use computes them, which is
// why an exported profile applies record for record (docs/pgo.md).
//
//===----------------------------------------------------------------------===//

#include "ActiveTimeBlockCounts.h"

#include "ABITypes.h"
#include "activetime/abi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace activetime;

static cl::opt<bool> ClBlockCounts(
    "activetime-block-counts",
    cl::desc("Training build for profile-guided optimization: keep the "
             "counters of LLVM's IR PGO instrumentation per thread and "
             "write them to the ActiveTime profile (needs -Xclang "
             "-fprofile-instrument=llvm -mllvm -runtime-counter-relocation; "
             "`activetime pgo-flags train` prints them all)"),
    cl::init(false));

bool activetime::blockCountsEnabled() { return ClBlockCounts; }

namespace {

class BlockCountsLowering {
public:
  explicit BlockCountsLowering(Module &M)
      : M(M), Ctx(M.getContext()), PtrTy(PointerType::getUnqual(Ctx)),
        Int64Ty(Type::getInt64Ty(Ctx)) {}

  bool run();

private:
  bool hasCounters() const;
  GlobalVariable *createBias();
  void replaceBiasLoads(GlobalVariable *LLVMBias, GlobalVariable *Bias,
                        GlobalVariable *Desc);
  Value *loadBias(LoadInst *LI, GlobalVariable *Bias, GlobalVariable *Desc);
  bool redirectValueProfiling();
  Function *createBiasSlot(GlobalVariable *Bias, Comdat *C);
  Constant *sectionBound(bool Start, InstrProfSectKind Kind);
  GlobalVariable *createDesc(Function *Slot, Comdat *C);
  void createCtorAndDtor(GlobalVariable *Desc, Comdat *C);

  Module &M;
  LLVMContext &Ctx;
  PointerType *PtrTy;
  IntegerType *Int64Ty;
};

} // namespace

/// Whether the IR PGO lowering put any counters into this module.
bool BlockCountsLowering::hasCounters() const {
  std::string Cnts = getInstrProfSectionName(
      IPSK_cnts, Triple(M.getTargetTriple()).getObjectFormat(),
      /*AddSegmentInfo=*/false);
  for (const GlobalVariable &GV : M.globals())
    if (GV.getSection() == Cnts)
      return true;
  return false;
}

bool BlockCountsLowering::run() {
  if (M.getGlobalVariable(abi::kBlockBiasName))
    return false; // done already (the pre-link half of an LTO build)
  bool Changed = redirectValueProfiling();
  if (!hasCounters())
    return Changed;
  GlobalVariable *LLVMBias =
      M.getGlobalVariable(getInstrProfCounterBiasVarName());
  if (!LLVMBias) {
    Ctx.emitError("-activetime-block-counts: the IR PGO counters of '" +
                  M.getModuleIdentifier() +
                  "' are not relocated; add -mllvm "
                  "-runtime-counter-relocation (see `activetime pgo-flags "
                  "train`)");
    return Changed;
  }
  Comdat *C = M.getOrInsertComdat(abi::kBlockCountsDescName);
  GlobalVariable *Bias = createBias();
  Bias->setComdat(C);
  GlobalVariable *Desc = createDesc(createBiasSlot(Bias, C), C);
  replaceBiasLoads(LLVMBias, Bias, Desc);
  createCtorAndDtor(Desc, C);
  return true;
}

/// Initial-exec: one %fs-relative load in an executable; a shared library's
/// takes 8 bytes of the static TLS that glibc keeps for dlopen.
GlobalVariable *BlockCountsLowering::createBias() {
  auto *Bias = new GlobalVariable(
      M, Int64Ty, /*isConstant=*/false, GlobalValue::LinkOnceODRLinkage,
      ConstantInt::get(Int64Ty, 0), abi::kBlockBiasName, nullptr,
      GlobalValue::InitialExecTLSModel);
  Bias->setVisibility(GlobalValue::HiddenVisibility);
  return Bias;
}

void BlockCountsLowering::replaceBiasLoads(GlobalVariable *LLVMBias,
                                           GlobalVariable *Bias,
                                           GlobalVariable *Desc) {
  SmallVector<LoadInst *, 32> Loads;
  for (User *U : LLVMBias->users())
    if (auto *LI = dyn_cast<LoadInst>(U))
      Loads.push_back(LI);
  for (LoadInst *LI : Loads) {
    LI->replaceAllUsesWith(loadBias(LI, Bias, Desc));
    LI->eraseFromParent();
  }
}

/// The thread's bias where \p LI loaded LLVM's: a bias of 0 means the thread
/// has no copies yet (or no longer: its copies were added to the totals),
/// and the runtime's slow path sets them up. Past the entry block's static
/// allocas, which must stay in the entry block.
Value *BlockCountsLowering::loadBias(LoadInst *LI, GlobalVariable *Bias,
                                     GlobalVariable *Desc) {
  Instruction *At = LI;
  BasicBlock *BB = LI->getParent();
  if (BB->isEntryBlock()) {
    BasicBlock::iterator I = BB->getFirstInsertionPt();
    while (isa<AllocaInst>(*I) || &*I == LI)
      ++I;
    At = &*I;
  }
  IRBuilder<> IRB(At);
  LoadInst *Fast = IRB.CreateAlignedLoad(
      Int64Ty, IRB.CreateThreadLocalAddress(Bias), Align(8), "at.bias");
  Value *Unset = IRB.CreateICmpEQ(Fast, ConstantInt::get(Int64Ty, 0));
  Instruction *Then = SplitBlockAndInsertIfThen(
      Unset, At, /*Unreachable=*/false,
      MDBuilder(Ctx).createUnlikelyBranchWeights());
  IRB.SetInsertPoint(Then);
  FunctionCallee Slow = M.getOrInsertFunction(abi::kBlockThreadName, Int64Ty,
                                              PtrTy);
  CallInst *Set = IRB.CreateCall(Slow, {Desc}, "at.bias.set");
  IRB.SetInsertPoint(&*At->getParent()->begin());
  PHINode *Phi = IRB.CreatePHI(Int64Ty, 2, "at.bias.thread");
  Phi->addIncoming(Fast, Fast->getParent());
  Phi->addIncoming(Set, Then->getParent());
  return Phi;
}

/// The lowering's calls into LLVM's profile runtime, redirected to
/// ActiveTime's (same arguments: value, the caller's data record, site).
bool BlockCountsLowering::redirectValueProfiling() {
  static const std::pair<const char *, const char *> Redirects[] = {
      {"__llvm_profile_instrument_target", abi::kValueProfileName},
      {"__llvm_profile_instrument_memop", abi::kMemOpProfileName}};
  bool Changed = false;
  for (auto [From, To] : Redirects) {
    Function *F = M.getFunction(From);
    if (!F || !F->isDeclaration() || F->use_empty())
      continue;
    FunctionCallee Ours = M.getOrInsertFunction(To, F->getFunctionType());
    F->replaceAllUsesWith(Ours.getCallee());
    F->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

Function *BlockCountsLowering::createBiasSlot(GlobalVariable *Bias,
                                              Comdat *C) {
  auto *Ty = FunctionType::get(PtrTy, /*isVarArg=*/false);
  Function *Slot = Function::createWithDefaultAttr(
      Ty, GlobalValue::LinkOnceODRLinkage,
      M.getDataLayout().getProgramAddressSpace(), abi::kBlockBiasSlotName,
      &M);
  Slot->setVisibility(GlobalValue::HiddenVisibility);
  Slot->setComdat(C);
  Slot->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> IRB(BasicBlock::Create(Ctx, "", Slot));
  IRB.CreateRet(IRB.CreateThreadLocalAddress(Bias));
  return Slot;
}

/// The linker's __start_/__stop_ symbol of an IR PGO section, hidden so that
/// each linked object gets its own (weak: the section may be dropped).
Constant *BlockCountsLowering::sectionBound(bool Start,
                                            InstrProfSectKind Kind) {
  std::string Name =
      (Start ? "__start_" : "__stop_") +
      getInstrProfSectionName(Kind, Triple(M.getTargetTriple()).getObjectFormat(),
                              /*AddSegmentInfo=*/false);
  if (GlobalVariable *GV = M.getGlobalVariable(Name))
    return GV;
  auto *GV = new GlobalVariable(M, Int64Ty, /*isConstant=*/false,
                                GlobalValue::ExternalWeakLinkage, nullptr,
                                Name);
  GV->setVisibility(GlobalValue::HiddenVisibility);
  return GV;
}

GlobalVariable *BlockCountsLowering::createDesc(Function *Slot, Comdat *C) {
  using Field = abi::BlockCountsDescField::Index;
  StructType *Ty = abi::getBlockCountsDescType(Ctx);
  abi::DescInitializer<Field> Init(Ty);
  Init.set(Field::BiasSlot, Slot)
      .set(Field::CountersBegin, sectionBound(true, IPSK_cnts))
      .set(Field::CountersEnd, sectionBound(false, IPSK_cnts))
      .set(Field::DataBegin, sectionBound(true, IPSK_data))
      .set(Field::DataEnd, sectionBound(false, IPSK_data))
      .set(Field::NamesBegin, sectionBound(true, IPSK_name))
      .set(Field::NamesEnd, sectionBound(false, IPSK_name));
  auto *Desc = new GlobalVariable(M, Ty, /*isConstant=*/false,
                                  GlobalValue::LinkOnceODRLinkage, Init.get(),
                                  abi::kBlockCountsDescName);
  Desc->setVisibility(GlobalValue::HiddenVisibility);
  Desc->setComdat(C);
  return Desc;
}

void BlockCountsLowering::createCtorAndDtor(GlobalVariable *Desc, Comdat *C) {
  Type *VoidTy = Type::getVoidTy(Ctx);
  auto *HookTy = FunctionType::get(VoidTy, /*isVarArg=*/false);
  auto Create = [&](const char *Name, const char *Callee) {
    Function *Fn = Function::createWithDefaultAttr(
        HookTy, GlobalValue::LinkOnceODRLinkage,
        M.getDataLayout().getProgramAddressSpace(), Name, &M);
    Fn->setVisibility(GlobalValue::HiddenVisibility);
    Fn->setComdat(C);
    Fn->addFnAttr(Attribute::NoUnwind);
    IRBuilder<> IRB(BasicBlock::Create(Ctx, "", Fn));
    IRB.CreateCall(M.getOrInsertFunction(abi::kVersionCheckName, HookTy));
    IRB.CreateCall(M.getOrInsertFunction(Callee, VoidTy, PtrTy), {Desc});
    IRB.CreateRetVoid();
    return Fn;
  };
  // Keyed on the descriptor: the constructor goes wherever the group goes.
  appendToGlobalCtors(M,
                      Create(abi::kBlockCountsCtorName,
                             abi::kRegisterBlockCountsName),
                      abi::kCtorPriority, Desc);
  appendToGlobalDtors(M,
                      Create(abi::kBlockCountsDtorName,
                             abi::kUnregisterBlockCountsName),
                      abi::kCtorPriority, Desc);
}

PreservedAnalyses ActiveTimeBlockCountsPass::run(Module &M,
                                                 ModuleAnalysisManager &) {
  if (!ClBlockCounts)
    return PreservedAnalyses::all();
  return BlockCountsLowering(M).run() ? PreservedAnalyses::none()
                                      : PreservedAnalyses::all();
}
