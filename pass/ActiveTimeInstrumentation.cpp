//===- ActiveTimeInstrumentation.cpp - ActiveTime probe insertion ---------===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// This file implements ActiveTimePass. It works in two phases per module:
//
//  * find: the functions that get probes (FunctionSelection.cpp) and, with
//    stride profiling on, each chosen function's memory access sites
//    (ActiveTimeStrides.cpp);
//
//  * insert: emit the module's function and site tables and descriptor, then
//    give each chosen function an entry probe and an exit probe on every way
//    out of it (returns, musttail calls, unwinding) and a memory-access probe
//    before each dynamic site, and finally a constructor and a destructor
//    that register the descriptor with the runtime.
//
// See include/activetime/abi.h for the probe signatures and
// include/activetime/ABIData.inc for the table layouts (pass/ABITypes.h).
//
//===----------------------------------------------------------------------===//

#include "ActiveTimeInstrumentation.h"
#include "ABITypes.h"
#include "ActiveTimeStrides.h"
#include "ProbeKinds.h"
#include "FunctionSelection.h"
#include "activetime/abi.h"
#include "activetime/llvm_compat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/EHPersonalities.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/EscapeEnumerator.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <queue>
#include <vector>

using namespace llvm;
using namespace activetime;

#define DEBUG_TYPE "activetime"

static cl::opt<unsigned> ClCloneMaxSize(
    "activetime-clone-max-size",
    cl::desc("Functions of up to this many IR instructions get a separate "
             "timed copy that their entry jumps to when the call is timed, "
             "so a counted call runs no exit check and keeps its tail calls "
             "and shrink-wrapped prologue; 0 never copies (see also "
             "-activetime-clone-short-path)"),
    cl::init(200));

static cl::opt<bool> ClSamplePoll(
    "activetime-sample-poll",
    cl::desc("Start every instrumented entry with the sample poll's check "
             "(abi.h), so counted calls read their thread's code samples "
             "and a single-threaded program that counts needs no runtime "
             "thread for them (glibc keeps its single-threaded malloc and "
             "stdio); costs every counted call a few loads "
             "(docs/performance.md)"),
    cl::init(false));

static cl::opt<unsigned> ClCloneAlwaysSize(
    "activetime-clone-always-size",
    cl::desc("Functions of up to this many IR instructions get a timed copy "
             "(within -activetime-clone-max-size) whatever their shortest "
             "path; larger ones only under -activetime-clone-short-path"),
    cl::init(100));

static cl::opt<unsigned> ClCloneShortPath(
    "activetime-clone-short-path",
    cl::desc("A function above -activetime-clone-always-size gets a timed "
             "copy only if some path from its entry to a return runs at most "
             "this many IR instructions: otherwise every call runs at least "
             "that many, the exit checks of in-place instrumentation cost it "
             "little, and the copy would only double its text; 0: the size "
             "alone decides"),
    cl::init(32));

static cl::opt<bool> ClHandleExceptions(
    "activetime-handle-exceptions",
    cl::desc("Run the exit probe when an exception unwinds through an "
             "instrumented function (turns calls that may throw into invokes)"),
    cl::init(true));

static cl::opt<bool> ClBeforeInlining(
    "activetime-before-inlining",
    cl::desc("Put the function probes in at the start of the optimization "
             "pipeline, before inlining (as -finstrument-functions does), so "
             "calls that get inlined keep their probes and are counted and "
             "timed; the default instruments after inlining"),
    cl::init(false));

bool activetime::instrumentBeforeInlining() { return ClBeforeInlining; }

/// Marks the stores of the call site into the frame slot (storeCallSite).
static constexpr const char kCallSiteMD[] = "activetime.callsite";

/// Whether llvm.addressofreturnaddress can be lowered for M's target.
static bool hasAddrOfReturnAddr(const Module &M) {
  Triple TT(M.getTargetTriple());
  return TT.getArch() == Triple::x86_64 || TT.getArch() == Triple::x86 ||
         TT.isAArch64();
}

/// After inlining, F's own frame slot (whose call-site store names F) gives
/// way to F's return address slot, as without -activetime-before-inlining:
/// the slots of the copies inlined into F are allocas of F's frame, which
/// the backend may place above F's own slot, and the runtime would then take
/// F's frame for one a longjmp abandoned when such a copy's probe ran. The
/// return address slot lies above every alloca of F. Returns whether F
/// changed.
static bool useReturnAddressSlot(Function &F, StoreInst *OwnStore) {
  auto *Slot = dyn_cast<AllocaInst>(OwnStore->getPointerOperand());
  if (!Slot || !hasAddrOfReturnAddr(*F.getParent()))
    return false;
  // Only the probes and the call-site store may use it.
  for (User *U : Slot->users())
    if (U != OwnStore && !isa<CallInst>(U))
      return false;
  IRBuilder<> IRB(&*F.getEntryBlock().getFirstInsertionPt());
  Value *RetSlot = IRB.CreateIntrinsic(Intrinsic::addressofreturnaddress,
                                       {Slot->getType()}, {});
  Value *RA = OwnStore->getValueOperand();
  OwnStore->eraseFromParent();
  if (auto *RAI = dyn_cast<Instruction>(RA))
    if (RAI->use_empty())
      RAI->eraseFromParent();
  Slot->replaceAllUsesWith(RetSlot);
  Slot->eraseFromParent();
  return true;
}

/// After inlining (-activetime-before-inlining): the call-site stores that
/// an inlined copy brought into another function store 0, "call site
/// unknown", instead of that function's return address; the function's own
/// probes pass its return address slot (useReturnAddressSlot). Returns
/// whether anything changed.
static bool fixInlinedCallSites(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    StoreInst *OwnStore = nullptr;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *S = dyn_cast<StoreInst>(&I);
        MDNode *MD = S ? S->getMetadata(kCallSiteMD) : nullptr;
        if (!MD || MD->getNumOperands() != 1)
          continue;
        auto *Own = dyn_cast_or_null<ValueAsMetadata>(MD->getOperand(0).get());
        if (Own && Own->getValue() == &F) {
          OwnStore = S;
          continue;
        }
        Value *Old = S->getValueOperand();
        S->setOperand(0, ConstantPointerNull::get(PointerType::getUnqual(M.getContext())));
        S->setMetadata(kCallSiteMD, nullptr);
        if (auto *OldI = dyn_cast<Instruction>(Old))
          if (OldI->use_empty())
            OldI->eraseFromParent();
        Changed = true;
      }
    if (OwnStore)
      Changed |= useReturnAddressSlot(F, OwnStore);
  }
  return Changed;
}

STATISTIC(NumInstrumented, "Number of functions instrumented");
STATISTIC(NumAddrUnknown, "Number of local COMDAT functions whose address "
                          "the table cannot hold");
STATISTIC(NumInvokes, "Number of calls turned into invokes for exit probes");

