//===- ActiveTimeStrides.cpp - Memory access sites (seed 004) -------------===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// Find phase of stride profiling, and the prefetch feedback.
//
// The pass runs at OptimizerLast, after the loop optimizations and the
// vectorizers, so a probe can never stop a loop from being vectorized or
// unrolled; what it sees is the final loop structure, and ScalarEvolution
// still proves most addresses of those loops affine. Only the accesses SCEV
// cannot describe as {start,+,constant} in their innermost loop get a probe.
//
// The hint file (docs/user-guide.md, "Prefetch feedback") is JSON:
//   {"format": "activetime-prefetch-hints", "version": 1,
//    "hints": [{"module", "function", "file", "line", "column", "hash",
//               "access_size", "stride", "distance_bytes", ...}]}
// A hint applies to the dynamic load in a loop whose key (hash) and shape
// (function, location, size) are the same in this compile.
//
//===----------------------------------------------------------------------===//

#include "ActiveTimeStrides.h"
#include "activetime/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <tuple>

using namespace llvm;
using namespace activetime;

#define DEBUG_TYPE "activetime"

static cl::opt<bool> ClStrides(
    "activetime-strides",
    cl::desc("Stride profiling: give loads and stores whose stride the "
             "compiler cannot see a memory-access probe (see "
             "-activetime-mem)"),
    cl::init(false));

static cl::opt<MemMode> ClMem(
    "activetime-mem",
    cl::desc("Which loads and stores get memory-access probes (default: "
             "loops with -activetime-strides, else none)"),
    cl::values(clEnumValN(MemMode::None, "none", "no memory probes"),
               clEnumValN(MemMode::Loops, "loops", "accesses inside loops"),
               clEnumValN(MemMode::All, "all", "every access")),
    cl::init(MemMode::None));

static cl::opt<std::string> ClPrefetchUse(
    "activetime-prefetch-use",
    cl::desc("Insert llvm.prefetch for the constant-stride loads listed in "
             "this hint file (activetime export --format=prefetch); the "
             "module gets no probes"),
    cl::value_desc("filename"), cl::init(""));

STATISTIC(NumMemProbeSites, "Number of memory access sites given a probe");
STATISTIC(NumStaticSites, "Number of memory access sites with a static stride");
STATISTIC(NumPrefetches, "Number of prefetches inserted from hints");

MemMode activetime::getMemMode() {
  if (ClMem.getNumOccurrences())
    return ClMem;
  return ClStrides ? MemMode::Loops : MemMode::None;
}

std::string activetime::getPrefetchUseFile() { return ClPrefetchUse; }

bool MemSite::isStatic() const { return Flags & abi::MS_Static; }
bool MemSite::isLoad() const { return !(Flags & abi::MS_Store); }
bool MemSite::inLoop() const { return Flags & abi::MS_InLoop; }

static std::string locationFile(const DILocation *DL) {
  StringRef Filename = DL->getFilename();
  StringRef Directory = DL->getDirectory();
  if (Filename.empty() || Directory.empty() ||
      sys::path::is_absolute(Filename))
    return Filename.str();
  return (Directory + "/" + Filename).str();
}

