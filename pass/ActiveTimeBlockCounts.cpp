//===- ActiveTimeBlockCounts.cpp - Per-thread PGO block counts ------------===//
//
// Part of ActiveTime. With -activetime-block-counts, a module that LLVM's IR
// PGO instrumentation lowered (clang -Xclang -fprofile-instrument=llvm)
// gets, after the optimizer ran over it (so the instrumentation's cost to
// inlining and the rest is exactly IR PGO's):
//
//  - every counter access moved off the shared counters to the thread's own
//    copy, so threads never share a counter line and never lose an
//    increment. In an executable's code (PIE or not PIC) the copy is in
//    static TLS: one %fs-relative operand, as cheap as the shared counter;
//    one entry per function (kThreadCountersSection) tells the runtime
//    where. Elsewhere (a shared library, whose static TLS is scarce) the
//    address is offset by the thread-local bias kBlockBiasName, which the
//    runtime points at the thread's copy of the object's counters;
//  - in each function that counts, one %fs-relative test of the thread's
//    bias: 0 calls the runtime, which sets the thread up (so that its counts
//    are added up when it ends);
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

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
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

static cl::opt<bool> ClThreadLocalCounters(
    "activetime-block-counts-tls",
    cl::desc("In an executable's code (PIE or not PIC), keep each thread's "
             "block counters in static thread-local storage: 8 bytes per "
             "counter of every thread's static TLS, which glibc takes from "
             "the thread's stack; off: behind a per-thread bias, as in a "
             "shared library"),
    cl::init(true));

static cl::opt<bool> ClBlockCounts(
    "activetime-block-counts",
    cl::desc("Training build for profile-guided optimization: keep the "
             "counters of LLVM's IR PGO instrumentation per thread and "
             "write them to the ActiveTime profile (needs -Xclang "
             "-fprofile-instrument=llvm; `activetime pgo-flags train` prints "
             "the flags)"),
    cl::init(false));

bool activetime::blockCountsEnabled() { return ClBlockCounts; }

namespace {

// A counter address in an instruction's operand: Offset bytes into Counters,
// as a pointer or (ptrtoint) an integer.
struct CounterUse {
  Instruction *User;
  unsigned OpNo;
  GlobalVariable *Counters;
  int64_t Offset;
};

class BlockCountsLowering {
public:
  explicit BlockCountsLowering(Module &M)
      : M(M), Ctx(M.getContext()), PtrTy(PointerType::getUnqual(Ctx)),
        Int64Ty(Type::getInt64Ty(Ctx)) {}

  bool run();

private:
  bool inExecutable() const;
  GlobalVariable *createBias();
  void findCounterUses(Constant *C, GlobalVariable *Counters,
                       MapVector<Function *, SmallVector<CounterUse, 8>> &Out);
  void moveCounters(Function &F, ArrayRef<CounterUse> Uses,
                    GlobalVariable *Bias);
  Value *threadAddress(const CounterUse &U, Value *ThreadBias,
                       IRBuilder<> &IRB);
  Value *startThread(Function &F, GlobalVariable *Bias, bool NeedBias);
  Function *createStartFn(GlobalVariable *Desc, Comdat *C);
  static void hoistStaticAllocas(BasicBlock &Entry);
  GlobalVariable *threadCopy(GlobalVariable *Counters);
  Function *createThreadCopyFn(GlobalVariable *Counters, GlobalVariable *Copy);
  bool redirectValueProfiling();
  Function *createBiasSlot(GlobalVariable *Bias, Comdat *C);
  Constant *sectionBound(bool Start, InstrProfSectKind Kind);
  std::string sectionName(InstrProfSectKind Kind) const;
  Constant *namedSectionBound(bool Start, StringRef Section);
  GlobalVariable *createDesc(Function *Slot, Comdat *C);
  void createCtorAndDtor(GlobalVariable *Desc, Comdat *C);