namespace {

class ActiveTimeInstrumenter {
public:
  ActiveTimeInstrumenter(Module &M, const FunctionSelection &Selection,
                         FunctionAnalysisManager &FAM);

  /// Instruments the selected functions; returns true if the IR changed.
  bool run();

private:
  // Find phase (the functions are already selected).
  void findSites();

  // Insert phase.
  void declareProbes();
  Constant *createString(StringRef Str, const Twine &Name);
  GlobalVariable *createTables(ArrayRef<Function *> Fns);
  void emitAddressFixups(GlobalVariable *Table,
                         ArrayRef<std::pair<Function *, unsigned>> Fixups);
  Constant *createSiteTable();
  std::pair<Constant *, unsigned> createInlinedAwayTable();
  void insertMemProbes(GlobalVariable *ModuleDesc);
  void createCtorAndDtor(GlobalVariable *ModuleDesc);
  void createCounters(unsigned NumFuncs);
  void instrumentFunction(Function &F, Constant *Desc, unsigned Index);
  static bool canCopyForTiming(const Function &F);
  Function *copyForTiming(Function &F);
  void emitExits(Function &F, Value *Timed, Constant *Desc);
  Value *emitCount(IRBuilder<> &IRB, unsigned Index);
  void emitSamplePoll(IRBuilder<> &IRB, Function *Reenter);
  Value *emitEntry(IRBuilder<> &IRB, Constant *Desc, unsigned Index);
  void emitJump(IRBuilder<> &IRB, Function &Target, Instruction *Then);
  void storeCallSite(IRBuilder<> &IRB);
  static CallInst *tailCallBefore(Instruction *Ret);
  void emitExit(IRBuilder<> &IRB, Value *Timed, Constant *Desc,
                ArrayRef<OperandBundleDef> Bundles = {});
  void emitProbe(IRBuilder<> &IRB, FunctionCallee Probe, Constant *Desc,
                 ArrayRef<OperandBundleDef> Bundles = {});

  Module &M;
  LLVMContext &Ctx;
  const FunctionSelection &Selection;
  FunctionAnalysisManager &FAM;
  std::vector<MemSite> Sites; // in function order, then instruction order

  PointerType *PtrTy;
  IntegerType *Int32Ty;
  IntegerType *Int64Ty;
  StructType *FuncDescTy;
  StructType *ModuleDescTy;
  StructType *MemSiteDescTy;
  FunctionCallee EnterProbe;
  FunctionCallee ExitProbe;
  // Timed or counted (abi.h): the thread-local pointer to the counters, and
  // whether it is the runtime's (PIC modules) with the module's CountBase.
  GlobalVariable *CountsTls = nullptr;
  GlobalVariable *Bootstrap = nullptr; // the module's, for CountsTls
  bool SharedCounts = false;
  GlobalVariable *ModuleDescGV = nullptr;
  // The sample poll (abi.h): the runtime's thread-local words, its slow path.
  GlobalVariable *SamplePollTls = nullptr;
  FunctionCallee SamplePoll;
  MDNode *Unlikely = nullptr;
  // Whether llvm.addressofreturnaddress can be lowered for the target;
  // elsewhere the frame address stands in for it.
  bool HasAddrOfReturnAddr;
  // Before inlining (-activetime-before-inlining) the frame argument is a
  // stack slot of the function's own (FrameSlot, in the function being
  // instrumented): a call inlined later must not pass its caller's return
  // address slot, which would make the runtime take the caller's frame
  // for an abandoned one (longjmp repair).
  bool BeforeInlining = false;
  AllocaInst *FrameSlot = nullptr;
  StringMap<Constant *> FileStrings;
  StringMap<Constant *> SiteStrings;
};

} // end anonymous namespace

ActiveTimeInstrumenter::ActiveTimeInstrumenter(
    Module &M, const FunctionSelection &Selection, FunctionAnalysisManager &FAM)
    : M(M), Ctx(M.getContext()), Selection(Selection), FAM(FAM) {
  BeforeInlining = ClBeforeInlining;
  PtrTy = PointerType::getUnqual(Ctx);
  Int32Ty = Type::getInt32Ty(Ctx);
  Int64Ty = Type::getInt64Ty(Ctx);
  FuncDescTy = abi::getFuncDescType(Ctx);
  ModuleDescTy = abi::getModuleDescType(Ctx);
  MemSiteDescTy = abi::getMemSiteDescType(Ctx);

  HasAddrOfReturnAddr = hasAddrOfReturnAddr(M);
}

//===----------------------------------------------------------------------===//
// Find phase
//===----------------------------------------------------------------------===//

/// The memory access sites of the selected functions: all of them with
/// stride profiling on, else those of functions marked
/// [[activetime::strides]] (which turns memory probes on, in loops, for its
/// function when they are globally off).
void ActiveTimeInstrumenter::findSites() {
  MemMode Mode = getMemMode();
  if (Mode == MemMode::None && !Selection.anyWantsStrides())
    return;
  if (BeforeInlining) {
    // The memory probes belong after the loop optimizations (see
    // docs/design.md, "Where the probes sit"); this placement has no second
    // run there yet.
    Ctx.emitError("activetime: -activetime-before-inlining does not combine "
                  "with stride profiling (-activetime-strides, "
                  "-activetime-mem, [[activetime::strides]]): memory probes "
                  "need the final, optimized loops");
    return;
  }
  MemMode SiteMode = Mode == MemMode::All ? MemMode::All : MemMode::Loops;
  MemSiteCounts Counts;
  for (Function *F : Selection.functions())
    if (Mode != MemMode::None || Selection.wantsStrides(*F))
      findMemSites(*F, FAM, SiteMode, Sites, Counts);
  if (printDecisions())
    printSiteCounts(errs(), Sites.size(), Counts);
}

//===----------------------------------------------------------------------===//
// Insert phase
//===----------------------------------------------------------------------===//

Constant *ActiveTimeInstrumenter::createString(StringRef Str,
                                               const Twine &Name) {
  Constant *Init = ConstantDataArray::getString(Ctx, Str, /*AddNull=*/true);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return GV;
}

