//===- ActiveTimePrefetchUse.cpp - Prefetch feedback pass -----------------===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// This file implements ActiveTimePrefetchUsePass. Like the instrumentation
// pass it first finds: the functions the profiling build instrumented
// (FunctionSelection.cpp) and the memory access sites of their loops
// (ActiveTimeStrides.cpp), keyed the same way as in the profile. It then
// matches the hints to the sites and inserts llvm.prefetch before each
// hinted load, its distance ahead of the load's address. An indirect hint
// (an irregular load) is prefetched through its index when the load has one
// (IndirectPrefetch.cpp).
//
// A hint applies to the dynamic load in a loop whose key (hash) and shape
// (function, location, size) are the same in this compile. Anything else is
// a profile that no longer fits the source; it is reported and ignored.
//
//===----------------------------------------------------------------------===//

#include "ActiveTimePrefetchUse.h"
#include "ActiveTimeStrides.h"
#include "FunctionSelection.h"
#include "IndirectPrefetch.h"
#include "activetime/abi.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <unordered_map>

using namespace llvm;
using namespace activetime;

#define DEBUG_TYPE "activetime"

static cl::opt<std::string> ClPrefetchUse(
    "activetime-prefetch-use",
    cl::desc("Prefetch the loads that this hint file (written by "
             "`activetime export --format=prefetch`) reports as walking "
             "memory at a constant stride; the program gets no probes"),
    cl::value_desc("filename"), cl::init(""));

STATISTIC(NumPrefetches, "Number of prefetches inserted from hints");
STATISTIC(NumIndirectPrefetches,
          "Number of indirect prefetches inserted from hints");

std::string activetime::getPrefetchUseFile() { return ClPrefetchUse; }

// Printed, not a diagnostic: LLVM 19 has no generic warning diagnostic, and
// -Werror must not turn a stale profile into a failed build.
static void warn(Module &M, const Twine &Msg) {
  errs() << M.getSourceFileName() << ": warning: activetime: " << Msg << "\n";
}

namespace {

/// Inserts one module's prefetches for the hints of one file.
class PrefetchInserter {
public:
  PrefetchInserter(Module &M, FunctionAnalysisManager &FAM,
                   std::vector<PrefetchHint> &Hints);

  /// Prefetches for the hinted sites among \p Sites; true if any.
  bool insert(ArrayRef<MemSite> Sites);
  /// Warns about the hints of this module that matched no site.
  void reportUnused() const;

private:
  PrefetchHint *findHint(const MemSite &S) const;
  bool coveredByEarlier(const BasicBlock *BB, const Value *Base,
                        int64_t Target, bool Indirect);
  void emitPrefetch(const MemSite &S, int64_t Distance);
  void printDecision(const PrefetchHint &H) const;
  bool insertIndirect(const MemSite &S, const PrefetchHint &H);
  void printIndirect(const PrefetchHint &H, const IndirectAnalysis &A) const;

  Module &M;
  FunctionAnalysisManager &FAM;
  const DataLayout &DL;
  std::vector<PrefetchHint> &Hints;
  // Not a DenseMap: a hints file may hold its reserved keys (~0, ~0 - 1).
  std::unordered_map<uint64_t, PrefetchHint *> ByHash;
  // Loads off one base pointer (p->next and p->value) whose prefetch
  // targets fall within a cache line of each other: one prefetch covers
  // them.
  struct Issued {
    const BasicBlock *BB;
    const Value *Base;
    int64_t Target; // offset from Base of the prefetched address
    bool Indirect;  // through an index: Base is the load's own address and
                    // BB the header of the loop the prefetch runs ahead in
  };
  SmallVector<Issued, 8> Done;
};

} // namespace

PrefetchInserter::PrefetchInserter(Module &M, FunctionAnalysisManager &FAM,
                                   std::vector<PrefetchHint> &Hints)
    : M(M), FAM(FAM), DL(M.getDataLayout()), Hints(Hints) {
  for (PrefetchHint &H : Hints)
    ByHash[H.Hash] = &H;
}

/// The hint for \p S if there is one and it still fits; a hint with the key
/// of \p S that does not fit is reported.
PrefetchHint *PrefetchInserter::findHint(const MemSite &S) const {
  auto It = ByHash.find(S.Hash);
  if (It == ByHash.end())
    return nullptr;
  PrefetchHint &H = *It->second;
  H.Used = true;
  if (H.Function != S.Func || H.File != S.File || H.Line != S.Line ||
      H.Column != S.Column || H.Size != S.Size) {
    warn(M, formatv("prefetch hint for {0} at {1}:{2}:{3} does not match "
                    "the site with its key in this compile; ignored",
                    H.Function, H.File, H.Line, H.Column));
    return nullptr;
  }
  if (!S.isLoad() || !S.inLoop() || S.isStatic()) {
    warn(M, formatv("prefetch hint for {0} at {1}:{2}:{3}: the site is no "
                    "longer a dynamic load in a loop; ignored",
                    H.Function, H.File, H.Line, H.Column));
    return nullptr;
  }
  return &H;
}