  Module &M;
  LLVMContext &Ctx;
  PointerType *PtrTy;
  IntegerType *Int64Ty;
  bool ToThread = false; // counters in static TLS (an executable's code)
  Function *StartFn = nullptr;
  DenseMap<GlobalVariable *, GlobalVariable *> ThreadCopies;
};

} // namespace

/// Code that only an executable can hold, whose local-exec TLS the linker
/// resolves to constant offsets from the thread pointer.
bool BlockCountsLowering::inExecutable() const {
  return ClThreadLocalCounters &&
         Triple(M.getTargetTriple()).isOSBinFormatELF() &&
         (M.getPIELevel() != PIELevel::Default ||
          M.getPICLevel() == PICLevel::NotPIC);
}

bool BlockCountsLowering::run() {
  if (M.getGlobalVariable(abi::kBlockBiasName))
    return false; // done already (the pre-link half of an LTO build)
  bool Changed = redirectValueProfiling();
  if (M.getGlobalVariable(getInstrProfCounterBiasVarName())) {
    Ctx.emitError("-activetime-block-counts: the IR PGO counters of '" +
                  M.getModuleIdentifier() +
                  "' are relocated; drop -mllvm -runtime-counter-relocation "
                  "(see `activetime pgo-flags train`)");
    return Changed;
  }
  std::string Section = sectionName(IPSK_cnts);
  MapVector<Function *, SmallVector<CounterUse, 8>> Uses;
  for (GlobalVariable &GV : M.globals())
    if (GV.getSection() == Section)
      findCounterUses(&GV, &GV, Uses);
  if (Uses.empty())
    return Changed;
  ToThread = inExecutable();
  Comdat *C = M.getOrInsertComdat(abi::kBlockCountsDescName);
  GlobalVariable *Bias = createBias();
  Bias->setComdat(C);
  GlobalVariable *Desc = createDesc(createBiasSlot(Bias, C), C);
  StartFn = createStartFn(Desc, C);
  for (auto &[F, FUses] : Uses)
    moveCounters(*F, FUses, Bias);
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

/// The instruction operands that hold \p C, an address in \p Counters
/// (through constant GEPs and ptrtoint), by function. Other constant forms
/// keep the shared counter, which the runtime reads too.
void BlockCountsLowering::findCounterUses(
    Constant *C, GlobalVariable *Counters,
    MapVector<Function *, SmallVector<CounterUse, 8>> &Out) {
  const DataLayout &DL = M.getDataLayout();
  for (Use &U : C->uses()) {
    if (auto *CE = dyn_cast<ConstantExpr>(U.getUser())) {
      if (CE->getOpcode() == Instruction::GetElementPtr ||
          CE->getOpcode() == Instruction::PtrToInt)
        findCounterUses(CE, Counters, Out);
      continue;
    }
    auto *I = dyn_cast<Instruction>(U.getUser());
    if (!I)
      continue;
    Value *Addr = U.get();
    if (auto *CE = dyn_cast<ConstantExpr>(Addr);
        CE && CE->getOpcode() == Instruction::PtrToInt)
      Addr = CE->getOperand(0);
    APInt Offset(DL.getIndexTypeSizeInBits(PtrTy), 0);
    if (Addr->stripAndAccumulateConstantOffsets(DL, Offset,
                                                /*AllowNonInbounds=*/true) ==
        Counters)
      Out[I->getFunction()].push_back(
          {I, U.getOperandNo(), Counters, Offset.getSExtValue()});
  }
}

/// \p F's counter addresses become the thread's, each built right before its
/// use (a PHI's: at the end of the incoming block), so that instruction
/// selection folds a thread-local one into a single %fs-relative operand.
void BlockCountsLowering::moveCounters(Function &F, ArrayRef<CounterUse> Uses,
                                       GlobalVariable *Bias) {
  Value *ThreadBias = startThread(F, Bias, /*NeedBias=*/!ToThread);
  for (const CounterUse &U : Uses) {
    Instruction *At = U.User;
    if (auto *Phi = dyn_cast<PHINode>(U.User))
      At = Phi->getIncomingBlock(U.OpNo)->getTerminator();
    if (At->isEHPad()) // a catchswitch: nothing goes before it
      continue;        // (its count stays in the shared counters)
    IRBuilder<> IRB(At);
    Value *Addr = threadAddress(U, ThreadBias, IRB);
    if (U.User->getOperand(U.OpNo)->getType()->isIntegerTy())
      Addr = IRB.CreatePtrToInt(Addr, U.User->getOperand(U.OpNo)->getType());
    U.User->setOperand(U.OpNo, Addr);
  }
}

Value *BlockCountsLowering::threadAddress(const CounterUse &U,
                                          Value *ThreadBias,
                                          IRBuilder<> &IRB) {
  if (ToThread)
    return IRB.CreateConstInBoundsGEP1_64(
        IRB.getInt8Ty(), IRB.CreateThreadLocalAddress(threadCopy(U.Counters)),
        U.Offset);
  Constant *Shared = ConstantExpr::getPtrToInt(
      ConstantExpr::getGetElementPtr(IRB.getInt8Ty(), U.Counters,
                                     ConstantInt::get(Int64Ty, U.Offset)),
      Int64Ty);
  return IRB.CreateIntToPtr(IRB.CreateAdd(ThreadBias, Shared), PtrTy);
}

/// \p Counters' thread-local copy, with the entry that maps one to the
/// other, in \p Counters' COMDAT group: where the function's code goes.
GlobalVariable *BlockCountsLowering::threadCopy(GlobalVariable *Counters) {
  GlobalVariable *&Copy = ThreadCopies[Counters];
  if (Copy)
    return Copy;
  Type *Ty = Counters->getValueType();
  Copy = new GlobalVariable(
      M, Ty, /*isConstant=*/false, Counters->getLinkage(),
      Constant::getNullValue(Ty), Counters->getName() + abi::kThreadCopySuffix,
      nullptr, GlobalValue::LocalExecTLSModel);
  Copy->setVisibility(Counters->getVisibility());
  Copy->setComdat(Counters->getComdat());
  Copy->setAlignment(Counters->getAlign());

  using Field = abi::ThreadCountersEntryField::Index;
  StructType *EntryTy = abi::getThreadCountersEntryType(Ctx);
  uint64_t NumCounters =
      M.getDataLayout().getTypeAllocSize(Ty) / sizeof(uint64_t);
  abi::DescInitializer<Field> Init(EntryTy);
  Init.set(Field::Counters, Counters)
      .set(Field::ThreadCopy, createThreadCopyFn(Counters, Copy))
      .setInt(Field::NumCounters, NumCounters);
  auto *Entry = new GlobalVariable(
      M, EntryTy, /*isConstant=*/false, GlobalValue::PrivateLinkage,
      Init.get(), Counters->getName() + abi::kThreadCountersEntrySuffix);
  Entry->setSection(abi::kThreadCountersSection);
  Entry->setComdat(Counters->getComdat());
  Entry->setAlignment(Align(8));
  appendToCompilerUsed(M, {Entry});
  return Copy;
}

Function *BlockCountsLowering::createThreadCopyFn(GlobalVariable *Counters,
                                                  GlobalVariable *Copy) {
  Function *Fn = Function::createWithDefaultAttr(
      FunctionType::get(PtrTy, /*isVarArg=*/false),
      GlobalValue::PrivateLinkage, M.getDataLayout().getProgramAddressSpace(),
      Counters->getName() + abi::kThreadCopyFnSuffix, &M);
  Fn->setComdat(Counters->getComdat());
  Fn->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> IRB(BasicBlock::Create(Ctx, "", Fn));
  IRB.CreateRet(IRB.CreateThreadLocalAddress(Copy));
  return Fn;
}

/// Moves the entry block's static allocas (the optimizer leaves some after
/// other instructions, e.g. inlined callees') up to its leading ones: split
/// off the entry block by the test below, they would be allocated at run
/// time.
void BlockCountsLowering::hoistStaticAllocas(BasicBlock &Entry) {
  Instruction *FirstOther = nullptr;
  SmallVector<AllocaInst *, 8> Late;
  for (Instruction &I : Entry) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI && !FirstOther)
      FirstOther = &I;
    else if (AI && FirstOther && AI->isStaticAlloca())
      Late.push_back(AI);
  }
  for (AllocaInst *AI : Late)
    AI->moveBefore(FirstOther);
}