void activetime::findMemSites(Function &F, ScalarEvolution &SE, LoopInfo &LI,
                              MemMode Mode, std::vector<MemSite> &Sites,
                              MemSiteCounts &Counts) {
  const DataLayout &DLay = F.getParent()->getDataLayout();
  // Copies of one source access (unrolling, inlining) share a location: the
  // n-th copy in instruction order keys them apart.
  std::map<std::tuple<std::string, uint32_t, uint32_t, uint32_t, bool>,
           unsigned>
      Copies;
  StringRef FuncName = GlobalValue::dropLLVMManglingEscape(F.getName());
  for (Instruction &I : instructions(F)) {
    Value *Ptr;
    Type *AccessTy;
    bool Store;
    if (auto *LI2 = dyn_cast<LoadInst>(&I)) {
      Ptr = LI2->getPointerOperand();
      AccessTy = LI2->getType();
      Store = false;
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      Ptr = SI->getPointerOperand();
      AccessTy = SI->getValueOperand()->getType();
      Store = true;
    } else {
      continue;
    }
    if (Ptr->getType()->getPointerAddressSpace() != 0 ||
        !AccessTy->isSized() || DLay.getTypeStoreSize(AccessTy).isScalable())
      continue;
    // The key is computed before any filtering, over every load and store,
    // so it does not depend on the mode or on what SCEV proves.
    MemSite Site;
    Site.Size = uint32_t(DLay.getTypeStoreSize(AccessTy).getFixedValue());
    if (const DILocation *DL = I.getDebugLoc().get()) {
      Site.File = locationFile(DL);
      Site.Line = DL->getLine();
      Site.Column = DL->getColumn();
    }
    unsigned Copy =
        Copies[{Site.File, Site.Line, Site.Column, Site.Size, Store}]++;

    Loop *L = LI.getLoopFor(I.getParent());
    if (!L && Mode != MemMode::All)
      continue;
    if (isa<AllocaInst>(getUnderlyingObject(Ptr))) {
      ++Counts.Stack;
      continue;
    }
    const SCEV *S = SE.getSCEV(Ptr);
    if ((L && SE.isLoopInvariant(S, L)) || isa<SCEVConstant>(S) ||
        isa<GlobalValue>(Ptr->stripPointerCasts())) {
      ++Counts.Invariant;
      continue;
    }
    Site.Access = &I;
    Site.Ptr = Ptr;
    Site.Func = FuncName.str();
    Site.Flags = Store ? abi::MS_Store : 0;
    if (L) {
      Site.Flags |= abi::MS_InLoop;
      Site.LoopDepth = L->getLoopDepth();
      Site.LoopLine = L->getStartLoc() ? L->getStartLoc().getLine() : 0;
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(S))
        if (AR->getLoop() == L && AR->isAffine())
          if (auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE)))
            if (Step->getAPInt().getSignificantBits() <= 64) {
              Site.Flags |= abi::MS_Static;
              Site.StaticStride = Step->getAPInt().getSExtValue();
            }
    }
    SmallString<256> Key;
    raw_svector_ostream(Key) << Site.Func << '\0' << Site.File << '\0'
                             << Site.Line << ':' << Site.Column << '\0'
                             << Site.Size << (Store ? 'S' : 'L') << '\0'
                             << Copy;
    Site.Hash = xxh3_64bits(Key.str());
    if (Site.isStatic())
      ++NumStaticSites;
    else
      ++NumMemProbeSites;
    Sites.push_back(std::move(Site));
  }
}

//===----------------------------------------------------------------------===//
// Prefetch feedback
//===----------------------------------------------------------------------===//

namespace {
using Hint = PrefetchHint;

// Printed, not a diagnostic: LLVM 19 has no generic warning diagnostic, and
// -Werror must not turn a stale profile into a failed build.
void warn(Module &M, const Twine &Msg) {
  errs() << M.getSourceFileName() << ": warning: activetime: " << Msg << "\n";
}

Expected<std::vector<Hint>> readHints(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError(Buf.getError(), Path + ": " +
                                                 Buf.getError().message());
  return parsePrefetchHints((*Buf)->getBuffer(), Path);
}
} // namespace

Expected<std::vector<PrefetchHint>>
activetime::parsePrefetchHints(StringRef Text, StringRef Path) {
  using namespace llvm;
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(V.takeError()));
  const json::Object *O = V->getAsObject();
  if (!O || O->getString("format") != "activetime-prefetch-hints")
    return createStringError(inconvertibleErrorCode(),
                             Path + ": not an ActiveTime prefetch hint file");
  if (O->getInteger("version") != 1)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": unsupported hint file version");
  const json::Array *A = O->getArray("hints");
  if (!A)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": no \"hints\" array");
  std::vector<Hint> Hints;
  for (size_t I = 0; I < A->size(); ++I) {
    const json::Object *H = (*A)[I].getAsObject();
    Hint R;
    std::optional<StringRef> Mod, Fn, File, HashStr;
    std::optional<int64_t> Line, Col, Size, Stride, Dist;
    if (H) {
      Mod = H->getString("module");
      Fn = H->getString("function");
      File = H->getString("file");
      HashStr = H->getString("hash");
      Line = H->getInteger("line");
      Col = H->getInteger("column");
      Size = H->getInteger("access_size");
      Stride = H->getInteger("stride");
      Dist = H->getInteger("distance_bytes");
    }
    if (!H || !Mod || !Fn || !File || !HashStr || !Line || !Col || !Size ||
        !Stride || !Dist || HashStr->getAsInteger(0, R.Hash) || *Line < 0 ||
        *Col < 0 || *Size <= 0)
      return createStringError(
          inconvertibleErrorCode(),
          formatv("{0}: hint {1}: missing or malformed field", Path, I));
    R.Module = Mod->str();
    R.Function = Fn->str();
    R.File = File->str();
    R.Line = *Line;
    R.Column = *Col;
    R.Size = *Size;
    R.Stride = *Stride;
    R.Distance = *Dist;
    Hints.push_back(std::move(R));
  }
  return Hints;
}