/// Emits __activetime_funcs (one FuncDesc per function in \p Fns, in order)
/// and __activetime_module, and returns the latter.
GlobalVariable *
ActiveTimeInstrumenter::createTables(ArrayRef<Function *> Fns) {
  namespace Field = abi::FuncDescField;
  SmallVector<Constant *, 64> Descs;
  SmallVector<std::pair<Function *, unsigned>, 4> Fixups;
  SmallString<1024> HashInput;
  for (Function *F : Fns) {
    StringRef Name = GlobalValue::dropLLVMManglingEscape(F->getName());
    // A region name is process-wide: the same name in another module, or a
    // run-time region of the header API, is the same entry of the report.
    const std::string *Region = Selection.regionName(*F);
    bool IsRegion = Region != nullptr;
    if (IsRegion)
      Name = *Region;
    // Names are separated so that {"ab","c"} and {"a","bc"} hash apart.
    HashInput += Name;
    HashInput.push_back('\0');

    Constant *File = ConstantPointerNull::get(PtrTy);
    std::string Path = getSourceFile(*F);
    if (!Path.empty()) {
      Constant *&Str = FileStrings[Path];
      if (!Str)
        Str = createString(Path, "__activetime_file");
      File = Str;
    }
    const DISubprogram *SP = F->getSubprogram();
    uint32_t Flags =
        F->hasLocalLinkage() && !IsRegion ? abi::FF_LocalLinkage : 0;
    // A local function in a COMDAT group (the initializer of an inline
    // variable or of a template's static member) is discarded with its
    // group when the linker keeps another module's copy, and a reference to
    // it from this table would then point into a discarded section: its
    // address is stored into the entry by code in its own group instead.
    Constant *Addr = F;
    if (F->hasLocalLinkage() && F->hasComdat()) {
      Fixups.emplace_back(F, unsigned(Descs.size()));
      Addr = ConstantPointerNull::get(PtrTy);
    }
    abi::DescInitializer<Field::Index> Desc(FuncDescTy);
    Desc.set(Field::Addr, Addr);
    Desc.set(Field::Name, createString(Name, "__activetime_name"));
    Desc.set(Field::File, File);
    Desc.setInt(Field::Line, SP ? SP->getLine() : 0);
    Desc.setInt(Field::Flags, Flags);
    Descs.push_back(Desc.get());
  }

  std::pair<Constant *, unsigned> InlinedAway = createInlinedAwayTable();
  ArrayType *TableTy = ArrayType::get(FuncDescTy, Descs.size());
  // Internal and comdat-free: every module and shared library carries its own
  // table, and the runtime only ever finds it through the descriptor.
  // Writable when addresses are stored into it at start-up.
  auto *Table = new GlobalVariable(M, TableTy, /*isConstant=*/Fixups.empty(),
                                   GlobalValue::InternalLinkage,
                                   ConstantArray::get(TableTy, Descs),
                                   abi::kFuncTableName);
  emitAddressFixups(Table, Fixups);

  // The fields not set are zero: Reserved, and those the runtime or the
  // constructor write (RuntimeData, SiteBase, CountBase, CountsTls).
  namespace MField = abi::ModuleDescField;
  abi::DescInitializer<MField::Index> Desc(ModuleDescTy);
  Desc.setInt(MField::AbiVersion, abi::kAbiVersion);
  Desc.setInt(MField::NumFuncs, Descs.size());
  Desc.set(MField::Funcs, Table);
  Desc.set(MField::ModuleName,
           createString(M.getSourceFileName(), "__activetime_module_name"));
  Desc.setInt(MField::Hash, xxh3_64bits(HashInput.str()));
  Desc.setInt(MField::NumSites, Sites.size());
  Desc.set(MField::Sites, createSiteTable());
  Desc.setInt(MField::Flags, (SharedCounts ? abi::MDF_SharedCounts : 0) |
                                 (ClSamplePoll ? abi::MDF_SamplePoll : 0));
  if (Bootstrap)
    Desc.set(MField::Bootstrap, Bootstrap);
  Desc.set(MField::InlinedAway, InlinedAway.first);
  Desc.setInt(MField::NumInlinedAway, InlinedAway.second);
  // Writable: the runtime keeps its per-module state in RuntimeData.
  return new GlobalVariable(M, ModuleDescTy, /*isConstant=*/false,
                            GlobalValue::InternalLinkage, Desc.get(),
                            abi::kModuleDescName);
}

/// For each COMDAT group holding local functions of \p Fixups, a
/// constructor in that group (its .init_array entry too, keyed on the
/// group's leader) that stores the functions' addresses into their entries
/// of \p Table. Everything that refers to such a function then sits in its
/// group: the linker keeps or discards it whole, as InstrProfiling and
/// SanitizerCoverage place per-function data. A group whose leader is not a
/// definition in this module keeps null addresses (the report then cannot
/// place code samples in those functions, nothing else changes).
void ActiveTimeInstrumenter::emitAddressFixups(
    GlobalVariable *Table, ArrayRef<std::pair<Function *, unsigned>> Fixups) {
  MapVector<Comdat *, SmallVector<std::pair<Function *, unsigned>, 2>> Groups;
  for (const auto &Fix : Fixups)
    Groups[Fix.first->getComdat()].push_back(Fix);
  FunctionType *VoidFnTy = FunctionType::get(Type::getVoidTy(Ctx), false);
  unsigned AS = M.getDataLayout().getProgramAddressSpace();
  for (auto &[C, Fns] : Groups) {
    GlobalValue *Leader = M.getNamedValue(C->getName());
    if (!Leader || Leader->isDeclaration() || Leader->getComdat() != C) {
      NumAddrUnknown += Fns.size();
      continue;
    }
    Function *Ctor = Function::createWithDefaultAttr(
        VoidFnTy, GlobalValue::InternalLinkage, AS, abi::kAddrCtorName, &M);
    Ctor->addFnAttr(Attribute::NoUnwind);
    Ctor->setComdat(C);
    IRBuilder<> IRB(BasicBlock::Create(Ctx, "", Ctor));
    // Volatile: GlobalOpt's constructor evaluation (which runs after this
    // pass in an LTO link) would fold a plain store into the table's
    // initializer, the reference from outside the group again.
    for (const auto &[F, Index] : Fns)
      IRB.CreateStore(F,
                      IRB.CreateConstInBoundsGEP2_32(Table->getValueType(),
                                                     Table, 0, Index),
                      /*isVolatile=*/true);
    IRB.CreateRetVoid();
    appendToGlobalCtors(M, Ctor, abi::kCtorPriority, Leader);
  }
}

/// Emits __activetime_inlined_away, a FuncDesc per function of the
/// census that was inlined away (recordInlinedAway, Census.cpp), with a null
/// address; returns it (or null) and its length.
std::pair<Constant *, unsigned>
ActiveTimeInstrumenter::createInlinedAwayTable() {
  namespace Field = abi::FuncDescField;
  SmallVector<Constant *, 16> Descs;
  for (const InlinedAwayFunction &F : readInlinedAway(M)) {
    Constant *File = ConstantPointerNull::get(PtrTy);
    if (!F.File.empty()) {
      Constant *&Str = FileStrings[F.File];
      if (!Str)
        Str = createString(F.File, "__activetime_file");
      File = Str;
    }
    // Addr stays null: the function has no code of its own.
    abi::DescInitializer<Field::Index> Desc(FuncDescTy);
    Desc.set(Field::Name,
             createString(GlobalValue::dropLLVMManglingEscape(F.Name),
                          "__activetime_name"));
    Desc.set(Field::File, File);
    Desc.setInt(Field::Line, F.Line);
    Desc.setInt(Field::Flags, F.Local ? abi::FF_LocalLinkage : 0);
    Descs.push_back(Desc.get());
  }
  if (Descs.empty())
    return {ConstantPointerNull::get(PtrTy), 0};
  ArrayType *TableTy = ArrayType::get(FuncDescTy, Descs.size());
  auto *GV = new GlobalVariable(M, TableTy, /*isConstant=*/true,
                                GlobalValue::InternalLinkage,
                                ConstantArray::get(TableTy, Descs),
                                "__activetime_inlined_away");
  return {GV, unsigned(Descs.size())};
}