/// The object's slow path, which every counting function calls: it keeps
/// every general purpose register (preserve_most), so that a function's hot
/// path saves none for it and needs no stack frame, and it passes the
/// runtime the object's descriptor.
Function *BlockCountsLowering::createStartFn(GlobalVariable *Desc, Comdat *C) {
  Function *Fn = Function::createWithDefaultAttr(
      FunctionType::get(Int64Ty, /*isVarArg=*/false),
      GlobalValue::LinkOnceODRLinkage,
      M.getDataLayout().getProgramAddressSpace(), abi::kBlockStartName, &M);
  Fn->setVisibility(GlobalValue::HiddenVisibility);
  Fn->setComdat(C);
  Fn->setCallingConv(CallingConv::PreserveMost);
  Fn->addFnAttr(Attribute::NoUnwind);
  Fn->addFnAttr(Attribute::NoInline);
  Fn->addFnAttr(Attribute::Cold);
  IRBuilder<> IRB(BasicBlock::Create(Ctx, "", Fn));
  FunctionCallee Runtime =
      M.getOrInsertFunction(abi::kBlockThreadName, Int64Ty, PtrTy);
  CallInst *Call = IRB.CreateCall(Runtime, {Desc});
  // A tail call would leave the runtime's C convention to the caller.
  Call->setTailCallKind(CallInst::TCK_NoTail);
  IRB.CreateRet(Call);
  return Fn;
}