bool activetime::applyPrefetchHints(Module &M, StringRef HintFile,
                                    ArrayRef<MemSite> Sites) {
  Expected<std::vector<Hint>> HintsOr = readHints(HintFile);
  if (!HintsOr) {
    // A bad hint file must not break the build: the feedback is optional.
    warn(M, "ignoring prefetch hints: " + toString(HintsOr.takeError()));
    return false;
  }
  std::vector<Hint> &Hints = *HintsOr;
  // A hint applies wherever its key and shape match (a header's inline
  // function is the same code in every module); it counts as this module's,
  // and is reported if unused, when the source file names agree (the build
  // may spell the path differently from the profiled one).
  StringRef ModBase = sys::path::filename(M.getSourceFileName());
  auto IsOurs = [&](const Hint &H) {
    return sys::path::filename(H.Module) == ModBase;
  };
  DenseMap<uint64_t, Hint *> ByHash;
  for (Hint &H : Hints)
    ByHash[H.Hash] = &H;

  bool Changed = false;
  // Loads off one base pointer (p->next and p->value) whose prefetch
  // targets fall within a cache line of each other: one prefetch covers them.
  struct Issued {
    const BasicBlock *BB;
    const Value *Base;
    int64_t Target; // offset from Base of the prefetched address
  };
  SmallVector<Issued, 8> Done;
  const DataLayout &DL = M.getDataLayout();
  for (const MemSite &S : Sites) {
    auto It = ByHash.find(S.Hash);
    if (It == ByHash.end())
      continue;
    Hint &H = *It->second;
    H.Used = true;
    if (H.Function != S.Func || H.File != S.File || H.Line != S.Line ||
        H.Column != S.Column || H.Size != S.Size) {
      warn(M, formatv("prefetch hint for {0} at {1}:{2}:{3} does not match "
                      "the site with its key in this compile; ignored",
                      H.Function, H.File, H.Line, H.Column));
      continue;
    }
    if (!S.isLoad() || !S.inLoop() || S.isStatic()) {
      warn(M, formatv("prefetch hint for {0} at {1}:{2}:{3}: the site is no "
                      "longer a dynamic load in a loop; ignored",
                      H.Function, H.File, H.Line, H.Column));
      continue;
    }
    if (H.Stride == 0 || H.Distance == 0)
      continue;
    APInt Off(DL.getIndexTypeSizeInBits(S.Ptr->getType()), 0);
    const Value *Base = S.Ptr->stripAndAccumulateConstantOffsets(
        DL, Off, /*AllowNonInbounds=*/true);
    int64_t Target = Off.getSExtValue() + H.Distance;
    if (llvm::any_of(Done, [&](const Issued &D) {
          return D.BB == S.Access->getParent() && D.Base == Base &&
                 std::abs(D.Target - Target) < 64;
        }))
      continue;
    Done.push_back({S.Access->getParent(), Base, Target});
    IRBuilder<> IRB(S.Access);
    Value *Addr = IRB.CreatePtrAdd(S.Ptr, IRB.getInt64(H.Distance),
                                   "activetime.prefetch.addr");
    // Read, high temporal locality, data cache. A prefetch never faults, so
    // running past the end of the data is harmless.
    IRB.CreateIntrinsic(Intrinsic::prefetch, {IRB.getPtrTy()},
                        {Addr, IRB.getInt32(0), IRB.getInt32(3),
                         IRB.getInt32(1)});
    ++NumPrefetches;
    Changed = true;
  }
  for (const Hint &H : Hints)
    if (IsOurs(H) && !H.Used)
      warn(M, formatv("stale prefetch hint for {0} at {1}:{2}:{3} (key {4:x}): "
                      "no such site in this compile; ignored",
                      H.Function, H.File, H.Line, H.Column, H.Hash));
  return Changed;
}