/// Emits __activetime_sites (one MemSiteDesc per entry of Sites) and returns
/// it, or null when there are no sites.
Constant *ActiveTimeInstrumenter::createSiteTable() {
  if (Sites.empty())
    return ConstantPointerNull::get(PtrTy);
  auto GetString = [&](StringRef Str, const char *Name) -> Constant * {
    if (Str.empty())
      return ConstantPointerNull::get(PtrTy);
    Constant *&C = SiteStrings[Str];
    if (!C)
      C = createString(Str, Name);
    return C;
  };
  namespace Field = abi::MemSiteDescField;
  SmallVector<Constant *, 64> Descs;
  for (const MemSite &S : Sites) {
    abi::DescInitializer<Field::Index> Desc(MemSiteDescTy);
    Desc.set(Field::Func, GetString(S.Func, "__activetime_name"));
    Desc.set(Field::File, GetString(S.File, "__activetime_file"));
    Desc.setInt(Field::Line, S.Line);
    Desc.setInt(Field::Column, S.Column);
    Desc.setInt(Field::Hash, S.Hash);
    Desc.setInt(Field::StaticStride, S.StaticStride, /*IsSigned=*/true);
    Desc.setInt(Field::AccessSize, S.Size);
    Desc.setInt(Field::Flags, S.Flags);
    Desc.setInt(Field::LoopLine, S.LoopLine);
    Desc.setInt(Field::LoopDepth, S.LoopDepth);
    Desc.setInt(Field::CopyGroup, S.CopyGroup);
    Desc.setInt(Field::CopyPrev, S.CopyPrev);
    Desc.setInt(Field::CopyOffset, S.CopyOffset, /*IsSigned=*/true);
    Desc.setInt(Field::ProbeLead, S.ProbeLead);
    Desc.setInt(Field::LeadOffset, S.LeadOffset, /*IsSigned=*/true);
    Descs.push_back(Desc.get());
  }
  ArrayType *TableTy = ArrayType::get(MemSiteDescTy, Descs.size());
  return new GlobalVariable(M, TableTy, /*isConstant=*/true,
                            GlobalValue::InternalLinkage,
                            ConstantArray::get(TableTy, Descs),
                            abi::kSiteTableName);
}

/// Before each dynamic site, the inline fast path: decrement this thread's
/// countdown of the site and call the probe only when it reaches zero (a
/// skip phase ended, or the site is being inspected). Static sites, and
/// sites with a probe lead, are only in the table.
void ActiveTimeInstrumenter::insertMemProbes(GlobalVariable *ModuleDesc) {
  if (llvm::all_of(Sites, [](const MemSite &S) { return S.isStatic(); }))
    return;
  AttributeList Attrs = AttributeList().addFnAttribute(Ctx, Attribute::NoUnwind);
  FunctionCallee Probe =
      M.getOrInsertFunction(abi::kMemAccessName, Attrs, Type::getVoidTy(Ctx),
                            PtrTy, Int32Ty, PtrTy, PtrTy);
  // Thread-local and internal: each module and thread has its own counts,
  // reached without a call in executables (local-exec TLS).
  ArrayType *CountTy = ArrayType::get(Int32Ty, Sites.size());
  auto *Countdown = new GlobalVariable(
      M, CountTy, /*isConstant=*/false, GlobalValue::InternalLinkage,
      Constant::getNullValue(CountTy), abi::kSiteCountdownName, nullptr,
      GlobalValue::GeneralDynamicTLSModel);
  for (unsigned I = 0, E = Sites.size(); I != E; ++I) {
    const MemSite &S = Sites[I];
    if (S.isStatic() || S.ProbeLead)
      continue; // no probe, or its lead's
    IRBuilder<> IRB(S.Access);
    Value *Base = IRB.CreateThreadLocalAddress(Countdown);
    Value *Slot = IRB.CreateConstInBoundsGEP2_32(CountTy, Base, 0, I,
                                                 "activetime.countdown");
    Value *Left = IRB.CreateSub(IRB.CreateLoad(Int32Ty, Slot),
                                IRB.getInt32(1));
    IRB.CreateStore(Left, Slot);
    // Below zero: the decrement's own sign flag decides (x86 `decl; js`,
    // no register), where <= 0 needs the value in a register to test.
    Value *Due = IRB.CreateICmpSLT(Left, IRB.getInt32(0));
    Instruction *Then = SplitBlockAndInsertIfThen(Due, S.Access->getIterator(),
                                                  /*Unreachable=*/false,
                                                  Unlikely);
    IRB.SetInsertPoint(Then);
    // The slot's address again, on the slow path: the one above is only
    // ever an %fs-relative operand, and sharing it would make the fast
    // path materialize the thread pointer in a register for the call.
    Value *SlowSlot = IRB.CreateConstInBoundsGEP2_32(
        CountTy, IRB.CreateThreadLocalAddress(Countdown), 0, I,
        "activetime.countdown.slow");
    CallInst *Call =
        IRB.CreateCall(Probe, {ModuleDesc, IRB.getInt32(I), S.Ptr, SlowSlot});
    Call->setDoesNotThrow();
  }
}

/// The thread-local pointer the counters are reached through (abi.h, "Timed
/// or counted"): the module's own in an executable, where it costs one
/// %fs-relative load, and the runtime's in a shared library, where a
/// module-owned one would need a call (__tls_get_addr) at every entry or
/// static TLS that dlopen may not have. The module's starts at its bootstrap
/// array.
void ActiveTimeInstrumenter::createCounters(unsigned NumFuncs) {
  SharedCounts = M.getPICLevel() != PICLevel::NotPIC &&
                 M.getPIELevel() == PIELevel::Default;
  // The runtime's: initial-exec (its shared build is a library of its
  // own); where it is linked into the executable, the GOT slot holds a
  // link-time constant (the symbol is exported, so ld keeps the slot).
  SamplePollTls = M.getGlobalVariable(abi::kSamplePollTlsName);
  if (!SamplePollTls && ClSamplePoll)
    SamplePollTls = new GlobalVariable(
        M, ArrayType::get(Int64Ty, 2), /*isConstant=*/false,
        GlobalValue::ExternalLinkage, nullptr, abi::kSamplePollTlsName,
        nullptr, GlobalValue::InitialExecTLSModel);
  if (SharedCounts) {
    CountsTls = M.getGlobalVariable(abi::kRuntimeCountsTlsName);
    if (!CountsTls)
      CountsTls = new GlobalVariable(M, PtrTy, /*isConstant=*/false,
                                     GlobalValue::ExternalLinkage, nullptr,
                                     abi::kRuntimeCountsTlsName, nullptr,
                                     GlobalValue::InitialExecTLSModel);
    return;
  }
  ArrayType *Ty = ArrayType::get(Int64Ty, NumFuncs);
  Bootstrap = new GlobalVariable(M, Ty, /*isConstant=*/false,
                                 GlobalValue::InternalLinkage,
                                 Constant::getNullValue(Ty),
                                 abi::kBootstrapCountsName);
  CountsTls = new GlobalVariable(M, PtrTy, /*isConstant=*/false,
                                 GlobalValue::InternalLinkage, Bootstrap,
                                 abi::kCountsTlsName, nullptr,
                                 GlobalValue::LocalExecTLSModel);
}