/// At \p F's entry, past its static allocas: the thread's bias, whose 0
/// means the thread has no copies yet (or no longer: its copies were added
/// to the totals) and takes the runtime's slow path, which sets them up.
/// Returns the bias if \p NeedBias.
Value *BlockCountsLowering::startThread(Function &F, GlobalVariable *Bias,
                                        bool NeedBias) {
  BasicBlock &Entry = F.getEntryBlock();
  hoistStaticAllocas(Entry);
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*At))
    ++At;
  IRBuilder<> IRB(&*At);
  LoadInst *Fast = IRB.CreateAlignedLoad(
      Int64Ty, IRB.CreateThreadLocalAddress(Bias), Align(8), "at.bias");
  Value *Unset = IRB.CreateICmpEQ(Fast, ConstantInt::get(Int64Ty, 0));
  Instruction *Then = SplitBlockAndInsertIfThen(
      Unset, &*At, /*Unreachable=*/false,
      MDBuilder(Ctx).createUnlikelyBranchWeights());
  IRB.SetInsertPoint(Then);
  CallInst *Set = IRB.CreateCall(StartFn, {}, "at.bias.set");
  Set->setCallingConv(CallingConv::PreserveMost);
  if (!NeedBias)
    return nullptr;
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
  return namedSectionBound(Start, sectionName(Kind));
}

/// The name of an IR PGO section in this module's object format.
std::string BlockCountsLowering::sectionName(InstrProfSectKind Kind) const {
  return getInstrProfSectionName(
      Kind, Triple(M.getTargetTriple()).getObjectFormat(),
      /*AddSegmentInfo=*/false);
}

Constant *BlockCountsLowering::namedSectionBound(bool Start,
                                                 StringRef Section) {
  std::string Name = ((Start ? "__start_" : "__stop_") + Section).str();
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
      .set(Field::NamesEnd, sectionBound(false, IPSK_name))
      .set(Field::ThreadCountersBegin,
           namedSectionBound(true, abi::kThreadCountersSection))
      .set(Field::ThreadCountersEnd,
           namedSectionBound(false, abi::kThreadCountersSection));
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