/// Whether an earlier prefetch of this block already reaches the cache line
/// of \p Target off \p Base; if not, the one about to be emitted is noted.
bool PrefetchInserter::coveredByEarlier(const BasicBlock *BB,
                                        const Value *Base, int64_t Target,
                                        bool Indirect) {
  if (llvm::any_of(Done, [&](const Issued &D) {
        return D.BB == BB && D.Base == Base && D.Indirect == Indirect &&
               std::abs(D.Target - Target) < 64;
      }))
    return true;
  Done.push_back({BB, Base, Target, Indirect});
  return false;
}

void PrefetchInserter::emitPrefetch(const MemSite &S, int64_t Distance) {
  IRBuilder<> IRB(S.Access);
  Value *Addr = IRB.CreatePtrAdd(S.Ptr, IRB.getInt64(Distance),
                                 "activetime.prefetch.addr");
  // Read, high temporal locality, data cache. A prefetch never faults, so
  // running past the end of the data is harmless.
  IRB.CreateIntrinsic(Intrinsic::prefetch, {IRB.getPtrTy()},
                      {Addr, IRB.getInt32(0), IRB.getInt32(3),
                       IRB.getInt32(1)});
  ++NumPrefetches;
}

bool PrefetchInserter::insert(ArrayRef<MemSite> Sites) {
  bool Changed = false;
  for (const MemSite &S : Sites) {
    PrefetchHint *H = findHint(S);
    if (H && H->Indirect) {
      Changed |= insertIndirect(S, *H);
      continue;
    }
    if (!H || H->Stride == 0 || H->Distance == 0)
      continue;
    APInt Off(DL.getIndexTypeSizeInBits(S.Ptr->getType()), 0);
    const Value *Base = S.Ptr->stripAndAccumulateConstantOffsets(
        DL, Off, /*AllowNonInbounds=*/true);
    if (coveredByEarlier(S.Access->getParent(), Base,
                         Off.getSExtValue() + H->Distance, false))
      continue;
    emitPrefetch(S, H->Distance);
    if (printDecisions())
      printDecision(*H);
    Changed = true;
  }
  return Changed;
}

/// "file:line:column" of the hinted load, or "(no debug location)".
static std::string hintLocation(const PrefetchHint &H) {
  if (H.File.empty())
    return "(no debug location)";
  return formatv("{0}:{1}:{2}", H.File, H.Line, H.Column).str();
}

/// Where the hint file's latency came from, for the decisions' printout.
static std::string latencySource(const PrefetchHint &H) {
  if (H.LatencySource == "measured")
    return "measured by `activetime export` on its machine";
  if (H.LatencySource == "--latency-ns")
    return "given to `activetime export` by --latency-ns";
  return "the hint file's";
}

/// -activetime-print-decisions: the prefetch and how far ahead, with the
/// measurement the distance came from when the hint file gives it.
void PrefetchInserter::printDecision(const PrefetchHint &H) const {
  std::string Where = H.File.empty() ? hintLocation(H) : "at " + hintLocation(H);
  errs() << formatv("activetime: prefetch in {0} {1}: {2} bytes ahead",
                    H.Function, Where, H.Distance);
  if (H.Iterations && H.WorkNs && H.LatencyNs)
    errs() << formatv(" = {0} iterations of stride {1}: a profiled "
                      "iteration of {2:F1} ns without the miss, {0} of them "
                      "to cover the {3:F0} ns miss latency ({4})",
                      *H.Iterations, H.Stride, *H.WorkNs, *H.LatencyNs,
                      latencySource(H));
  else
    errs() << formatv(" (stride {0}; the hint file does not say how the "
                      "distance was chosen)",
                      H.Stride);
  errs() << "\n";
}

/// An indirect hint: the load's address repeated its distance ahead through
/// its index load, when it has one.
bool PrefetchInserter::insertIndirect(const MemSite &S, const PrefetchHint &H) {
  Function &F = *S.Access->getFunction();
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  IndirectAnalysis A = analyzeIndirect(*cast<LoadInst>(S.Access),
                                       FAM.getResult<LoopAnalysis>(F), SE,
                                       FAM.getResult<DominatorTreeAnalysis>(F));
  if (A.Why.empty()) {
    // Two fields of one element (b->v, b->next) share a line: one
    // prefetch, of the same iteration ahead, covers both.
    APInt Off(DL.getIndexTypeSizeInBits(S.Ptr->getType()), 0);
    const Value *Base = S.Ptr->stripAndAccumulateConstantOffsets(
        DL, Off, /*AllowNonInbounds=*/true);
    if (coveredByEarlier(A.Plan.Loop->getHeader(), Base, Off.getSExtValue(),
                         true))
      A.Why = "the line is prefetched already for another field";
    else if (!emitIndirectPrefetch(A.Plan, *H.Iterations, SE))
      A.Why = "the loop's last index cannot be computed before it, or it "
              "never runs twice the distance";
    else
      FAM.invalidate(F, PreservedAnalyses::none()); // a block was split
  }
  if (printDecisions())
    printIndirect(H, A);
  if (!A.Why.empty())
    return false;
  ++NumIndirectPrefetches;
  return true;
}