void ActiveTimeInstrumenter::createCtorAndDtor(GlobalVariable *ModuleDesc) {
  Type *VoidTy = Type::getVoidTy(Ctx);
  FunctionType *VoidFnTy = FunctionType::get(VoidTy, /*isVarArg=*/false);
  unsigned AS = M.getDataLayout().getProgramAddressSpace();

  auto CreateHook = [&](const char *Name) {
    Function *Fn = Function::createWithDefaultAttr(
        VoidFnTy, GlobalValue::InternalLinkage, AS, Name, &M);
    Fn->addFnAttr(Attribute::NoUnwind);
    return Fn;
  };

  // The version check comes first: with a mismatched runtime it is an
  // undefined symbol naming the ABI version the module was built for.
  Function *Ctor = CreateHook(abi::kModuleCtorName);
  IRBuilder<> IRB(BasicBlock::Create(Ctx, "", Ctor));
  IRB.CreateCall(M.getOrInsertFunction(abi::kVersionCheckName, VoidFnTy));
  // Where this thread's counter pointer is: the runtime finds every other
  // thread's at the same offset from the thread pointer.
  if (!SharedCounts)
    IRB.CreateStore(IRB.CreateThreadLocalAddress(CountsTls),
                    IRB.CreateStructGEP(ModuleDescTy, ModuleDesc,
                                        abi::ModuleDescField::CountsTls));
  IRB.CreateCall(
      M.getOrInsertFunction(abi::kRegisterModuleName, VoidTy, PtrTy),
      {ModuleDesc});
  IRB.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, abi::kCtorPriority);

  // Unregistering lets the runtime copy what it needs out of a shared
  // library's tables before dlclose unmaps them.
  Function *Dtor = CreateHook(abi::kModuleDtorName);
  IRB.SetInsertPoint(BasicBlock::Create(Ctx, "", Dtor));
  IRB.CreateCall(
      M.getOrInsertFunction(abi::kUnregisterModuleName, VoidTy, PtrTy),
      {ModuleDesc});
  IRB.CreateRetVoid();
  appendToGlobalDtors(M, Dtor, abi::kCtorPriority);
}

void ActiveTimeInstrumenter::emitProbe(IRBuilder<> &IRB, FunctionCallee Probe,
                                       Constant *Desc,
                                       ArrayRef<OperandBundleDef> Bundles) {
  // The frame value is recomputed at every probe rather than kept live
  // across the body; it is a constant offset from the stack or frame pointer.
  Value *Frame =
      FrameSlot ? static_cast<Value *>(FrameSlot)
      : HasAddrOfReturnAddr
          ? IRB.CreateIntrinsic(Intrinsic::addressofreturnaddress, {PtrTy}, {})
          : IRB.CreateIntrinsic(Intrinsic::frameaddress, {PtrTy},
                                {IRB.getInt32(0)});
  CallInst *Call = IRB.CreateCall(Probe, {Desc, Frame}, Bundles);
  Call->setDoesNotThrow();
}

/// The thread's counter of the function incremented inline (abi.h, "Timed
/// or counted"); returns whether the call is to be timed (its sign, i1).
// The counters' loads and store carry !nosanitize: a sanitizer pass that
// runs after this one (TSan) must not instrument them. Until a thread's
// first timed call gives it arrays of its own, its calls count in a shared
// bootstrap array, a benign race (only the sign is read, abi.h).
Value *ActiveTimeInstrumenter::emitCount(IRBuilder<> &IRB, unsigned Index) {
  MDNode *NoSanitize = MDNode::get(Ctx, {});
  auto Load = [&](Type *Ty, Value *Ptr, Align A, const Twine &Name) {
    LoadInst *L = IRB.CreateAlignedLoad(Ty, Ptr, A, Name);
    L->setMetadata(LLVMContext::MD_nosanitize, NoSanitize);
    return L;
  };
  Value *Array = Load(PtrTy, IRB.CreateThreadLocalAddress(CountsTls), Align(8),
                      "activetime.counts");
  Value *Idx = IRB.getInt64(Index);
  if (SharedCounts) {
    // The module's first counter in the runtime's array.
    Value *Base = Load(Int32Ty,
                       IRB.CreateStructGEP(ModuleDescTy, ModuleDescGV,
                                           abi::ModuleDescField::CountBase),
                       Align(4), "activetime.base");
    Idx = IRB.CreateAdd(IRB.CreateZExt(Base, Int64Ty), Idx);
  }
  Value *Counter = IRB.CreateInBoundsGEP(Int64Ty, Array, Idx, "activetime.counter");
  Value *Calls =
      IRB.CreateAdd(Load(Int64Ty, Counter, Align(8), ""), IRB.getInt64(1));
  IRB.CreateAlignedStore(Calls, Counter, Align(8))
      ->setMetadata(LLVMContext::MD_nosanitize, NoSanitize);
  return IRB.CreateICmpSGE(Calls, IRB.getInt64(0), "activetime.timed");
}

static AttributeList jumpAttributes(const Function &F);

/// The sample poll (abi.h), first at every entry: a counted call runs no
/// probe, and the samples taken meanwhile are read only at a poll. Its
/// slow path keeps every register (preserve_most), so the entry's fast path
/// is three loads, a compare and a branch. With Reenter (a function that
/// can jump to itself: one with a timed copy) the slow path ends in that
/// jump instead of rejoining the entry, so a leaf that needs no stack frame
/// still sets up none on its fast path (the frame the call needs is then
/// the slow path's alone).
void ActiveTimeInstrumenter::emitSamplePoll(IRBuilder<> &IRB,
                                            Function *Reenter) {
  if (!ClSamplePoll)
    return;
  MDNode *NoSanitize = MDNode::get(Ctx, {});
  auto Load = [&](Type *Ty, Value *Ptr, bool Volatile, const Twine &Name) {
    LoadInst *L = IRB.CreateAlignedLoad(Ty, Ptr, Align(8), Volatile, Name);
    L->setMetadata(LLVMContext::MD_nosanitize, NoSanitize);
    return L;
  };
  Value *Poll = IRB.CreateThreadLocalAddress(SamplePollTls);
  auto Word = [&](uint64_t Offset) {
    return Offset ? IRB.CreateConstInBoundsGEP1_64(IRB.getInt8Ty(), Poll, Offset)
                  : Poll;
  };
  Value *HeadPtr = Load(PtrTy, Word(abi::kSamplePollHeadOffset), false,
                        "activetime.poll.head");
  // The kernel moves the head: volatile, as the probes read it.
  Value *Head = Load(Int64Ty, HeadPtr, true, "");
  Value *Seen = Load(Int64Ty, Word(abi::kSamplePollSeenOffset), false,
                     "activetime.poll.seen");
  Instruction *At = &*IRB.GetInsertPoint();
  Instruction *Then =
      SplitBlockAndInsertIfThen(IRB.CreateICmpNE(Head, Seen, "activetime.poll"),
                                At, /*Unreachable=*/Reenter != nullptr,
                                Unlikely);
  IRBuilder<> AtThen(Then);
  AtThen.SetCurrentDebugLocation(IRB.getCurrentDebugLocation());
  CallInst *Call = AtThen.CreateCall(SamplePoll);
  Call->setCallingConv(CallingConv::PreserveMost);
  Call->setDoesNotThrow();
  if (Reenter)
    emitJump(AtThen, *Reenter, Then);
  DebugLoc Loc = IRB.getCurrentDebugLocation();
  IRB.SetInsertPoint(At); // the rest of the entry, after the split
  IRB.SetCurrentDebugLocation(Loc);
}

/// A musttail call of Target, which has F's prototype, with F's arguments
/// and return, replacing Then (the unreachable end of a block of F's).
void ActiveTimeInstrumenter::emitJump(IRBuilder<> &IRB, Function &Target,
                                      Instruction *Then) {
  Function &F = *Then->getFunction();
  SmallVector<Value *, 8> Args(llvm::make_pointer_range(F.args()));
  CallInst *Jump = IRB.CreateCall(&Target, Args);
  Jump->setTailCallKind(CallInst::TCK_MustTail);
  Jump->setCallingConv(F.getCallingConv());
  Jump->setAttributes(jumpAttributes(F));
  if (F.getReturnType()->isVoidTy())
    IRB.CreateRetVoid();
  else
    IRB.CreateRet(Jump);
  Then->eraseFromParent();
}

/// The entry of a call of a function instrumented in place: the count, and
/// the entry probe if the call is timed. Returns that decision (i1), which
/// the exits reuse.
Value *ActiveTimeInstrumenter::emitEntry(IRBuilder<> &IRB, Constant *Desc,
                                         unsigned Index) {
  emitSamplePoll(IRB, /*Reenter=*/nullptr);
  Value *Timed = emitCount(IRB, Index);
  Instruction *Then = SplitBlockAndInsertIfThen(Timed, IRB.GetInsertPoint(),
                                                /*Unreachable=*/false, Unlikely);
  IRBuilder<> AtThen(Then);
  AtThen.SetCurrentDebugLocation(IRB.getCurrentDebugLocation());
  if (FrameSlot)
    storeCallSite(AtThen);
  emitProbe(AtThen, EnterProbe, Desc);
  return Timed;
}

/// Before inlining: the entry probe reads the call site from the frame
/// slot (as it reads it from the return address slot otherwise), so the
/// slot gets the return address. A copy inlined into another function would
/// store that function's return address, which is not its call site: the
/// store names its function, and fixInlinedCallSites stores "unknown" (0)
/// in the copies after inlining.
void ActiveTimeInstrumenter::storeCallSite(IRBuilder<> &IRB) {
  Function *F = IRB.GetInsertBlock()->getParent();
  Value *RA = IRB.CreateIntrinsic(Intrinsic::returnaddress, {},
                                  {IRB.getInt32(0)});
  StoreInst *S = IRB.CreateStore(RA, FrameSlot);
  S->setMetadata(kCallSiteMD, MDNode::get(Ctx, ValueAsMetadata::get(F)));
}

/// An exit of a call: the exit probe, if the entry chose to time the call
/// (always when Timed is null: the function's timed copy).
void ActiveTimeInstrumenter::emitExit(IRBuilder<> &IRB, Value *Timed,
                                      Constant *Desc,
                                      ArrayRef<OperandBundleDef> Bundles) {
  if (!Timed) {
    emitProbe(IRB, ExitProbe, Desc, Bundles);
    return;
  }
  Instruction *Then = SplitBlockAndInsertIfThen(Timed, IRB.GetInsertPoint(),
                                                /*Unreachable=*/false, Unlikely);
  IRBuilder<> AtThen(Then);
  AtThen.SetCurrentDebugLocation(IRB.getCurrentDebugLocation());
  emitProbe(AtThen, ExitProbe, Desc, Bundles);
}

static unsigned
shortestReturnPath(const Function &F,
                   const DenseMap<const BasicBlock *, unsigned> &BlockSize);

/// Whether F can hand a timed call to a copy of itself with a musttail call
/// (same prototype, nothing that pins the body to one function).
bool ActiveTimeInstrumenter::canCopyForTiming(const Function &F) {
  if (F.isVarArg() || F.hasFnAttribute(Attribute::ReturnsTwice) ||
      F.hasFnAttribute(Attribute::Naked))
    return false;
  CallingConv::ID CC = F.getCallingConv();
  if (CC != CallingConv::C && CC != CallingConv::Fast &&
      CC != CallingConv::Cold)
    return false;
  for (const Argument &A : F.args())
    if (A.hasByValAttr() || A.hasInAllocaAttr() || A.hasPreallocatedAttr() ||
        A.hasSwiftErrorAttr() || A.hasAttribute(Attribute::SwiftAsync))
      return false;
  if (F.hasPersonalityFn() &&
      isScopedEHPersonality(classifyEHPersonality(F.getPersonalityFn())))
    return false;
  unsigned Size = 0;
  DenseMap<const BasicBlock *, unsigned> BlockSize;
  for (const BasicBlock &BB : F) {
    if (BB.hasAddressTaken())
      return false;
    for (const Instruction &I : BB) {
      if (I.isDebugOrPseudoInst())
        continue;
      ++BlockSize[&BB];
      if (++Size > ClCloneMaxSize || isa<CallBrInst>(I))
        return false;
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        if (CB->cannotDuplicate() || CB->isMustTailCall())
          return false;
        // An SEH frame's escaped allocas are recovered by name of the
        // function that escapes them: a copy would not be that function.
        if (const Function *Callee = CB->getCalledFunction())
          if (Callee->getIntrinsicID() == Intrinsic::localescape)
            return false;
      }
    }
  }
  if (Size <= ClCloneAlwaysSize || !ClCloneShortPath)
    return true;
  return shortestReturnPath(F, BlockSize) <= ClCloneShortPath;
}