/// "file:line:column" of \p DL, the file as the hint files name it.
static std::string where(const DILocation *DL) {
  if (!DL)
    return "(no debug location)";
  return formatv("{0}:{1}:{2}", locationFile(DL), DL->getLine(),
                 DL->getColumn());
}

void PrefetchInserter::printIndirect(const PrefetchHint &H,
                                     const IndirectAnalysis &A) const {
  std::string At = hintLocation(H);
  if (!A.Why.empty()) {
    errs() << formatv("activetime: no indirect prefetch in {0} at {1}: {2}\n",
                      H.Function, At, A.Why);
    return;
  }
  errs() << formatv("activetime: indirect prefetch in {0} at {1}: {2}through "
                    "the index load at {3} (step {4} bytes), {5} iterations "
                    "ahead when the loop runs at least twice that, clamped "
                    "to the loop's last index",
                    H.Function, At,
                    A.Plan.ChainHead ? "the first link of its chain, from "
                                       "the enclosing loop, "
                                     : "",
                    where(A.Plan.Index->getDebugLoc().get()), A.Plan.Step,
                    *H.Iterations);
  if (H.WorkNs && H.LatencyNs)
    errs() << formatv(": the shortest profiled iteration took {0:F1} ns, {1} "
                      "of them cover the {2:F0} ns miss latency ({3})",
                      *H.WorkNs, *H.Iterations, *H.LatencyNs,
                      latencySource(H));
  else
    errs() << ": the hint file's look-ahead (its profile could not measure "
              "the loop's work)";
  errs() << "\n";
}

void PrefetchInserter::reportUnused() const {
  // A hint applies wherever its key and shape match (a header's inline
  // function is the same code in every module); it counts as this module's,
  // and is reported if unused, when the source file names agree (the build
  // may spell the path differently from the profiled one).
  StringRef ModBase = sys::path::filename(M.getSourceFileName());
  for (const PrefetchHint &H : Hints)
    if (sys::path::filename(H.Module) == ModBase && !H.Used)
      warn(M, formatv("stale prefetch hint for {0} at {1}:{2}:{3} (key {4:x}): "
                      "no such site in this compile; ignored",
                      H.Function, H.File, H.Line, H.Column, H.Hash));
}

/// Reads \p HintFile and applies it to \p Sites; true if the IR changed.
static bool applyPrefetchHints(Module &M, FunctionAnalysisManager &FAM,
                               StringRef HintFile, ArrayRef<MemSite> Sites) {
  Expected<std::vector<PrefetchHint>> Hints = readPrefetchHints(HintFile);
  if (!Hints) {
    // A bad hint file must not break the build: the feedback is optional.
    warn(M, "ignoring prefetch hints: " + toString(Hints.takeError()));
    return false;
  }
  PrefetchInserter Inserter(M, FAM, *Hints);
  bool Changed = Inserter.insert(Sites);
  Inserter.reportUnused();
  return Changed;
}

ActiveTimePrefetchUsePass::ActiveTimePrefetchUsePass(std::string HintFile)
    : HintFile(std::move(HintFile)) {}

PreservedAnalyses ActiveTimePrefetchUsePass::run(Module &M,
                                                 ModuleAnalysisManager &AM) {
  // One flag for both passes: a module is either instrumented or built with
  // feedback, and neither happens twice (as in both halves of an LTO build).
  if (M.getModuleFlag(abi::kInstrumentedFlag))
    return PreservedAnalyses::all();
  if (HintFile.empty()) {
    M.getContext().emitError("activetime: the prefetch-use pass needs a hint "
                             "file (-activetime-prefetch-use=FILE)");
    return PreservedAnalyses::all();
  }
  std::unique_ptr<FunctionSelection> Selection = FunctionSelection::create(M);
  if (!Selection)
    return PreservedAnalyses::all();

  bool Changed = Selection->select();
  if (!Selection->functions().empty()) {
    // Prefetches are for loads in loops only; the sites elsewhere would
    // never match a hint.
    FunctionAnalysisManager &FAM =
        AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    std::vector<MemSite> Sites;
    MemSiteCounts Counts;
    for (Function *F : Selection->functions())
      findMemSites(*F, FAM, MemMode::Loops, Sites, Counts);
    if (printDecisions())
      printSiteCounts(errs(), Sites.size(), Counts);
    Changed |= applyPrefetchHints(M, FAM, HintFile, Sites);
  }
  M.addModuleFlag(Module::Max, abi::kInstrumentedFlag, 1);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