/// The fewest IR instructions (debug ones aside) any call of \p F runs
/// from its entry to a `ret`, blocks weighed by \p BlockSize (Dijkstra over
/// the CFG; a loop is never worth going around). ~0u when no block returns.
static unsigned
shortestReturnPath(const Function &F,
                   const DenseMap<const BasicBlock *, unsigned> &BlockSize) {
  auto SizeOf = [&](const BasicBlock *BB) { return BlockSize.lookup(BB); };
  using Item = std::pair<unsigned, const BasicBlock *>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> Queue;
  DenseMap<const BasicBlock *, unsigned> Dist;
  const BasicBlock *Entry = &F.getEntryBlock();
  Dist[Entry] = SizeOf(Entry);
  Queue.push({Dist[Entry], Entry});
  while (!Queue.empty()) {
    auto [D, BB] = Queue.top();
    Queue.pop();
    if (D != Dist.lookup(BB))
      continue;
    if (isa<ReturnInst>(BB->getTerminator()))
      return D;
    for (const BasicBlock *Succ : successors(BB)) {
      unsigned ND = D + SizeOf(Succ);
      auto It = Dist.find(Succ);
      if (It == Dist.end() || ND < It->second) {
        Dist[Succ] = ND;
        Queue.push({ND, Succ});
      }
    }
  }
  return ~0u;
}

/// The timed copy of F: F's body under its own name, internal, kept out of
/// line (it runs only for calls long enough to be timed).
Function *ActiveTimeInstrumenter::copyForTiming(Function &F) {
  ValueToValueMapTy VMap;
  Function *T = CloneFunction(&F, VMap);
  T->setName(F.getName() + abi::kTimedCopySuffix);
  T->setLinkage(GlobalValue::InternalLinkage);
  T->setVisibility(GlobalValue::DefaultVisibility);
  T->setDSOLocal(true);
  T->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  // Discarded with F when F is an inline function another module also has.
  T->setComdat(F.getComdat());
  T->removeFnAttr(Attribute::AlwaysInline);
  T->addFnAttr(Attribute::NoInline);
  return T;
}

/// The call right before \p Ret whose result \p Ret returns (or a void
/// call before `ret void`), if it is marked tail: the exit check goes before
/// it so that the backend can still turn it into a jump.
CallInst *ActiveTimeInstrumenter::tailCallBefore(Instruction *Ret) {
  auto *RI = dyn_cast<ReturnInst>(Ret);
  if (!RI)
    return nullptr;
  Instruction *Prev = RI->getPrevNonDebugInstruction();
  auto *CI = dyn_cast_or_null<CallInst>(Prev);
  if (!CI || !CI->isTailCall() || isa<IntrinsicInst>(CI) ||
      CI->hasOperandBundles())
    return nullptr;
  Value *RV = RI->getReturnValue();
  if (RV ? RV != CI : !CI->getType()->isVoidTy())
    return nullptr;
  return CI;
}

/// Where a function's entry code goes: after the static allocas, so they stay
/// grouped at the top of the entry block where the backend folds them into
/// the fixed frame, and after llvm.localescape, which must stay in the entry
/// block.
static BasicBlock::iterator afterAllocas(Function &Fn) {
  BasicBlock &Entry = Fn.getEntryBlock();
  BasicBlock::iterator IP = Entry.getFirstInsertionPt();
  auto Skip = [](Instruction &I) {
    if (auto *A = dyn_cast<AllocaInst>(&I))
      return A->isStaticAlloca();
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      return isa<DbgInfoIntrinsic>(II) ||
             II->getIntrinsicID() == Intrinsic::localescape;
    return false;
  };
  while (IP != Entry.end() && Skip(*IP))
    ++IP;
  // An escape after other code: the entry goes after it all the same.
  for (BasicBlock::iterator It = IP; It != Entry.end(); ++It)
    if (auto *II = dyn_cast<IntrinsicInst>(&*It))
      if (II->getIntrinsicID() == Intrinsic::localescape)
        IP = std::next(It);
  return IP;
}

/// The attributes of the musttail call from \p F to its timed copy: F's
/// return and parameter attributes (musttail wants them to match), none of
/// its function attributes.
static AttributeList jumpAttributes(const Function &F) {
  SmallVector<AttributeSet, 8> ParamAttrs;
  for (unsigned I = 0; I < F.arg_size(); ++I)
    ParamAttrs.push_back(F.getAttributes().getParamAttrs(I));
  return AttributeList::get(F.getContext(), AttributeSet(),
                            F.getAttributes().getRetAttrs(), ParamAttrs);
}

void ActiveTimeInstrumenter::instrumentFunction(Function &F, Constant *Desc,
                                                unsigned Index) {
  // Calls to the probes need a location in a function with debug info (the
  // verifier insists for inlinable calls); they belong to the function as a
  // whole, so use its own scope.
  DISubprogram *SP = F.getSubprogram();
  // Before inlining there is no timed copy: a musttail jump to it could not
  // be inlined into the callers.
  Function *TimedCopy = !BeforeInlining && ClCloneMaxSize && canCopyForTiming(F)
                            ? copyForTiming(F)
                            : nullptr;
  FrameSlot = nullptr;
  if (BeforeInlining) {
    // A static alloca: the inliner moves it into the caller's entry block,
    // one slot per inlined call, inside the caller's frame and so below its
    // return address slot and above any callee's.
    // Pointer-sized: the entry probe reads the call site from it (abi.h).
    IRBuilder<> AtTop(&F.getEntryBlock(), F.getEntryBlock().begin());
    FrameSlot = AtTop.CreateAlloca(PtrTy, nullptr, "activetime.frame");
  }

  IRBuilder<> IRB(&F.getEntryBlock(), afterAllocas(F));
  if (SP)
    IRB.SetCurrentDebugLocation(DILocation::get(Ctx, SP->getLine(), 0, SP));
  if (!TimedCopy) {
    emitExits(F, emitEntry(IRB, Desc, Index), Desc);
    return;
  }
  // Counted calls run F itself, untouched beyond the count; a timed call
  // jumps to the copy, which has the probes.
  emitSamplePoll(IRB, /*Reenter=*/&F);
  Value *Timed = emitCount(IRB, Index);
  Instruction *Then = SplitBlockAndInsertIfThen(Timed, IRB.GetInsertPoint(),
                                                /*Unreachable=*/true, Unlikely);
  IRBuilder<> AtThen(Then);
  AtThen.SetCurrentDebugLocation(IRB.getCurrentDebugLocation());
  emitJump(AtThen, *TimedCopy, Then);

  IRBuilder<> AtCopy(&TimedCopy->getEntryBlock(), afterAllocas(*TimedCopy));
  if (DISubprogram *CSP = TimedCopy->getSubprogram())
    AtCopy.SetCurrentDebugLocation(DILocation::get(Ctx, CSP->getLine(), 0, CSP));
  emitProbe(AtCopy, EnterProbe, Desc);
  emitExits(*TimedCopy, /*Timed=*/nullptr, Desc);
}

/// An exit probe on every way out of F: returns (before a tail call, so
/// it stays one), resumes, musttail calls and, with exception handling on,
/// calls that may throw (turned into invokes unwinding to a cleanup pad).
/// Timed: the entry's decision (null: every call of F is timed).
void ActiveTimeInstrumenter::emitExits(Function &F, Value *Timed,
                                       Constant *Desc) {
  DISubprogram *SP = F.getSubprogram();
  // Funclet-based EH (Windows) cannot take the landingpad cleanup
  // EscapeEnumerator creates; give its cleanups that unwind to the caller the
  // probe directly, inside the funclet.
  bool ScopedEH = F.hasPersonalityFn() &&
                  isScopedEHPersonality(classifyEHPersonality(
                      F.getPersonalityFn()));
  if (ScopedEH) {
    SmallVector<CleanupReturnInst *, 4> CleanupRets;
    for (BasicBlock &BB : F)
      if (auto *CRI = dyn_cast<CleanupReturnInst>(BB.getTerminator()))
        if (CRI->unwindsToCaller())
          CleanupRets.push_back(CRI);
    for (CleanupReturnInst *CRI : CleanupRets) {
      IRBuilder<> AtCRI(CRI);
      if (SP && !AtCRI.getCurrentDebugLocation())
        AtCRI.SetCurrentDebugLocation(DILocation::get(Ctx, 0, 0, SP));
      emitExit(AtCRI, Timed, Desc,
               OperandBundleDef("funclet", CRI->getCleanupPad()));
    }
  }
  bool HandleExceptions = ClHandleExceptions && !F.doesNotThrow() && !ScopedEH;
  unsigned BlocksBefore = F.size();
  EscapeEnumerator EE(F, "activetime.cleanup", HandleExceptions);
  // Tail calls the exit went before: the frame is closed when they run, so
  // an exception from them must not run the exit again. Kept out of the
  // invoke rewrite for the time of it.
  SmallVector<CallInst *, 4> ClosedBefore;
  while (IRBuilder<> *AtExit = EE.Next()) {
    if (SP && !AtExit->getCurrentDebugLocation())
      AtExit->SetCurrentDebugLocation(DILocation::get(Ctx, 0, 0, SP));
    if (CallInst *Tail = tailCallBefore(&*AtExit->GetInsertPoint())) {
      AtExit->SetInsertPoint(Tail);
      if (!Tail->doesNotThrow()) {
        Tail->setDoesNotThrow();
        ClosedBefore.push_back(Tail);
      }
    }
    emitExit(*AtExit, Timed, Desc);
  }
  for (CallInst *Tail : ClosedBefore)
    Tail->removeFnAttr(Attribute::NoUnwind);
  // Every invoke conversion splits a block; the cleanup pad is one more.
  // (Conditional exits split blocks too: the figure is an upper bound then.)
  if (F.size() > BlocksBefore && !Timed)
    NumInvokes += F.size() - BlocksBefore - 1;
}

/// The runtime entry points of the function probes. Declared only once a
/// function is known to get probes, so that an untouched module stays
/// untouched. The probes never throw; saying so keeps them out of the
/// invoke rewrite.
void ActiveTimeInstrumenter::declareProbes() {
  AttributeList ProbeAttrs =
      AttributeList().addFnAttribute(Ctx, Attribute::NoUnwind);
  Type *VoidTy = Type::getVoidTy(Ctx);
  EnterProbe = M.getOrInsertFunction(abi::kFuncEnterName, ProbeAttrs, VoidTy,
                                     PtrTy, PtrTy);
  ExitProbe = M.getOrInsertFunction(abi::kFuncExitName, ProbeAttrs, VoidTy,
                                    PtrTy, PtrTy);
  if (!ClSamplePoll)
    return;
  SamplePoll = M.getOrInsertFunction(abi::kSamplePollName, ProbeAttrs, VoidTy);
  if (auto *Fn = dyn_cast<Function>(SamplePoll.getCallee()))
    Fn->setCallingConv(CallingConv::PreserveMost);
}

bool ActiveTimeInstrumenter::run() {
  ArrayRef<Function *> ToInstrument = Selection.functions();
  if (ToInstrument.empty())
    return false;
  findSites();

  declareProbes();
  Unlikely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  createCounters(ToInstrument.size());
  GlobalVariable *ModuleDesc = createTables(ToInstrument);
  ModuleDescGV = ModuleDesc;
  insertMemProbes(ModuleDesc);
  auto *Table =
      cast<GlobalVariable>(ModuleDesc->getInitializer()->getAggregateElement(
          abi::ModuleDescField::Funcs));
  for (unsigned I = 0, E = ToInstrument.size(); I != E; ++I) {
    Constant *Idx[] = {ConstantInt::get(Int64Ty, 0), ConstantInt::get(Int64Ty, I)};
    Constant *Desc = ConstantExpr::getInBoundsGetElementPtr(
        Table->getValueType(), Table, Idx);
    instrumentFunction(*ToInstrument[I], Desc, I);
    ++NumInstrumented;
  }
  createCtorAndDtor(ModuleDesc);
  return true;
}

PreservedAnalyses activetime::ActiveTimePass::run(Module &M,
                                                  ModuleAnalysisManager &AM) {
  // Already instrumented, e.g. in the pre-link half of an LTO build, or
  // at the pipeline start (-activetime-before-inlining), whose call-site
  // stores are then fixed up in the copies inlining made.
  if (M.getModuleFlag(abi::kInstrumentedFlag))
    return ClBeforeInlining && fixInlinedCallSites(M)
               ? PreservedAnalyses::none()
               : PreservedAnalyses::all();
  std::unique_ptr<FunctionSelection> Selection = FunctionSelection::create(M);
  if (!Selection)
    return PreservedAnalyses::all();

  bool Changed = Selection->select();
  Changed |= recordInlinedAway(M);
  FunctionAnalysisManager &FAM =
      AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  // The registered probe kinds first: copies made for timing carry them.
  if (!Selection->functions().empty())
    Changed |= ProbeKind::instrumentAll(M, *Selection, FAM);
  Changed |= ActiveTimeInstrumenter(M, *Selection, FAM).run();
  // Mark the module as processed even when nothing qualified, so a later run
  // (after LTO inlining changed function sizes, say) leaves it alone too.
  // Max: merging an instrumented with an uninstrumented module is no conflict.
  M.addModuleFlag(Module::Max, abi::kInstrumentedFlag, 1);
  // A module flag alone invalidates no analysis.
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
